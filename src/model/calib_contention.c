/*
 * Contention (report Section 3.2, Table 3.2): n threads copy the same
 * "global" line into private lines at the same moment. The global line's
 * owner T1 is idle; readers are T0 and helpers on every other CPU. States:
 * global line E (T1 read it after a clflush) or I (flushed); private lines
 * E (each reader read its own after a flush) or I.
 *
 * Readers start together at a time stamp agreed in advance (the report's
 * RDTSC synchronisation; with more than one reader this needs a TSC that
 * agrees across CPUs, which an invariant TSC does); each times its own
 * copy and a sample is the slowest reader's time. Lines are picked from a
 * pool of pages per iteration, as the report randomises addresses.
 *
 * Fits: b + c*n (cached global line, Eq. 3.2) needs 2 reader counts,
 * b + c*n - a/n (line in memory, Eq. 3.3) needs 3. With fewer CPUs the
 * points are kept and the fit is skipped with the reason.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/calib.h"
#include "model/fit.h"
#include "util/error.h"

#define POOL 64 /* pages */
#define PAGE 4096

typedef struct reader {
    const char *global;
    char *priv;
    uint64_t start;
    double ns;
} reader_t;

static volatile uint64_t sink;

static void job_read_line(void *arg)
{
    sink = *(volatile const uint64_t *)arg;
    mc_calib_fence();
}

static void job_copy(void *arg)
{
    reader_t *r = arg;
    while (mc_calib_tick() < r->start)
        mc_calib_pause();
    uint64_t t0 = mc_calib_tick();
    volatile uint64_t *d = (volatile uint64_t *)r->priv;
    const volatile uint64_t *s = (const volatile uint64_t *)r->global;
    for (int i = 0; i < MC_CALIB_LINE / 8; i++)
        d[i] = s[i];
    uint64_t t1 = mc_calib_tick();
    r->ns = mc_calib_ns(t1 - t0);
}

typedef struct cont {
    mc_calib_t *c;
    mc_calib_helper_t *rd[MC_CALIB_MAX_CPUS]; /* reader helpers; reader 0 is T0 */
    int nmax;             /* readers available */
    char *gpool, *ppool;  /* global lines; private lines per reader */
    double overhead;
    double **v;           /* [state pair * nmax + n - 1][round] */
    unsigned seed;
} cont_t;

/* One sample: n readers, global state gs, private state ps. */
static double sample(cont_t *k, int n, char gs, char ps, unsigned *seed)
{
    size_t off = (size_t)(rand_r(seed) % POOL) * PAGE +
                 (size_t)(rand_r(seed) % (PAGE / MC_CALIB_LINE)) * MC_CALIB_LINE;
    const char *g = k->gpool + off;
    reader_t r[MC_CALIB_MAX_CPUS];
    mc_calib_flush(g);
    if (gs == 'E')
        mc_calib_call(k->c->hb, job_read_line, (void *)g);
    for (int i = 0; i < n; i++) {
        r[i] = (reader_t){.global = g,
                          .priv = k->ppool + (size_t)i * POOL * PAGE + off};
        mc_calib_flush(r[i].priv);
        if (ps == 'E') {
            if (i == 0)
                job_read_line(r[i].priv);
            else
                mc_calib_call(k->rd[i], job_read_line, r[i].priv);
        }
    }
    uint64_t start = mc_calib_tick() + (uint64_t)(n > 1 ? 50000 + 5000 * n : 0);
    for (int i = 1; i < n; i++) {
        r[i].start = start;
        mc_calib_start(k->rd[i], job_copy, &r[i]);
    }
    r[0].start = start;
    job_copy(&r[0]);
    double worst = r[0].ns;
    for (int i = 1; i < n; i++) {
        mc_calib_wait(k->rd[i]);
        worst = fmax(worst, r[i].ns);
    }
    return worst - k->overhead;
}

