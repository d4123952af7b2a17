/*
 * Binomial broadcast of RCCE_comm: a binary recursive tree over vranks
 * (root = 0) on two-sided send/recv. The root hands the upper half of the
 * ranks to its first rank, and both halves recurse:
 *
 *   P = 7    0 ----------> 4          step 1
 *            0 ----> 2     4 --> 6    step 2
 *            0 > 1   2 > 3 4 > 5      step 3
 *
 * Every edge carries the whole message (chunked by the two-sided layer),
 * so the latency is ceil(log2 P) x (put + get of the message).
 */
#include "coll/coll.h"
#include "coll/p2p.h"
#include "sched/sched.h"

int mc_binomial_bcast(mc_team_t *c, const mc_args_t *a)
{
    int n = c->size;
    mc_bisect_t t;
    mc_sched_bisect(mc_vrank(c->rank, a->root, n), n, &t);
    if (t.parent >= 0)
        MC_CHECK(mc_p2p_recv(c, mc_unvrank(t.parent, a->root, n), a->rbuf,
                             a->bytes, NULL));
    for (int i = 0; i < t.nchildren; i++)
        MC_CHECK(mc_p2p_send(c, mc_unvrank(t.child[i], a->root, n), a->rbuf,
                             a->bytes));
    return MC_OK;
}

int mc_bcast_binomial(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    (void)p;
    return mc_binomial_bcast(c, a);
}

const mc_algo_impl_t mc_bcast_binomial_algo = {.fn = mc_bcast_binomial};
