/*
 * Ring allgatherv: P-1 steps; in step s rank r passes block r-s to r+1
 * and receives block r-s-1 from r-1. Blocks have the sizes rcounts[]
 * (every rank knows them all) and sit at rdispls[]; empty blocks cost a
 * step's call but move nothing. Two-sided.
 *
 *     P = 4, blocks b0..b3      step 1: 0->1 b0  1->2 b1  2->3 b2  3->0 b3
 *                               step 2: 0->1 b3  1->2 b0  2->3 b1  3->0 b2
 *                               step 3: 0->1 b2  1->2 b3  2->3 b0  3->0 b1
 *
 * In place, the rank's own block is already at rdispls[rank].
 */
#include "coll/coll.h"
#include "coll/p2p.h"

int mc_allgatherv_ring(mc_team_t *c, const mc_args_t *a,
                       const mc_params_t *p)
{
    (void)p;
    int n = c->size, r = c->rank;
    size_t d = a->dsize;
    unsigned char *out = a->rbuf;
    const size_t *cnt = a->rcounts, *dis = a->rdispls;
    unsigned char *own = out + dis[r] * d;
    if (!a->in_place)
        MC_CHECK(tp_copy(c->tp, own, a->sbuf, cnt[r] * d));
    int right = (r + 1) % n, left = (r - 1 + n) % n;
    for (int s = 0; s < n - 1; s++) {
        int sb = (r - s + n) % n, rb = (r - s - 1 + n) % n;
        MC_CHECK(mc_p2p_sendrecv(c, right, out + dis[sb] * d, cnt[sb] * d,
                                 left, out + dis[rb] * d, cnt[rb] * d,
                                 NULL));
    }
    return MC_OK;
}

const mc_algo_impl_t mc_allgatherv_ring_algo = {.fn = mc_allgatherv_ring};
