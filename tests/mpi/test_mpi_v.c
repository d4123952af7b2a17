/*
 * The v-variants in test_mpi: MPI_Allgatherv, MPI_Alltoallv, MPI_Gatherv
 * and MPI_Scatterv called as MPI_ and PMPI_ on the same inputs, whole
 * buffers compared (the gaps between blocks must stay as they were).
 *
 * Blocks are counted in units of 6 ints, which each rank describes with
 * a datatype of its own (only the type signatures must match): 6 x
 * MPI_INT, 1 x a vector with gaps (6 ints over an extent of 12), or 1 x a
 * contiguous type of 6 ints (derived but gapless). Every variant shifts
 * which rank uses which, on the send and the receive side separately.
 * Blocks lie in reverse rank order with a one-element gap after each; in
 * every other variant the buffer pointer sits in the middle of the
 * allocation and the displacements are negative for the first half.
 * Rank q's block is empty when q % 3 == 1 (alltoallv: pair counts).
 * Variants 3 to 5 repeat 0 to 2 with the non-blocking forms, each
 * completed by MPI_Wait (staging then lives in the request), and with an
 * MPI 4 library 6 to 8 with the persistent forms, started twice.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test_mpi.h"

typedef struct side {
    MPI_Datatype dt;
    int mult, ext; /* elements of dt per unit; ints per element */
    const char *name;
} side_t;

static side_t sides[3];

/* 1: the non-blocking forms, each completed by MPI_Wait; 2: the
 * persistent ones (MPI 4), started twice (inputs are packed at starts) */
static int nb, vstarts = 2; /* starts of a persistent call */

#if MPI_VERSION >= 4
#define PERSISTENT(init)                                                     \
    do {                                                                     \
        MPI_Request q_;                                                      \
        init;                                                                \
        for (int s_ = 0; s_ < vstarts; s_++) {                               \
            MPI_Start(&q_);                                                  \
            MPI_Wait(&q_, MPI_STATUS_IGNORE);                                \
        }                                                                    \
        MPI_Request_free(&q_);                                               \
    } while (0)
#define NVARIANTS 9
#else
#define PERSISTENT(init) (void)0
#define NVARIANTS 6
#endif

#define VCALL(blocking, nonblocking, init)                                   \
    do {                                                                     \
        if (nb == 2) {                                                       \
            PERSISTENT(init);                                                \
        } else if (nb) {                                                     \
            MPI_Request q_;                                                  \
            nonblocking;                                                     \
            MPI_Wait(&q_, MPI_STATUS_IGNORE);                                \
        } else {                                                             \
            blocking;                                                        \
        }                                                                    \
    } while (0)

static void init_sides(void)
{
    static MPI_Datatype vec, vec1, c6;
    if (sides[0].mult)
        return;
    MPI_Type_vector(3, 2, 4, MPI_INT, &vec); /* 6 ints over 10 */
    MPI_Type_create_resized(vec, 0, 12 * sizeof(int), &vec1);
    MPI_Type_contiguous(6, MPI_INT, &c6);
    MPI_Type_commit(&vec1);
    MPI_Type_commit(&c6);
    MPI_Type_free(&vec);
    sides[0] = (side_t){MPI_INT, 6, 1, "int"};
    sides[1] = (side_t){vec1, 1, 12, "vector"};
    sides[2] = (side_t){c6, 1, 6, "contiguous"};
}

/* a layout of P blocks of u[q] units: counts and displacements in
 * elements of t, reverse rank order, a gap of one element after each */
typedef struct lay {
    int *cnt, *dsp;
    size_t ints;  /* the allocation, in ints */
    size_t shift; /* the buffer pointer's offset into it, in ints */
} lay_t;

static void layout(lay_t *l, const int *u, int P, const side_t *t, int neg)
{
    int pos = 0;
    for (int q = P - 1; q >= 0; q--) {
        l->cnt[q] = u[q] * t->mult;
        l->dsp[q] = pos;
        pos += l->cnt[q] + 1;
    }
    int sh = neg ? pos / 2 : 0;
    for (int q = 0; q < P; q++)
        l->dsp[q] -= sh;
    l->shift = (size_t)sh * (size_t)t->ext;
    l->ints = (size_t)(pos + 1) * (size_t)t->ext + 16;
}

static int *ialloc(size_t n)
{
    int *p = calloc(n ? n : 1, sizeof(int));
    if (!p)
        MPI_Abort(MPI_COMM_WORLD, 2);
    return p;
}

static void fill_ints(int *p, size_t n, int me, int seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = me * 100000 + seed * 7919 + (int)i;
}

