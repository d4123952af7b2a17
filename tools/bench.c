/*
 * manycoll bench: OSU-style latency of one collective over message sizes.
 *
 * The command launches its own ranks (`manycoll bench-rank` under the
 * launcher). Each iteration is: barrier, start clock, collective, stop
 * clock. A call's time is its slowest rank's (the rank that took longest
 * from its clock start to its clock stop). Per size it reports, over the
 * timed calls:
 *   avg, min, max, p50/90/99   of the calls' times (so min <= p50 <= max)
 *   slowest   the rank whose own mean was largest
 *   ratio     with several --algo: the median of this algorithm's time over
 *             the first algorithm's, call by call (interleaved calls share
 *             the machine's moment)
 * Sizes are bytes per rank block (per rank for allgather, alltoall,
 * gather, scatter, reduce_scatter_block; the whole vector otherwise).
 *
 * --cache warm (the default) reuses one set of buffers, so after the first
 * call the data is in cache, as in OSU. --cache cold gives every call a
 * buffer set that was not touched recently, as the OC-Bcast paper measured
 * (a large preallocated array, a different offset per call): each rank
 * allocates buffer sets covering twice the last-level cache (64 MiB when
 * the size is unknown) or one set per call if fewer, fills them all,
 * sweeps a region of that size to push them out of every cache, and
 * visits them in a scrambled order (so no prefetcher follows it). A set
 * is reused only after all the others, that is after more than the
 * last-level cache of other data. Only the library's own memory (MPBs,
 * scratch) stays warm: that is the library's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "api/api.h"
#include "oracle/check.h"
#include "select/select.h"
#include "bench.h"
#include "tools.h"

static const char default_sizes[] = "8,64,512,4K,32K,256K,1M";

static int parse(int argc, char **argv, bench_opts_t *o, const char *cmd)
{
    memset(o, 0, sizeof *o);
    o->dtype = "float64";
    o->op = "sum";
    o->nsizes = mc_parse_size_list(default_sizes, o->sizes, MAX_SIZES);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--check")) { o->check = 1; continue; }
        if (!strcmp(a, "--json")) { o->json = 1; continue; }
        static const char *const valued[] = {"-n", "--coll", "--algo",
            "--dtype", "--op", "--iters", "--warmup", "--cache", "--sizes",
            "--mode", NULL};
        if (!v)
            return mc_opt_no_value(cmd, a, valued);
        i++;
        long long x = 0;
        if ((!strcmp(a, "-n") && mc_opt_int(cmd, a, v, 1, MC_MAX_RANKS, &x)) ||
            (!strcmp(a, "--iters") && mc_opt_int(cmd, a, v, 1, 1 << 30, &x)) ||
            (!strcmp(a, "--warmup") && mc_opt_int(cmd, a, v, 0, 1 << 30, &x)))
            return 2;
        if (!strcmp(a, "-n")) o->n = (int)x;
        else if (!strcmp(a, "--coll")) o->coll = v;
        else if (!strcmp(a, "--algo")) {
            if (o->nalgos == MAX_ALGOS)
                return mc_usage_error(cmd, "at most %d --algo", MAX_ALGOS);
            o->algos[o->nalgos++] = v;
        }
        else if (!strcmp(a, "--dtype")) o->dtype = v;
        else if (!strcmp(a, "--op")) o->op = v;
        else if (!strcmp(a, "--iters")) o->iters = (int)x;
        else if (!strcmp(a, "--warmup")) o->warmup = (int)x;
        else if (!strcmp(a, "--cache")) {
            if (strcmp(v, "warm") && strcmp(v, "cold"))
                return mc_usage_error(cmd, "--cache: '%s' is not warm or "
                                           "cold", v);
            o->cold = !strcmp(v, "cold");
        }
        else if (!strcmp(a, "--mode")) {
            static const char *const modes[] = {"latency", "persistent",
                                                "overlap", NULL};
            o->mode = -1;
            for (int m = 0; modes[m]; m++)
                if (!strcmp(v, modes[m]))
                    o->mode = m;
            if (o->mode < 0)
                return mc_usage_error(cmd, "--mode: '%s' is not latency, "
                                           "persistent or overlap", v);
        }
        else if (!strcmp(a, "--sizes")) {
            o->nsizes = mc_parse_size_list(v, o->sizes, MAX_SIZES);
            if (o->nsizes <= 0)
                return mc_usage_error(cmd, "--sizes: cannot parse '%s'", v);
        } else
            return mc_usage_error(cmd, "unknown option '%s'", a);
    }
    if (!o->coll)
        return mc_usage_error(cmd, "missing --coll");
    if (o->mode && (o->cold || o->nalgos > 1 || o->check))
        return mc_usage_error(cmd, "--mode %s: with one --algo at most, "
                              "warm cache and no --check",
                              o->mode == MC_BENCH_OVERLAP ? "overlap"
                                                          : "persistent");
    mc_coll_t k;
    if (mc_coll_from_name(o->coll, &k) != MC_OK)
        return mc_usage_error(cmd, "%s", mc_last_error());
    mc_dtype_t dt;
    mc_op_t op;
    if (mc_dtype_from_name(o->dtype, &dt))
        return mc_usage_error(cmd, "--dtype: unknown datatype '%s'", o->dtype);
    if (mc_op_from_name(o->op, &op))
        return mc_usage_error(cmd, "--op: unknown op '%s'", o->op);
    for (int i = 0; i < o->nalgos; i++) {
        mc_sel_t s;
        if (mc_algo_parse(k, o->algos[i], "--algo", &s) != MC_OK)
            return mc_usage_error(cmd, "%s", mc_last_error());
    }
    return 0;
}

int mc_bench_parse(int argc, char **argv)
{
    bench_opts_t o;
    return parse(argc, argv, &o, "bench");
}

int cmd_bench(int argc, char **argv)
{
    bench_opts_t o;
    int rc = parse(argc, argv, &o, "bench");
    if (rc)
        return rc;
    if (o.n < 1)
        return mc_usage_error("bench", "missing -n N (ranks >= 1)");
    if (mc_parse_only())
        return 0;
    char **args = calloc((size_t)argc + 3, sizeof(char *));
    args[0] = "/proc/self/exe";
    args[1] = "bench-rank";
    for (int i = 1; i < argc; i++)
        args[i + 1] = argv[i];
    rc = mc_run_job(o.n, args, 0);
    free(args);
    return rc;
}

double mc_bench_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double pct(const double *sorted, int n, double p)
{
    int i = (int)(p * (n - 1) + 0.5);
    return sorted[i];
}

/* the median over iterations of t[i] / base[i]: interleaved calls share
 * whatever the machine did at that moment, so their ratio is steadier
 * than a ratio of medians */
