/*
 * The hierarchical collectives (src/hier) with manycoll itself as the
 * provider, on one machine: `manycoll run -n P test_hier --node-size k`
 * makes every k consecutive ranks a "node" (the last one smaller if k does
 * not divide P), `--nodes N` puts rank r on node r % N (round robin). Node
 * communicators and provider groups come from mc_comm_split. Every
 * collective the shape supports runs through the generated cases of
 * src/oracle/check.c (counts around the segment and chunk boundaries, every
 * datatype, builtin and user ops, every root, in place and not) and is
 * checked against its scalar reference; a collective the shape does not
 * support must be reported unsupported on every rank alike.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/hier_case.h"

#define TRYV(expr)                                                           \
    do {                                                                     \
        if ((expr) != 0)                                                     \
            return -1;                                                       \
    } while (0)

typedef struct shape {
    int k, nnodes_rr; /* --node-size k, or --nodes N (round robin) */
} shape_t;

static int node_of(const shape_t *s, int r)
{
    return s->k ? r / s->k : r % s->nnodes_rr;
}

static int local_of(const shape_t *s, int r)
{
    return s->k ? r % s->k : r / s->nnodes_rr;
}

/* Builds h for this rank (src/oracle/hier_case.c); the tables are always
 * filled (the hierarchy only reads them when the shape is not uniform
 * blocks). */
static int build(mc_comm_t *w, const shape_t *s, mc_hier_t *h, int *tabs)
{
    int P = mc_comm_size(w), me = mc_comm_rank(w);
    int *no = tabs, *lo = tabs + P;
    for (int r = 0; r < P; r++) {
        no[r] = node_of(s, r);
        lo[r] = local_of(s, r);
    }
    int rc = mc_hier_case_setup(w, no, lo, h);
    /* small segments and thresholds, so short test vectors cross them */
    h->par.seg_bytes = 1024;
    h->par.ml_min_bytes = 512;
    if (rc != MC_OK)
        fprintf(stderr, "test_hier: rank %d: setup: %s %s\n", me,
                mc_last_error(), mc_hier_last_error());
    return rc;
}

/* the barrier's meaning: an arrival record outside the library
 * (src/oracle/arrivals.c), entered after a random pause */
static mc_arrivals_t arrivals;

static int run(mc_hier_t *h, const mc_case_t *k, mc_case_bufs_t *b)
{
    return mc_hier_case_run(h, k, b); /* b->arrivals: the barrier's */
}

static const mc_coll_t colls[] = {
    MC_COLL_BARRIER, MC_COLL_BCAST, MC_COLL_REDUCE, MC_COLL_ALLREDUCE,
    MC_COLL_ALLGATHER, MC_COLL_REDUCE_SCATTER_BLOCK, MC_COLL_GATHER,
    MC_COLL_SCATTER, MC_COLL_ALLTOALL};

/* manycoll's provider has no alltoall (the simulated chips' hierarchy
 * keeps its flat alltoall); the test gives it one, so that the
 * hierarchy's own (hier_alltoall.c) runs here too, as MPI's provider runs
 * it under the drop-in */
static int p_alltoall(void *g, const void *sbuf, void *rbuf, size_t count,
                      mc_dtype_t dt)
{
    int rc = mc_alltoall(g, sbuf, rbuf, count, dt);
    return rc < 0 ? mc_hier_fail(rc, "%s", mc_last_error()) : rc;
}
static mc_hier_provider_t with_alltoall;

static int is_reduction(mc_coll_t c)
{
    return (mc_coll_info(c)->props & MC_COLL_REDUCES) != 0;
}

static int is_rooted(mc_coll_t c)
{
    return (mc_coll_info(c)->props & MC_COLL_ROOTED) != 0;
}

typedef struct stats {
    int cases, failures, unsupported;
} stats_t;

