/*
 * comm_churn: a run shaped like an MPI test suite's collective class
 * (issue 44): many communicators made and freed, every datatype,
 * derived ones with gaps among them, the collectives on each, through
 * libmanycoll_mpi and through the MPI alone, in the same processes.
 *
 *   mpirun -n 4 [-x LD_PRELOAD=libmanycoll_mpi_openmpi.so] comm_churn
 *          [--reps N] [--warmup W] [--counts 1,100,10000,65536]
 *          [--kinds dup,halves,reversed,oddeven,shared,create]
 *          [--side both|mpi|lib] [--json]
 *
 * Per repetition, per kind of communicator, each side in turn (which one
 * goes first alternates) does
 *
 *     create   make the communicator (MPI_Comm_dup, _split in halves,
 *              _split in reversed order, _split odd/even,
 *              _split_type(MPI_COMM_TYPE_SHARED), _create from the group
 *              of all ranks but the last) and the derived datatypes, and
 *              a first MPI_Barrier on it (where a lazy library sets up)
 *     <type>   for each datatype (comm_churn_types.c) and count: bcast,
 *              gather, scatter, reduce, allreduce, allgather, alltoall,
 *              barrier, every result checked (only the calls are timed)
 *     free     free the datatypes and the communicator
 *
 * Side "lib" calls MPI_X (libmanycoll_mpi's when it is preloaded), side
 * "mpi" calls PMPI_X, including PMPI_Comm_dup/split/free, so the library
 * never sees its communicators and makes no state for them. Without the
 * library preloaded both sides are the MPI: the ratios then say what the
 * noise is. --side mpi or lib runs one side only (for callgrind).
 *
 * Each phase's time is a rank's sum over the kinds of communicator; the
 * time of a phase is its slowest rank's (MPI_MAX, after the loop). Reported
 * per phase: the median over repetitions of each side and
 * ratio = mpi / lib (> 1: the library is faster, the convention),
 * and for the total also paired = the median of the per-repetition ratios.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comm_churn.h"

const side_t churn_sides[SIDES] = {
    [SIDE_MPI] = {"mpi", PMPI_Comm_dup, PMPI_Comm_split,
                  PMPI_Comm_split_type, PMPI_Comm_create, PMPI_Comm_free,
                  PMPI_Type_contiguous, PMPI_Type_vector,
                  PMPI_Type_create_struct, PMPI_Type_create_resized,
                  PMPI_Type_commit, PMPI_Type_free, PMPI_Barrier, PMPI_Bcast,
                  PMPI_Reduce, PMPI_Allreduce, PMPI_Gather, PMPI_Scatter,
                  PMPI_Allgather, PMPI_Alltoall},
    [SIDE_LIB] = {"lib", MPI_Comm_dup, MPI_Comm_split, MPI_Comm_split_type,
                  MPI_Comm_create, MPI_Comm_free, MPI_Type_contiguous,
                  MPI_Type_vector, MPI_Type_create_struct,
                  MPI_Type_create_resized, MPI_Type_commit, MPI_Type_free,
                  MPI_Barrier, MPI_Bcast, MPI_Reduce, MPI_Allreduce,
                  MPI_Gather, MPI_Scatter, MPI_Allgather, MPI_Alltoall},
};

enum { K_DUP, K_HALVES, K_REVERSED, K_ODDEVEN, K_SHARED, K_CREATE, NKINDS };
static const char *const kind_names[NKINDS] = {
    "dup", "halves", "reversed", "oddeven", "shared", "create"};

/* phases: create, one per datatype, free, and the total */
enum { PH_CREATE = 0, PH_TYPE0 = 1, PH_FREE = PH_TYPE0 + NTYPES, PH_TOTAL,
       NPH };

#define MAX_COUNTS 16

typedef struct opts {
    int reps, warmup, json, ncounts, kinds[NKINDS], nkinds;
    int only; /* --side: -1 both, else the one side run */
    int counts[MAX_COUNTS];
} opts_t;

static int rank, size;
static MPI_Group create_group; /* K_CREATE's: all ranks but the last */

static int usage(const char *what, const char *arg)
{
    if (rank == 0)
        fprintf(stderr,
                "comm_churn: %s '%s'\nusage: mpirun -n P comm_churn "
                "[--reps N] [--warmup W] [--counts LIST] [--kinds LIST]\n"
                "         [--side both|mpi|lib] [--json]\n"
                "  kinds: dup halves reversed oddeven shared create\n",
                what, arg);
    return 2;
}

static int parse_kinds(opts_t *o, char *v)
{
    o->nkinds = 0;
    for (char *t = strtok(v, ","); t; t = strtok(NULL, ",")) {
        int k = 0;
        while (k < NKINDS && strcmp(t, kind_names[k]))
            k++;
        if (k == NKINDS || o->nkinds == NKINDS)
            return usage("--kinds: unknown kind", t);
        o->kinds[o->nkinds++] = k;
    }
    return o->nkinds ? 0 : usage("--kinds: empty", v);
}

