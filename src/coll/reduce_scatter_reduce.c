/*
 * Reduce-scatter with per-rank counts: a binomial reduce of the whole
 * vector (the sum of rcounts) to rank 0, then a linear scatterv of
 * rcounts[q] elements to each rank q, blocks back to back:
 *
 *   0 <- 1  2 <- 3       reduce sum(rcounts) elements, in rank order
 *   0 <---- 2
 *   0 -> 1, 0 -> 2, 0 -> 3   scatter rank q's block
 *
 * Keeps rank order, so it serves non-commutative ops.
 */
#include "coll/coll.h"

int mc_reduce_scatter_reduce(mc_team_t *c, const mc_args_t *a,
                             const mc_params_t *p)
{
    (void)p;
    size_t total = 0;
    for (int q = 0; q < c->size; q++)
        total += a->rcounts[q];
    void *full = NULL;
    if (c->rank == 0 && total)
        MC_CHECK(mc_scratch(c, total * a->dsize, &full));
    if (total) {
        mc_args_t r = *a;
        r.coll = MC_COLL_REDUCE;
        r.count = total;
        r.bytes = total * a->dsize;
        r.root = 0;
        r.in_place = 0;
        r.rbuf = full;
        r.sel_bytes = 0;
        MC_CHECK(mc_binomial_reduce(c, &r));
    }
    return mc_scatterv_blocks(c, 0, full, a->rcounts, NULL, a->dsize,
                              a->rbuf, a->bytes, 0);
}

const mc_algo_impl_t mc_reduce_scatter_reduce_algo = {
    .fn = mc_reduce_scatter_reduce};
