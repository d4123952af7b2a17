/*
 * manycoll bench --mode persistent | overlap: the non-blocking forms.
 *
 * persistent: per call, the blocking call and a persistent request of the
 * same call (initialised once per size: selection and arguments checked
 * once), mc_start + mc_wait, interleaved: barrier, clock, call, clock;
 * the table is bench's, one row per form, ratio = persistent / blocking
 * (median over calls of the per-call ratio of the slowest ranks).
 *
 * overlap, as the OSU non-blocking benchmarks: first `pure`, the median
 * over calls of mc_i<coll> + mc_wait alone; then, per call, mc_i<coll>,
 * computation of `pure` microseconds (a loop on the clock, no test in
 * it), mc_wait: `total` and `compute` (medians of the slowest rank's).
 * overlap% = 100 (1 - (total - compute) / pure), within [0, 100]: how
 * much of the collective the computation hid. Progress happens only in
 * the calls (no progress thread): what is hidden is what the algorithm
 * did at its start plus what peers could do without this rank.
 */
#include <stdio.h>
#include <stdlib.h>

#include "api/api.h"
#include "bench.h"

/* the slowest rank's time of every call, on rank 0: worst[it] */
static int slowest(mc_comm_t *w, const double *t, int iters, double *all,
                   double *worst)
{
    MC_CHECK(mc_gather(w, t, all, (size_t)iters, MC_FLOAT64, 0));
    if (mc_comm_rank(w) != 0)
        return MC_OK;
    for (int i = 0; i < iters; i++) {
        worst[i] = 0;
        for (int r = 0; r < mc_comm_size(w); r++)
            if (all[r * iters + i] > worst[i])
                worst[i] = all[r * iters + i];
    }
    return MC_OK;
}

static int cmp(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return v[n / 2];
}

typedef struct bench_run {
    mc_comm_t *w;
    mc_case_t *k;
    mc_case_bufs_t b;
    int iters, warm;
    double *t, *t2, *all, *worst;
} bench_run_t;

static int setup(bench_run_t *r, const bench_opts_t *o, mc_comm_t *w,
                 mc_case_t *k, size_t bytes)
{
    size_t d = mc_dtype_size(k->dt);
    k->count = k->coll == MC_COLL_BARRIER ? 0 : (bytes + d - 1) / d;
    r->w = w;
    r->k = k;
    r->iters = o->iters > 0 ? o->iters : mc_bench_default_iters(bytes);
    r->warm = o->warmup > 0 ? o->warmup : r->iters / 10 + 1;
    int rank = mc_comm_rank(w), n = mc_comm_size(w);
    MC_CHECK(mc_case_alloc(k, rank, n, &r->b));
    mc_case_fill(k, rank, n, &r->b);
    size_t it = (size_t)r->iters;
    r->t = calloc(it * 2, sizeof(double));
    r->t2 = r->t + it;
    r->all = calloc(it * (size_t)n, sizeof(double));
    r->worst = calloc(it * 2, sizeof(double));
    if (!r->t || !r->all || !r->worst)
        return mc_error(MC_ERR_NOMEM, "out of memory for the timings");
    return MC_OK;
}

static void teardown(bench_run_t *r)
{
    mc_case_free(&r->b);
    free(r->t);
    free(r->all);
    free(r->worst);
}

int mc_bench_persistent(const bench_opts_t *o, mc_comm_t *w, mc_case_t *k,
                        size_t bytes)
{
    bench_run_t r;
    mc_request_t *req = NULL;
    int rc = setup(&r, o, w, k, bytes);
    mc_case_t kb = *k, kp = *k;
    kb.form = MC_FORM_BLOCKING;
    kp.form = MC_FORM_PERSISTENT;
    if (rc == MC_OK)
        rc = mc_case_call(w, &kp, &r.b, &req);
    for (int i = -r.warm; i < r.iters && rc == MC_OK; i++) {
        for (int f = 0; f < 2 && rc == MC_OK; f++) {
            rc = mc_barrier(w);
            double t0 = mc_bench_now_us();
            if (rc == MC_OK && f == 0)
                rc = mc_case_call(w, &kb, &r.b, NULL);
            else if (rc == MC_OK && (rc = mc_start(req)) == MC_OK)
                rc = mc_wait(req);
            double t1 = mc_bench_now_us();
            if (i >= 0)
                (f ? r.t2 : r.t)[i] = t1 - t0;
        }
    }
    if (req)
        mc_request_free(&req);
    static const char *const form[2] = {"blocking", "persistent"};
    for (int f = 0; f < 2 && rc == MC_OK; f++) {
        rc = mc_gather(w, f ? r.t2 : r.t, r.all, (size_t)r.iters,
                       MC_FLOAT64, 0);
        if (rc == MC_OK && mc_comm_rank(w) == 0) {
            mc_explain_t x;
            char what[200];
            mc_comm_explain(w, k->coll, k->count * mc_dtype_size(k->dt),
                            k->op, &x);
            snprintf(what, sizeof what, "%s %s", form[f], x.ran);
            mc_bench_report(o, w, what, &x, k->count * mc_dtype_size(k->dt),
                            r.all, r.iters, r.worst + f * r.iters,
                            f ? r.worst : NULL);
        }
    }
    teardown(&r);
    return rc;
}

