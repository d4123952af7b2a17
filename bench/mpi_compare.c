/*
 * mpi_compare: MPI's collectives against manycoll's, in the same processes.
 *
 *   mpirun -n 2 mpi_compare [--colls LIST] [--sizes LIST] [--iters N]
 *                           [--warmup W] [--max-seconds S] [--order alt|ab]
 *                           [--lib both|mpi|mc] [--root R] [--json] [--quiet]
 *                           [--sides mpi,mc|pmpi,lib|lib,mc|mc,mc+progress]
 *                           [--loop B] [-h|--help]
 *
 * Rank 0 makes a job name (mc_job_name) and sends it by MPI_Bcast; every
 * rank then joins a manycoll communicator over the same ranks
 * (mc_comm_create_shm). Per case (collective, size), each iteration is
 *
 *     for lib in order:   poison lib's output; MPI_Barrier;
 *                         t0; lib's collective; t1
 *     verify both outputs: against each other and the expected values
 *
 * with identical arguments and separate (identically filled) buffers for
 * the two libraries. With --order alt (the default) odd iterations run
 * manycoll first, so neither library always follows the other; --order ab
 * is strictly MPI, manycoll, MPI, manycoll, ... After the loop, not during
 * it, each rank's times are reduced with MPI_MAX: the time of one call is
 * the time of its slowest rank. Reported per case: median and p90 of those
 * per-call times for each library, `ratio` = MPI median / manycoll median
 * (> 1: manycoll is faster) and `paired` = median over iterations of
 * (MPI time / manycoll time) of the same iteration, which cancels slow
 * drifts of the machine (the two calls of an iteration are microseconds
 * apart).
 *
 * --max-seconds S caps each case: the warm-up stops after S/5 seconds and
 * the measurement after S (by rank 0's clock, sent with MPI_Bcast after
 * every iteration, outside the timed calls). For slow oversubscribed runs.
 *
 * --loop B times B calls back to back instead of one (the barrier comes
 * before the B calls; the time of a call is the block's over B): the view
 * of a program that calls the collective in a loop, where a root may run
 * ahead of its peers. One call after a barrier (B = 0, the default, and
 * OSU's and IMB's way) measures also who leaves the barrier first, which
 * with more ranks than CPUs depends on the scheduler.
 *
 * --lib mpi or --lib mc runs one library only, separated by the other
 * library's barrier: bench/icount counts instructions that way.
 *
 * --sides, with libmanycoll_mpi preloaded: "pmpi,lib" times PMPI_X (the MPI
 * alone) against MPI_X (the MPI with the library), "lib,mc" MPI_X (the
 * library) against manycoll called directly; the default "mpi,mc" is MPI_X
 * against manycoll; "mc,mc+progress" manycoll against manycoll with the
 * MPI progress function that libmanycoll_mpi gives it (mc_set_progress:
 * what MPI's progress rule costs a waiting rank). Either way side A is
 * reported as "mpi", side B as "mc".
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, strtok_r */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mpi_compare.h"

#define MAX_SIZES 32

typedef struct opts {
    int colls[CO_COUNT], ncolls;
    size_t sizes[MAX_SIZES];
    int nsizes;
    int iters, warmup, root, json, quiet, alt, lib; /* lib: -1 = both */
    int loop; /* calls per timed block, 0 = one */
    const char *sides;
    double max_seconds;
} opts_t;

static const char default_sizes[] = "8,64,1K,8K,64K,1M,16M";

static const char usage_text[] =
    "usage: mpirun -n P mpi_compare [--colls LIST|all] [--sizes LIST] "
    "[--iters N] [--warmup W]\n"
    "         [--max-seconds S] [--order alt|ab] [--lib both|mpi|mc] "
    "[--root R] [--loop B] [--json] [--quiet]\n"
    "         [--sides mpi,mc|pmpi,lib|lib,mc|mc,mc+progress]\n"
    "  collectives: barrier bcast reduce allreduce allgather alltoall "
    "reduce_scatter_block\n"
    "         (all: those seven), gather scatter\n"
    "  sizes: bytes, e.g. 8,64,1K,8K,64K,1M,16M (per rank block for "
    "allgather, alltoall,\n"
    "         reduce_scatter_block, gather, scatter; the whole vector "
    "otherwise)\n";

