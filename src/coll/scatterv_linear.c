/*
 * Linear scatterv: the root sends rank 0's, 1's, ..., P-1's block in turn
 * (scounts[q] elements from sdispls[q]; its own is a local copy, or left
 * where it is in place); every other rank receives once. Ranks with
 * nothing to receive take no part. Two-sided.
 *
 *     root -> 0, root -> 1, ..., root -> P-1
 *
 * mc_scatterv_blocks also serves reduce_scatter (reduce_scatter_reduce.c):
 * displacements NULL means blocks back to back.
 */
#include "coll/coll.h"
#include "coll/p2p.h"

int mc_scatterv_blocks(mc_team_t *c, int root, const void *sbuf,
                       const size_t *counts, const size_t *displs,
                       size_t dsize, void *rbuf, size_t rbytes, int in_place)
{
    if (c->rank != root)
        return rbytes ? mc_p2p_recv(c, root, rbuf, rbytes, NULL) : MC_OK;
    const unsigned char *in = sbuf;
    size_t at = 0;
    for (int q = 0; q < c->size; q++) {
        size_t off = (displs ? displs[q] : at) * dsize;
        size_t bytes = counts[q] * dsize;
        at += counts[q];
        if (q == root) {
            if (!in_place && bytes) /* no block: sbuf may be NULL */
                MC_CHECK(tp_copy(c->tp, rbuf, in + off, bytes));
        } else if (bytes) {
            MC_CHECK(mc_p2p_send(c, q, in + off, bytes));
        }
    }
    return MC_OK;
}

int mc_scatterv_linear(mc_team_t *c, const mc_args_t *a,
                       const mc_params_t *p)
{
    (void)p;
    return mc_scatterv_blocks(c, a->root, a->sbuf, a->scounts, a->sdispls,
                              a->dsize, a->rbuf, a->bytes, a->in_place);
}

const mc_algo_impl_t mc_scatterv_linear_algo = {.fn = mc_scatterv_linear};
