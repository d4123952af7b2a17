/*
 * Non-blocking and persistent collectives in test_mpi: each result is
 * compared with the blocking PMPI_ call on the same inputs.
 *
 *   several at once     an Iallreduce, an Ibcast of a vector type on
 *                       the root or on the others, an Igather and an
 *                       Ialltoall on c, an Ibarrier and an Iallreduce on
 *                       a duplicate, one MPI request of the library's own
 *                       (a PMPI_Iallreduce) and a ring of Isend/Irecv;
 *                       completed by Wait in reverse, Waitall, a loop of
 *                       Testall, of Waitany, Testany, Waitsome, Testsome
 *   progress            rank 0 waits for a message (MPI_Wait on an
 *                       Irecv, then MPI_Recv) that rank 1 sends only
 *                       after its MPI_Wait on an Iallreduce of 1 MiB
 *                       has returned: rank 0's wait must progress it
 *   persistent (MPI 4)  Allreduce_init and Bcast_init (vector on the
 *                       root), started three times with new inputs, by
 *                       Start and Startall, then freed
 *   counted apart       mc_mpi_query names the forms: the Iallreduce
 *                       calls are "iallreduce" (manycoll's on one node,
 *                       MPI's on several), an Allreduce_init is
 *                       "allreduce_init", and "allreduce" is every form
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_mpi.h"

enum { N = 37, NREQ = 9 };

typedef struct nbset {
    MPI_Comm c, dup;
    int P, me;
    double a[N], ar[N];      /* iallreduce */
    int b[N * 4];            /* ibcast buffer (vector on the root) */
    int g[N], *gr;           /* igather */
    int *t, *tr;             /* ialltoall */
    double d[N], dr[N], m[N], mr[N]; /* dup's iallreduce, PMPI's own */
    int ring_s, ring_r;
    MPI_Request r[NREQ];
} nbset_t;

static MPI_Datatype vec2;

typedef int (*query_fn)(MPI_Comm, const char *, long *, long *, int *);

/* the calls of `name` on c so far, counted by the library (*mc: those
 * manycoll took; *path: c's path, -1 if the library does not know c) */
static long calls(MPI_Comm c, const char *name, long *mc, int *path)
{
    query_fn q = (query_fn)(uintptr_t)dlsym(RTLD_DEFAULT, "mc_mpi_query");
    long pm = 0;
    *mc = 0;
    *path = -1;
    if (!q || q(c, name, mc, &pm, path))
        *path = -1;
    return *mc + pm;
}

/* on c (path 1: one node, 2: several, 0: MPI's), `name` took `want` more
 * calls than `before` (the counts of an earlier calls()), all of them
 * manycoll's on one node and none on several (no hierarchical
 * non-blocking or persistent form) */
static void counted(MPI_Comm c, const char *name, const long before[2],
                    long want)
{
    long mc, all;
    int path;
    all = calls(c, name, &mc, &path);
    cases++;
    if (path < 0)
        return; /* the library is not there, or off */
    if (all - before[0] != want)
        FAIL("mc_mpi_query(\"%s\"): %ld calls, expected %ld", name,
             all - before[0], want);
    long took = mc - before[1], expect = path == 1 ? want : 0;
    if (path > 0 && took != expect)
        FAIL("mc_mpi_query(\"%s\"): %ld of %ld calls went to manycoll on "
             "path %d, expected %ld", name, took, want, path, expect);
}

/* MPI_STATUSES_IGNORE, hidden from gcc's bounds warnings (it is a cast
 * constant, which gcc takes for an array of size 0) */
static MPI_Status *no_statuses(void)
{
    MPI_Status *p = MPI_STATUSES_IGNORE;
    __asm__("" : "+r"(p));
    return p;
} /* 2 ints, stride 2: 2 ints of every 4 */

