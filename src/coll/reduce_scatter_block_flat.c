/*
 * Flat reduce-scatter (block) for small vectors: every rank publishes its
 * whole input (P blocks) in its own slot (coll/fast.h); rank r reads
 * block r of every rank and combines them in rank order:
 *
 *   rank 0 slot: [x0.b0 x0.b1 x0.b2]     rank 1: x0.b1 op x1.b1 op x2.b1
 *   rank 1 slot: [x1.b0 x1.b1 x1.b2]     (the same order on every rank, so
 *   rank 2 slot: [x2.b0 x2.b1 x2.b2]      non-commutative ops are right)
 *
 * One fast call instead of P-1 dependent ring steps; when the P blocks do
 * not fit a slot, each fast call carries the same piece of every block.
 * Where a slot has less than a byte per rank the selection runs
 * reduce-scatter instead; a call whose P elements do not fit is declined
 * (MC_NOT_APPLICABLE), and reduce-scatter runs it.
 */
#include "coll/coll.h"
#include "coll/fast.h"

static int one(mc_team_t *c, const mc_args_t *a, size_t off, size_t cnt,
               char *stage)
{
    int np = c->size, me = c->rank;
    size_t n = cnt * a->dsize, total = n * (size_t)np;
    const char *in = a->sbuf;
    char *out = (char *)a->rbuf + off;
    uint64_t f;
    for (int b = 0; b < np; b++)
        MC_CHECK(tp_copy(c->tp, stage + (size_t)b * n,
                         in + (size_t)b * a->bytes + off, n));
    MC_CHECK(mc_fast_begin(c, 1, &f));
    MC_CHECK(mc_fast_publish(c, f, stage, total));
    /* rank 0's piece first, then ranks 1 .. P-1 on the right; my own from
     * the stage (in place, the output overwrites block 0 of my input) */
    const char *mine = stage + (size_t)me * n;
    size_t at = (size_t)me * n;
    if (me == 0)
        MC_CHECK(tp_copy(c->tp, out, mine, n));
    else
        MC_CHECK(mc_fast_fetch_part(c, f, 0, at, out, n, total));
    for (int r = 1; r < np; r++) {
        if (r == me)
            MC_CHECK(tp_reduce(c->tp, out, mine, cnt, a->dt, a->op, 0));
        else
            MC_CHECK(mc_fast_fetch_reduce_part(c, f, r, at, out, cnt, a, 0,
                                               total));
    }
    mc_fast_end(c, f);
    return MC_OK;
}

int mc_reduce_scatter_block_flat(mc_team_t *c, const mc_args_t *a,
                                 const mc_params_t *p)
{
    size_t per = mc_fast_max(c) / (size_t)c->size / a->dsize;
    (void)p;
    if (per == 0) /* P elements do not fit a slot */
        return MC_NOT_APPLICABLE;
    char stage[MC_FAST_MAX_SLOT > 120 ? MC_FAST_MAX_SLOT : 120];
    for (size_t done = 0; done < a->count; done += per)
        MC_CHECK(one(c, a, done * a->dsize,
                     a->count - done < per ? a->count - done : per, stage));
    return MC_OK;
}

const mc_algo_impl_t mc_reduce_scatter_block_flat_algo = {
    .fn = mc_reduce_scatter_block_flat,
    .usable = mc_fast_usable, .fallback = "reduce-scatter",
    .declines = "the call's P elements do not fit a slot",
};