static void compute_us(double us)
{
    double end = mc_bench_now_us() + us;
    while (mc_bench_now_us() < end)
        ;
}

/* iters calls of start, compute `comp` us, wait: t = total, t2 = compute */
static int overlap_calls(bench_run_t *r, double comp)
{
    int rc = MC_OK;
    mc_case_t kn = *r->k;
    kn.form = MC_FORM_NONBLOCKING;
    for (int i = -r->warm; i < r->iters && rc == MC_OK; i++) {
        mc_request_t *req = NULL;
        rc = mc_barrier(r->w);
        double t0 = mc_bench_now_us();
        if (rc == MC_OK)
            rc = mc_case_call(r->w, &kn, &r->b, &req);
        double c0 = mc_bench_now_us();
        if (comp > 0)
            compute_us(comp);
        double c1 = mc_bench_now_us();
        if (rc == MC_OK)
            rc = mc_wait(req);
        double t1 = mc_bench_now_us();
        if (i >= 0)
            r->t[i] = t1 - t0, r->t2[i] = c1 - c0;
    }
    return rc;
}

int mc_bench_overlap(const bench_opts_t *o, mc_comm_t *w, mc_case_t *k,
                     size_t bytes)
{
    bench_run_t r;
    int rc = setup(&r, o, w, k, bytes);
    double pure = 0, total = 0, comp = 0;
    if (rc == MC_OK)
        rc = overlap_calls(&r, 0);
    if (rc == MC_OK)
        rc = slowest(w, r.t, r.iters, r.all, r.worst);
    if (rc == MC_OK && mc_comm_rank(w) == 0)
        pure = median(r.worst, r.iters);
    if (rc == MC_OK) /* every rank computes as long */
        rc = mc_bcast(w, &pure, 1, MC_FLOAT64, 0);
    if (rc == MC_OK)
        rc = overlap_calls(&r, pure);
    if (rc == MC_OK)
        rc = slowest(w, r.t2, r.iters, r.all, r.worst + r.iters);
    if (rc == MC_OK)
        rc = slowest(w, r.t, r.iters, r.all, r.worst);
    if (rc == MC_OK && mc_comm_rank(w) == 0) {
        total = median(r.worst, r.iters);
        comp = median(r.worst + r.iters, r.iters);
        double ov = pure > 0 ? 100.0 * (1.0 - (total - comp) / pure) : 0;
        ov = ov < 0 ? 0 : ov > 100 ? 100 : ov;
        char algo[160];
        mc_comm_describe(w, k->coll, k->count * mc_dtype_size(k->dt), k->op,
                         algo, sizeof algo);
        size_t b = k->count * mc_dtype_size(k->dt);
        if (o->json)
            printf("{\"coll\":\"%s\",\"algo\":\"%s\",\"ranks\":%d,"
                   "\"bytes\":%zu,\"pure_us\":%.3f,\"compute_us\":%.3f,"
                   "\"total_us\":%.3f,\"overlap_pct\":%.1f,\"iters\":%d}\n",
                   o->coll, algo, mc_comm_size(w), b, pure, comp, total, ov,
                   r.iters);
        else
            printf("%-10zu %10.2f %10.2f %10.2f %8.1f  %s\n", b, pure, comp,
                   total, ov, algo);
        fflush(stdout);
    }
    teardown(&r);
    return rc;
}