static void start(nbset_t *k, int seed)
{
    int P = k->P, me = k->me, root = seed % P;
    for (int i = 0; i < N; i++) {
        k->a[i] = me * 3 + i + seed;
        k->d[i] = me - i * seed;
        k->m[i] = me + 0.5 * i;
        k->g[i] = me * 100 + i + seed;
    }
    for (int i = 0; i < N * 4; i++)
        k->b[i] = me == root ? i + seed : -1;
    for (int i = 0; i < N * P; i++)
        k->t[i] = me * 1000 + i + seed;
    memset(k->gr, 0, sizeof(int) * N * (size_t)P);
    MPI_Iallreduce(k->a, k->ar, N, MPI_DOUBLE, MPI_SUM, k->c, &k->r[0]);
    /* (N - 1) / 2 vectors of 2 ints on the root (even seeds) or on the
     * others (odd seeds: their output is unpacked), N - 1 ints on the
     * rest */
    if ((me == root) == (seed % 2 == 0))
        MPI_Ibcast(k->b, (N - 1) / 2, vec2, root, k->c, &k->r[1]);
    else
        MPI_Ibcast(k->b, N - 1, MPI_INT, root, k->c, &k->r[1]);
    MPI_Igather(k->g, N, MPI_INT, k->gr, N, MPI_INT, root, k->c, &k->r[2]);
    MPI_Ialltoall(k->t, N, MPI_INT, k->tr, N, MPI_INT, k->c, &k->r[3]);
    MPI_Ibarrier(k->dup, &k->r[4]);
    MPI_Iallreduce(k->d, k->dr, N, MPI_DOUBLE, MPI_MAX, k->dup, &k->r[5]);
    PMPI_Iallreduce(k->m, k->mr, N, MPI_DOUBLE, MPI_SUM, k->c, &k->r[6]);
    k->ring_s = me + seed;
    MPI_Irecv(&k->ring_r, 1, MPI_INT, (me + P - 1) % P, 5, k->c, &k->r[7]);
    MPI_Isend(&k->ring_s, 1, MPI_INT, (me + 1) % P, 5, k->c, &k->r[8]);
}

static void check(nbset_t *k, int seed, const char *how)
{
    int P = k->P, me = k->me, root = seed % P;
    double ref[N];
    int *gref = calloc((size_t)N * (size_t)P, sizeof(int));
    int *tref = calloc((size_t)N * (size_t)P, sizeof(int));
    int bref[N * 4];
    for (int i = 0; i < NREQ; i++)
        if (k->r[i] != MPI_REQUEST_NULL)
            FAIL("%s: request %d not MPI_REQUEST_NULL after completion",
                 how, i);
    cases += 6;
    PMPI_Allreduce(k->a, ref, N, MPI_DOUBLE, MPI_SUM, k->c);
    if (memcmp(ref, k->ar, sizeof ref))
        FAIL("%s: iallreduce differs from PMPI_Allreduce", how);
    for (int i = 0; i < N * 4; i++)
        bref[i] = me == root ? i + seed : -1;
    if ((me == root) == (seed % 2 == 0))
        PMPI_Bcast(bref, (N - 1) / 2, vec2, root, k->c);
    else
        PMPI_Bcast(bref, N - 1, MPI_INT, root, k->c);
    if (memcmp(bref, k->b, sizeof bref))
        FAIL("%s: ibcast (a vector type on some ranks) differs", how);
    PMPI_Gather(k->g, N, MPI_INT, gref, N, MPI_INT, root, k->c);
    if (me == root && memcmp(gref, k->gr, sizeof(int) * N * (size_t)P))
        FAIL("%s: igather differs", how);
    PMPI_Alltoall(k->t, N, MPI_INT, tref, N, MPI_INT, k->c);
    if (memcmp(tref, k->tr, sizeof(int) * N * (size_t)P))
        FAIL("%s: ialltoall differs", how);
    PMPI_Allreduce(k->d, ref, N, MPI_DOUBLE, MPI_MAX, k->dup);
    if (memcmp(ref, k->dr, sizeof ref))
        FAIL("%s: iallreduce on the duplicate differs", how);
    if (k->ring_r != (me + P - 1) % P + seed)
        FAIL("%s: ring message %d", how, k->ring_r);
    free(gref);
    free(tref);
}

/* completes k->r by one of seven ways */
static void complete(nbset_t *k, int how)
{
    MPI_Status st[NREQ];
    int flag = 0, idx, out, idxs[NREQ], left = NREQ;
    switch (how) {
    case 0:
        for (int i = NREQ - 1; i >= 0; i--)
            MPI_Wait(&k->r[i], &st[i]);
        return;
    case 1:
        MPI_Waitall(NREQ, k->r, st);
        return;
    case 2:
        while (!flag)
            MPI_Testall(NREQ, k->r, &flag, no_statuses());
        return;
    case 3:
    case 4:
        while (left) {
            flag = 1;
            if (how == 3)
                MPI_Waitany(NREQ, k->r, &idx, &st[0]);
            else
                MPI_Testany(NREQ, k->r, &idx, &flag, MPI_STATUS_IGNORE);
            left -= flag && idx != MPI_UNDEFINED;
        }
        MPI_Waitany(NREQ, k->r, &idx, MPI_STATUS_IGNORE);
        if (idx != MPI_UNDEFINED)
            FAIL("waitany on null requests: index %d", idx);
        return;
    default:
        while (left > 0) {
            if (how == 5)
                MPI_Waitsome(NREQ, k->r, &out, idxs, st);
            else
                MPI_Testsome(NREQ, k->r, &out, idxs, no_statuses());
            left -= out == MPI_UNDEFINED ? left : out;
        }
    }
}

/* rank 0's wait for rank 1's message must progress the iallreduce that
 * rank 1 waits for before it sends */