static int parse(int argc, char **argv, opts_t *o)
{
    static const int dflt[] = {1, 100, 10000, 65536};
    *o = (opts_t){.reps = 5, .warmup = 1, .ncounts = 4, .nkinds = NKINDS,
                  .only = -1};
    memcpy(o->counts, dflt, sizeof dflt);
    for (int k = 0; k < NKINDS; k++)
        o->kinds[k] = k;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--json")) {
            o->json = 1;
            continue;
        }
        if (i + 1 >= argc)
            return usage("option needs a value or is unknown:", a);
        char *v = argv[++i];
        if (!strcmp(a, "--reps") && (o->reps = atoi(v)) > 0)
            continue;
        if (!strcmp(a, "--warmup") && (o->warmup = atoi(v)) >= 0)
            continue;
        if (!strcmp(a, "--side")) {
            o->only = !strcmp(v, "mpi") ? SIDE_MPI
                      : !strcmp(v, "lib") ? SIDE_LIB : -1;
            if (o->only < 0 && strcmp(v, "both"))
                return usage("--side: not mpi, lib or both:", v);
            continue;
        }
        if (!strcmp(a, "--kinds")) {
            if (parse_kinds(o, v))
                return 2;
            continue;
        }
        if (strcmp(a, "--counts"))
            return usage("unknown option or bad value:", a);
        o->ncounts = 0;
        for (char *t = strtok(v, ","); t; t = strtok(NULL, ",")) {
            if (o->ncounts == MAX_COUNTS || atoi(t) < 0)
                return usage("--counts: bad count", t);
            o->counts[o->ncounts++] = atoi(t);
        }
        if (!o->ncounts)
            return usage("--counts: empty", v);
    }
    return 0;
}

static int make_comm(const side_t *f, int kind, MPI_Comm *c)
{
    MPI_Comm w = MPI_COMM_WORLD;
    switch (kind) {
    case K_DUP: return f->comm_dup(w, c);
    case K_HALVES: return f->comm_split(w, rank < size / 2, rank, c);
    case K_REVERSED: return f->comm_split(w, 0, size - rank, c);
    case K_ODDEVEN: return f->comm_split(w, rank % 2, rank, c);
    case K_SHARED:
        return f->comm_split_type(w, MPI_COMM_TYPE_SHARED, rank,
                                  MPI_INFO_NULL, c);
    default: return f->comm_create(w, create_group, c);
    }
}

/* rank 0: what the library's setup reused (mc_mpi_setup_counts and
 * mc_mpi_slice_counts of libmanycoll_mpi, found with dlsym; nothing
 * without the library), as a comment line */
static void setup_counts(void)
{
    int (*counts)(long *, long *, long *) =
        (int (*)(long *, long *, long *))(uintptr_t)dlsym(
            RTLD_DEFAULT, "mc_mpi_setup_counts");
    long (*slices)(void) = (long (*)(void))(uintptr_t)dlsym(
        RTLD_DEFAULT, "mc_mpi_slice_counts");
    long made = 0, reused = 0, local = 0;
    if (rank != 0 || !counts || counts(&made, &reused, &local))
        return;
    printf("# rank 0: node communicators made %ld, reused %ld; topologies "
           "from the world's table %ld; slices reused %ld\n", made, reused,
           local, slices ? slices() : -1L);
}

