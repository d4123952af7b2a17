/*
 * Writing a profile as JSON. The layout is one key per line at the top
 * level and one entry per line inside the lists (samples inline), so a
 * profile diffs well and stays readable despite its raw samples. Times
 * keep 7 significant digits; NAN is written as null.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "plat/profile.h"
#include "util/error.h"

#define FORMAT_TAG "manycoll-profile/1"
#define DUMP_FLAGS JSON_REAL_PRECISION(7)

static json_t *num(double v)
{
    return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

static void put_str(json_t *o, const char *key, const char *s)
{
    if (s && *s)
        json_object_set_new(o, key, json_string(s));
}

static void put_samples(json_t *o, const mc_prof_samples_t *s)
{
    if (s->n == 0)
        return;
    json_t *a = json_array();
    for (int i = 0; i < s->n; i++)
        json_array_append_new(a, num(s->v[i]));
    json_object_set_new(o, "samples", a);
}

static json_t *stat_json(const mc_prof_stat_t *s)
{
    json_t *o = json_object();
    put_str(o, "states", s->states);
    put_str(o, "location", s->location);
    json_object_set_new(o, "mean", num(s->mean));
    json_object_set_new(o, "stdev", num(s->stdev));
    json_object_set_new(o, "median", num(s->median));
    if (s->count)
        json_object_set_new(o, "count", json_integer(s->count));
    put_str(o, "source", s->source);
    put_samples(o, &s->samples);
    return o;
}

static json_t *points_json(const mc_prof_fit_t *f)
{
    json_t *a = json_array();
    for (int i = 0; i < f->npts; i++) {
        const mc_prof_point_t *q = &f->pts[i];
        json_t *o = json_object();
        json_object_set_new(o, "x", num(q->x));
        json_object_set_new(o, "mean", num(q->mean));
        json_object_set_new(o, "median", num(q->median));
        json_object_set_new(o, "model", num(q->model));
        json_object_set_new(o, "rel_err", num(q->rel_err));
        put_samples(o, &q->samples);
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *fit_json(const mc_prof_fit_t *f, int contention)
{
    json_t *o = json_object();
    put_str(o, "states", f->states);
    if (contention) {
        put_str(o, "form", f->has_inv ? "b+c*n-a/n" : "b+c*n");
        json_object_set_new(o, "b", num(f->icept));
        json_object_set_new(o, "c", num(f->slope));
        if (f->has_inv)
            json_object_set_new(o, "a", num(f->inv));
    } else {
        json_object_set_new(o, "o", num(f->slope));
        json_object_set_new(o, "q", num(f->icept));
        json_object_set_new(o, "p", num(f->inv));
    }
    json_object_set_new(o, "r2", num(f->r2));
    json_object_set_new(o, "max_rel_err", num(f->max_rel_err));
    put_str(o, "source", f->source);
    if (f->npts)
        json_object_set_new(o, "points", points_json(f));
    return o;
}

static json_t *bw_json(const mc_prof_bw_t *b)
{
    json_t *o = json_object();
    put_str(o, "kind", b->kind);
    json_object_set_new(o, "bytes",
                        b->bytes == floor(b->bytes) && b->bytes < 9e15
                            ? json_integer((json_int_t)b->bytes)
                            : num(b->bytes));
    json_object_set_new(o, "GBps_median", num(b->gbps_median));
    json_object_set_new(o, "GBps_mean", num(b->gbps_mean));
    put_samples(o, &b->samples);
    return o;
}

static json_t *profile_json(const mc_profile_t *p)
{
    json_t *o = json_object();
    json_object_set_new(o, "format", json_string(FORMAT_TAG));
    put_str(o, "name", p->name);
    put_str(o, "description", p->description);
    put_str(o, "source", p->source);
    put_str(o, "created", p->created);
    put_str(o, "command", p->command);
    put_str(o, "notes", p->notes);
    json_object_set_new(o, "line_bytes", json_integer(p->line_bytes));
    json_object_set_new(o, "cores", json_integer(p->cores));
    json_t *c = json_object();
    for (int i = 0; i < p->nclust; i++)
        json_object_set_new(c, p->clust[i].name, num(p->clust[i].ns));
    json_object_set_new(o, "clustered", c);
    put_str(o, "clustered_source", p->clust_source);
    json_t *a = json_array();
    for (int i = 0; i < p->nlines; i++)
        json_array_append_new(a, stat_json(&p->lines[i]));
    json_object_set_new(o, "lines", a);
    a = json_array();
    for (int i = 0; i < p->npp; i++)
        json_array_append_new(a, stat_json(&p->pp[i]));
    json_object_set_new(o, "pingpong", a);
    a = json_array();
    for (int i = 0; i < p->nml; i++)
        json_array_append_new(a, fit_json(&p->ml[i], 0));
    json_object_set_new(o, "multiline", a);
    a = json_array();
    for (int i = 0; i < p->ncont; i++)
        json_array_append_new(a, fit_json(&p->cont[i], 1));
    json_object_set_new(o, "contention", a);
    a = json_array();
    for (int i = 0; i < p->nbw; i++)
        json_array_append_new(a, bw_json(&p->bw[i]));
    json_object_set_new(o, "copy_bandwidth", a);
    a = json_array();
    for (int i = 0; i < p->nskip; i++)
        json_array_append_new(a, json_pack("{s:s, s:s}", "measurement",
                                           p->skip[i].what, "reason",
                                           p->skip[i].reason));
    json_object_set_new(o, "skipped", a);
    return o;
}

/* Appends s to the growing buffer; frees s. */
static int append(char **buf, size_t *len, size_t *cap, char *s)
{
    if (!s)
        return -1;
    size_t n = strlen(s);
    if (*len + n + 1 > *cap) {
        size_t nc = 2 * *cap + n + 4096;
        char *nb = realloc(*buf, nc);
        if (!nb) {
            free(s);
            return -1;
        }
        *buf = nb;
        *cap = nc;
    }
    memcpy(*buf + *len, s, n + 1);
    *len += n;
    free(s);
    return 0;
}

