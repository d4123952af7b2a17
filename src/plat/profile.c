/*
 * Profiles in memory: construction, lookups, ownership of the samples.
 * Reading and writing JSON is in profile_json.c.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plat/profile.h"
#include "util/error.h"

/* strlcpy: copies what fits, always terminates. */
static void set_str(char *dst, size_t size, const char *src)
{
    size_t n = strlen(src);
    if (n >= size)
        n = size - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

static void stat_init(mc_prof_stat_t *s)
{
    memset(s, 0, sizeof *s);
    s->mean = s->stdev = s->median = NAN;
}

static void fit_init(mc_prof_fit_t *f)
{
    memset(f, 0, sizeof *f);
    f->slope = f->icept = f->inv = NAN;
    f->r2 = f->max_rel_err = NAN;
}

void mc_profile_init(mc_profile_t *p)
{
    memset(p, 0, sizeof *p);
    p->r_l = p->r_r = p->r_i = NAN;
}

static void samples_free(mc_prof_samples_t *s)
{
    free(s->v);
    s->v = NULL;
    s->n = 0;
}

static void fit_free(mc_prof_fit_t *f)
{
    for (int i = 0; i < f->npts; i++)
        samples_free(&f->pts[i].samples);
    free(f->pts);
    f->pts = NULL;
    f->npts = 0;
}

void mc_profile_free(mc_profile_t *p)
{
    for (int i = 0; i < p->nlines; i++)
        samples_free(&p->lines[i].samples);
    for (int i = 0; i < p->npp; i++)
        samples_free(&p->pp[i].samples);
    for (int i = 0; i < p->nml; i++)
        fit_free(&p->ml[i]);
    for (int i = 0; i < p->ncont; i++)
        fit_free(&p->cont[i]);
    for (int i = 0; i < p->nbw; i++)
        samples_free(&p->bw[i].samples);
    mc_profile_init(p);
}

int mc_prof_samples_set(mc_prof_samples_t *s, const double *v, int n)
{
    samples_free(s);
    if (n < 0)
        return mc_error(MC_ERR_ARG, "samples: negative count %d", n);
    if (n == 0)
        return MC_OK;
    s->v = malloc((size_t)n * sizeof *s->v);
    if (!s->v)
        return mc_error(MC_ERR_NOMEM, "samples: cannot allocate %d values",
                        n);
    memcpy(s->v, v, (size_t)n * sizeof *v);
    s->n = n;
    return MC_OK;
}

int mc_prof_fit_alloc(mc_prof_fit_t *f, int npts)
{
    fit_free(f);
    if (npts < 0)
        return mc_error(MC_ERR_ARG, "fit points: negative count %d", npts);
    if (npts == 0)
        return MC_OK;
    f->pts = calloc((size_t)npts, sizeof *f->pts);
    if (!f->pts)
        return mc_error(MC_ERR_NOMEM, "fit points: cannot allocate %d",
                        npts);
    for (int i = 0; i < npts; i++) {
        mc_prof_point_t *q = &f->pts[i];
        q->x = q->mean = q->median = q->model = q->rel_err = NAN;
    }
    f->npts = npts;
    return MC_OK;
}

int mc_profile_set_clust(mc_profile_t *p, const char *name, double ns)
{
    if (!name || !*name || strlen(name) >= sizeof p->clust[0].name)
        return mc_error(MC_ERR_ARG, "clustered cost: bad name '%s'",
                        name ? name : "(null)");
    if (!(ns >= 0))
        return mc_error(MC_ERR_ARG, "clustered cost %s: %g is not a "
                        "non-negative time", name, ns);
    int i = 0;
    while (i < p->nclust && strcmp(p->clust[i].name, name) != 0)
        i++;
    if (i == p->nclust) {
        if (p->nclust == MC_PROF_MAX_CLUST)
            return mc_error(MC_ERR_ARG, "clustered cost %s: more than %d "
                            "names", name, MC_PROF_MAX_CLUST);
        set_str(p->clust[p->nclust++].name, sizeof p->clust[0].name, name);
    }
    p->clust[i].ns = ns;
    if (!strcmp(name, "R_L"))
        p->r_l = ns;
    else if (!strcmp(name, "R_R"))
        p->r_r = ns;
    else if (!strcmp(name, "R_I"))
        p->r_i = ns;
    return MC_OK;
}

int mc_profile_skip(mc_profile_t *p, const char *what, const char *fmt, ...)
{
    if (p->nskip == MC_PROF_MAX_SKIP)
        return mc_error(MC_ERR_ARG, "skipped: more than %d entries",
                        MC_PROF_MAX_SKIP);
    mc_prof_skip_t *s = &p->skip[p->nskip++];
    set_str(s->what, sizeof s->what, what);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->reason, sizeof s->reason, fmt, ap);
    va_end(ap);
    return MC_OK;
}

static mc_prof_stat_t *add_stat(mc_prof_stat_t *tab, int *n,
                                const char *table, const char *states,
                                const char *location)
{
    if (*n == MC_PROF_MAX_STATS) {
        mc_error(MC_ERR_ARG, "%s: more than %d entries", table,
                 MC_PROF_MAX_STATS);
        return NULL;
    }
    if (strlen(states) >= sizeof tab->states ||
        strlen(location) >= sizeof tab->location) {
        mc_error(MC_ERR_ARG, "%s: states '%s' or location '%s' too long",
                 table, states, location);
        return NULL;
    }
    mc_prof_stat_t *s = &tab[(*n)++];
    stat_init(s);
    set_str(s->states, sizeof s->states, states);
    set_str(s->location, sizeof s->location, location);
    return s;
}

mc_prof_stat_t *mc_profile_add_line(mc_profile_t *p, const char *states,
                                    const char *location)
{
    return add_stat(p->lines, &p->nlines, "lines", states, location);
}

mc_prof_stat_t *mc_profile_add_pp(mc_profile_t *p, const char *states,
                                  const char *location)
{
    return add_stat(p->pp, &p->npp, "pingpong", states, location);
}

static mc_prof_fit_t *add_fit(mc_prof_fit_t *tab, int *n, const char *table,
                              const char *states)
{
    if (*n == MC_PROF_MAX_FITS) {
        mc_error(MC_ERR_ARG, "%s: more than %d fits", table,
                 MC_PROF_MAX_FITS);
        return NULL;
    }
    if (strlen(states) >= sizeof tab->states) {
        mc_error(MC_ERR_ARG, "%s: states '%s' too long", table, states);
        return NULL;
    }
    mc_prof_fit_t *f = &tab[(*n)++];
    fit_init(f);
    set_str(f->states, sizeof f->states, states);
    return f;
}

mc_prof_fit_t *mc_profile_add_ml(mc_profile_t *p, const char *states)
{
    return add_fit(p->ml, &p->nml, "multiline", states);
}

mc_prof_fit_t *mc_profile_add_cont(mc_profile_t *p, const char *states)
{
    return add_fit(p->cont, &p->ncont, "contention", states);
}

const mc_prof_fit_t *mc_profile_fit(const mc_prof_fit_t *fits, int n,
                                    const char *states)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(fits[i].states, states))
            return &fits[i];
    return NULL;
}

double mc_prof_fit_eval(const mc_prof_fit_t *f, double x)
{
    double t = f->slope * x + f->icept;
    if (f->inv != 0 && !isnan(f->inv))
        t -= f->inv / x;
    return t;
}
