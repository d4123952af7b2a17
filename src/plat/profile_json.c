/*
 * Profiles as JSON (format in docs/profiles.md), read and written with
 * jansson. Reading is strict: an unknown key or a value of the wrong type
 * is an error that names the file and the field, so a typo in a
 * hand-written profile does not silently fall back to a default.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "plat/profile.h"
#include "util/datapath.h"
#include "util/error.h"
#include "util/jsonrd.h"

#define FORMAT_TAG "manycoll-profile/1"

/* ---- reading ---- */

typedef mc_jrd_t rd_t;

/* How get_num treats a missing key or null. */
enum { OPTIONAL = 0, REQUIRED = 1, NULLABLE = 2 /* present, may be null */ };

/* Ranges of the numbers of a profile: every number is checked, so a
 * hostile or mistyped file cannot make the models overflow or loop. */
#define T_MAX 1e9   /* ns: a second per line transfer is far beyond any chip */
#define FIT_MAX 1e9 /* fitted coefficients (ns, ns per line or reader) */
#define X_MAX 1e6   /* lines, readers */
#define ERR_MAX 1e6 /* r2, relative errors */

/* a number in [lo, hi], or NAN for null/absent where `mode` allows it */
static int get_num_in(const rd_t *r, json_t *o, const char *key, int mode,
                      double lo, double hi, double *out)
{
    json_t *v = json_object_get(o, key);
    *out = NAN;
    if (!v && mode != OPTIONAL)
        return mc_jrd_bad(r, key, mode == REQUIRED ? "missing (a number is "
                   "required)" : "missing (a number, or null if not "
                   "measured, is required)");
    if (!v || (json_is_null(v) && mode != REQUIRED))
        return MC_OK;
    if (!json_is_number(v))
        return mc_jrd_bad(r, key, "expected a number");
    double x = json_number_value(v);
    if (!(x >= lo && x <= hi)) {
        char msg[96];
        snprintf(msg, sizeof msg, "%g is outside [%g, %g]", x, lo, hi);
        return mc_jrd_bad(r, key, msg);
    }
    *out = x;
    return MC_OK;
}

/* times in ns */
static int get_num(const rd_t *r, json_t *o, const char *key, int mode,
                   double *out)
{
    return get_num_in(r, o, key, mode, 0, T_MAX, out);
}

static int get_int(const rd_t *r, json_t *o, const char *key, int required,
                   int lo, int hi, int *out)
{
    json_t *v = json_object_get(o, key);
    if (!v)
        return required ? mc_jrd_bad(r, key, "missing (an integer is required)")
                        : MC_OK;
    if (!json_is_integer(v) || json_integer_value(v) < lo ||
        json_integer_value(v) > hi) {
        char msg[96];
        snprintf(msg, sizeof msg, "expected an integer in [%d, %d]", lo, hi);
        return mc_jrd_bad(r, key, msg);
    }
    *out = (int)json_integer_value(v);
    return MC_OK;
}

static int get_str(const rd_t *r, json_t *o, const char *key, int required,
                   char *dst, size_t size)
{
    json_t *v = json_object_get(o, key);
    if (!v)
        return required ? mc_jrd_bad(r, key, "missing (a string is required)")
                        : MC_OK;
    if (!json_is_string(v))
        return mc_jrd_bad(r, key, "expected a string");
    const char *s = json_string_value(v);
    if (strlen(s) >= size)
        return mc_jrd_bad(r, key, "string too long");
    memcpy(dst, s, strlen(s) + 1);
    return MC_OK;
}

static int get_samples(const rd_t *r, json_t *o, mc_prof_samples_t *s)
{
    json_t *a = json_object_get(o, "samples");
    if (!a)
        return MC_OK;
    if (!json_is_array(a))
        return mc_jrd_bad(r, "samples", "expected an array of numbers");
    int n = (int)json_array_size(a);
    double *v = malloc((size_t)(n ? n : 1) * sizeof *v);
    if (!v)
        return mc_error(MC_ERR_NOMEM, "%s: samples", r->file);
    for (int i = 0; i < n; i++) {
        json_t *x = json_array_get(a, (size_t)i);
        if (!json_is_number(x) || !(json_number_value(x) >= 0 &&
                                    json_number_value(x) <= T_MAX)) {
            free(v);
            return mc_jrd_bad(r, "samples", "expected an array of numbers "
                              "in [0, 1e9]");
        }
        v[i] = json_number_value(x);
    }
    int rc = mc_prof_samples_set(s, v, n);
    free(v);
    return rc;
}