/* -h, --help: the usage and what the options do, on stdout */
static int help(int rank)
{
    if (rank == 0)
        printf("%s\n"
               "MPI's collectives against manycoll's in the same processes, "
               "interleaved call by\ncall; reported per case: p50 and p90 "
               "of each side, ratio = A median / B median\nand paired = "
               "median of A/B per iteration (> 1: side B is faster).\n\n"
               "  --colls LIST     collectives (default all)\n"
               "  --sizes LIST     message sizes (default %s)\n"
               "  --iters N, --warmup W  timed and untimed iterations per "
               "case\n"
               "  --max-seconds S  cap each case at S seconds\n"
               "  --order alt|ab   alternate which side goes first (alt, "
               "the default) or not\n"
               "  --lib both|mpi|mc  run one side only (bench/icount)\n"
               "  --root R         root of rooted collectives (default 0)\n"
               "  --loop B         time B calls back to back instead of one "
               "after a barrier\n"
               "  --sides A,B      what sides A and B are (reported as "
               "\"mpi\" and \"mc\"):\n"
               "                   mpi,mc  MPI_X against manycoll (the "
               "default)\n"
               "                   pmpi,lib  PMPI_X (the MPI alone) against "
               "MPI_X, with\n"
               "                           libmanycoll_mpi preloaded (the "
               "drop-in's gain)\n"
               "                   lib,mc  MPI_X through the preloaded "
               "library against manycoll\n"
               "                   mc,mc+progress  manycoll without and "
               "with MPI's progress function\n"
               "  --json, --quiet  JSON lines; no progress on stderr\n"
               "  -h, --help       this text\n",
               usage_text, default_sizes);
    return -1; /* main: exit 0 */
}

static int usage(int rank, const char *fmt, const char *arg)
{
    if (rank == 0) {
        fprintf(stderr, "mpi_compare: ");
        fprintf(stderr, fmt, arg);
        fprintf(stderr, "\n%s", usage_text);
    }
    return 2;
}

/* "8", "1K", "16M", "64KiB" -> bytes, or -1 */
static long long parse_size(const char *s)
{
    char *end;
    long long v = strtoll(s, &end, 10);
    if (end == s || v < 0)
        return -1;
    if (*end == 'k' || *end == 'K')
        v <<= 10, end++;
    else if (*end == 'm' || *end == 'M')
        v <<= 20, end++;
    if (!strcmp(end, "iB") || !strcmp(end, "B"))
        end += strlen(end);
    return *end ? -1 : v;
}

static int parse_list(const char *arg, opts_t *o, int sizes)
{
    char buf[512];
    if (strlen(arg) >= sizeof buf)
        return -1;
    strcpy(buf, arg);
    int *n = sizes ? &o->nsizes : &o->ncolls;
    *n = 0;
    if (!sizes && !strcmp(arg, "all")) {
        for (int c = 0; c < CO_ALL; c++)
            o->colls[o->ncolls++] = c;
        return 0;
    }
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        coll_t c;
        long long v = sizes ? parse_size(t) : 0;
        if (sizes ? v < 0 || *n >= MAX_SIZES
                  : coll_from_name(t, &c) != 0 || *n >= CO_COUNT)
            return -1;
        if (sizes)
            o->sizes[(*n)++] = (size_t)v;
        else
            o->colls[(*n)++] = (int)c;
    }
    return *n > 0 ? 0 : -1;
}

static int parse_opt(opts_t *o, const char *a, const char *v, int rank)
{
    if (!strcmp(a, "--colls")) {
        if (parse_list(v, o, 0))
            return usage(rank, "--colls: cannot parse '%s'", v);
    } else if (!strcmp(a, "--sizes")) {
        if (parse_list(v, o, 1))
            return usage(rank, "--sizes: cannot parse '%s'", v);
    } else if (!strcmp(a, "--iters")) {
        o->iters = atoi(v);
    } else if (!strcmp(a, "--warmup")) {
        o->warmup = atoi(v);
    } else if (!strcmp(a, "--loop")) {
        o->loop = atoi(v);
        if (o->loop < 0)
            return usage(rank, "--loop: '%s' is not a count of calls", v);
    } else if (!strcmp(a, "--root")) {
        o->root = atoi(v);
    } else if (!strcmp(a, "--max-seconds")) {
        o->max_seconds = atof(v);
    } else if (!strcmp(a, "--order")) {
        if (strcmp(v, "alt") && strcmp(v, "ab"))
            return usage(rank, "--order: '%s' is not alt or ab", v);
        o->alt = !strcmp(v, "alt");
    } else if (!strcmp(a, "--sides")) {
        if (strcmp(v, "mpi,mc") && strcmp(v, "pmpi,lib") &&
            strcmp(v, "lib,mc") && strcmp(v, "mc,mc+progress"))
            return usage(rank, "--sides: '%s' is not mpi,mc, pmpi,lib, "
                               "lib,mc or mc,mc+progress", v);
        side_a_pmpi = !strcmp(v, "pmpi,lib");
        side_b_lib = side_a_pmpi;
        side_progress = !strcmp(v, "mc,mc+progress");
        o->sides = v;
    } else if (!strcmp(a, "--lib")) {
        if (strcmp(v, "both") && strcmp(v, "mpi") && strcmp(v, "mc"))
            return usage(rank, "--lib: '%s' is not both, mpi or mc", v);
        o->lib = !strcmp(v, "mpi") ? LIB_MPI : !strcmp(v, "mc") ? LIB_MC : -1;
    } else {
        return usage(rank, "unknown option '%s'", a);
    }
    return 0;
}

