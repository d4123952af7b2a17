/*
 * The pick across nodes (src/mpi/pick.c): on a communicator spanning
 * "nodes" (MC_MPI_NODE_SIZE), each of the hierarchy's collectives at 8 B,
 * 1 KiB and 64 KiB is called N times (20: the 16 trial calls and 4 after
 * the decision), with the root moving and new data every call, and every
 * result is checked. Then, per collective and size, every rank asks the
 * library (mc_mpi_pick) what was decided, and the ranks compare:
 *
 *   test_mpi_pick --expect SPEC [--calls N] [--quick] [--after K]
 *
 * SPEC is MC_MPI_HIER_PICK's syntax ("measure", "mpi,allreduce:hier",
 * ...) and must be the value the run has; --quick: 8 B and 64 KiB only
 * (for MPIs that are slow oversubscribed); "skew" stands for measure under
 * MC_MPI_HIER_PICK_SKEW, where MPI must win at 8 B and the hierarchy at
 * the larger sizes. After the matrix, WRONG_CALLS 8-byte int16 sums
 * (MPI_Allreduce of 4 MPI_SHORT), a reduction Open MPI gets wrong, which
 * must stay in the hierarchy even where 8-byte allreduces were sent to
 * MPI. Checked:
 *   - every (collective, size) reached a decision, the same on every rank,
 *     with the same two times on every rank (the slowest rank's), both
 *     measured (between 0 and 10 s), and the forced side where SPEC
 *     forces one;
 *   - the calls went where the decisions say: per collective,
 *     mc_mpi_query's counts are exactly the trial's (8 each side per
 *     size) plus the calls after it on the side chosen.
 * --after K: the run has MC_MPI_HIER_AFTER at K (the library's default
 * if unset), so the communicator's first K - 1 calls of each collective
 * go to MPI before its hierarchy is built (src/mpi/comm.c): they are
 * K - 1 bcasts, an int16 sum that must wrap (Open MPI's own saturates:
 * the library hands it manycoll's kernel as the op) and then K - 1
 * barriers on the fresh communicator, checked to be MPI's (the
 * communicator's path still MPI after all of them) and counted in the MPI
 * sides of bcast, reduce and barrier; the matrix's first call,
 * the K-th barrier, builds it. Without --after the run must set
 * MC_MPI_HIER_AFTER=1 (built at the first call).
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "test_mpi.h"

enum { HIER = 1, MPI_SIDE = 2, TRIAL_EACH = 8, TRIALS = 16 };
enum { WRONG_CALLS = 4, ALLREDUCE = 3 };

typedef int (*pick_fn)(MPI_Comm, const char *, long long, int *, double *,
                       double *);
typedef int (*query_fn)(MPI_Comm, const char *, long *, long *, int *);

int rank, failures, cases, quick, small; /* test_mpi.h's */
static int size, calls = 20, after = 1;

static const char *const colls[] = {"barrier", "bcast",  "reduce",
                                    "allreduce", "allgather", "gather",
                                    "scatter", "reduce_scatter_block",
                                    "alltoall"};
#define NCOLL 9
static const long long all_sizes[] = {8, 1024, 65536};
static const long long quick_sizes[] = {8, 65536};
static const long long *sizes = all_sizes;
static int nsizes = 3;

static int val(int r, int it, int i)
{
    return r * 1000 + it * 7 + i % 997;
}

/* the sum over ranks of val(., it, i) */
static int sum(int it, int i)
{
    int s = 0;
    for (int r = 0; r < size; r++)
        s += val(r, it, i);
    return s;
}

static void expect(const char *what, int it, const int *got, int n,
                   int (*want)(int, int, int), int arg)
{
    for (int i = 0; i < n; i++)
        if (got[i] != want(arg, it, i)) {
            FAIL("%s call %d: [%d] = %d, expected %d", what, it, i, got[i],
                 want(arg, it, i));
            return;
        }
}

static int want_val(int r, int it, int i) { return val(r, it, i); }
static int want_sum(int off, int it, int i) { return sum(it, off + i); }
/* allgather, gather: block r holds rank r's values */
static int want_blocks(int n, int it, int i) { return val(i / n, it, i % n); }
/* alltoall: block r holds rank r's block for this rank */
static int want_a2a(int n, int it, int i)
{
    return val(i / n, it, rank * n + i % n);
}

