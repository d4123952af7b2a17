/*
 * One-sided reduce-scatter + allgather allreduce, pipelined through the
 * MPBs: every rank reduces one of P balanced blocks, reading the others'
 * pieces of it straight from their MPBs, and everyone copies the reduced
 * blocks straight from their owners' MPBs. No two-sided handshakes: a
 * chunk costs one flag per stage and one acknowledgement per reader.
 *
 * Round j (one chunk of every block), rank r, MPB slot j % 2:
 *
 *   1. wait: every peer acknowledged round j-2 (slot j % 2 is free)
 *   2. publish chunk j of every block q != r from my input   -> in[j]
 *   3. block r, chunk j = x_0 op x_1 op ... op x_{P-1}, in rank order,
 *      reading x_q from q's slot (my own from my input); write it to my
 *      output and to my slot                                  -> out[j]
 *   4. for every q != r: wait out[j] of q, copy its chunk of block q to
 *      my output, acknowledge to q
 *
 *   P = 2:   rank 0  in: x0[B1]  ---> rank 1 reduces B1 = x0[B1] op x1[B1]
 *            rank 1  in: x1[B0]  ---> rank 0 reduces B0 = x0[B0] op x1[B0]
 *            then each copies the other's reduced block from its slot
 *
 * Every block is reduced once, in rank order, so all ranks get the same
 * bits and non-commutative ops are right. At the end a rank waits for the
 * last acknowledgements (its MPB is then no longer read).
 *
 * When two slots of P chunks of a byte do not fit the MPB (thousands of
 * ranks) the selection runs reduce-bcast instead; when they do, but not
 * of the call's elements (a chunk smaller than the datatype), the call
 * is declined (MC_NOT_APPLICABLE) and reduce-bcast runs it.
 *
 * Flags: in[j] and out[j] are my two lines of the shared range MC_FL_RSAG
 * (coll/flags.h),
 * the acknowledgements my line (bank 0) in each peer's flags, all values
 * mc_flagval(c, j + 1).
 */
#include <stdint.h>

#include "coll/coll.h"
#include "sched/sched.h"

enum { P_CHUNK = 0, P_COUNT };

typedef struct rsag {
    mc_team_t *c;
    const mc_args_t *a;
    size_t chunk;     /* elements per chunk */
    size_t slot;      /* bytes per MPB slot: P chunks */
    void *own;        /* my own chunk of my block, when in place */
} rsag_t;

static int line_in(const mc_team_t *c)
{
    return mc_flag_line(c, MC_FL_RSAG, 0);
}
static int line_out(const mc_team_t *c)
{
    return mc_flag_line(c, MC_FL_RSAG, 1);
}

/* elements [*lo, *hi) of chunk j of block b */
static void piece(const rsag_t *x, int b, size_t j, size_t *lo, size_t *n)
{
    size_t start = mc_block_start(x->a->count, x->c->size, b);
    size_t len = mc_block_len(x->a->count, x->c->size, b);
    size_t from = j * x->chunk;
    *lo = start + (from < len ? from : len);
    *n = from < len ? (len - from < x->chunk ? len - from : x->chunk) : 0;
}

/* byte offset in rank q's slot s of its piece of block b (the result is
 * at position P-1) */
static size_t at(const rsag_t *x, int q, int b, int s)
{
    int pos = b == q ? x->c->size - 1 : (b < q ? b : b - 1);
    return (size_t)s * x->slot + (size_t)pos * x->chunk * x->a->dsize;
}

static int publish(const rsag_t *x, size_t j, uint64_t val)
{
    mc_team_t *c = x->c;
    int me = c->rank, s = (int)(j % 2);
    if (j >= 2)
        for (int q = 0; q < c->size; q++)
            if (q != me)
                MC_CHECK(tp_flag_wait(c->tp, me, mc_flag_from(c, 0, q),
                                      mc_flagval(c, (uint32_t)(j - 1))));
    for (int b = 0; b < c->size; b++) {
        size_t lo, n;
        piece(x, b, j, &lo, &n);
        if (b != me && n)
            MC_CHECK(tp_put(c->tp, me, at(x, me, b, s),
                            (const char *)x->a->sbuf + lo * x->a->dsize,
                            n * x->a->dsize));
    }
    tp_flag_set(c->tp, me, line_in(c), val);
    return MC_OK;
}