static int parse(int argc, char **argv, opts_t *o, int rank, int size)
{
    memset(o, 0, sizeof *o);
    o->alt = 1;
    o->lib = -1;
    o->warmup = -1;
    o->sides = "mpi,mc";
    parse_list("all", o, 0);
    parse_list(default_sizes, o, 1);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--json")) { o->json = 1; continue; }
        if (!strcmp(a, "--quiet")) { o->quiet = 1; continue; }
        if (!strcmp(a, "-h") || !strcmp(a, "--help"))
            return help(rank);
        if (i + 1 >= argc)
            return usage(rank, "option '%s' needs a value or is unknown", a);
        int rc = parse_opt(o, a, argv[++i], rank);
        if (rc)
            return rc;
    }
    if (o->root < 0 || o->root >= size)
        return usage(rank, "--root: must be a rank of the job (%s)",
                     size > 1 ? "0..P-1" : "0");
    return 0;
}

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

static int default_iters(size_t bytes)
{
    return bytes <= 1024 ? 20000 : bytes <= 8192 ? 10000
           : bytes <= 65536 ? 3000 : bytes <= (1u << 20) ? 500 : 60;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* nearest-rank percentile of n values (sorts v) */
static double pct(double *v, int n, double p)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    int i = (int)(p * n + 0.999999) - 1;
    return v[i < 0 ? 0 : i >= n ? n - 1 : i];
}

/* per-iteration times kept: the two libraries' calls, and the first
 * separating barrier of the iteration (the fastest of those tells how fast
 * the placement of the ranks was during the case: it is the latency floor
 * of an MPI_Barrier) */
enum { T_SEP = LIB_COUNT, T_COUNT };

typedef struct result {
    int iters, warmup;
    double p50[LIB_COUNT], p90[LIB_COUNT], paired, sep_min;
} result_t;

/* rank 0: statistics of the per-call maxima t[lib][i] */
static void stats(double *t[T_COUNT], int n, const opts_t *o, result_t *r)
{
    double *ratio = malloc(sizeof(double) * (size_t)n);
    double *tmp = malloc(sizeof(double) * (size_t)n);
    for (int i = 0; i < n; i++)
        ratio[i] = o->lib < 0 ? t[LIB_MPI][i] / t[LIB_MC][i] : 0;
    r->paired = pct(ratio, n, 0.5);
    for (int l = 0; l < LIB_COUNT; l++) {
        memcpy(tmp, t[l], sizeof(double) * (size_t)n);
        r->p50[l] = pct(tmp, n, 0.5);
        memcpy(tmp, t[l], sizeof(double) * (size_t)n);
        r->p90[l] = pct(tmp, n, 0.9);
    }
    memcpy(tmp, t[T_SEP], sizeof(double) * (size_t)n);
    r->sep_min = pct(tmp, n, 0);
    free(ratio);
    free(tmp);
}

