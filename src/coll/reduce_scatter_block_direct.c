/*
 * Single-copy reduce-scatter (block) for large vectors: rank r combines
 * block r of every rank's input, reading it straight from the others'
 * buffers (coll/direct.h), in rank order, chunk by chunk through a scratch
 * buffer:
 *
 *   rank 0:  publish {s0}   out = s0[b0] op read(s1[b0]) op read(s2[b0])
 *   rank 1:  publish {s1}   out = read(s0[b1]) op s1[b1] op read(s2[b1])
 *   rank 2:  publish {s2}   out = read(s0[b2]) op read(s1[b2]) op s2[b2]
 *            end: wait until nobody reads my input any more
 *
 * In place the output (the first block of rbuf) is block 0 of my input,
 * which rank 0 may still be reading: the result goes to scratch and is
 * copied out after the end.
 *
 * Fallback, run by the selection without single copy (the simulator,
 * MC_SINGLE_COPY=0) or on one rank: the flat
 * algorithm (small) or rank-order reduce-scatter.
 */
#include "coll/coll.h"
#include "coll/direct.h"

enum { P_CHUNK = MC_DIRECT_CHUNK }; /* mc_direct_params */

int mc_reduce_scatter_block_direct(mc_team_t *c, const mc_args_t *a,
                                   const mc_params_t *p)
{
    MC_CHECK(mc_direct_require(c));
    mc_direct_t d;
    MC_CHECK(mc_direct_begin(c, a, &d));
    return mc_direct_reduce_end(c, &d, (size_t)c->rank * a->bytes, a->count,
                                mc_direct_chunk(a, p->v[P_CHUNK]));
}

const mc_algo_impl_t mc_reduce_scatter_block_direct_algo = {
    .fn = mc_reduce_scatter_block_direct, .params = mc_direct_params,
    .resolve = mc_direct_resolve,
    .needs = MC_ALGO_SINGLE_COPY, .usable = mc_direct_usable,
    .fallback = "flat",
};