static int one(mc_hier_t *h, mc_case_t k, stats_t *st)
{
    mc_case_bufs_t b;
    if (mc_case_alloc(&k, h->rank, h->size, &b) != MC_OK)
        return -1;
    mc_case_fill(&k, h->rank, h->size, &b);
    b.arrivals = &arrivals;
    int rc = run(h, &k, &b);
    char msg[600];
    st->cases++;
    if (rc == MC_OK && mc_case_verify(&k, h->rank, h->size, &b, msg,
                                      sizeof msg)) {
        if (st->failures++ < 10)
            fprintf(stderr, "FAIL rank %d: %s\n", h->rank, msg);
    }
    if (rc != MC_OK) {
        mc_case_describe(&k, msg, sizeof msg);
        fprintf(stderr, "FAIL rank %d: %s: %s\n", h->rank, msg,
                mc_hier_last_error());
    }
    mc_case_free(&b);
    return rc == MC_OK ? 0 : -1;
}

/* every root (rooted collectives) and in place and not */
static int variants(mc_hier_t *h, mc_case_t k, int all_roots, stats_t *st)
{
    int nroots = is_rooted(k.coll) ? (all_roots ? h->size : 1) : 1;
    for (int root = 0; root < nroots; root++) {
        for (int ip = 0; ip < 2; ip++) {
            if (ip && mc_coll_info(k.coll)->in_place == MC_IN_PLACE_NONE)
                continue;
            k.root = is_rooted(k.coll) && !all_roots ? h->size - 1 : root;
            k.in_place = ip;
            k.seed++;
            if (one(h, k, st))
                return -1;
        }
    }
    return 0;
}

static int coll_cases(mc_hier_t *h, mc_coll_t coll, stats_t *st)
{
    /* elements: 1, a few, around the multi-leader threshold (512 B) and
     * the segment (1 KiB) for every size of datatype, with a tail of
     * count % L, and several segments */
    static const size_t counts[] = {0, 1, 7, 63, 65, 129, 300, 1025};
    mc_case_t k = {.coll = coll, .seed = 1};
    for (size_t ci = 0; ci < sizeof counts / sizeof *counts; ci++) {
        k.count = counts[ci];
        if (!is_reduction(coll)) {
            for (mc_dtype_t dt = MC_INT8; dt <= MC_FLOAT64; dt += 3) {
                k.dt = dt;
                TRYV(variants(h, k, ci < 4, st));
                if (coll == MC_COLL_BARRIER)
                    return 0;
            }
            continue;
        }
        for (mc_dtype_t dt = 0; dt < MC_DTYPE_COUNT; dt++) {
            for (int op = 0; op < MC_OP_BUILTIN_COUNT + MC_UOP_COUNT - 1;
                 op++) {
                k.dt = dt;
                k.op = op < MC_OP_BUILTIN_COUNT ? (mc_op_t)op : MC_SUM;
                k.uop = op < MC_OP_BUILTIN_COUNT
                            ? MC_UOP_NONE
                            : (mc_uop_t)(op - MC_OP_BUILTIN_COUNT + 1);
                /* every op on int32 and float64, sum on the others */
                if (dt != MC_INT32 && dt != MC_FLOAT64 && op != MC_SUM)
                    continue;
                if (!mc_case_valid(&k))
                    continue;
                int comm = k.uop != MC_UOP_FIRST && k.uop != MC_UOP_LAST;
                int ok = mc_hier_supports(h, (mc_coll_t)coll, comm);
                if (!ok) {
                    st->unsupported++;
                    continue;
                }
                TRYV(variants(h, k, ci < 2 && op == MC_SUM, st));
            }
        }
    }
    return 0;
}

/* ---- order: an associative op that is not commutative and sees every
 * operand's position (the check.c ops FIRST and LAST see only the ends) */

/* an element is the affine map x -> a*x + b mod 2^32, a in the high half;
 * in op inout = inout after in (in holds the lower ranks) */
static void affine(const void *in, void *inout, size_t n, mc_dtype_t dt)
{
    const uint64_t *x = in;
    uint64_t *y = inout;
    (void)dt;
    for (size_t i = 0; i < n; i++) {
        uint32_t a1 = (uint32_t)(x[i] >> 32), b1 = (uint32_t)x[i];
        uint32_t a2 = (uint32_t)(y[i] >> 32), b2 = (uint32_t)y[i];
        y[i] = ((uint64_t)(a2 * a1) << 32) | (uint32_t)(a2 * b1 + b2);
    }
}

static uint64_t elem(int rank, size_t i)
{
    uint32_t a = 2u * (uint32_t)(rank * 7919 + (int)i) + 3u;
    return ((uint64_t)a << 32) | (uint32_t)(rank * 104729 + (int)i * 13 + 1);
}

