/*
 * MPI's progress rule through libmanycoll_mpi: a rank that waits inside a
 * collective manycoll took must let its pending point-to-point
 * operations progress, because a peer may need them to complete before
 * it reaches that collective.
 *
 * Rank w (0, and the last rank too unless --quick) is the waiter: it has
 * point-to-point operations pending when it enters the collective; the
 * others finish theirs first, in MPI, and then enter it:
 *
 *   shape   rank w                          the other ranks
 *   recv    Irecv from each; COLL; Waitall  MPI_Send to w; COLL
 *   wait    Irecv from each; COLL; Waitall  Isend to w; MPI_Wait; COLL
 *   send    Isend to each; COLL; Waitall    MPI_Recv from w; COLL
 *   ring    Irecv left, Isend right;        Irecv left, Isend right;
 *           COLL; Waitall                   Waitall; COLL
 *
 * for every collective the library takes (16 on one node, 8 across
 * nodes; each rooted one at root w and root w + 1), blocking,
 * non-blocking (MPI_I<coll>, then MPI_Wait or a loop of MPI_Test) and,
 * where the MPI is MPI 4, persistent (<coll>_init, MPI_Start, MPI_Wait),
 * at message sizes on both sides of Open MPI's and MPICH's eager limits
 * (up to 1 MiB), and collectives of 4 bytes and 64 KiB per block. Above
 * the eager limit the others' sends and receives complete only when w's
 * MPI progresses, so a library that spins without turning the MPI hangs
 * here: every case runs under an alarm (--timeout, default 10 s) that
 * names the case and exits 3, so such a bug fails the test long before
 * ctest's limit. Every message and every collective result is checked
 * (the collective against PMPI_<coll> on the same inputs), and at the
 * end the library is asked whether it took the calls (--expect).
 */
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>

enum { F_BLOCK, F_NB, F_TESTS, F_PERSIST, NFORMS };
enum { S_RECV, S_WAIT, S_SEND, S_RING, NSHAPES };
static const char *form_name[] = {"blocking", "non-blocking",
                                  "non-blocking (MPI_Test loop)",
                                  "persistent"};
static const char *shape_name[] = {"recv", "wait", "send", "ring"};

static int me, P, failures, ncases, timeout_s = 10;
static char case_name[256];

typedef struct buf {
    int n;           /* elements per block */
    int root;
    int *s, *r, *ref; /* P * n each */
    int *counts, *displs;
} buf_t;

/* a collective: run it in a form (into b->r), or PMPI's blocking one
 * (into b->ref) */
typedef int (*coll_fn)(buf_t *b, int form, int *out, MPI_Request *rq);
typedef struct coll {
    const char *name;
    int rooted;
    coll_fn fn;
} coll_t;

static void on_alarm(int sig)
{
    (void)sig;
    char msg[400];
    int n = snprintf(msg, sizeof msg,
                     "test_mpi_progress: rank %d: %s did not complete in "
                     "%d s: the wait did not let MPI progress\n",
                     me, case_name, timeout_s);
    if (write(2, msg, (size_t)n) < 0)
        _exit(4);
    _exit(3);
}

#define FAIL(...)                                                            \
    do {                                                                     \
        if (failures++ < 20) {                                               \
            fprintf(stderr, "FAIL rank %d, %s: ", me, case_name);            \
            fprintf(stderr, __VA_ARGS__);                                    \
            fprintf(stderr, "\n");                                           \
        }                                                                    \
    } while (0)

/* ---- the collectives: form F_BLOCK, F_NB, F_PERSIST, or the reference
 * (out == b->ref: PMPI_<coll>) ---- */

#if MPI_VERSION >= 4
#define PERSIST(call) call
#else
#define PERSIST(call) MPI_ERR_OTHER
#endif
#define FORMS(blk_, nb_, pers_, ref_)                                        \
    (out == b->ref ? (ref_)                                                  \
                   : form == F_BLOCK ? (blk_)                                \
                                     : form != F_PERSIST ? (nb_)             \
                                                         : PERSIST(pers_))

static int c_barrier(buf_t *b, int form, int *out, MPI_Request *rq)
{
    MPI_Comm c = MPI_COMM_WORLD;
    return FORMS(MPI_Barrier(c), MPI_Ibarrier(c, rq),
                 MPI_Barrier_init(c, MPI_INFO_NULL, rq), PMPI_Barrier(c));
}