static int read_stat(rd_t *r, json_t *o, mc_prof_stat_t *s)
{
    static const char *const keys[] = {"states", "location", "mean", "stdev",
        "median", "count", "source", "samples", NULL};
    MC_CHECK(mc_jrd_check_keys(r, o, keys));
    MC_CHECK(get_str(r, o, "states", 1, s->states, sizeof s->states));
    MC_CHECK(get_str(r, o, "location", 1, s->location, sizeof s->location));
    MC_CHECK(get_num(r, o, "mean", OPTIONAL, &s->mean));
    MC_CHECK(get_num(r, o, "stdev", OPTIONAL, &s->stdev));
    MC_CHECK(get_num(r, o, "median", OPTIONAL, &s->median));
    MC_CHECK(get_int(r, o, "count", OPTIONAL, 0, 1 << 30, &s->count));
    MC_CHECK(get_str(r, o, "source", 0, s->source, sizeof s->source));
    if (isnan(s->mean) && isnan(s->median))
        return mc_jrd_bad(r, "mean", "an entry needs a mean or a median");
    return get_samples(r, o, &s->samples);
}

static int read_points(rd_t *r, json_t *o, mc_prof_fit_t *f)
{
    static const char *const keys[] = {"x", "mean", "median", "model",
        "rel_err", "samples", NULL};
    json_t *a = json_object_get(o, "points");
    if (!a)
        return MC_OK;
    if (!json_is_array(a))
        return mc_jrd_bad(r, "points", "expected an array");
    MC_CHECK(mc_prof_fit_alloc(f, (int)json_array_size(a)));
    size_t len = strlen(r->where);
    for (int i = 0; i < f->npts; i++) {
        json_t *e = json_array_get(a, (size_t)i);
        mc_prof_point_t *q = &f->pts[i];
        snprintf(r->where + len, sizeof r->where - len, ".points[%d]", i);
        if (!json_is_object(e))
            return mc_jrd_bad(r, "", "expected an object");
        MC_CHECK(mc_jrd_check_keys(r, e, keys));
        MC_CHECK(get_num_in(r, e, "x", REQUIRED, 0, X_MAX, &q->x));
        MC_CHECK(get_num(r, e, "mean", OPTIONAL, &q->mean));
        MC_CHECK(get_num(r, e, "median", OPTIONAL, &q->median));
        MC_CHECK(get_num(r, e, "model", OPTIONAL, &q->model));
        MC_CHECK(get_num_in(r, e, "rel_err", OPTIONAL, -ERR_MAX, ERR_MAX,
                            &q->rel_err));
        MC_CHECK(get_samples(r, e, &q->samples));
    }
    r->where[len] = '\0';
    return MC_OK;
}

/* multi-line: o, q, p. contention: form, b, c [, a]. */
static int read_fit(rd_t *r, json_t *o, mc_prof_fit_t *f, int contention)
{
    static const char *const mkeys[] = {"states", "o", "q", "p", "r2",
        "max_rel_err", "source", "points", NULL};
    static const char *const ckeys[] = {"states", "form", "b", "c", "a",
        "r2", "max_rel_err", "source", "points", NULL};
    MC_CHECK(mc_jrd_check_keys(r, o, contention ? ckeys : mkeys));
    MC_CHECK(get_str(r, o, "states", 1, f->states, sizeof f->states));
    if (contention) {
        char form[16] = "b+c*n";
        MC_CHECK(get_str(r, o, "form", 0, form, sizeof form));
        if (!strcmp(form, "b+c*n-a/n"))
            f->has_inv = 1;
        else if (strcmp(form, "b+c*n") != 0)
            return mc_jrd_bad(r, "form", "expected \"b+c*n\" or \"b+c*n-a/n\"");
        MC_CHECK(get_num_in(r, o, "b", NULLABLE, -FIT_MAX, FIT_MAX,
                            &f->icept));
        MC_CHECK(get_num_in(r, o, "c", NULLABLE, -FIT_MAX, FIT_MAX,
                            &f->slope));
        MC_CHECK(get_num_in(r, o, "a", f->has_inv ? NULLABLE : OPTIONAL,
                            -FIT_MAX, FIT_MAX, &f->inv));
        if (!f->has_inv)
            f->inv = 0;
    } else {
        MC_CHECK(get_num_in(r, o, "o", NULLABLE, -FIT_MAX, FIT_MAX,
                            &f->slope));
        MC_CHECK(get_num_in(r, o, "q", NULLABLE, -FIT_MAX, FIT_MAX,
                            &f->icept));
        MC_CHECK(get_num_in(r, o, "p", NULLABLE, -FIT_MAX, FIT_MAX,
                            &f->inv));
    }
    MC_CHECK(get_num_in(r, o, "r2", OPTIONAL, -ERR_MAX, ERR_MAX, &f->r2));
    MC_CHECK(get_num_in(r, o, "max_rel_err", OPTIONAL, -ERR_MAX, ERR_MAX,
                        &f->max_rel_err));
    MC_CHECK(get_str(r, o, "source", 0, f->source, sizeof f->source));
    return read_points(r, o, f);
}