static int order_cases(mc_hier_t *h, stats_t *st)
{
    static mc_op_t op;
    if (!op && mc_op_create(affine, 0, &op) != MC_OK)
        return -1;
    int P = h->size, me = h->rank;
    size_t counts[] = {1, 5, 300};
    for (size_t ci = 0; ci < 3; ci++) {
        size_t n = counts[ci], tot = n * (size_t)P;
        uint64_t *in = malloc(8 * tot), *out = malloc(8 * tot);
        uint64_t *want = malloc(8 * tot);
        if (!in || !out || !want)
            return -1;
        /* the rank-order fold x0 op x1 op ... */
        for (size_t i = 0; i < tot; i++) {
            uint64_t w = elem(0, i);
            for (int r = 1; r < P; r++) {
                uint64_t y = elem(r, i);
                affine(&w, &y, 1, MC_UINT64);
                w = y;
            }
            want[i] = w;
        }
        for (size_t i = 0; i < tot; i++)
            in[i] = elem(me, i);
        int bad = 0;
        if (mc_hier_supports(h, MC_COLL_ALLREDUCE, 0)) {
            memset(out, 0, 8 * tot);
            TRYV(mc_hier_allreduce(h, in, out, n, MC_UINT64, op));
            bad |= memcmp(out, want, 8 * n) != 0;
            st->cases++;
        }
        if (mc_hier_supports(h, MC_COLL_REDUCE, 0)) {
            memset(out, 0, 8 * tot);
            TRYV(mc_hier_reduce(h, in, out, n, MC_UINT64, op, P - 1));
            bad |= me == P - 1 && memcmp(out, want, 8 * n) != 0;
            st->cases++;
        }
        if (mc_hier_supports(h, MC_COLL_REDUCE_SCATTER_BLOCK, 0)) {
            memset(out, 0, 8 * tot);
            TRYV(mc_hier_reduce_scatter_block(h, in, out, n, MC_UINT64, op));
            bad |= memcmp(out, want + (size_t)me * n, 8 * n) != 0;
            st->cases++;
        }
        if (bad && st->failures++ < 10)
            fprintf(stderr, "FAIL rank %d: non-commutative order, count %zu\n",
                    me, n);
        free(in);
        free(out);
        free(want);
    }
    return 0;
}

int main(int argc, char **argv)
{
    shape_t s = {0, 0};
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--node-size"))
            s.k = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--nodes"))
            s.nnodes_rr = atoi(argv[i + 1]);
    }
    if ((s.k < 1) == (s.nnodes_rr < 1)) {
        fprintf(stderr, "usage: test_hier --node-size K | --nodes N\n");
        return 2;
    }
    mc_comm_t *w;
    if (mc_init(&w) != MC_OK) {
        fprintf(stderr, "test_hier: mc_init: %s\n", mc_last_error());
        return 1;
    }
    int P = mc_comm_size(w);
    int *tabs = malloc(sizeof(int) * 2 * (size_t)P);
    mc_hier_t h;
    if (!tabs || build(w, &s, &h, tabs) != MC_OK ||
        mc_arrivals_open(mc_comm_rank(w), P, 7, &arrivals) != MC_OK)
        return 1;
    with_alltoall = *h.prov;
    with_alltoall.alltoall = p_alltoall;
    h.prov = &with_alltoall;
    stats_t st = {0, 0, 0};
    for (size_t i = 0; i < sizeof colls / sizeof *colls; i++) {
        int ok = mc_hier_supports(&h, (mc_coll_t)colls[i], 1);
        if (!ok) {
            st.unsupported++;
            continue;
        }
        if (coll_cases(&h, colls[i], &st))
            return 1;
    }
    if (order_cases(&h, &st))
        return 1;
    if (h.rank == 0)
        printf("test_hier: %d ranks, %d nodes (%s%s): %d cases, %d "
               "failures, %d unsupported (flat elsewhere)\n",
               P, h.nnodes, h.uniform ? "uniform" : "uneven",
               h.block ? ", blocks" : ", round robin", st.cases, st.failures,
               st.unsupported);
    mc_hier_case_free(&h);
    free(tabs);
    mc_arrivals_close(&arrivals);
    mc_finalize();
    return st.failures ? 1 : 0;
}