static int store_fit(cont_t *k, const char *st, int inv, double **v, int reps)
{
    mc_prof_fit_t *f = mc_profile_add_cont(k->c->prof, st);
    if (!f)
        return MC_ERR_ARG;
    f->has_inv = inv;
    f->inv = inv ? NAN : 0;
    MC_CHECK(mc_prof_fit_alloc(f, k->nmax));
    double x[MC_CALIB_MAX_CPUS], y[MC_CALIB_MAX_CPUS];
    for (int n = 1; n <= k->nmax; n++) {
        mc_prof_point_t *q = &f->pts[n - 1];
        mc_summary_t s = mc_summarize(v[n - 1], reps);
        q->x = x[n - 1] = n;
        q->mean = s.mean;
        q->median = y[n - 1] = s.median;
        MC_CHECK(mc_prof_samples_set(&q->samples, v[n - 1], reps));
    }
    int need = inv ? 3 : 2;
    if (k->nmax < need)
        return mc_profile_skip(k->c->prof, inv ? "contention fit I-state"
                               : "contention fit cached",
            "%s %s needs %d reader counts; this machine has %d CPUs, i.e. "
            "one owner and %d reader%s (the point%s kept)",
            st, inv ? "b+c*n-a/n" : "b+c*n", need, k->c->topo.ncpu,
            k->nmax, k->nmax == 1 ? "" : "s", k->nmax == 1 ? " is" : "s are");
    mc_fitres_t fr;
    MC_CHECK(mc_fit(x, y, k->nmax, inv, &fr));
    f->slope = fr.slope;
    f->icept = fr.icept;
    f->inv = fr.inv;
    f->r2 = fr.r2;
    f->max_rel_err = fr.max_rel_err;
    for (int i = 0; i < f->npts; i++) {
        mc_prof_point_t *q = &f->pts[i];
        q->model = mc_prof_fit_eval(f, q->x);
        q->rel_err = (q->model - q->median) / q->median;
    }
    return MC_OK;
}

static const char *const cstates[4] = {"E-E", "E-I", "I-E", "I-I"};

static int cont_end(void *st, int rounds)
{
    cont_t *k = st;
    int rc = MC_OK;
    if (!k) /* skipped */
        return MC_OK;
    for (int s = 0; s < 4 && rc == MC_OK && rounds > 0 && k->v; s++)
        rc = store_fit(k, cstates[s], cstates[s][0] == 'I',
                       k->v + s * k->nmax, rounds);
    for (int i = 0; k->v && i < 4 * k->nmax; i++)
        free(k->v[i]);
    free(k->v);
    for (int i = 1; i < k->nmax; i++)
        mc_calib_helper_free(k->rd[i]);
    free(k->gpool);
    free(k->ppool);
    free(k);
    return rc;
}

static int cont_begin(mc_calib_t *c, void **st)
{
    *st = NULL;
    if (!c->hb || !mc_calib_can_flush())
        return mc_profile_skip(c->prof, "contention", "needs an owner and a "
                               "reader on two cores, and clflush");
    const mc_calib_topo_t *t = &c->topo;
    cont_t *k = calloc(1, sizeof *k);
    if (!k)
        return mc_error(MC_ERR_NOMEM, "contention state");
    k->c = c;
    k->nmax = 1; /* reader 0 is T0 */
    int rc = MC_OK;
    for (int i = 0; i < t->ncpu && rc == MC_OK; i++)
        if (i != t->a && i != t->b &&
            !(k->rd[k->nmax++] = mc_calib_helper_new(t->cpu[i]))) {
            k->nmax--;
            rc = MC_ERR_SYS;
        }
    k->gpool = mc_calib_alloc((size_t)POOL * PAGE);
    k->ppool = mc_calib_alloc((size_t)k->nmax * POOL * PAGE);
    k->v = calloc((size_t)4 * k->nmax, sizeof *k->v);
    if (rc == MC_OK && (!k->gpool || !k->ppool || !k->v))
        rc = mc_error(MC_ERR_NOMEM, "contention buffers");
    for (int i = 0; rc == MC_OK && i < 4 * k->nmax; i++)
        if (!(k->v[i] = calloc((size_t)c->reps, sizeof **k->v)))
            rc = mc_error(MC_ERR_NOMEM, "contention samples");
    if (rc != MC_OK) {
        cont_end(k, 0);
        return rc;
    }
    k->seed = 777;
    k->overhead = mc_calib_tick_overhead_ns();
    *st = k;
    mc_calib_progress("contention: 1..%d readers of one line, 4 state pairs",
                   k->nmax);
    return MC_OK;
}

static int cont_round(void *st, int r)
{
    cont_t *k = st;
    if (!k)
        return MC_OK;
    sample(k, 1, 'E', 'E', &k->seed); /* warm-up after a pause: untimed */
    for (int s = 0; s < 4; s++)
        for (int n = 1; n <= k->nmax; n++)
            k->v[s * k->nmax + n - 1][r] =
                sample(k, n, cstates[s][0], cstates[s][2], &k->seed);
    return MC_OK;
}

const mc_calib_family_t mc_calib_contention_family = {
    .name = "contention",
    .begin = cont_begin,
    .round = cont_round,
    .end = cont_end,
};
