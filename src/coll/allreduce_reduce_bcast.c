/*
 * Allreduce as binomial reduce to rank 0 followed by binomial broadcast
 * from rank 0 (RCCE_comm's small-message allreduce):
 *
 *   0 <- 1  2 <- 3      reduce (log2 P steps)
 *   0 <---- 2
 *   0 ----> 2           bcast (log2 P steps)
 *   0 -> 1  2 -> 3
 *
 * Rank order is kept (see reduce_binomial.c), so any op is allowed.
 */
#include "coll/coll.h"

int mc_allreduce_reduce_bcast(mc_team_t *c, const mc_args_t *a,
                              const mc_params_t *p)
{
    (void)p;
    mc_args_t r = *a;
    r.root = 0;
    MC_CHECK(mc_binomial_reduce(c, &r));
    mc_args_t b = *a;
    b.root = 0;
    b.sbuf = b.rbuf;
    return mc_binomial_bcast(c, &b);
}

const mc_algo_impl_t mc_allreduce_reduce_bcast_algo = {
    .fn = mc_allreduce_reduce_bcast};