static void print_result(const opts_t *o, const bench_case_t *k,
                         const result_t *r, const char *mpi_name)
{
    double ratio = r->p50[LIB_MC] > 0 ? r->p50[LIB_MPI] / r->p50[LIB_MC] : 0;
    if (o->json) {
        printf("{\"mpi\":\"%s\",\"ranks\":%d,\"coll\":\"%s\",\"bytes\":%zu,"
               "\"count\":%zu,\"dtype\":\"%s\",\"root\":%d,\"iters\":%d,"
               "\"warmup\":%d,\"loop\":%d,\"order\":\"%s\",\"lib\":\"%s\",\"sides\":\"%s\","
               "\"mpi_p50_us\":%.3f,\"mpi_p90_us\":%.3f,\"mc_p50_us\":%.3f,"
               "\"mc_p90_us\":%.3f,\"ratio_p50\":%.3f,\"ratio_paired\":%.3f,"
               "\"sep_barrier_min_us\":%.3f,\"verified\":true}\n",
               mpi_name, k->size, coll_name(k->coll), k->bytes, k->count,
               k->coll == CO_BARRIER ? "none"
               : coll_is_reduction(k->coll) ? "float64" : "byte",
               k->root, r->iters, r->warmup, o->loop, o->alt ? "alt" : "ab",
               o->lib < 0 ? "both" : o->lib == LIB_MPI ? "mpi" : "mc",
               o->sides, r->p50[LIB_MPI], r->p90[LIB_MPI], r->p50[LIB_MC],
               r->p90[LIB_MC], ratio, r->paired, r->sep_min);
    } else {
        printf("%-21s %9zu %6d %10.2f %10.2f %10.2f %10.2f %7.2f %7.2f "
               "%7.2f\n", coll_name(k->coll), k->bytes, r->iters,
               r->p50[LIB_MPI], r->p90[LIB_MPI], r->p50[LIB_MC],
               r->p90[LIB_MC], ratio, r->paired, r->sep_min);
    }
    fflush(stdout);
}

static void fail(const bench_case_t *k, const char *what, const char *msg)
{
    fprintf(stderr, "mpi_compare: rank %d of %d: %s %zu B: %s: %s\n",
            k->rank, k->size, coll_name(k->coll), k->bytes, what, msg);
    MPI_Abort(MPI_COMM_WORLD, 3);
}

/* the barrier between iterations: MPI's, unless only MPI is measured */
static void separate(const bench_case_t *k, const opts_t *o)
{
    if (o->lib == LIB_MPI && k->mc) {
        int rc = mc_barrier(k->mc);
        if (rc != MC_OK)
            fail(k, "manycoll barrier between iterations", mc_last_error());
    } else {
        PMPI_Barrier(k->mpi); /* the MPI's own, with or without the library */
    }
}

/* one iteration (it < 0: warm-up): the libraries in turn, then the check;
 * returns 1 if rank 0 says the time of the case (or of its warm-up) is up,
 * which is asked every iteration, outside the timed calls, only when
 * --max-seconds is given */
static int iteration(bench_case_t *k, const opts_t *o, int it, double t0,
                     double *t[T_COUNT])
{
    char msg[512];
    for (int j = 0; j < LIB_COUNT; j++) {
        int lib = (o->alt && (it & 1)) ? LIB_COUNT - 1 - j : j;
        if (o->lib >= 0 && lib != o->lib)
            continue;
        case_poison(k, lib);
        double s0 = now_us();
        separate(k, o);
        double a = now_us();
        if (it >= 0 && j == 0)
            t[T_SEP][it] = a - s0;
        int calls = o->loop > 0 ? o->loop : 1, bad = 0;
        for (int n = 0; n < calls && !bad; n++)
            bad = case_run(k, lib, msg, sizeof msg);
        double b = now_us();
        if (bad)
            fail(k, "call failed", msg);
        if (it >= 0)
            t[lib][it] = (b - a) / calls;
    }
    if (case_verify(k, o->lib, msg, sizeof msg))
        fail(k, "wrong result", msg);
    if (o->max_seconds <= 0)
        return 0;
    /* warm-up gets a fifth of the time; rank 0's clock decides for all */
    double limit = it < 0 ? o->max_seconds / 5 : o->max_seconds;
    int stop = k->rank == 0 && (now_us() - t0) * 1e-6 > limit;
    MPI_Bcast(&stop, 1, MPI_INT, 0, k->mpi);
    return stop;
}

/* one (collective, size) case; rank 0 prints the result */
static void run_case(bench_case_t *k, const opts_t *o, const char *mpi_name)
{
    if (case_setup(k) != 0)
        fail(k, "setup", "out of memory");
    int calls = o->loop > 0 ? o->loop : 1;
    result_t r = {.iters = o->iters > 0 ? o->iters
                                        : (default_iters(k->bytes) + calls - 1)
                                              / calls};
    r.warmup = o->warmup >= 0 ? o->warmup : r.iters / 10 + 2;
    double *t[T_COUNT], *all[T_COUNT];
    for (int l = 0; l < T_COUNT; l++) {
        t[l] = calloc((size_t)r.iters, sizeof(double));
        all[l] = calloc((size_t)r.iters, sizeof(double));
        if (!t[l] || !all[l])
            fail(k, "setup", "out of memory");
    }
    double t0 = now_us();
    int done = r.iters;
    for (int it = -r.warmup; it < r.iters; it++) {
        if (!iteration(k, o, it, t0, t))
            continue;
        if (it >= 0) {
            done = it + 1;
            break;
        }
        it = -1; /* warm-up time is up: start measuring */
    }
    for (int l = 0; l < T_COUNT; l++)
        MPI_Reduce(t[l], all[l], done, MPI_DOUBLE, MPI_MAX, 0, k->mpi);
    r.iters = done;
    if (k->rank == 0) {
        stats(all, done, o, &r);
        print_result(o, k, &r, mpi_name);
        if (!o->quiet)
            fprintf(stderr, "mpi_compare: %s %zu B: %d iterations in %.1f s, "
                    "verified\n", coll_name(k->coll), k->bytes, done,
                    (now_us() - t0) * 1e-6);
    }
    for (int l = 0; l < T_COUNT; l++) {
        free(t[l]);
        free(all[l]);
    }
    case_free(k);
}