static int c_bcast(buf_t *b, int form, int *out, MPI_Request *rq)
{
    MPI_Comm c = MPI_COMM_WORLD;
    if (me == b->root)
        memcpy(out, b->s, (size_t)b->n * sizeof(int));
    return FORMS(MPI_Bcast(out, b->n, MPI_INT, b->root, c),
                 MPI_Ibcast(out, b->n, MPI_INT, b->root, c, rq),
                 MPI_Bcast_init(out, b->n, MPI_INT, b->root, c,
                                MPI_INFO_NULL, rq),
                 PMPI_Bcast(out, b->n, MPI_INT, b->root, c));
}

static int c_reduce(buf_t *b, int form, int *out, MPI_Request *rq)
{
    MPI_Comm c = MPI_COMM_WORLD;
    int n = b->n, rt = b->root;
    return FORMS(MPI_Reduce(b->s, out, n, MPI_INT, MPI_SUM, rt, c),
                 MPI_Ireduce(b->s, out, n, MPI_INT, MPI_SUM, rt, c, rq),
                 MPI_Reduce_init(b->s, out, n, MPI_INT, MPI_SUM, rt, c,
                                 MPI_INFO_NULL, rq),
                 PMPI_Reduce(b->s, out, n, MPI_INT, MPI_SUM, rt, c));
}

static int c_allreduce(buf_t *b, int form, int *out, MPI_Request *rq)
{
    MPI_Comm c = MPI_COMM_WORLD;
    int n = b->n;
    return FORMS(MPI_Allreduce(b->s, out, n, MPI_INT, MPI_SUM, c),
                 MPI_Iallreduce(b->s, out, n, MPI_INT, MPI_SUM, c, rq),
                 MPI_Allreduce_init(b->s, out, n, MPI_INT, MPI_SUM, c,
                                    MPI_INFO_NULL, rq),
                 PMPI_Allreduce(b->s, out, n, MPI_INT, MPI_SUM, c));
}

static int c_allgather(buf_t *b, int form, int *out, MPI_Request *rq)
{
    MPI_Comm c = MPI_COMM_WORLD;
    int n = b->n;
    return FORMS(MPI_Allgather(b->s, n, MPI_INT, out, n, MPI_INT, c),
                 MPI_Iallgather(b->s, n, MPI_INT, out, n, MPI_INT, c, rq),
                 MPI_Allgather_init(b->s, n, MPI_INT, out, n, MPI_INT, c,
                                    MPI_INFO_NULL, rq),
                 PMPI_Allgather(b->s, n, MPI_INT, out, n, MPI_INT, c));
}

static int c_alltoall(buf_t *b, int form, int *out, MPI_Request *rq)
{
    MPI_Comm c = MPI_COMM_WORLD;
    int n = b->n;
    return FORMS(MPI_Alltoall(b->s, n, MPI_INT, out, n, MPI_INT, c),
                 MPI_Ialltoall(b->s, n, MPI_INT, out, n, MPI_INT, c, rq),
                 MPI_Alltoall_init(b->s, n, MPI_INT, out, n, MPI_INT, c,
                                   MPI_INFO_NULL, rq),
                 PMPI_Alltoall(b->s, n, MPI_INT, out, n, MPI_INT, c));
}

static int c_rsb(buf_t *b, int form, int *out, MPI_Request *rq)
{
    MPI_Comm c = MPI_COMM_WORLD;
    int n = b->n;
    return FORMS(
        MPI_Reduce_scatter_block(b->s, out, n, MPI_INT, MPI_SUM, c),
        MPI_Ireduce_scatter_block(b->s, out, n, MPI_INT, MPI_SUM, c, rq),
        MPI_Reduce_scatter_block_init(b->s, out, n, MPI_INT, MPI_SUM, c,
                                      MPI_INFO_NULL, rq),
        PMPI_Reduce_scatter_block(b->s, out, n, MPI_INT, MPI_SUM, c));
}

static int c_gather(buf_t *b, int form, int *out, MPI_Request *rq)
{
    MPI_Comm c = MPI_COMM_WORLD;
    int n = b->n, rt = b->root;
    return FORMS(MPI_Gather(b->s, n, MPI_INT, out, n, MPI_INT, rt, c),
                 MPI_Igather(b->s, n, MPI_INT, out, n, MPI_INT, rt, c, rq),
                 MPI_Gather_init(b->s, n, MPI_INT, out, n, MPI_INT, rt, c,
                                 MPI_INFO_NULL, rq),
                 PMPI_Gather(b->s, n, MPI_INT, out, n, MPI_INT, rt, c));
}