/* one call of collective c with n ints per rank (per block) */
static void one(MPI_Comm comm, int c, int n, int it, int *a, int *b)
{
    int root = it % size, P = size;
    for (int i = 0; i < n * P; i++)
        a[i] = val(rank, it, i);
    memset(b, 0xff, sizeof(int) * (size_t)n * (size_t)P);
    switch (c) {
    case 0:
        MPI_Barrier(comm);
        break;
    case 1:
        MPI_Bcast(rank == root ? a : b, n, MPI_INT, root, comm);
        if (rank != root)
            expect("bcast", it, b, n, want_val, root);
        break;
    case 2:
        MPI_Reduce(a, b, n, MPI_INT, MPI_SUM, root, comm);
        if (rank == root)
            expect("reduce", it, b, n, want_sum, 0);
        break;
    case 3:
        MPI_Allreduce(a, b, n, MPI_INT, MPI_SUM, comm);
        expect("allreduce", it, b, n, want_sum, 0);
        break;
    case 4:
        MPI_Allgather(a, n, MPI_INT, b, n, MPI_INT, comm);
        expect("allgather", it, b, n * P, want_blocks, n);
        break;
    case 5:
        MPI_Gather(a, n, MPI_INT, b, n, MPI_INT, root, comm);
        if (rank == root)
            expect("gather", it, b, n * P, want_blocks, n);
        break;
    case 6:
        for (int i = 0; i < n * P; i++) /* the root's block r: rank r's */
            a[i] = val(root, it, i % n) + (i / n) * 100000;
        MPI_Scatter(a, n, MPI_INT, b, n, MPI_INT, root, comm);
        for (int i = 0; i < n; i++)
            b[i] -= rank * 100000;
        expect("scatter", it, b, n, want_val, root);
        break;
    case 7:
        MPI_Reduce_scatter_block(a, b, n, MPI_INT, MPI_SUM, comm);
        expect("reduce_scatter_block", it, b, n, want_sum, rank * n);
        break;
    default:
        MPI_Alltoall(a, n, MPI_INT, b, n, MPI_INT, comm);
        expect("alltoall", it, b, n * P, want_a2a, n);
        break;
    }
}

/* ---- what SPEC says ---- */

static int mode_of(const char *w, size_t len)
{
    static const char *const m[] = {"measure", "hier", "mpi"};
    for (int i = 0; i < 3; i++)
        if (strlen(m[i]) == len && !strncmp(w, m[i], len))
            return i;
    fprintf(stderr, "test_mpi_pick: bad mode in --expect\n");
    exit(2);
}

/* the mode of collective c under spec: 0 measure, HIER, MPI_SIDE */
static int spec_mode(const char *spec, int c)
{
    int mode = 0;
    for (const char *w = spec; *w;) {
        size_t len = strcspn(w, ","), nl = strlen(colls[c]);
        const char *colon = memchr(w, ':', len);
        if (!colon)
            mode = mode_of(w, len);
        else if ((size_t)(colon - w) == nl && !strncmp(w, colls[c], nl))
            mode = mode_of(colon + 1, len - nl - 1);
        w += len + (w[len] == ',');
    }
    return mode;
}

/* ---- the checks ---- */

/* the decision of (c, bytes), alike on every rank; its choice */
static int decided(pick_fn pick, MPI_Comm comm, int c, long long bytes,
                   int mode, int skew)
{
    int choice = -1;
    double t[3] = {0}, all[3 * 64];
    if (pick(comm, colls[c], bytes, &choice, &t[1], &t[2]))
        FAIL("mc_mpi_pick(%s) failed", colls[c]);
    t[0] = choice;
    /* PMPI: the check's own collective must not be one of the library's */
    PMPI_Allgather(t, 3, MPI_DOUBLE, all, 3, MPI_DOUBLE, MPI_COMM_WORLD);
    for (int r = 1; r < size; r++)
        if (memcmp(all, all + 3 * r, sizeof t))
            FAIL("%s %lld B: rank 0 has %g (hier %g us, mpi %g us), rank "
                 "%d %g (hier %g us, mpi %g us)",
                 colls[c], bytes, all[0], all[1], all[2], r, all[3 * r],
                 all[3 * r + 1], all[3 * r + 2]);
    if (choice != HIER && choice != MPI_SIDE)
        FAIL("%s %lld B: no decision (%d)", colls[c], bytes, choice);
    else if (mode && choice != mode)
        FAIL("%s %lld B: took %d, forced %d", colls[c], bytes, choice, mode);
    else if (!mode && skew && choice != (bytes <= 64 ? MPI_SIDE : HIER))
        FAIL("%s %lld B: took %d, with the skew", colls[c], bytes, choice);
    else if (!mode && !(t[1] > 0 && t[2] > 0 && t[1] < 1e7 && t[2] < 1e7))
        FAIL("%s %lld B: measured %g us and %g us (a side not timed?)",
             colls[c], bytes, t[1], t[2]);
    return choice;
}