/* my block's chunk j, in rank order, into my output and my slot */
static int reduce(const rsag_t *x, size_t j, uint64_t val)
{
    mc_team_t *c = x->c;
    const mc_args_t *a = x->a;
    int me = c->rank, s = (int)(j % 2);
    size_t lo, n;
    piece(x, me, j, &lo, &n);
    char *out = (char *)a->rbuf + lo * a->dsize;
    const char *mine = (const char *)a->sbuf + lo * a->dsize;
    if (n && a->in_place && me != 0) { /* out is my input: keep it */
        MC_CHECK(tp_copy(c->tp, x->own, mine, n * a->dsize));
        mine = x->own;
    }
    for (int q = 0; q < c->size && n; q++) {
        if (q == me) {
            if (q == 0)
                MC_CHECK(tp_copy(c->tp, out, mine, n * a->dsize));
            else
                MC_CHECK(tp_reduce(c->tp, out, mine, n, a->dt, a->op, 0));
            continue;
        }
        MC_CHECK(tp_flag_wait(c->tp, q, line_in(c), val));
        if (q == 0)
            MC_CHECK(tp_get(c->tp, out, q, at(x, q, me, s), n * a->dsize));
        else
            MC_CHECK(tp_get_reduce(c->tp, out, q, at(x, q, me, s), n, a->dt,
                                   a->op, 0));
    }
    if (n)
        MC_CHECK(tp_put(c->tp, me, at(x, me, me, s), out, n * a->dsize));
    tp_flag_set(c->tp, me, line_out(c), val);
    return MC_OK;
}

static int gather(const rsag_t *x, size_t j, uint64_t val)
{
    mc_team_t *c = x->c;
    int me = c->rank, s = (int)(j % 2);
    for (int i = 1; i < c->size; i++) {
        int q = (me + i) % c->size; /* spread the readers over the owners */
        size_t lo, n;
        piece(x, q, j, &lo, &n);
        MC_CHECK(tp_flag_wait(c->tp, q, line_out(c), val));
        if (n)
            MC_CHECK(tp_get(c->tp, (char *)x->a->rbuf + lo * x->a->dsize, q,
                            at(x, q, q, s), n * x->a->dsize));
        tp_flag_set(c->tp, q, mc_flag_from(c, 0, me), val);
    }
    return MC_OK;
}

/* bytes per chunk: `want` (0: 64K), at most what two slots of P chunks
 * leave in the MPB */
static size_t rsag_chunk(const mc_team_t *c, int64_t want)
{
    size_t w = want > 0 ? (size_t)want : 65536;
    size_t fit = c->mpb.avail / (2 * (size_t)c->size);
    return w < fit ? w : fit;
}

int mc_allreduce_rsag(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    int n = c->size;
    if (n == 1)
        return tp_copy(c->tp, a->rbuf, a->sbuf, a->bytes);
    rsag_t x = {.c = c, .a = a};
    x.chunk = rsag_chunk(c, p->v[P_CHUNK]) / a->dsize;
    if (x.chunk == 0) /* two slots of P elements do not fit the MPB */
        return MC_NOT_APPLICABLE;
    x.slot = (size_t)n * x.chunk * a->dsize;
    if (a->in_place)
        MC_CHECK(mc_scratch(c, x.chunk * a->dsize, &x.own));
    size_t blen = mc_block_len(a->count, n, 0); /* the largest block */
    size_t rounds = (blen + x.chunk - 1) / x.chunk;
    for (size_t j = 0; j < rounds; j++) {
        uint64_t val = mc_flagval(c, (uint32_t)(j + 1));
        MC_CHECK(publish(&x, j, val));
        MC_CHECK(reduce(&x, j, val));
        MC_CHECK(gather(&x, j, val));
    }
    /* my slots are read until every peer has acknowledged the last round */
    for (int q = 0; q < n; q++)
        if (q != c->rank)
            MC_CHECK(tp_flag_wait(c->tp, c->rank, mc_flag_from(c, 0, q),
                                  mc_flagval(c, (uint32_t)rounds)));
    return MC_OK;
}

static const mc_param_desc_t params[P_COUNT + 1] = {
    [P_CHUNK] = {"chunk", 0, 0, 1LL << 30,
                 "bytes per pipelined chunk and block; 0 = 64K (at most "
                 "what two slots of P chunks leave in the MPB)"},
};

/* the chunk that runs (0 when two slots do not fit: reduce-bcast runs) */
static int resolve(const mc_team_t *t, mc_params_t *p)
{
    p->v[P_CHUNK] = (int64_t)rsag_chunk(t, p->v[P_CHUNK]);
    return MC_OK;
}

/* two slots of P chunks of a byte fit the MPB (p resolved) */
static int usable(const mc_team_t *t, const mc_params_t *p, const char **why)
{
    *why = t->size > 1 && p->v[P_CHUNK] < 1
               ? "two MPB slots of a byte per rank do not fit"
               : NULL;
    return *why == NULL;
}

const mc_algo_impl_t mc_allreduce_rsag_algo = {
    .fn = mc_allreduce_rsag, .params = params, .resolve = resolve,
    .usable = usable, .fallback = "reduce-bcast",
    .declines = "the call's element is larger than the chunk",
};