static int read_bw(rd_t *r, json_t *o, mc_prof_bw_t *b)
{
    static const char *const keys[] = {"kind", "bytes", "GBps_median",
        "GBps_mean", "samples", NULL};
    MC_CHECK(mc_jrd_check_keys(r, o, keys));
    MC_CHECK(get_str(r, o, "kind", 1, b->kind, sizeof b->kind));
    MC_CHECK(get_num_in(r, o, "bytes", REQUIRED, 1, 0x1p40, &b->bytes));
    MC_CHECK(get_num_in(r, o, "GBps_median", REQUIRED, 0, 1e6,
                        &b->gbps_median));
    MC_CHECK(get_num_in(r, o, "GBps_mean", OPTIONAL, 0, 1e6,
                        &b->gbps_mean));
    return get_samples(r, o, &b->samples);
}

static int read_skip(rd_t *r, json_t *o, mc_prof_skip_t *s)
{
    static const char *const keys[] = {"measurement", "reason", NULL};
    MC_CHECK(mc_jrd_check_keys(r, o, keys));
    MC_CHECK(get_str(r, o, "measurement", 1, s->what, sizeof s->what));
    return get_str(r, o, "reason", 1, s->reason, sizeof s->reason);
}

/* Calls fn on each element of array `key`; *count grows with each. */
static int read_list(rd_t *r, json_t *root, const char *key, int max,
                     int *count, void *tab, size_t elsize,
                     int (*fn)(rd_t *, json_t *, void *))
{
    json_t *a = json_object_get(root, key);
    if (!a)
        return MC_OK;
    if (!json_is_array(a))
        return mc_jrd_bad(r, key, "expected an array");
    if ((int)json_array_size(a) > max)
        return mc_jrd_bad(r, key, "too many entries");
    for (size_t i = 0; i < json_array_size(a); i++) {
        json_t *e = json_array_get(a, i);
        snprintf(r->where, sizeof r->where, "%s[%zu]", key, i);
        if (!json_is_object(e))
            return mc_jrd_bad(r, "", "expected an object");
        void *slot = (char *)tab + (size_t)*count * elsize;
        (*count)++; /* before fn, so mc_profile_free sees partial entries */
        MC_CHECK(fn(r, e, slot));
    }
    r->where[0] = '\0';
    return MC_OK;
}

static int cb_stat(rd_t *r, json_t *o, void *slot)
{
    mc_prof_stat_t *s = slot;
    memset(s, 0, sizeof *s);
    return read_stat(r, o, s);
}

static int cb_fit(rd_t *r, json_t *o, void *slot, int contention)
{
    mc_prof_fit_t *f = slot;
    memset(f, 0, sizeof *f);
    f->r2 = f->max_rel_err = NAN;
    return read_fit(r, o, f, contention);
}

static int cb_ml(rd_t *r, json_t *o, void *slot)
{
    return cb_fit(r, o, slot, 0);
}

static int cb_cont(rd_t *r, json_t *o, void *slot)
{
    return cb_fit(r, o, slot, 1);
}

static int cb_bw(rd_t *r, json_t *o, void *slot)
{
    memset(slot, 0, sizeof(mc_prof_bw_t));
    return read_bw(r, o, slot);
}

static int cb_skip(rd_t *r, json_t *o, void *slot)
{
    memset(slot, 0, sizeof(mc_prof_skip_t));
    return read_skip(r, o, slot);
}

static int read_clustered(rd_t *r, json_t *root, mc_profile_t *p)
{
    json_t *c = json_object_get(root, "clustered");
    if (!c || !json_is_object(c))
        return mc_jrd_bad(r, "clustered", "missing (an object with R_L, R_R, R_I "
                                   "in ns is required)");
    snprintf(r->where, sizeof r->where, "clustered");
    const char *k;
    json_t *v;
    json_object_foreach(c, k, v) {
        if (!json_is_number(v) || !(json_number_value(v) >= 0 &&
                                    json_number_value(v) <= T_MAX))
            return mc_jrd_bad(r, k, "expected a number of ns in [0, 1e9]");
        if (mc_profile_set_clust(p, k, json_number_value(v)) != MC_OK)
            return mc_jrd_bad(r, k, mc_last_error());
    }
    if (isnan(p->r_l) || isnan(p->r_r) || isnan(p->r_i))
        return mc_jrd_bad(r, isnan(p->r_l) ? "R_L" : isnan(p->r_r) ? "R_R" : "R_I",
                   "missing (R_L, R_R and R_I are required)");
    r->where[0] = '\0';
    return MC_OK;
}