static double ratio_p50(const double *t, const double *base, int iters)
{
    double *r = malloc(sizeof(double) * (size_t)iters);
    for (int i = 0; i < iters; i++)
        r[i] = base[i] > 0 ? t[i] / base[i] : 0;
    qsort(r, (size_t)iters, sizeof(double), cmp_double);
    double m = pct(r, iters, 0.5);
    free(r);
    return m;
}

/* rank 0: statistics over all[rank * iters + it]; worst[it] receives the
 * slowest rank's time of each call; base (or NULL) is the first
 * algorithm's, for the ratio */
void mc_bench_report(const bench_opts_t *o, mc_comm_t *w, const char *algo,
                     const mc_explain_t *x, size_t bytes, const double *all,
                     int iters, double *worst, const double *base)
{
    int n = mc_comm_size(w);
    double rank_max = -1;
    int slowest = 0;
    for (int i = 0; i < iters; i++)
        worst[i] = 0;
    for (int r = 0; r < n; r++) {
        double s = 0;
        for (int i = 0; i < iters; i++) {
            double t = all[r * iters + i];
            s += t;
            if (t > worst[i])
                worst[i] = t;
        }
        if (s > rank_max)
            rank_max = s, slowest = r;
    }
    double ratio = base ? ratio_p50(worst, base, iters) : 1.0;
    double *sorted = malloc(sizeof(double) * (size_t)iters);
    memcpy(sorted, worst, sizeof(double) * (size_t)iters);
    qsort(sorted, (size_t)iters, sizeof(double), cmp_double);
    double sum = 0;
    for (int i = 0; i < iters; i++)
        sum += worst[i];
    double avg = sum / iters, mn = sorted[0], mx = sorted[iters - 1];
    double p50 = pct(sorted, iters, 0.5), p90 = pct(sorted, iters, 0.9);
    double p99 = pct(sorted, iters, 0.99);
    if (o->json) {
        printf("{\"coll\":\"%s\",\"algo\":\"%s\",\"ranks\":%d,\"bytes\":%zu,"
               "\"lat_us\":%.3f,\"min_us\":%.3f,\"max_us\":%.3f,"
               "\"p50_us\":%.3f,\"p90_us\":%.3f,\"p99_us\":%.3f,"
               "\"slowest_rank\":%d,\"iters\":%d,\"cache\":\"%s\","
               "\"ratio_p50\":%.4f",
               o->coll, algo, n, bytes, avg, mn, mx, p50, p90, p99, slowest,
               iters, o->cold ? "cold" : "warm", ratio);
        if (x) /* the rule's algorithm, and why `algo` runs */
            mc_json_pair("asked", x->asked), mc_json_pair("why", x->why);
        printf("}\n");
    } else {
        printf("%-10zu %10.2f %10.2f %10.2f %10.2f %10.2f %10.2f %8d %7.3f  "
               "%s",
               bytes, avg, mn, mx, p50, p90, p99, slowest, ratio, algo);
        if (x && x->fallback)
            printf("  (%s)", x->why);
        printf("\n");
    }
    fflush(stdout);
    free(sorted);
}

