/*
 * Ring allreduce: ring reduce-scatter, then ring allgather (RCCE_comm's
 * long allreduce, Kohler et al.'s subject), on P blocks. Two-sided.
 *
 *   reduce-scatter, step s = 0..P-2: rank r sends block r-s to r+1 and
 *   combines block r-s-1 from r-1 into its own copy. P = 3:
 *
 *            rank 0      rank 1      rank 2
 *     s=0    b0 -> 1     b1 -> 2     b2 -> 0
 *     s=1    b2 -> 1     b0 -> 2     b1 -> 0
 *     now    owns b1     owns b2     owns b0   (fully reduced)
 *
 *   allgather, step s: rank r sends block r+1-s, receives block r-s.
 *
 * Each block is reduced once, by one rank, so every rank ends with the same
 * bits. Needs a commutative op (the combine order follows the ring).
 * Parameters (coll/p2p.h): sync (0 RCCE_comm's blocking exchange, even
 * ranks send first; 1 iRCCE; 2 lightweight; 3, the default, automatic:
 * lightweight on cache-coherent machines, blocking on MPB chips), balance
 * (blocks differ by at most one element, or RCCE_comm's split), tail
 * (RCCE's padded last line), fused (0: receive into scratch, then reduce).
 */
#include "coll/coll.h"
#include "coll/ring.h"

/* mc_p2p_params_ring */
enum { P_SYNC = MC_P2P_SYNC, P_BALANCE, P_TAIL, P_FUSED };

int mc_allreduce_ring(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    mc_ring_t g = {mc_p2p_mode_of(c, p, P_SYNC, P_TAIL), (int)p->v[P_BALANCE],
                   0, a->count, a->dsize};
    mc_red_t red = mc_red_of(a, 1);
    if (!p->v[P_FUSED])
        MC_CHECK(mc_scratch(c, mc_ring_max(c, &g), &red.tmp));
    MC_CHECK(tp_copy(c->tp, a->rbuf, a->sbuf, a->bytes));
    MC_CHECK(mc_ring_reduce_scatter(c, &g, a->rbuf, &red));
    return mc_ring_allgather(c, &g, a->rbuf);
}

const mc_algo_impl_t mc_allreduce_ring_algo = {
    .fn = mc_allreduce_ring, .params = mc_p2p_params_ring,
    .resolve = mc_p2p_resolve,
    .needs = MC_ALGO_COMMUTATIVE, .fallback = "reduce-bcast", /* rank order */
};