static int read_root(rd_t *r, json_t *root, mc_profile_t *p)
{
    static const char *const keys[] = {"format", "name", "description",
        "source", "created", "command", "notes", "line_bytes", "cores",
        "clustered", "clustered_source", "lines", "pingpong", "multiline",
        "contention", "copy_bandwidth", "skipped", NULL};
    if (!json_is_object(root))
        return mc_jrd_bad(r, "", "the top level must be an object");
    MC_CHECK(mc_jrd_check_keys(r, root, keys));
    char fmt[32] = "";
    MC_CHECK(get_str(r, root, "format", 1, fmt, sizeof fmt));
    if (strcmp(fmt, FORMAT_TAG) != 0)
        return mc_jrd_bad(r, "format", "expected \"" FORMAT_TAG "\"");
    MC_CHECK(get_str(r, root, "name", 1, p->name, sizeof p->name));
    MC_CHECK(get_str(r, root, "description", 0, p->description,
                     sizeof p->description));
    MC_CHECK(get_str(r, root, "source", 0, p->source, sizeof p->source));
    MC_CHECK(get_str(r, root, "created", 0, p->created, sizeof p->created));
    MC_CHECK(get_str(r, root, "command", 0, p->command, sizeof p->command));
    MC_CHECK(get_str(r, root, "notes", 0, p->notes, sizeof p->notes));
    MC_CHECK(get_int(r, root, "line_bytes", 1, 8, 4096, &p->line_bytes));
    /* the models and `manycoll tune` work per rank count up to cores */
    MC_CHECK(get_int(r, root, "cores", 1, 1, MC_PROF_MAX_CORES, &p->cores));
    MC_CHECK(read_clustered(r, root, p));
    MC_CHECK(get_str(r, root, "clustered_source", 0, p->clust_source,
                     sizeof p->clust_source));
    MC_CHECK(read_list(r, root, "lines", MC_PROF_MAX_STATS, &p->nlines,
                       p->lines, sizeof *p->lines, cb_stat));
    MC_CHECK(read_list(r, root, "pingpong", MC_PROF_MAX_STATS, &p->npp,
                       p->pp, sizeof *p->pp, cb_stat));
    MC_CHECK(read_list(r, root, "multiline", MC_PROF_MAX_FITS, &p->nml,
                       p->ml, sizeof *p->ml, cb_ml));
    MC_CHECK(read_list(r, root, "contention", MC_PROF_MAX_FITS, &p->ncont,
                       p->cont, sizeof *p->cont, cb_cont));
    MC_CHECK(read_list(r, root, "copy_bandwidth", MC_PROF_MAX_BW, &p->nbw,
                       p->bw, sizeof *p->bw, cb_bw));
    return read_list(r, root, "skipped", MC_PROF_MAX_SKIP, &p->nskip,
                     p->skip, sizeof *p->skip, cb_skip);
}

int mc_profile_parse(const char *text, const char *what, mc_profile_t *p)
{
    json_error_t err;
    mc_profile_init(p);
    json_t *root = json_loads(text, OPTIONAL, &err);
    if (!root)
        return mc_error(MC_ERR_ARG, "%s: line %d: %s", what, err.line,
                        err.text);
    rd_t r = {.file = what, .where = ""};
    int rc = read_root(&r, root, p);
    json_decref(root);
    if (rc < 0)
        mc_profile_free(p);
    return rc;
}

int mc_profile_read_file(const char *path, mc_profile_t *p)
{
    char *buf;
    mc_profile_init(p);
    MC_CHECK(mc_read_text_file(path, "profile", MC_JSON_FILE_MAX, &buf));
    int rc = mc_profile_parse(buf, path, p);
    free(buf);
    return rc;
}

int mc_profile_load(const char *name, mc_profile_t *p)
{
    char path[4096];
    mc_profile_init(p);
    if (!name || !*name)
        return mc_error(MC_ERR_ARG, "profile: empty name");
    MC_CHECK(mc_data_path("platforms/profiles", name, path, sizeof path));
    return mc_profile_read_file(path, p);
}
