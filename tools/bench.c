/*
 * manycoll bench: OSU-style latency of one collective over message sizes.
 *
 * The command launches its own ranks (`manycoll bench-rank` under the
 * launcher). Each iteration is: barrier, start clock, collective, stop
 * clock. Per size it reports, over all ranks and iterations:
 *   avg_us    mean of every rank's every call (OSU "Avg Latency")
 *   min/max   smallest / largest per-rank mean (OSU "Min/Max Latency")
 *   p50/90/99 percentiles over iterations of the slowest rank's time
 *   slowest   the rank with the largest mean
 * Sizes are bytes per rank block (per rank for allgather, alltoall,
 * gather, scatter, reduce_scatter_block; the whole vector otherwise).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "select/select.h"
#include "tools.h"

#define MAX_SIZES 64

typedef struct bench_opts {
    int n;
    const char *coll, *algo, *dtype, *op;
    size_t sizes[MAX_SIZES];
    int nsizes;
    int iters, warmup, check, json;
} bench_opts_t;

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
        if (!v)
            return mc_usage_error(cmd, "option '%s' needs a value or is "
                                       "unknown", a);
        i++;
        if (!strcmp(a, "-n")) o->n = atoi(v);
        else if (!strcmp(a, "--coll")) o->coll = v;
        else if (!strcmp(a, "--algo")) o->algo = v;
        else if (!strcmp(a, "--dtype")) o->dtype = v;
        else if (!strcmp(a, "--op")) o->op = v;
        else if (!strcmp(a, "--iters")) o->iters = atoi(v);
        else if (!strcmp(a, "--warmup")) o->warmup = atoi(v);
        else if (!strcmp(a, "--sizes")) {
            o->nsizes = mc_parse_size_list(v, o->sizes, MAX_SIZES);
            if (o->nsizes <= 0)
                return mc_usage_error(cmd, "--sizes: cannot parse '%s'", v);
        } else
            return mc_usage_error(cmd, "unknown option '%s'", a);
    }
    if (!o->coll)
        return mc_usage_error(cmd, "missing --coll");
    mc_coll_t k;
    if (mc_coll_from_name(o->coll, &k) != MC_OK)
        return mc_usage_error(cmd, "%s", mc_last_error());
    mc_dtype_t dt;
    mc_op_t op;
    if (mc_dtype_from_name(o->dtype, &dt))
        return mc_usage_error(cmd, "--dtype: unknown datatype '%s'", o->dtype);
    if (mc_op_from_name(o->op, &op))
        return mc_usage_error(cmd, "--op: unknown op '%s'", o->op);
    if (o->algo) {
        mc_sel_t s;
        if (mc_algo_parse(k, o->algo, "--algo", &s) != MC_OK)
            return mc_usage_error(cmd, "%s", mc_last_error());
    }
    return 0;
}

int cmd_bench(int argc, char **argv)
{
    bench_opts_t o;
    int rc = parse(argc, argv, &o, "bench");
    if (rc)
        return rc;
    if (o.n < 1)
        return mc_usage_error("bench", "missing -n N (ranks >= 1)");
    char **args = calloc((size_t)argc + 3, sizeof(char *));
    args[0] = "/proc/self/exe";
    args[1] = "bench-rank";
    for (int i = 1; i < argc; i++)
        args[i + 1] = argv[i];
    rc = mc_launch(o.n, args, 0);
    free(args);
    return rc;
}

static double now_us(void)
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

/* rank 0: statistics over all[rank * iters + it] */
static void report(const bench_opts_t *o, mc_comm_t *w, const char *algo,
                   size_t bytes, const double *all, int iters)
{
    int n = mc_comm_size(w);
    double sum = 0, mn = 1e300, mx = -1;
    int slowest = 0;
    double *worst = calloc((size_t)iters, sizeof(double));
    for (int r = 0; r < n; r++) {
        double s = 0;
        for (int i = 0; i < iters; i++) {
            double t = all[r * iters + i];
            s += t;
            if (t > worst[i])
                worst[i] = t;
        }
        sum += s;
        s /= iters;
        if (s < mn)
            mn = s;
        if (s > mx)
            mx = s, slowest = r;
    }
    qsort(worst, (size_t)iters, sizeof(double), cmp_double);
    double avg = sum / ((double)n * iters);
    if (o->json)
        printf("{\"coll\":\"%s\",\"algo\":\"%s\",\"ranks\":%d,\"bytes\":%zu,"
               "\"lat_us\":%.3f,\"min_us\":%.3f,\"max_us\":%.3f,"
               "\"p50_us\":%.3f,\"p90_us\":%.3f,\"p99_us\":%.3f,"
               "\"slowest_rank\":%d,\"iters\":%d}\n",
               o->coll, algo, n, bytes, avg, mn, mx, pct(worst, iters, 0.5),
               pct(worst, iters, 0.9), pct(worst, iters, 0.99), slowest,
               iters);
    else
        printf("%-10zu %10.2f %10.2f %10.2f %10.2f %10.2f %10.2f %8d  %s\n",
               bytes, avg, mn, mx, pct(worst, iters, 0.5),
               pct(worst, iters, 0.9), pct(worst, iters, 0.99), slowest, algo);
    fflush(stdout);
    free(worst);
}

