/*
 * Ring reduce-scatter (block variant): every rank contributes P blocks of
 * `count` elements; rank r ends with the reduction of everyone's block r.
 * P-1 steps; in step s rank r sends its partial block r-s-1 to r+1 and
 * combines block r-s-2 from r-1. Two-sided. P = 3:
 *
 *            rank 0      rank 1      rank 2
 *     s=0    b2 -> 1     b0 -> 2     b1 -> 0
 *     s=1    b1 -> 1     b2 -> 2     b0 -> 0
 *     now    has b0      has b1      has b2   (fully reduced)
 *
 * Works on a private copy of the input (scratch). Needs a commutative op.
 * Each step is RCCE_comm's blocking exchange (even ranks send first).
 */
#include "coll/coll.h"
#include "coll/p2p.h"
#include "sched/sched.h"

int mc_reduce_scatter_block_ring(mc_team_t *c, const mc_args_t *a,
                                 const mc_params_t *p)
{
    (void)p;
    int n = c->size, r = c->rank;
    size_t b = a->bytes;
    unsigned char *acc;
    MC_CHECK(mc_scratch(c, b * (size_t)n, (void **)&acc));
    MC_CHECK(tp_copy(c->tp, acc, a->sbuf, b * (size_t)n));
    mc_red_t red = mc_red_of(a, 1);
    for (int s = 0; s < n - 1; s++) {
        int send = (r - s - 1 + 2 * n) % n, recv = (r - s - 2 + 2 * n) % n;
        MC_CHECK(mc_p2p_exchange(c, r, mc_ring_right(r, n), acc + send * b,
                                 b, mc_ring_left(r, n), acc + recv * b, b,
                                 &red));
    }
    return tp_copy(c->tp, a->rbuf, acc + (size_t)r * b, b);
}

const mc_algo_impl_t mc_reduce_scatter_block_ring_algo = {
    .fn = mc_reduce_scatter_block_ring,
    .needs = MC_ALGO_COMMUTATIVE,
    .fallback = "reduce-scatter", /* rank order */
};