/* "Open MPI v4.1.4" or "MPICH 4.0.2" from MPI_Get_library_version */
static void mpi_name(char *out, size_t len)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int n = 0;
    MPI_Get_library_version(v, &n);
    v[strcspn(v, ",\n")] = 0;
    const char *p = v, *prefix = "";
    const char *m = strstr(v, "MPICH Version:");
    if (m) {
        p = m + strlen("MPICH Version:");
        p += strspn(p, " \t");
        prefix = "MPICH ";
    }
    size_t a = strlen(prefix), b = strlen(p);
    if (a + b >= len)
        b = len - 1 - a;
    memcpy(out, prefix, a);
    memcpy(out + a, p, b);
    out[a + b] = 0;
}

/* the manycoll communicator over MPI_COMM_WORLD's ranks, on one node */
static mc_comm_t *join(int rank, int size)
{
    MPI_Comm node;
    int nsize;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
                        MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &nsize);
    MPI_Comm_free(&node);
    if (nsize != size) {
        if (rank == 0)
            fprintf(stderr, "mpi_compare: the %d ranks must share one node "
                    "(this node has %d of them)\n", size, nsize);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    char job[MC_JOB_NAME_MAX] = "";
    int rc = rank == 0 ? mc_job_name(job, sizeof job) : MC_OK;
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rc != MC_OK) {
        if (rank == 0)
            fprintf(stderr, "mpi_compare: mc_job_name: %s\n",
                    mc_last_error());
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Bcast(job, MC_JOB_NAME_MAX, MPI_CHAR, 0, MPI_COMM_WORLD);
    mc_comm_t *mc = NULL;
    rc = mc_comm_create_shm(job, rank, size, &mc);
    if (rc != MC_OK) {
        fprintf(stderr, "mpi_compare: rank %d: mc_comm_create_shm: %s\n",
                rank, mc_last_error());
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return mc;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    opts_t o;
    int rc = parse(argc, argv, &o, rank, size);
    if (rc) {
        MPI_Finalize();
        return rc < 0 ? 0 : rc; /* -1: --help */
    }
    /* "pmpi,lib" compares two MPI paths only: it runs across nodes too */
    mc_comm_t *mc = strcmp(o.sides, "pmpi,lib") ? join(rank, size) : NULL;
    char name[96];
    mpi_name(name, sizeof name);
    if (rank == 0 && !o.json)
        printf("# mpi_compare: %s vs manycoll %d.%d, %d ranks, order %s; "
               "times in us, per call the slowest rank\n"
               "# ratio = MPI p50 / manycoll p50 (> 1: manycoll faster); "
               "paired = median of per-iteration MPI/manycoll;\n"
               "# sep = fastest separating MPI_Barrier of the case (how fast "
               "the placement of the ranks was)\n"
               "%-21s %9s %6s %10s %10s %10s %10s %7s %7s %7s\n",
               name, MANYCOLL_VERSION_MAJOR, MANYCOLL_VERSION_MINOR, size,
               o.alt ? "alternating" : "MPI first", "coll", "bytes", "iters",
               "mpi_p50", "mpi_p90", "mc_p50", "mc_p90", "ratio", "paired",
               "sep");
    for (int c = 0; c < o.ncolls; c++) {
        int nsizes = o.colls[c] == CO_BARRIER ? 1 : o.nsizes;
        for (int s = 0; s < nsizes; s++) {
            bench_case_t k = {.coll = (coll_t)o.colls[c], .rank = rank,
                              .size = size, .root = o.root,
                              .mpi = MPI_COMM_WORLD, .mc = mc};
            k.bytes = k.coll == CO_BARRIER ? 0 : o.sizes[s];
            run_case(&k, &o, name);
        }
    }
    case_progress_end();
    if (mc)
        mc_comm_free(mc);
    MPI_Finalize();
    return 0;
}
