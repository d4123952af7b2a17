/*
 * Single-copy reduce-scatter with per-rank counts, for large vectors:
 * rank r combines its block (rcounts[r] elements at the sum of the counts
 * before it) of every rank's input, read straight from the others'
 * buffers (coll/direct.h), in rank order, chunk by chunk through a
 * scratch buffer; reduce_scatter_block_direct.c with uneven blocks:
 *
 *            |<- rcounts[0] ->|<--- rcounts[1] --->|<- rcounts[2] ->|
 *   rank 0:  out = s0[b0] op read(s1[b0]) op read(s2[b0])
 *   rank 1:  out = read(s0[b1]) op s1[b1] op read(s2[b1])
 *   rank 2:  out = read(s0[b2]) op read(s1[b2]) op s2[b2]
 *            end: wait until nobody reads my input any more
 *
 * In place the output (the start of rbuf) overlaps my input, which the
 * others may still be reading: the result goes to scratch and is copied
 * out after the end.
 *
 * Fallback, run by the selection without single copy (the simulator,
 * MC_SINGLE_COPY=0) or on one rank: the flat algorithm.
 */
#include "coll/coll.h"
#include "coll/direct.h"

enum { P_CHUNK = MC_DIRECT_CHUNK }; /* mc_direct_params */

int mc_reduce_scatter_direct(mc_team_t *c, const mc_args_t *a,
                             const mc_params_t *p)
{
    MC_CHECK(mc_direct_require(c));
    size_t total = 0, lo = 0;
    for (int q = 0; q < c->size; q++) {
        if (q == c->rank)
            lo = total;
        total += a->rcounts[q];
    }
    /* peers read my whole input (its count, the sum of rcounts, goes
     * with it for the error of ranks that disagree); nobody reads my
     * output */
    mc_args_t v = *a;
    v.count = total;
    mc_direct_t d;
    MC_CHECK(mc_direct_begin_at(c, &v, &d, (uintptr_t)a->sbuf,
                                total * a->dsize, (uintptr_t)a->rbuf, 0, 0));
    return mc_direct_reduce_end(c, &d, lo * a->dsize, a->rcounts[c->rank],
                                mc_direct_chunk(a, p->v[P_CHUNK]));
}

const mc_algo_impl_t mc_reduce_scatter_direct_algo = {
    .fn = mc_reduce_scatter_direct, .params = mc_direct_params,
    .resolve = mc_direct_resolve,
    .needs = MC_ALGO_SINGLE_COPY, .usable = mc_direct_usable,
    .fallback = "flat",
};
