/*
 * Hierarchical reduce_scatter_block (uniform nodes of consecutive ranks).
 * Reduce inside the node first, so only node sums cross between nodes.
 * Rank (n, j) = n * L + j gets block n * L + j; x[n, j] below is the block
 * that every rank contributes for rank (n, j).
 *
 *   2 nodes x 2 (ranks 0 1 | 2 3), count c per block:
 *   (1) local copy into slice order:  [x[0,0] x[1,0]] [x[0,1] x[1,1]]
 *   (2) mc_reduce_scatter_block, N * c per rank: l0 gets the node's sum of
 *       [x[0,0] x[1,0]], l1 of [x[0,1] x[1,1]]
 *   (3) slice j: prov->reduce_scatter_block, c per rank: node n's l_j gets
 *       the total of x[n, j] -- its own block
 *
 * Order: local order in (2), node order in (3): rank order for blocks of
 * consecutive ranks, so non-commutative ops are reduced correctly.
 */
#include "hier/hier_impl.h"

int mc_hier_reduce_scatter_block(mc_hier_t *h, const void *sbuf, void *rbuf,
                                 size_t count, mc_dtype_t dt, mc_op_t op)
{
    size_t b = count * mc_dtype_size(dt);
    if (b == 0)
        return MC_OK;
    if (hier_is_wide(dt, op))
        return hier_wide(h, MC_COLL_REDUCE_SCATTER_BLOCK, sbuf, rbuf, count,
                         dt, op, 0);
    size_t N = (size_t)h->nnodes, L = (size_t)h->ppn;
    const char *in = sbuf == MC_IN_PLACE ? rbuf : sbuf;
    /* with one node or one rank per node, slice order is rank order */
    int permute = N > 1 && L > 1;
    char *tmp, *part;
    TRY(hier_scratch(h, (permute ? N * L * b : 0) + N * b, (void **)&tmp));
    part = tmp + (permute ? N * L * b : 0);
    const char *perm = permute ? tmp : in;
    for (size_t j = 0; permute && j < L; j++)
        for (size_t n = 0; n < N; n++)
            memcpy(tmp + (j * N + n) * b, in + (n * L + j) * b, b);
    INTRA(mc_reduce_scatter_block(h->node, perm, part, N * count, dt, op),
          "reduce-scatter");
    INTER(h, h->prov->reduce_scatter_block(h->peers, part, rbuf, count, dt,
                                           op),
          "reduce-scatter");
    return MC_OK;
}
