/*
 * Ring allgather: P-1 steps; in step s rank r forwards block r-s to r+1
 * and receives block r-s-1 from r-1, with RCCE_comm's blocking exchange
 * (even ranks send first, odd ranks receive first). Two-sided.
 *
 *            rank 0      rank 1      rank 2
 *     s=0    b0 -> 1     b1 -> 2     b2 -> 0
 *     s=1    b2 -> 1     b0 -> 2     b1 -> 0
 */
#include "coll/coll.h"
#include "coll/p2p.h"
#include "sched/sched.h"

int mc_allgather_ring(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    (void)p;
    int n = c->size, r = c->rank;
    unsigned char *out = a->rbuf;
    size_t b = a->bytes;
    MC_CHECK(tp_copy(c->tp, out + (size_t)r * b, a->sbuf, b));
    for (int s = 0; s < n - 1; s++) {
        int send = (r - s + n) % n, recv = (r - s - 1 + 2 * n) % n;
        MC_CHECK(mc_p2p_exchange(c, r, mc_ring_right(r, n), out + send * b,
                                 b, mc_ring_left(r, n), out + recv * b, b,
                                 NULL));
    }
    return MC_OK;
}

const mc_algo_impl_t mc_allgather_ring_algo = {
    .fn = mc_allgather_ring,
};
