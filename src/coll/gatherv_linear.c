/*
 * Linear gatherv: the root receives rank 0's, 1's, ..., P-1's block in
 * turn (rcounts[q] elements at rdispls[q]; its own is a local copy, or
 * already there in place); every other rank sends its block once. Ranks
 * with nothing to send take no part. Two-sided.
 *
 *     root <- 0, root <- 1, ..., root <- P-1
 */
#include "coll/coll.h"
#include "coll/p2p.h"

int mc_gatherv_linear(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    (void)p;
    if (c->rank != a->root)
        return a->bytes ? mc_p2p_send(c, a->root, a->sbuf, a->bytes) : MC_OK;
    unsigned char *out = a->rbuf;
    size_t d = a->dsize;
    for (int q = 0; q < c->size; q++) {
        unsigned char *at = out + a->rdispls[q] * d;
        size_t bytes = a->rcounts[q] * d;
        if (q == a->root) {
            if (!a->in_place)
                MC_CHECK(tp_copy(c->tp, at, a->sbuf, bytes));
        } else if (bytes) {
            MC_CHECK(mc_p2p_recv(c, q, at, bytes, NULL));
        }
    }
    return MC_OK;
}

const mc_algo_impl_t mc_gatherv_linear_algo = {.fn = mc_gatherv_linear};