/* one kind of communicator on one side: its phases' times into ph[] */
static void run_kind(const opts_t *o, const side_t *f, int kind, double *ph)
{
    char msg[256] = "";
    ctype_t t[NTYPES];
    MPI_Comm c = MPI_COMM_NULL;
    /* untimed: every rank starts the side together, so no phase pays
     * for the skew that the previous one left */
    PMPI_Barrier(MPI_COMM_WORLD);
    double t0 = churn_now();
    int rc = make_comm(f, kind, &c);
    if (rc == MPI_SUCCESS)
        rc = churn_types_make(f, t);
    if (rc == MPI_SUCCESS && c != MPI_COMM_NULL)
        rc = f->barrier(c);
    ph[PH_CREATE] += churn_now() - t0;
    if (rc != MPI_SUCCESS)
        snprintf(msg, sizeof msg, "making the communicator failed (%d)", rc);
    for (int i = 0; i < NTYPES && !*msg && c != MPI_COMM_NULL; i++)
        for (int n = 0; n < o->ncounts && !*msg; n++)
            churn_round(f, &t[i], o->counts[n], c, &ph[PH_TYPE0 + i], msg,
                        sizeof msg);
    if (*msg) {
        fprintf(stderr, "comm_churn: rank %d, side %s, communicator %s: "
                        "%s\n", rank, f->name, kind_names[kind], msg);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    t0 = churn_now();
    churn_types_free(f, t);
    if (c != MPI_COMM_NULL)
        f->comm_free(&c);
    ph[PH_FREE] += churn_now() - t0;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static const char *phase_name(int p, char *buf, size_t len)
{
    if (p == PH_CREATE)
        return "create";
    if (p == PH_FREE)
        return "free";
    if (p == PH_TOTAL)
        return "total";
    snprintf(buf, len, "coll %s", churn_type_names[p - PH_TYPE0]);
    return buf;
}

/* rank 0: the medians of t[rep][side][phase] */
static void report(const opts_t *o, const double *t)
{
    double v[2][256], r[256];
    char buf[32], mpi[MPI_MAX_LIBRARY_VERSION_STRING];
    int n = o->reps, len = 0;
    MPI_Get_library_version(mpi, &len);
    mpi[strcspn(mpi, ",\n")] = 0;
    if (!o->json)
        printf("# comm_churn: %s, %d ranks, %d reps; ms per repetition "
               "(all kinds of communicator), slowest rank\n"
               "# ratio = mpi / lib (> 1: the library is faster)\n"
               "%-16s %10s %10s %7s\n",
               mpi, size, n, "phase", "mpi_ms", "lib_ms", "ratio");
    for (int p = 0; p < NPH; p++) {
        for (int i = 0; i < n; i++) {
            for (int s = 0; s < SIDES; s++)
                v[s][i] = t[((size_t)i * SIDES + (size_t)s) * NPH + (size_t)p];
            r[i] = v[SIDE_LIB][i] > 0 ? v[SIDE_MPI][i] / v[SIDE_LIB][i] : 0;
        }
        double m = median(v[SIDE_MPI], n) * 1e3;
        double l = median(v[SIDE_LIB], n) * 1e3;
        double paired = median(r, n);
        const char *name = phase_name(p, buf, sizeof buf);
        if (o->json)
            printf("{\"mpi\":\"%s\",\"ranks\":%d,\"reps\":%d,\"phase\":\"%s\","
                   "\"mpi_ms\":%.4f,\"lib_ms\":%.4f,\"ratio\":%.4f,"
                   "\"paired\":%.4f}\n",
                   mpi, size, n, name, m, l, l > 0 ? m / l : 0, paired);
        else
            printf("%-16s %10.3f %10.3f %7.3f%s\n", name, m, l,
                   l > 0 ? m / l : 0, p == PH_TOTAL ? "" : "");
        if (!o->json && p == PH_TOTAL)
            printf("%-16s %10s %10s %7.3f\n", "total, paired", "", "",
                   paired);
    }
}

int main(int argc, char **argv)
{
    opts_t o;
    MPI_Init(&argc, &argv);
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    int rc = parse(argc, argv, &o);
    if (rc || o.reps > 256) {
        MPI_Finalize();
        return rc ? rc : usage("--reps: at most 256, not", "more");
    }
    int maxc = 0;
    for (int i = 0; i < o.ncounts; i++)
        maxc = o.counts[i] > maxc ? o.counts[i] : maxc;
    MPI_Group world;
    PMPI_Comm_group(MPI_COMM_WORLD, &world);
    int last[1] = {size - 1};
    PMPI_Group_excl(world, size > 2 ? 1 : 0, last, &create_group);
    PMPI_Group_free(&world);
    size_t nt = (size_t)o.reps * SIDES * NPH;
    double *t = calloc(nt, sizeof *t), *tmax = calloc(nt, sizeof *t);
    if (!t || !tmax || churn_buffers((size_t)maxc, size)) {
        fprintf(stderr, "comm_churn: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int rep = -o.warmup; rep < o.reps; rep++) {
        double junk[SIDES * NPH];
        double *row = rep < 0 ? junk : t + (size_t)rep * SIDES * NPH;
        memset(junk, 0, sizeof junk);
        for (int k = 0; k < o.nkinds; k++)
            for (int j = 0; j < SIDES; j++) {
                int s = (rep + k + j) % 2 ? SIDE_LIB : SIDE_MPI;
                if (o.only >= 0 && s != o.only)
                    continue;
                run_kind(&o, &churn_sides[s], o.kinds[k], row + s * NPH);
            }
        for (int s = 0; s < SIDES; s++)
            for (int p = 0; p < PH_TOTAL; p++)
                row[s * NPH + PH_TOTAL] += row[s * NPH + p];
    }
    PMPI_Reduce(t, tmax, (int)nt, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        report(&o, tmax);
    setup_counts();
    free(t);
    free(tmax);
    churn_buffers_free();
    PMPI_Group_free(&create_group);
    MPI_Finalize();
    return 0;
}