static void compare(const int *x, const int *y, size_t n, const char *what,
                    const side_t *a, const side_t *b, int units, int root)
{
    cases++;
    if (memcmp(x, y, n * sizeof(int)))
        FAIL("%s %s/%s units %d root %d: MPI_ and PMPI_ results differ",
             what, a->name, b->name, units, root);
}

typedef struct vcase {
    MPI_Comm c;
    int P, me, n, v; /* n: base units; v: the variant */
    int *u;          /* P units */
    lay_t l[2];
} vcase_t;

/* One datatype per rank on both sides: Open MPI 4.1's allgatherv picks
 * its algorithm from sum(rcounts) x size(sendtype), so ranks whose send
 * and receive types differ in size take different algorithms and hang
 * in PMPI_Allgatherv (the reference), however valid the call. */
static void allgatherv(vcase_t *k)
{
    const side_t *st = &sides[(k->me + k->v) % 3], *rt = st;
    lay_t *l = &k->l[0];
    layout(l, k->u, k->P, rt, k->v & 1);
    int *in = ialloc(12 * (size_t)k->u[k->me] + 12);
    int *x = ialloc(l->ints), *y = ialloc(l->ints);
    fill_ints(in, 12 * (size_t)k->u[k->me] + 12, k->me, 1);
    for (int ip = 0; ip < 2; ip++) {
        fill_ints(x, l->ints, k->me, 2);
        fill_ints(y, l->ints, k->me, 2);
        const void *s = ip ? MPI_IN_PLACE : in;
        int sc = k->u[k->me] * st->mult;
        VCALL(MPI_Allgatherv(s, sc, st->dt, x + l->shift, l->cnt, l->dsp,
                             rt->dt, k->c),
              MPI_Iallgatherv(s, sc, st->dt, x + l->shift, l->cnt, l->dsp,
                              rt->dt, k->c, &q_),
              MPI_Allgatherv_init(s, sc, st->dt, x + l->shift, l->cnt,
                                  l->dsp, rt->dt, k->c, MPI_INFO_NULL, &q_));
        PMPI_Allgatherv(s, sc, st->dt, y + l->shift, l->cnt, l->dsp, rt->dt,
                        k->c);
        compare(x, y, l->ints, ip ? "allgatherv in-place" : "allgatherv",
                st, rt, k->n, -1);
    }
    free(in);
    free(x);
    free(y);
}

/* units rank s sends to rank d */
static int pair(int s, int d, int n)
{
    return (s + 2 * d) % 4 == 3 ? 0 : n + (s + d) % 3;
}

static void alltoallv(vcase_t *k)
{
    const side_t *st = &sides[(k->me + k->v) % 3],
                 *rt = &sides[(k->me + k->v + 1) % 3];
    int P = k->P, *su = ialloc((size_t)P), *ru = ialloc((size_t)P);
    for (int q = 0; q < P; q++) {
        su[q] = pair(k->me, q, k->n);
        ru[q] = pair(q, k->me, k->n);
    }
    for (int ip = 0; ip < 2; ip++) {
        /* in place: one datatype, the same counts both ways */
        const side_t *rs = ip ? &sides[k->v % 3] : rt;
        int *rcu = ip ? su : ru;
        if (ip)
            for (int q = 0; q < P; q++)
                su[q] = ru[q] = pair(k->me, q, k->n) + pair(q, k->me, k->n);
        layout(&k->l[0], su, P, st, k->v & 1);
        layout(&k->l[1], rcu, P, rs, !(k->v & 1));
        lay_t *ls = &k->l[0], *lr = &k->l[1];
        int *in = ialloc(ls->ints), *x = ialloc(lr->ints),
            *y = ialloc(lr->ints);
        fill_ints(in, ls->ints, k->me, 3);
        fill_ints(x, lr->ints, k->me, 4);
        fill_ints(y, lr->ints, k->me, 4);
        const void *s = ip ? MPI_IN_PLACE : in + ls->shift;
        vstarts = ip ? 1 : 2; /* in place, a second start reads output */
        VCALL(MPI_Alltoallv(s, ls->cnt, ls->dsp, st->dt, x + lr->shift,
                            lr->cnt, lr->dsp, rs->dt, k->c),
              MPI_Ialltoallv(s, ls->cnt, ls->dsp, st->dt, x + lr->shift,
                             lr->cnt, lr->dsp, rs->dt, k->c, &q_),
              MPI_Alltoallv_init(s, ls->cnt, ls->dsp, st->dt, x + lr->shift,
                                 lr->cnt, lr->dsp, rs->dt, k->c,
                                 MPI_INFO_NULL, &q_));
        PMPI_Alltoallv(s, ls->cnt, ls->dsp, st->dt, y + lr->shift, lr->cnt,
                       lr->dsp, rs->dt, k->c);
        vstarts = 2;
        compare(x, y, lr->ints, ip ? "alltoallv in-place" : "alltoallv", st,
                rs, k->n, -1);
        free(in);
        free(x);
        free(y);
    }
    free(su);
    free(ru);
}

