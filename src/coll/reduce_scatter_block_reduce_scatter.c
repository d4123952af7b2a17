/*
 * Reduce-scatter (block) as binomial reduce of all P blocks to rank 0,
 * then linear scatter from rank 0:
 *
 *   0 <- 1  2 <- 3       reduce P*count elements, in rank order
 *   0 <---- 2
 *   0 -> 1, 0 -> 2, 0 -> 3   scatter one block each
 *
 * Keeps rank order, so it serves non-commutative ops.
 */
#include "coll/coll.h"

int mc_reduce_scatter_block_reduce_scatter(mc_team_t *c, const mc_args_t *a,
                                           const mc_params_t *p)
{
    (void)p;
    size_t total = a->bytes * (size_t)c->size;
    void *full = NULL;
    if (c->rank == 0)
        MC_CHECK(mc_scratch(c, total, &full));
    mc_args_t r = *a;
    r.coll = MC_COLL_REDUCE;
    r.count = a->count * (size_t)c->size;
    r.bytes = total;
    r.root = 0;
    r.rbuf = full;
    MC_CHECK(mc_binomial_reduce(c, &r));
    mc_args_t s = *a;
    s.coll = MC_COLL_SCATTER;
    s.root = 0;
    s.sbuf = full;
    return mc_linear_scatter(c, &s);
}

const mc_algo_impl_t mc_reduce_scatter_block_reduce_scatter_algo = {
    .fn = mc_reduce_scatter_block_reduce_scatter};
