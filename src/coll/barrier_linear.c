/*
 * Linear barrier: every other rank raises the flag of its own slot
 * (coll/fast.h); rank 0 waits until it has seen them all, then raises its
 * own, which they wait for:
 *
 *   rank 1: raise --.                 .--> sees 0
 *   rank 2: raise --+--> rank 0 sees  +--> sees 0
 *   rank 3: raise --'    1, 2, 3;     '--> sees 0
 *                        raises
 *
 * Two steps where the flat barrier has one, but rank 0 leaves first, and
 * the others leave after it. With more ranks than CPUs, where a rank that
 * waits gives up its CPU, a flat barrier lets the rank that arrived last
 * leave first and the first (often a root, whose part of the call before
 * was the shortest) last: in a loop of a barrier and a call rooted at
 * rank 0, the others then wait for it in that call. Here rank 0 is
 * running when it releases the others, so a call rooted at 0 that follows
 * finds its root ahead.
 */
#include "coll/coll.h"
#include "coll/fast.h"

int mc_barrier_linear(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    (void)a;
    (void)p;
    uint64_t f;
    MC_CHECK(mc_fast_begin(c, 1, &f));
    if (c->rank == 0) {
        for (int r = 1; r < c->size; r++)
            MC_CHECK(mc_fast_fetch(c, f, r, NULL, 0));
        MC_CHECK(mc_fast_publish(c, f, NULL, 0));
    } else {
        MC_CHECK(mc_fast_publish(c, f, NULL, 0));
        MC_CHECK(mc_fast_fetch(c, f, 0, NULL, 0));
    }
    mc_fast_end(c, f);
    return MC_OK;
}

const mc_algo_impl_t mc_barrier_linear_algo = {.fn = mc_barrier_linear};
