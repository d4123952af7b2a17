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
 * Parameters (coll/p2p.h): sync (0 RCCE_comm's blocking exchange, even
 * ranks send first; 1 iRCCE; 2 lightweight; 3, the default, automatic),
 * tail, fused.
 */
#include "coll/coll.h"
#include "coll/ring.h"

/* mc_p2p_params_stf */
enum { P_SYNC = MC_P2P_SYNC, P_TAIL, P_FUSED };

int mc_reduce_scatter_block_ring(mc_team_t *c, const mc_args_t *a,
                                 const mc_params_t *p)
{
    int n = c->size, r = c->rank;
    size_t b = a->bytes;
    mc_ring_t g = {mc_p2p_mode_of(c, p, P_SYNC, P_TAIL), 1, -1,
                   a->count * (size_t)n, a->dsize};
    mc_red_t red = mc_red_of(a, 1);
    unsigned char *acc;
    /* scratch: the working copy, then the receive buffer of fused=0 */
    MC_CHECK(mc_scratch(c, b * (size_t)(n + 1), (void **)&acc));
    if (!p->v[P_FUSED])
        red.tmp = acc + b * (size_t)n;
    MC_CHECK(tp_copy(c->tp, acc, a->sbuf, b * (size_t)n));
    MC_CHECK(mc_ring_reduce_scatter(c, &g, acc, &red));
    return tp_copy(c->tp, a->rbuf, acc + (size_t)r * b, b);
}

const mc_algo_impl_t mc_reduce_scatter_block_ring_algo = {
    .fn = mc_reduce_scatter_block_ring, .params = mc_p2p_params_stf,
    .resolve = mc_p2p_resolve,
    .needs = MC_ALGO_COMMUTATIVE,
    .fallback = "reduce-scatter", /* rank order */
};