static int c_scatter(buf_t *b, int form, int *out, MPI_Request *rq)
{
    MPI_Comm c = MPI_COMM_WORLD;
    int n = b->n, rt = b->root;
    return FORMS(MPI_Scatter(b->s, n, MPI_INT, out, n, MPI_INT, rt, c),
                 MPI_Iscatter(b->s, n, MPI_INT, out, n, MPI_INT, rt, c, rq),
                 MPI_Scatter_init(b->s, n, MPI_INT, out, n, MPI_INT, rt, c,
                                  MPI_INFO_NULL, rq),
                 PMPI_Scatter(b->s, n, MPI_INT, out, n, MPI_INT, rt, c));
}

static int c_rs(buf_t *b, int form, int *out, MPI_Request *rq)
{
    MPI_Comm c = MPI_COMM_WORLD;
    const int *k = b->counts;
    return FORMS(MPI_Reduce_scatter(b->s, out, k, MPI_INT, MPI_SUM, c),
                 MPI_Ireduce_scatter(b->s, out, k, MPI_INT, MPI_SUM, c, rq),
                 MPI_Reduce_scatter_init(b->s, out, k, MPI_INT, MPI_SUM, c,
                                         MPI_INFO_NULL, rq),
                 PMPI_Reduce_scatter(b->s, out, k, MPI_INT, MPI_SUM, c));
}

static int c_allgatherv(buf_t *b, int form, int *out, MPI_Request *rq)
{
    MPI_Comm c = MPI_COMM_WORLD;
    int n = b->n;
    const int *k = b->counts, *d = b->displs;
    return FORMS(
        MPI_Allgatherv(b->s, n, MPI_INT, out, k, d, MPI_INT, c),
        MPI_Iallgatherv(b->s, n, MPI_INT, out, k, d, MPI_INT, c, rq),
        MPI_Allgatherv_init(b->s, n, MPI_INT, out, k, d, MPI_INT, c,
                            MPI_INFO_NULL, rq),
        PMPI_Allgatherv(b->s, n, MPI_INT, out, k, d, MPI_INT, c));
}

static int c_alltoallv(buf_t *b, int form, int *out, MPI_Request *rq)
{
    MPI_Comm c = MPI_COMM_WORLD;
    const int *k = b->counts, *d = b->displs;
    return FORMS(
        MPI_Alltoallv(b->s, k, d, MPI_INT, out, k, d, MPI_INT, c),
        MPI_Ialltoallv(b->s, k, d, MPI_INT, out, k, d, MPI_INT, c, rq),
        MPI_Alltoallv_init(b->s, k, d, MPI_INT, out, k, d, MPI_INT, c,
                           MPI_INFO_NULL, rq),
        PMPI_Alltoallv(b->s, k, d, MPI_INT, out, k, d, MPI_INT, c));
}

static int c_gatherv(buf_t *b, int form, int *out, MPI_Request *rq)
{
    MPI_Comm c = MPI_COMM_WORLD;
    int n = b->n, rt = b->root;
    const int *k = b->counts, *d = b->displs;
    return FORMS(
        MPI_Gatherv(b->s, n, MPI_INT, out, k, d, MPI_INT, rt, c),
        MPI_Igatherv(b->s, n, MPI_INT, out, k, d, MPI_INT, rt, c, rq),
        MPI_Gatherv_init(b->s, n, MPI_INT, out, k, d, MPI_INT, rt, c,
                         MPI_INFO_NULL, rq),
        PMPI_Gatherv(b->s, n, MPI_INT, out, k, d, MPI_INT, rt, c));
}

static int c_scatterv(buf_t *b, int form, int *out, MPI_Request *rq)
{
    MPI_Comm c = MPI_COMM_WORLD;
    int n = b->n, rt = b->root;
    const int *k = b->counts, *d = b->displs;
    return FORMS(
        MPI_Scatterv(b->s, k, d, MPI_INT, out, n, MPI_INT, rt, c),
        MPI_Iscatterv(b->s, k, d, MPI_INT, out, n, MPI_INT, rt, c, rq),
        MPI_Scatterv_init(b->s, k, d, MPI_INT, out, n, MPI_INT, rt, c,
                          MPI_INFO_NULL, rq),
        PMPI_Scatterv(b->s, k, d, MPI_INT, out, n, MPI_INT, rt, c));
}

