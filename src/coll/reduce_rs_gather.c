/*
 * Reduce as a ring reduce-scatter followed by a gather to the root
 * (RCCE_comm's reduce for long vectors, which Kohler et al. balance):
 *
 *   1. ring reduce-scatter of the P blocks (coll/ring.h): afterwards rank
 *      r holds block r+1 fully reduced
 *   2. linear gather: the root receives block i+1 from every rank i in
 *      rank order, into its result
 *
 *     P = 4, root 0:   ring  0 -> 1 -> 2 -> 3 -> 0   (3 steps)
 *                      then  1:b2 -> 0, 2:b3 -> 0, 3:b0 -> 0; 0 has b1
 *
 * Non-roots work in scratch. Needs a commutative op (the ring's combine
 * order). Parameters as the ring allreduce (coll/p2p.h): sync, balance,
 * tail, fused; the gather's sends and receives take the same flavour.
 */
#include "coll/coll.h"
#include "coll/ring.h"

/* mc_p2p_params_ring */
enum { P_SYNC = MC_P2P_SYNC, P_BALANCE, P_TAIL, P_FUSED };

int mc_reduce_rs_gather(mc_team_t *c, const mc_args_t *a,
                        const mc_params_t *p)
{
    int n = c->size, r = c->rank, root = a->root;
    mc_ring_t g = {mc_p2p_mode_of(c, p, P_SYNC, P_TAIL), (int)p->v[P_BALANCE],
                   0, a->count, a->dsize};
    mc_red_t red = mc_red_of(a, 1);
    size_t tmp_len = p->v[P_FUSED] ? 0 : mc_ring_max(c, &g);
    unsigned char *work = a->rbuf, *scratch;
    /* scratch: the working copy (non-roots), then fused=0's buffer */
    size_t own = r == root ? 0 : a->bytes;
    MC_CHECK(mc_scratch(c, own + tmp_len, (void **)&scratch));
    if (r != root)
        work = scratch;
    if (tmp_len)
        red.tmp = scratch + own;
    MC_CHECK(tp_copy(c->tp, work, a->sbuf, a->bytes));
    MC_CHECK(mc_ring_reduce_scatter(c, &g, work, &red));
    if (r != root)
        return mc_p2p_send_m(c, &g.mode, root, work + mc_ring_off(c, &g, r + 1),
                             mc_ring_len(c, &g, r + 1));
    for (int i = 0; i < n; i++)
        if (i != root)
            MC_CHECK(mc_p2p_recv_m(c, &g.mode, i,
                                   work + mc_ring_off(c, &g, i + 1),
                                   mc_ring_len(c, &g, i + 1), NULL));
    return MC_OK;
}

const mc_algo_impl_t mc_reduce_rs_gather_algo = {
    .fn = mc_reduce_rs_gather, .params = mc_p2p_params_ring,
    .resolve = mc_p2p_resolve,
    .needs = MC_ALGO_COMMUTATIVE, .fallback = "binomial", /* rank order */
};