static void gatherv(vcase_t *k, int root)
{
    const side_t *st = &sides[(k->me + k->v) % 3],
                 *rt = &sides[(k->me + k->v + 2) % 3];
    int r = k->me == root;
    lay_t *l = &k->l[0];
    layout(l, k->u, k->P, rt, k->v & 1);
    size_t own = 12 * (size_t)k->u[k->me] + 12;
    size_t xn = own > l->ints ? own : l->ints;
    int *in = ialloc(own), *x = ialloc(xn), *y = ialloc(xn);
    int *all = ialloc(l->ints);
    fill_ints(in, own, k->me, 5);
    fill_ints(all, l->ints, k->me, 8);
    for (int ip = 0; ip < 2; ip++) {
        fill_ints(x, l->ints, k->me, 6);
        fill_ints(y, l->ints, k->me, 6);
        const void *s = ip && r ? MPI_IN_PLACE : in;
        int sc = k->u[k->me] * st->mult;
        VCALL(MPI_Gatherv(s, sc, st->dt, x + l->shift, l->cnt, l->dsp,
                          rt->dt, root, k->c),
              MPI_Igatherv(s, sc, st->dt, x + l->shift, l->cnt, l->dsp,
                           rt->dt, root, k->c, &q_),
              MPI_Gatherv_init(s, sc, st->dt, x + l->shift, l->cnt, l->dsp,
                               rt->dt, root, k->c, MPI_INFO_NULL, &q_));
        PMPI_Gatherv(s, sc, st->dt, y + l->shift, l->cnt, l->dsp, rt->dt,
                     root, k->c);
        if (r)
            compare(x, y, l->ints, ip ? "gatherv in-place" : "gatherv", st,
                    rt, k->n, root);
        fill_ints(x, own, k->me, 7);
        fill_ints(y, own, k->me, 7);
        void *rx = ip && r ? MPI_IN_PLACE : x, *ry = ip && r ? MPI_IN_PLACE : y;
        VCALL(MPI_Scatterv(all + l->shift, l->cnt, l->dsp, rt->dt, rx, sc,
                           st->dt, root, k->c),
              MPI_Iscatterv(all + l->shift, l->cnt, l->dsp, rt->dt, rx, sc,
                            st->dt, root, k->c, &q_),
              MPI_Scatterv_init(all + l->shift, l->cnt, l->dsp, rt->dt, rx,
                                sc, st->dt, root, k->c, MPI_INFO_NULL, &q_));
        PMPI_Scatterv(all + l->shift, l->cnt, l->dsp, rt->dt, ry, sc,
                      st->dt, root, k->c);
        compare(x, y, own, ip ? "scatterv in-place" : "scatterv", rt, st,
                k->n, root);
    }
    free(in);
    free(all);
    free(x);
    free(y);
}

void vcases(MPI_Comm c, int n, int all_roots)
{
    vcase_t k = {.c = c, .n = n};
    MPI_Comm_size(c, &k.P);
    MPI_Comm_rank(c, &k.me);
    init_sides();
    k.u = ialloc((size_t)k.P);
    for (int i = 0; i < 2; i++) {
        k.l[i].cnt = ialloc((size_t)k.P);
        k.l[i].dsp = ialloc((size_t)k.P);
    }
    for (int q = 0; q < k.P; q++)
        k.u[q] = q % 3 == 1 ? 0 : n + q;
    /* the variants again, non-blocking, where manycoll takes them (one
     * node); elsewhere they would only test the MPI library, slowly */
    typedef int (*query_fn)(MPI_Comm, const char *, long *, long *, int *);
    query_fn q = (query_fn)(uintptr_t)dlsym(RTLD_DEFAULT, "mc_mpi_query");
    long mc, pm;
    int path = 0;
    if (q)
        q(c, NULL, &mc, &pm, &path);
    for (k.v = 0; k.v < (path == 1 ? NVARIANTS : 3); k.v++) {
        nb = k.v / 3;
        allgatherv(&k);
        alltoallv(&k);
        for (int root = all_roots ? 0 : k.P - 1; root < k.P; root++)
            gatherv(&k, root);
    }
    free(k.u);
    for (int i = 0; i < 2; i++) {
        free(k.l[i].cnt);
        free(k.l[i].dsp);
    }
    MPI_Barrier(c);
}
