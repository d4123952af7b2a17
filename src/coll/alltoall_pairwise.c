/*
 * Pairwise-exchange alltoall: P-1 steps; in step i rank r sends its block
 * for r+i and receives the block of r-i. Two-sided; every step pairs each
 * rank with one sender and one receiver, so no MPB is read by two ranks.
 *
 *     P = 4    step 1: 0->1 1->2 2->3 3->0
 *              step 2: 0->2 1->3 2->0 3->1
 *              step 3: 0->3 1->0 2->1 3->2
 *
 * In-place: the API layer hands a copy of the input as sbuf.
 */
#include "coll/coll.h"
#include "coll/p2p.h"

int mc_alltoall_pairwise(mc_team_t *c, const mc_args_t *a,
                         const mc_params_t *p)
{
    (void)p;
    int n = c->size, r = c->rank;
    const unsigned char *in = a->sbuf;
    unsigned char *out = a->rbuf;
    size_t b = a->bytes;
    MC_CHECK(tp_copy(c->tp, out + (size_t)r * b, in + (size_t)r * b, b));
    for (int i = 1; i < n; i++) {
        int dst = (r + i) % n, src = (r - i + n) % n;
        MC_CHECK(mc_p2p_sendrecv(c, dst, in + (size_t)dst * b, b, src,
                                 out + (size_t)src * b, b, NULL));
    }
    return MC_OK;
}

const mc_algo_impl_t mc_alltoall_pairwise_algo = {
    .fn = mc_alltoall_pairwise,
};
