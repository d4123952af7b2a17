/*
 * Flat barrier: every rank raises the flag of its own slot (coll/fast.h)
 * and waits until it has seen every other rank's:
 *
 *   rank 0: raise ---.---> sees 1, 2
 *   rank 1: raise ---+---> sees 0, 2       P - 1 line reads per rank, all
 *   rank 2: raise ---'---> sees 0, 1       at once; O(P) work, for small P
 */
#include "coll/coll.h"
#include "coll/fast.h"

int mc_barrier_flat(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    (void)a;
    (void)p;
    uint64_t f;
    MC_CHECK(mc_fast_begin(c, 1, &f));
    MC_CHECK(mc_fast_publish(c, f, NULL, 0));
    for (int r = 0; r < c->size; r++)
        if (r != c->rank)
            MC_CHECK(mc_fast_fetch(c, f, r, NULL, 0));
    mc_fast_end(c, f);
    return MC_OK;
}

const mc_algo_impl_t mc_barrier_flat_algo = {.fn = mc_barrier_flat};