static int c_scan(buf_t *b, int form, int *out, MPI_Request *rq)
{
    MPI_Comm c = MPI_COMM_WORLD;
    int n = b->n;
    return FORMS(MPI_Scan(b->s, out, n, MPI_INT, MPI_SUM, c),
                 MPI_Iscan(b->s, out, n, MPI_INT, MPI_SUM, c, rq),
                 MPI_Scan_init(b->s, out, n, MPI_INT, MPI_SUM, c,
                               MPI_INFO_NULL, rq),
                 PMPI_Scan(b->s, out, n, MPI_INT, MPI_SUM, c));
}

static int c_exscan(buf_t *b, int form, int *out, MPI_Request *rq)
{
    MPI_Comm c = MPI_COMM_WORLD;
    int n = b->n;
    return FORMS(MPI_Exscan(b->s, out, n, MPI_INT, MPI_SUM, c),
                 MPI_Iexscan(b->s, out, n, MPI_INT, MPI_SUM, c, rq),
                 MPI_Exscan_init(b->s, out, n, MPI_INT, MPI_SUM, c,
                                 MPI_INFO_NULL, rq),
                 PMPI_Exscan(b->s, out, n, MPI_INT, MPI_SUM, c));
}

/* the names are mc_mpi_query's */
static const coll_t colls[] = {
    {"barrier", 0, c_barrier},     {"bcast", 1, c_bcast},
    {"reduce", 1, c_reduce},       {"allreduce", 0, c_allreduce},
    {"allgather", 0, c_allgather}, {"alltoall", 0, c_alltoall},
    {"reduce_scatter_block", 0, c_rsb},
    {"gather", 1, c_gather},       {"scatter", 1, c_scatter},
    {"reduce_scatter", 0, c_rs},   {"allgatherv", 0, c_allgatherv},
    {"alltoallv", 0, c_alltoallv}, {"gatherv", 1, c_gatherv},
    {"scatterv", 1, c_scatterv},   {"scan", 0, c_scan},
    {"exscan", 0, c_exscan},
};
enum { NCOLLS = sizeof colls / sizeof colls[0] };

/* colls[c] has a hierarchical form (the others go to MPI across nodes:
 * alltoall, the v-variants, the scans) */
static int has_hier(int c)
{
    return c != 5 && c < 9;
}

/* the collective in a form, to completion */
static void run_coll(const coll_t *k, buf_t *b, int form)
{
    MPI_Request rq = MPI_REQUEST_NULL;
    int rc = k->fn(b, form, b->r, &rq);
    if (rc == MPI_SUCCESS && form == F_PERSIST)
        rc = MPI_Start(&rq);
    for (int done = 0; rc == MPI_SUCCESS && form == F_TESTS && !done;)
        rc = MPI_Test(&rq, &done, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS && (form == F_NB || form == F_PERSIST))
        rc = MPI_Wait(&rq, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS && form == F_PERSIST)
        rc = MPI_Request_free(&rq);
    if (rc != MPI_SUCCESS)
        FAIL("the collective returned %d", rc);
}

/* ---- the point-to-point part of a shape ---- */

typedef struct p2p {
    size_t bytes;
    char *out, *in; /* P * bytes each: a block per peer */
    MPI_Request rq[2 * 64];
    MPI_Status st[2 * 64]; /* not MPI_STATUSES_IGNORE: gcc takes MPICH's
                              for an array of size 0 */
    int nrq, tag;
} p2p_t;

static char pattern(int from, int to, size_t i, int tag)
{
    return (char)(from * 31 + to * 7 + (int)(i % 251) + tag);
}

static void p2p_fill(p2p_t *m)
{
    for (int q = 0; q < P; q++)
        for (size_t i = 0; i < m->bytes; i++)
            m->out[(size_t)q * m->bytes + i] = pattern(me, q, i, m->tag);
    memset(m->in, 0, (size_t)P * m->bytes);
}

static void irecv(p2p_t *m, int from)
{
    MPI_Irecv(m->in + (size_t)from * m->bytes, (int)m->bytes, MPI_CHAR, from,
              m->tag, MPI_COMM_WORLD, &m->rq[m->nrq++]);
}

static void isend(p2p_t *m, int to)
{
    MPI_Isend(m->out + (size_t)to * m->bytes, (int)m->bytes, MPI_CHAR, to,
              m->tag, MPI_COMM_WORLD, &m->rq[m->nrq++]);
}