int mc_bench_default_iters(size_t bytes)
{
    return bytes <= 65536 ? 1000 : bytes <= (1u << 20) ? 100 : 20;
}

/* ---- buffer sets: one (warm) or many, not recently touched (cold) ---- */

typedef struct bufsets {
    mc_case_bufs_t *set;
    int n, step; /* call i uses set (i * step) % n */
} bufsets_t;

/* bytes of the last-level cache, or 32 MiB when the system won't say */
static size_t llc_bytes(void)
{
    long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    long c = l3 > 0 ? l3 : l2;
    return c > 0 ? (size_t)c : (size_t)32 << 20;
}

static size_t gcd(size_t a, size_t b)
{
    while (b) {
        size_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* the region swept to push buffer sets out of the caches: allocated (and
 * its pages faulted in, which is slow in a VM) once per process */
static unsigned char *sweep_buf;
static size_t sweep_len;

/* writes and reads a region the size of the cold working set: afterwards
 * no buffer set is in any cache */
static int sweep_caches(size_t bytes)
{
    if (sweep_len < bytes) {
        free(sweep_buf);
        sweep_len = 0;
        if (!(sweep_buf = malloc(bytes)))
            return MC_ERR_NOMEM;
        sweep_len = bytes;
    }
    static unsigned char pass;
    memset(sweep_buf, ++pass, bytes);
    volatile unsigned char sink = 0;
    for (size_t i = 0; i < bytes; i += 64)
        sink ^= sweep_buf[i];
    (void)sink;
    return MC_OK;
}

static void bufsets_free(bufsets_t *bs)
{
    for (int i = 0; i < bs->n; i++)
        mc_case_free(&bs->set[i]);
    free(bs->set);
    bs->set = NULL;
    bs->n = 0;
}

/* `calls` calls: one set when warm; when cold, enough sets to cover twice
 * the last-level cache (or one per call), filled, then swept out */
static int bufsets_make(const bench_opts_t *o, const mc_case_t *k, int rank,
                        int n, int calls, bufsets_t *bs)
{
    mc_case_bufs_t one;
    if (mc_case_alloc(k, rank, n, &one) != MC_OK)
        return MC_ERR_NOMEM;
    size_t region = 2 * llc_bytes();
    size_t foot = one.slen + one.rlen + 192; /* guards, malloc headers */
    size_t want = o->cold ? (region + foot - 1) / foot : 1;
    bs->n = (int)(want < (size_t)calls ? want : (size_t)calls);
    bs->set = calloc((size_t)bs->n, sizeof *bs->set);
    if (!bs->set) {
        mc_case_free(&one);
        return MC_ERR_NOMEM;
    }
    bs->set[0] = one;
    int rc = MC_OK;
    for (int i = 1; i < bs->n && rc == MC_OK; i++)
        if (mc_case_alloc(k, rank, n, &bs->set[i]) != MC_OK) {
            bs->n = i;
            rc = MC_ERR_NOMEM;
        }
    for (int i = 0; i < bs->n; i++)
        mc_case_fill(k, rank, n, &bs->set[i]);
    /* a step near n / golden ratio, coprime to n: a scrambled full cycle */
    size_t step = (size_t)(bs->n * 0.618) | 1;
    while (bs->n > 1 && gcd(step, (size_t)bs->n) != 1)
        step += 2;
    bs->step = (int)(step % (size_t)bs->n);
    if (rc == MC_OK && o->cold)
        rc = sweep_caches(region);
    if (rc != MC_OK)
        bufsets_free(bs);
    return rc;
}

static mc_case_bufs_t *bufset(const bufsets_t *bs, int call)
{
    return &bs->set[(size_t)call * (size_t)bs->step % (size_t)bs->n];
}

/* selects algorithm a (when several are interleaved) */
static int use_algo(const bench_opts_t *o, mc_comm_t *w, int a)
{
    return o->nalgos > 1 ? mc_comm_set_algo(w, o->coll, o->algos[a]) : MC_OK;
}

/* rank 0, on stderr: where a size that runs longer than a few seconds is
 * (at most every 2 s) */
static void progress(const mc_case_t *k, int i, int warm, int iters,
                     double start, double now, double *last)
{
    if (now - *last < 2e6)
        return;
    *last = now;
    double per = (now - start) / (i + warm + 1);
    fprintf(stderr, "manycoll bench: %zu bytes: call %d of %d, %.0f s so "
                    "far, about %.0f s left\n",
            k->count * mc_dtype_size(k->dt), i + warm + 1, warm + iters,
            (now - start) * 1e-6, per * (iters - i - 1) * 1e-6);
}

/* one call of every algorithm, interleaved; t[a * iters + i] */
static int run_iters(const bench_opts_t *o, mc_comm_t *w, mc_case_t *k,
                     const bufsets_t *bs, int warm, int iters, double *t)
{
    int rank = mc_comm_rank(w), n = mc_comm_size(w), na = o->nalgos ? o->nalgos : 1;
    char msg[512];
    int rc = MC_OK;
    double start = mc_bench_now_us(), last = start + 1e6; /* first after 3 s */
    for (int i = -warm; i < iters && rc == MC_OK; i++) {
        if (rank == 0)
            progress(k, i, warm, iters, start, mc_bench_now_us(), &last);
        for (int a = 0; a < na && rc == MC_OK; a++) {
            mc_case_bufs_t *b = bufset(bs, (i + warm) * na + a);
            b->arrivals = o->arrivals;
            rc = use_algo(o, w, a);
            if (rc == MC_OK)
                rc = mc_barrier(w);
            double t0 = mc_bench_now_us();
            if (rc == MC_OK)
                rc = mc_case_run(w, k, b);
            double t1 = mc_bench_now_us();
            if (i >= 0)
                t[a * iters + i] = t1 - t0;
            if (rc == MC_OK && o->check) {
                if (mc_case_verify(k, rank, n, b, msg, sizeof msg)) {
                    fprintf(stderr, "manycoll bench: wrong result: %s\n", msg);
                    rc = MC_ERR_INTERNAL;
                }
                mc_case_fill(k, rank, n, b);
            }
        }
    }
    return rc;
}

/* one message size on this rank; rank 0 prints the result */
static int bench_size(const bench_opts_t *o, mc_comm_t *w, mc_case_t *k,
                      size_t bytes)
{
    int rank = mc_comm_rank(w), n = mc_comm_size(w);
    int na = o->nalgos ? o->nalgos : 1;
    size_t d = mc_dtype_size(k->dt);
    k->count = k->coll == MC_COLL_BARRIER ? 0 : (bytes + d - 1) / d;
    int iters = o->iters > 0 ? o->iters : mc_bench_default_iters(bytes);
    int warm = o->warmup > 0 ? o->warmup : iters / 10 + 1;
    bufsets_t bs;
    if (bufsets_make(o, k, rank, n, (warm + iters) * na, &bs) != MC_OK)
        return mc_error(MC_ERR_NOMEM, "out of memory for the buffers of "
                                      "%zu bytes", bytes);
    double *t = malloc(sizeof(double) * (size_t)iters * na);
    double *all = rank == 0 ? malloc(sizeof(double) * (size_t)iters * n)
                            : NULL;
    double *worst = malloc(sizeof(double) * (size_t)iters * na);
    int rc = run_iters(o, w, k, &bs, warm, iters, t);
    for (int a = 0; a < na && rc == MC_OK; a++) {
        rc = mc_gather(w, t + a * iters, all, (size_t)iters, MC_FLOAT64, 0);
        if (rc == MC_OK)
            rc = use_algo(o, w, a);
        if (rc == MC_OK && rank == 0) {
            mc_explain_t x;
            mc_comm_explain(w, k->coll, k->count * d, k->op, &x);
            mc_bench_report(o, w, x.ran, &x, k->count * d, all, iters,
                            worst + a * iters, a ? worst : NULL);
        }
    }
    free(t);
    free(all);
    free(worst);
    bufsets_free(&bs);
    return rc;
}

int cmd_bench_rank(int argc, char **argv)
{
    bench_opts_t o;
    int rc = parse(argc, argv, &o, "bench");
    if (rc)
        return rc;
    mc_comm_t *w;
    if ((rc = mc_init(&w)) != MC_OK) {
        fprintf(stderr, "manycoll bench: %s\n", mc_last_error());
        return 1;
    }
    mc_case_t k = {.seed = 1};
    mc_coll_from_name(o.coll, &k.coll);
    mc_dtype_from_name(o.dtype, &k.dt);
    mc_op_from_name(o.op, &k.op);
    if (o.nalgos == 1 &&
        (rc = mc_comm_set_algo(w, o.coll, o.algos[0])) != MC_OK) {
        fprintf(stderr, "manycoll bench: %s\n", mc_last_error());
        return 2;
    }
    int red = mc_coll_info(k.coll)->props & MC_COLL_REDUCES;
    char what[64] = "";
    if (k.coll != MC_COLL_BARRIER)
        snprintf(what, sizeof what, ", %s%s%s", o.dtype, red ? " " : "",
                 red ? o.op : "");
    if (mc_comm_rank(w) == 0 && !o.json && o.mode == MC_BENCH_OVERLAP)
        printf("# manycoll bench --mode overlap: %s, %d ranks%s; times in us "
               "(medians over calls of the slowest rank), see manycoll bench "
               "--help\n%-10s %10s %10s %10s %8s  %s\n",
               o.coll, mc_comm_size(w), what, "bytes", "pure", "compute",
               "total", "overlap%", "algorithm");
    else if (mc_comm_rank(w) == 0 && !o.json)
        printf("# manycoll bench: %s, %d ranks%s, cache %s; times in us of "
               "a call (its slowest rank), see manycoll bench --help\n"
               "%-10s %10s %10s %10s %10s %10s %10s %8s %7s  %s\n",
               o.coll, mc_comm_size(w), what,
               o.mode == MC_BENCH_PERSISTENT ? "warm; blocking and "
               "persistent (mc_start + mc_wait) interleaved, ratio = "
               "persistent / blocking" :
               o.cold ? "cold (a different buffer set per call, not touched "
                        "since twice the last-level cache of other data)"
                      : "warm (one buffer set)",
               "bytes", "avg", "min",
               "max", "p50", "p90", "p99", "slowest", "ratio", "algorithm");
    /* --check of a barrier: the arrival record, without the pauses */
    mc_arrivals_t arr = {0};
    if (o.check && k.coll == MC_COLL_BARRIER) {
        if (mc_arrivals_open(mc_comm_rank(w), mc_comm_size(w), 1, &arr))
            return 1;
        arr.pause_ns = NULL;
        o.arrivals = &arr;
    }
    int nsizes = k.coll == MC_COLL_BARRIER ? 1 : o.nsizes;
    for (int s = 0; s < nsizes && rc == MC_OK; s++)
        rc = o.mode == MC_BENCH_OVERLAP ? mc_bench_overlap(&o, w, &k,
                                                           o.sizes[s])
             : o.mode == MC_BENCH_PERSISTENT
                 ? mc_bench_persistent(&o, w, &k, o.sizes[s])
                 : bench_size(&o, w, &k, o.sizes[s]);
    mc_arrivals_close(&arr);
    if (rc != MC_OK)
        fprintf(stderr, "manycoll bench: rank %d: %s\n", mc_comm_rank(w),
                mc_last_error());
    free(sweep_buf);
    mc_finalize();
    return rc == MC_OK ? 0 : 1;
}