static void progress(MPI_Comm c, int me, int P, int blocking)
{
    /* 1 MiB: an algorithm of several steps that alternate between ranks
     * (an 8-byte one may finish on rank 1 without rank 0 moving again) */
    enum { M = 1 << 17 };
    double *x = malloc(M * sizeof *x), *z = malloc(M * sizeof *z), y;
    int msg = 0;
    MPI_Request r, q;
    for (int i = 0; i < M; i++)
        x[i] = me;
    /* rank 0 starts first (its start stops at its first wait), then rank
     * 1, whose part then waits for rank 0's next step */
    int token = 0;
    if (me == 1)
        PMPI_Recv(&token, 1, MPI_INT, 0, 8, c, MPI_STATUS_IGNORE);
    MPI_Iallreduce(x, z, M, MPI_DOUBLE, MPI_SUM, c, &r);
    if (me == 0 && P > 1)
        PMPI_Send(&token, 1, MPI_INT, 1, 8, c);
    if (me == 0 && P > 1 && blocking) {
        MPI_Recv(&msg, 1, MPI_INT, 1, 9, c, MPI_STATUS_IGNORE);
    } else if (me == 0 && P > 1) {
        MPI_Irecv(&msg, 1, MPI_INT, 1, 9, c, &q);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
    }
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    if (me == 1)
        MPI_Send(&me, 1, MPI_INT, 0, 9, c);
    y = z[M - 1];
    cases++;
    if (y != (double)P * (P - 1) / 2 || (me == 0 && P > 1 && msg != 1))
        FAIL("progress: allreduce %g, message %d", y, msg);
    free(x);
    free(z);
}

#if MPI_VERSION >= 4
static void persistent(MPI_Comm c, int me, int P)
{
    double a[N], ar[N], ref[N];
    int b[N * 2], bref[N * 2];
    MPI_Request r[2];
    long init[2], every[2], nb[2];
    int path;
    init[0] = calls(c, "allreduce_init", &init[1], &path);
    every[0] = calls(c, "allreduce", &every[1], &path);
    nb[0] = calls(c, "iallreduce", &nb[1], &path);
    MPI_Allreduce_init(a, ar, N, MPI_DOUBLE, MPI_SUM, c, MPI_INFO_NULL, &r[0]);
    /* counted once, at the init: the plan is made there */
    counted(c, "allreduce_init", init, 1);
    counted(c, "allreduce", every, 1);
    counted(c, "iallreduce", nb, 0);
    if (me == 0)
        MPI_Bcast_init(b, (N - 1) / 2, vec2, 0, c, MPI_INFO_NULL, &r[1]);
    else
        MPI_Bcast_init(b, N - 1, MPI_INT, 0, c, MPI_INFO_NULL, &r[1]);
    for (int it = 0; it < 3; it++) {
        for (int i = 0; i < N; i++)
            a[i] = me + i * it;
        for (int i = 0; i < N * 2; i++)
            b[i] = bref[i] = me == 0 ? i * 7 + it : -1;
        if (it == 1) {
            MPI_Startall(2, r);
        } else {
            MPI_Start(&r[0]);
            MPI_Start(&r[1]);
        }
        MPI_Waitall(2, r, no_statuses());
        cases += 2;
        if (r[0] == MPI_REQUEST_NULL || r[1] == MPI_REQUEST_NULL)
            FAIL("persistent: a request became MPI_REQUEST_NULL");
        PMPI_Allreduce(a, ref, N, MPI_DOUBLE, MPI_SUM, c);
        if (memcmp(ref, ar, sizeof ref))
            FAIL("persistent allreduce start %d differs", it);
        if (me == 0)
            PMPI_Bcast(bref, (N - 1) / 2, vec2, 0, c);
        else
            PMPI_Bcast(bref, N - 1, MPI_INT, 0, c);
        if (memcmp(bref, b, sizeof b))
            FAIL("persistent bcast start %d differs", it);
    }
    MPI_Request_free(&r[0]);
    MPI_Request_free(&r[1]);
    if (r[0] != MPI_REQUEST_NULL || r[1] != MPI_REQUEST_NULL)
        FAIL("persistent: MPI_Request_free left a handle");
}
#endif

/* the program frees its datatypes right after starting the calls (MPI
 * keeps them alive until completion; MPICH's coll/nonblocking2 does this):
 * an igather and an iallgatherv whose receive type has gaps */