static void waitall(p2p_t *m)
{
    MPI_Waitall(m->nrq, m->rq, m->st);
    m->nrq = 0;
}

/* what arrived from `from` is what it sent */
static void p2p_check(const p2p_t *m, int from)
{
    const char *in = m->in + (size_t)from * m->bytes;
    for (size_t i = 0; i < m->bytes; i++)
        if (in[i] != pattern(from, me, i, m->tag)) {
            FAIL("byte %zu of the message from rank %d is wrong", i, from);
            return;
        }
}

/* before the collective: what each rank does first */
static void shape_before(p2p_t *m, int shape, int w)
{
    int left = (me + P - 1) % P, right = (me + 1) % P;
    char *blk = m->out + (size_t)w * m->bytes;
    m->nrq = 0;
    if (shape == S_RING) {
        irecv(m, left);
        isend(m, right);
        if (me != w)
            waitall(m);
        return;
    }
    if (me == w) {
        for (int q = 0; q < P; q++)
            if (q != w) {
                if (shape == S_SEND)
                    isend(m, q);
                else
                    irecv(m, q);
            }
        return;
    }
    if (shape == S_RECV)
        MPI_Send(blk, (int)m->bytes, MPI_CHAR, w, m->tag, MPI_COMM_WORLD);
    else if (shape == S_SEND)
        MPI_Recv(m->in + (size_t)w * m->bytes, (int)m->bytes, MPI_CHAR, w,
                 m->tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else {
        isend(m, w);
        waitall(m);
    }
}

/* after it: w completes what it left pending; then the checks */
static void shape_after(p2p_t *m, int shape, int w)
{
    waitall(m);
    if (shape == S_RING)
        p2p_check(m, (me + P - 1) % P);
    else if (me == w && shape != S_SEND)
        for (int q = 0; q < P; q++)
            if (q != w)
                p2p_check(m, q);
    if (me != w && shape == S_SEND)
        p2p_check(m, w);
}

/* ---- a case ---- */

/* the inputs of a group of cases, and PMPI's result on them */
static void reference(const coll_t *k, buf_t *b, int seed)
{
    size_t all = (size_t)P * (size_t)b->n;
    for (size_t i = 0; i < all; i++)
        b->s[i] = me * 1000003 + (int)i * 7 + seed;
    memset(b->ref, 0, all * sizeof(int));
    snprintf(case_name, sizeof case_name, "PMPI's %s (%d ints a block)",
             k->name, b->n);
    if (k->fn(b, F_BLOCK, b->ref, NULL) != MPI_SUCCESS)
        FAIL("the reference PMPI call failed");
}

/* the result against PMPI's on the same inputs; the elements MPI defines
 * on this rank only */
static void check_coll(const coll_t *k, buf_t *b)
{
    size_t n = (size_t)b->n, len = n;
    if (k->fn == c_barrier)
        len = 0;
    else if (k->fn == c_allgather || k->fn == c_alltoall ||
             k->fn == c_allgatherv || k->fn == c_alltoallv)
        len = n * (size_t)P;
    else if (k->fn == c_gather || k->fn == c_gatherv)
        len = me == b->root ? n * (size_t)P : 0;
    else if (k->fn == c_reduce)
        len = me == b->root ? n : 0;
    else if (k->fn == c_exscan && me == 0)
        len = 0;
    if (memcmp(b->r, b->ref, len * sizeof(int)))
        FAIL("the collective's result differs from PMPI's");
}

static void one_case(const coll_t *k, buf_t *b, p2p_t *m, int form,
                     int shape, int w)
{
    snprintf(case_name, sizeof case_name,
             "%s %s (root %d, %d ints a block), shape %s with %zu-byte "
             "messages, waiter rank %d",
             form_name[form], k->name, k->rooted ? b->root : -1, b->n,
             shape_name[shape], m->bytes, w);
    ncases++;
    m->tag = ncases % 32000;
    memset(b->r, 0, (size_t)P * (size_t)b->n * sizeof(int));
    p2p_fill(m);
    alarm((unsigned)timeout_s);
    shape_before(m, shape, w);
    run_coll(k, b, form);
    shape_after(m, shape, w);
    alarm(0);
    check_coll(k, b);
}

/* ---- main ---- */

typedef long (*query_fn)(MPI_Comm, const char *, long *, long *, int *);

/* did manycoll take the calls? flat: all 16; hier: those with a
 * hierarchical form (alltoall, the v-variants and the scans go to MPI) */
static void check_taken(const char *expect)
{
    query_fn q = (query_fn)(uintptr_t)dlsym(RTLD_DEFAULT, "mc_mpi_query");
    if (!q) {
        FAIL("libmanycoll_mpi is not loaded (no mc_mpi_query)");
        return;
    }
    int hier = !strcmp(expect, "hier");
    for (int i = 0; i < NCOLLS; i++) {
        if (hier && !has_hier(i))
            continue;
        long mc = 0, pm = 0;
        int path = -1;
        q(MPI_COMM_WORLD, colls[i].name, &mc, &pm, &path);
        if (mc == 0)
            FAIL("no %s went to manycoll (%ld to MPI)", colls[i].name, pm);
    }
}

/* every form, shape and message size of one collective, block size,
 * waiter and root (the inputs and PMPI's result made once) */
static void group(const coll_t *k, buf_t *b, p2p_t *m, const size_t *sizes,
                  int nsizes, int w, int seed)
{
    int nforms = MPI_VERSION >= 4 ? NFORMS : F_PERSIST;
    for (int q = 0; q < P; q++)
        b->counts[q] = b->n, b->displs[q] = q * b->n;
    reference(k, b, seed);
    for (int f = 0; f < nforms; f++)
        for (int sh = 0; sh < NSHAPES; sh++)
            for (int si = 0; si < nsizes; si++) {
                m->bytes = sizes[si];
                one_case(k, b, m, f, sh, w);
            }
}

static void run_all(buf_t *b, p2p_t *m, const size_t *sizes, int nsizes,
                    int quick, int hier)
{
    static const int blocks[] = {1, 16384};
    int waiters[2] = {0, P - 1}, nw = quick || P < 3 ? 1 : 2, seed = 0;
    for (int bi = 0; bi < 2; bi++)
        for (int c = 0; c < NCOLLS; c++)
            for (int wi = 0; wi < nw && (!hier || has_hier(c)); wi++)
                for (int ri = 0; ri < (colls[c].rooted ? 2 : 1); ri++) {
                    b->n = blocks[bi];
                    b->root = (waiters[wi] + ri) % P;
                    group(&colls[c], b, m, sizes, nsizes, waiters[wi],
                          ++seed);
                }
}

int main(int argc, char **argv)
{
    const char *expect = "flat";
    int quick = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--expect") && i + 1 < argc)
            expect = argv[++i];
        else if (!strcmp(argv[i], "--timeout") && i + 1 < argc)
            timeout_s = atoi(argv[++i]);
    }
    if (P < 2 || P > 64) {
        if (me == 0)
            fprintf(stderr, "test_mpi_progress: needs 2 to 64 ranks\n");
        MPI_Finalize();
        return 2;
    }
    signal(SIGALRM, on_alarm);
    /* both sides of the eager limits: Open MPI's shared memory (4 KiB;
     * its first fragment about 256 bytes) and MPICH's (16 KiB) */
    static const size_t all_sizes[] = {1, 255, 257, 4095, 4097, 16383,
                                       16385, 65537, 1 << 20};
    static const size_t quick_sizes[] = {1, 257, 4097, 16385, 1 << 20};
    const size_t *sizes = quick ? quick_sizes : all_sizes;
    int nsizes = quick ? 5 : 9;
    size_t big = (size_t)P * 16384;
    buf_t b = {.s = malloc(big * sizeof(int)), .r = malloc(big * sizeof(int)),
               .ref = malloc(big * sizeof(int)),
               .counts = malloc((size_t)P * sizeof(int)),
               .displs = malloc((size_t)P * sizeof(int))};
    p2p_t m = {.out = malloc((size_t)P << 20), .in = malloc((size_t)P << 20)};
    if (!b.s || !b.r || !b.ref || !b.counts || !b.displs || !m.out || !m.in) {
        fprintf(stderr, "test_mpi_progress: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    run_all(&b, &m, sizes, nsizes, quick, !strcmp(expect, "hier"));
    check_taken(expect);
    int all = 0;
    PMPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0)
        printf("test_mpi_progress: %d cases, %s (%d ranks)\n", ncases,
               all ? "FAILED" : "all completed and correct", P);
    free(b.s), free(b.r), free(b.ref), free(b.counts), free(b.displs);
    free(m.out), free(m.in);
    MPI_Finalize();
    return all ? 1 : 0;
}