static char *dup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* Top level: one key per line; arrays: one element per line. */
static char *layout(json_t *root)
{
    char *buf = NULL;
    size_t len = 0, cap = 0;
    int rc = append(&buf, &len, &cap, dup("{\n"));
    const char *k;
    json_t *v;
    size_t i = 0, nkeys = json_object_size(root);
    json_object_foreach(root, k, v) {
        json_t *key = json_string(k);
        rc |= append(&buf, &len, &cap, dup(" "));
        rc |= append(&buf, &len, &cap, json_dumps(key, JSON_ENCODE_ANY));
        json_decref(key);
        if (json_is_array(v) && json_array_size(v) > 0) {
            rc |= append(&buf, &len, &cap, dup(": [\n"));
            for (size_t j = 0; j < json_array_size(v); j++) {
                rc |= append(&buf, &len, &cap, dup("  "));
                rc |= append(&buf, &len, &cap,
                             json_dumps(json_array_get(v, j),
                                        DUMP_FLAGS | JSON_ENCODE_ANY));
                rc |= append(&buf, &len, &cap,
                             dup(j + 1 < json_array_size(v) ? ",\n" : "\n"));
            }
            rc |= append(&buf, &len, &cap, dup(" ]"));
        } else {
            rc |= append(&buf, &len, &cap, dup(": "));
            rc |= append(&buf, &len, &cap,
                         json_dumps(v, DUMP_FLAGS | JSON_ENCODE_ANY));
        }
        rc |= append(&buf, &len, &cap, dup(++i < nkeys ? ",\n" : "\n"));
    }
    rc |= append(&buf, &len, &cap, dup("}\n"));
    if (rc) {
        free(buf);
        return NULL;
    }
    return buf;
}

char *mc_profile_dumps(const mc_profile_t *p)
{
    json_t *root = profile_json(p);
    char *s = root ? layout(root) : NULL;
    json_decref(root);
    if (!s)
        mc_error(MC_ERR_NOMEM, "profile '%s': cannot build its JSON",
                 p->name);
    return s;
}

int mc_profile_save(const mc_profile_t *p, const char *path)
{
    if (!path || !*path)
        return mc_error(MC_ERR_ARG, "profile save: empty path");
    char *s = mc_profile_dumps(p);
    if (!s)
        return MC_ERR_NOMEM;
    int to_stdout = !strcmp(path, "-");
    FILE *f = to_stdout ? stdout : fopen(path, "w");
    if (!f) {
        free(s);
        return mc_error(MC_ERR_SYS, "profile save: cannot create '%s'",
                        path);
    }
    int bad = fputs(s, f) < 0;
    free(s);
    if (to_stdout)
        bad |= fflush(f) != 0;
    else
        bad |= fclose(f) != 0;
    if (bad)
        return mc_error(MC_ERR_SYS, "profile save: cannot write '%s'", path);
    return MC_OK;
}