static void freed_types(MPI_Comm c, int me, int P)
{
    /* B elements of vec2 (2 ints over an extent of 4) per rank */
    enum { B = 3, R = 4 * B };
    size_t all = (size_t)R * (size_t)P;
    int in[2 * B], *x = calloc(2 * all, sizeof(int));
    int *y = calloc(2 * all, sizeof(int));
    int *cnt = malloc(sizeof(int) * (size_t)P);
    int *dsp = malloc(sizeof(int) * (size_t)P);
    for (int i = 0; i < 2 * B; i++)
        in[i] = me * 100 + i;
    for (int q = 0; q < P; q++) {
        cnt[q] = B;
        dsp[q] = q * B;
    }
    MPI_Request r[2];
    MPI_Datatype t[2];
    for (int i = 0; i < 2; i++) {
        MPI_Type_dup(vec2, &t[i]);
        MPI_Type_commit(&t[i]);
    }
    MPI_Igather(in, 2 * B, MPI_INT, x, B, t[0], 0, c, &r[0]);
    MPI_Iallgatherv(in, 2 * B, MPI_INT, x + all, cnt, dsp, t[1], c, &r[1]);
    MPI_Type_free(&t[0]);
    MPI_Type_free(&t[1]);
    MPI_Status st[2];
    MPI_Waitall(2, r, st);
    PMPI_Gather(in, 2 * B, MPI_INT, y, B, vec2, 0, c);
    PMPI_Allgatherv(in, 2 * B, MPI_INT, y + all, cnt, dsp, vec2, c);
    cases++;
    if (memcmp(me ? x + all : x, me ? y + all : y,
               (me ? 1 : 2) * all * sizeof(int)))
        FAIL("igather/iallgatherv with datatypes freed before the wait: "
             "MPI_ and PMPI_ results differ");
    free(x);
    free(y);
    free(cnt);
    free(dsp);
}

/* a wait on one of manycoll's calls must progress the MPI library's
 * requests: rank 0 waits for a bcast from rank `root`, which first waits
 * for an MPI barrier (a dissemination: its second round needs rank 0's
 * MPI progress at root 1 or at root 2, depending on the direction) that
 * rank 0 entered before the others. MPICH's coll/nonblocking3 hung so. */
static void mpi_progress(MPI_Comm c, MPI_Comm dup, int me, int P)
{
    for (int root = 1; root <= 2 && P >= 3; root++) {
        int x = me == root ? 42 : 0;
        MPI_Request b, a;
        if (me != 0) /* rank 0 first: its barrier cannot finish at once */
            usleep(20000);
        PMPI_Ibarrier(c, &b);
        if (me == 0) {
            MPI_Ibcast(&x, 1, MPI_INT, root, dup, &a);
            MPI_Wait(&a, MPI_STATUS_IGNORE);
            MPI_Wait(&b, MPI_STATUS_IGNORE);
        } else {
            MPI_Wait(&b, MPI_STATUS_IGNORE);
            MPI_Ibcast(&x, 1, MPI_INT, root, dup, &a);
            MPI_Wait(&a, MPI_STATUS_IGNORE);
        }
        cases++;
        if (x != 42)
            FAIL("ibcast waited beside an MPI barrier: got %d, want 42", x);
    }
}

void nbcases(MPI_Comm c)
{
    nbset_t k = {.c = c};
    MPI_Comm_size(c, &k.P);
    MPI_Comm_rank(c, &k.me);
    if (!vec2) {
        MPI_Type_vector(1, 2, 4, MPI_INT, &vec2);
        MPI_Datatype v;
        MPI_Type_create_resized(vec2, 0, 4 * sizeof(int), &v);
        MPI_Type_free(&vec2);
        vec2 = v;
        MPI_Type_commit(&vec2);
    }
    MPI_Comm_dup(c, &k.dup);
    k.gr = calloc((size_t)N * (size_t)k.P, sizeof(int));
    k.t = calloc((size_t)N * (size_t)k.P, sizeof(int));
    k.tr = calloc((size_t)N * (size_t)k.P, sizeof(int));
    static const char *hows[] = {"wait (reverse)", "waitall", "testall",
                                 "waitany", "testany", "waitsome",
                                 "testsome"};
    for (int how = 0; how < 7; how++) {
        start(&k, how + 1);
        complete(&k, how);
        check(&k, how + 1, hows[how]);
    }
    /* on one node the duplicate's barriers (all Ibarrier) were ours; its
     * allreduces were all MPI_Iallreduce, counted under their form's
     * name and in the collective's total */
    static const long none[2];
    counted(k.dup, "barrier", none, 7);
    counted(k.dup, "ibarrier", none, 7);
    counted(k.dup, "iallreduce", none, 7);
    counted(k.dup, "allreduce", none, 7);
    counted(k.dup, "allreduce_init", none, 0);
    progress(c, k.me, k.P, 0);
    progress(c, k.me, k.P, 1);
    freed_types(c, k.me, k.P);
    mpi_progress(c, k.dup, k.me, k.P);
#if MPI_VERSION >= 4
    persistent(c, k.me, k.P);
#endif
    free(k.gr);
    free(k.t);
    free(k.tr);
    MPI_Comm_free(&k.dup);
}
