/*
 * Ring allgather: P-1 steps; in step s rank r forwards block r-s to r+1
 * and receives block r-s-1 from r-1. Two-sided.
 *
 *            rank 0      rank 1      rank 2
 *     s=0    b0 -> 1     b1 -> 2     b2 -> 0
 *     s=1    b2 -> 1     b0 -> 2     b1 -> 0
 *
 * Parameters (coll/p2p.h): sync (0 RCCE_comm's blocking exchange, even
 * ranks send first, odd ranks receive first; 1 iRCCE; 2 lightweight; 3,
 * the default, automatic: lightweight on cache-coherent machines, blocking
 * on MPB chips), tail.
 */
#include "coll/coll.h"
#include "coll/ring.h"

/* mc_p2p_params_st */
enum { P_SYNC = MC_P2P_SYNC, P_TAIL };

int mc_allgather_ring(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    int n = c->size, r = c->rank;
    unsigned char *out = a->rbuf;
    size_t b = a->bytes;
    /* blocks of a->count elements: a balanced split of n of them */
    mc_ring_t g = {mc_p2p_mode_of(c, p, P_SYNC, P_TAIL), 1, -1,
                   a->count * (size_t)n, a->dsize};
    MC_CHECK(tp_copy(c->tp, out + (size_t)r * b, a->sbuf, b));
    return mc_ring_allgather(c, &g, out);
}

const mc_algo_impl_t mc_allgather_ring_algo = {
    .fn = mc_allgather_ring, .params = mc_p2p_params_st,
    .resolve = mc_p2p_resolve,
};
