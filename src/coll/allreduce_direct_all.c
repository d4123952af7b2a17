/*
 * Single-copy allreduce in one phase, for few ranks: every rank reads
 * every other rank's whole input straight from its process
 * (coll/direct.h) and combines all P of them itself, in rank order,
 * chunk by chunk through a scratch buffer:
 *
 *   P = 2:
 *   rank 0:  publish {s0}   r0 = s0 op read(s1)         end
 *   rank 1:  publish {s1}   r1 = read(s0) op s1         end
 *            (end: wait until nobody reads my input any more)
 *
 * Against allreduce:direct (reduce-scatter, signal, allgather) it has no
 * second phase and no signal to wait for, but every rank reads (P-1)
 * whole vectors instead of 2 (P-1)/P of one: a win at 2 ranks while the
 * vector stays in the caches. Every rank combines in the same order, so
 * all get the same bits and non-commutative ops are right. In place my
 * input is my output, which the others are reading: the result goes to
 * scratch and is copied out after the end.
 *
 * Fallback, run by the selection without single copy (the simulator,
 * MC_SINGLE_COPY=0) or on one rank: rsag.
 */
#include "coll/coll.h"
#include "coll/direct.h"

enum { P_CHUNK = MC_DIRECT_CHUNK }; /* mc_direct_params */

int mc_allreduce_direct_all(mc_team_t *c, const mc_args_t *a,
                            const mc_params_t *p)
{
    MC_CHECK(mc_direct_require(c));
    mc_direct_t d;
    MC_CHECK(mc_direct_begin(c, a, &d));
    return mc_direct_reduce_end(c, &d, 0, a->count,
                                mc_direct_chunk(a, p->v[P_CHUNK]));
}

const mc_algo_impl_t mc_allreduce_direct_all_algo = {
    .fn = mc_allreduce_direct_all, .params = mc_direct_params,
    .resolve = mc_direct_resolve,
    .needs = MC_ALGO_SINGLE_COPY, .usable = mc_direct_usable,
    .fallback = "rsag",
};