static void check(MPI_Comm comm, const char *spec, int skew)
{
    pick_fn pick = (pick_fn)(uintptr_t)dlsym(RTLD_DEFAULT, "mc_mpi_pick");
    query_fn q = (query_fn)(uintptr_t)dlsym(RTLD_DEFAULT, "mc_mpi_query");
    if (!pick || !q) {
        FAIL("libmanycoll_mpi is not loaded (no mc_mpi_pick)");
        return;
    }
    for (int c = 0; c < NCOLL; c++) {
        int mode = spec_mode(spec, c), nsize = c ? nsizes : 1, path;
        long want[3] = {0}, mc = 0, pm = 0;
        if (c <= 1) /* the deferred bcasts and barriers */
            want[MPI_SIDE] += after - 1;
        if (c == 2 && after > 1) /* the deferred int16 reduce */
            want[MPI_SIDE] += 1;
        for (int k = 0; k < nsize; k++) {
            int choice = decided(pick, comm, c, sizes[k], mode, skew);
            if (!mode) {
                want[HIER] += TRIAL_EACH;
                want[MPI_SIDE] += TRIAL_EACH;
            }
            want[choice == MPI_SIDE ? MPI_SIDE : HIER] +=
                mode ? calls : calls - TRIALS;
        }
        if (c == ALLREDUCE)
            want[HIER] += WRONG_CALLS;
        q(comm, colls[c], &mc, &pm, &path);
        if (path != 2)
            FAIL("the communicator took path %d, not the hierarchy", path);
        if (mc != want[HIER] || pm != want[MPI_SIDE])
            FAIL("%s: %ld calls to manycoll and %ld to MPI, expected %ld "
                 "and %ld",
                 colls[c], mc, pm, want[HIER], want[MPI_SIDE]);
    }
}

int main(int argc, char **argv)
{
    const char *spec = "measure";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--expect") && i + 1 < argc)
            spec = argv[++i];
        else if (!strcmp(argv[i], "--calls") && i + 1 < argc)
            calls = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--quick"))
            sizes = quick_sizes, nsizes = 2;
        else if (!strcmp(argv[i], "--after") && i + 1 < argc)
            after = atoi(argv[++i]);
    }
    int skew = !strcmp(spec, "skew");
    if (skew)
        spec = "measure";
    if (calls < TRIALS + 1 || size > 64) {
        fprintf(stderr, "test_mpi_pick: --calls of at least %d, at most 64 "
                        "ranks\n", TRIALS + 1);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    for (int i = 0; i < after - 1; i++) {
        int x = rank ? -1 : i;
        MPI_Bcast(&x, 1, MPI_INT, 0, comm);
        if (x != i)
            FAIL("deferred bcast %d gave %d", i, x);
    }
    if (after > 1) { /* a sum the MPI may get wrong, left to it whole */
        short x[64], y[64];
        unsigned short want = (unsigned short)(20000u * (unsigned)size);
        for (int i = 0; i < 64; i++)
            x[i] = 20000;
        MPI_Reduce(x, y, 64, MPI_SHORT, MPI_SUM, 0, comm);
        for (int i = 0; !rank && i < 64; i++)
            if ((unsigned short)y[i] != want)
                FAIL("deferred int16 sum [%d] = %d, want %d (wrapped)", i,
                     y[i], (short)want);
    }
    for (int i = 0; i < after - 1; i++)
        MPI_Barrier(comm);
    if (after > 1) { /* all of them MPI's, the hierarchy not built yet */
        query_fn q =
            (query_fn)(uintptr_t)dlsym(RTLD_DEFAULT, "mc_mpi_query");
        long mc = -1, pm = -1;
        int path = -1;
        if (!q || q(comm, NULL, &mc, &pm, &path) || mc || path ||
            pm != 2 * (after - 1) + 1)
            FAIL("after %d bcasts and barriers and a reduce: %ld to "
                 "manycoll, %ld to MPI, path %d; expected 0, %d and 0 "
                 "(deferred)", after - 1, mc, pm, path, 2 * (after - 1) + 1);
    }
    size_t most = (size_t)sizes[nsizes - 1] / sizeof(int) * (size_t)size;
    int *a = malloc(sizeof(int) * most), *b = malloc(sizeof(int) * most);
    for (int c = 0; c < NCOLL; c++)
        for (int k = 0; k < (c ? nsizes : 1); k++)
            for (int it = 0; it < calls; it++)
                one(comm, c, (int)(sizes[k] / (long long)sizeof(int)), it, a,
                    b);
    for (int it = 0; it < WRONG_CALLS; it++) { /* stay in the hierarchy */
        short x[4], y[4];
        for (int i = 0; i < 4; i++)
            x[i] = (short)(rank * 10 + it + i);
        MPI_Allreduce(x, y, 4, MPI_SHORT, MPI_SUM, comm);
        for (int i = 0; i < 4; i++)
            if (y[i] != 10 * size * (size - 1) / 2 + size * (it + i))
                FAIL("int16 sum call %d: [%d] = %d", it, i, y[i]);
    }
    check(comm, spec, skew);
    int bad = 0;
    PMPI_Allreduce(&failures, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("test_mpi_pick: %s%s, %d calls per collective and size: %d "
               "failures on all ranks\n",
               skew ? "skew, " : "", spec, calls, bad);
    free(a);
    free(b);
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return bad ? 1 : 0;
}