static int default_iters(size_t bytes)
{
    return bytes <= 65536 ? 1000 : bytes <= (1u << 20) ? 100 : 20;
}

/* one message size on this rank; rank 0 prints the result */
static int bench_size(const bench_opts_t *o, mc_comm_t *w, mc_case_t *k,
                      size_t bytes)
{
    int rank = mc_comm_rank(w), n = mc_comm_size(w);
    size_t d = mc_dtype_size(k->dt);
    k->count = k->coll == MC_COLL_BARRIER ? 0 : (bytes + d - 1) / d;
    int iters = o->iters > 0 ? o->iters : default_iters(bytes);
    int warm = o->warmup > 0 ? o->warmup : iters / 10 + 1;
    mc_case_bufs_t b;
    if (mc_case_alloc(k, rank, n, &b) != MC_OK)
        return MC_ERR_NOMEM;
    mc_case_fill(k, rank, n, &b);
    double *t = malloc(sizeof(double) * (size_t)iters);
    double *all = rank == 0 ? malloc(sizeof(double) * (size_t)iters * n)
                            : NULL;
    char msg[512];
    int rc = MC_OK;
    for (int i = -warm; i < iters && rc == MC_OK; i++) {
        rc = mc_barrier(w);
        double t0 = now_us();
        if (rc == MC_OK)
            rc = mc_case_run(w, k, &b);
        double t1 = now_us();
        if (i >= 0)
            t[i] = t1 - t0;
        if (rc == MC_OK && o->check) {
            if (mc_case_verify(k, rank, n, &b, msg, sizeof msg)) {
                fprintf(stderr, "manycoll bench: wrong result: %s\n", msg);
                rc = MC_ERR_INTERNAL;
            }
            mc_case_fill(k, rank, n, &b);
        }
    }
    if (rc == MC_OK)
        rc = mc_gather(w, t, all, (size_t)iters, MC_FLOAT64, 0);
    if (rc == MC_OK && rank == 0) {
        char algo[128];
        mc_select_describe(w, k->coll, k->count * d, k->op, algo, sizeof algo);
        report(o, w, algo, k->count * d, all, iters);
    }
    free(t);
    free(all);
    mc_case_free(&b);
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
    if (o.algo && (rc = mc_comm_set_algo(w, o.coll, o.algo)) != MC_OK) {
        fprintf(stderr, "manycoll bench: %s\n", mc_last_error());
        return 2;
    }
    if (mc_comm_rank(w) == 0 && !o.json)
        printf("# manycoll bench: %s, %d ranks, %s %s, times in us\n"
               "%-10s %10s %10s %10s %10s %10s %10s %8s  %s\n",
               o.coll, mc_comm_size(w), o.dtype, o.op, "bytes", "avg", "min",
               "max", "p50", "p90", "p99", "slowest", "algorithm");
    int nsizes = k.coll == MC_COLL_BARRIER ? 1 : o.nsizes;
    for (int s = 0; s < nsizes && rc == MC_OK; s++)
        rc = bench_size(&o, w, &k, o.sizes[s]);
    if (rc != MC_OK)
        fprintf(stderr, "manycoll bench: rank %d: %s\n", mc_comm_rank(w),
                mc_last_error());
    mc_finalize();
    return rc == MC_OK ? 0 : 1;
}
