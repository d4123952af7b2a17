/*
 * Hierarchical alltoall (uniform nodes of consecutive ranks): the blocks
 * that go between two nodes travel as L messages of L blocks, one per
 * slice, instead of L x L messages of one block. For small blocks, where
 * each message between nodes costs a network latency (the pick measures
 * where that pays: src/mpi/pick.c). N nodes x L ranks, b bytes a block,
 * rank (n, i) = n * L + i, S = its send blocks, R its receive blocks.
 *
 *   2 nodes x 2: rank (n,i) sends x[n i -> m j] to rank (m,j)
 *   (1) pack by destination local j, then node m:
 *         T[j][m] = S[m L + j]                         (L x N blocks)
 *   (2) node: mc_alltoall of N blocks per rank:
 *         U[i][m] = what (n,i) sends to (m, my j)      (L x N blocks)
 *   (3) repack by node: V[m][i] = U[i][m]              (N x L blocks)
 *   (4) slice j: prov->alltoall of L blocks per node, into R:
 *         R[m L + i] = what (m,i) sent me               (rank order)
 *
 *        rank 0 (0,0)        rank 1 (0,1)        rank 2 (1,0)  ...
 *   (2)  gets the blocks of ranks 0 and 1 for local 0 of nodes 0 and 1
 *   (4)  slice 0 = {0, 2}: 0 sends 2 the blocks of 0 and 1 for rank 2
 *
 * In place: S is R; step (1) reads all of it before step (4) writes it.
 */
#include "hier/hier_impl.h"

int mc_hier_alltoall(mc_hier_t *h, const void *sbuf, void *rbuf,
                     size_t count, mc_dtype_t dt)
{
    size_t b = count * mc_dtype_size(dt);
    if (b == 0)
        return MC_OK;
    size_t N = (size_t)h->nnodes, L = (size_t)h->ppn, nb = N * L * b;
    const char *s = sbuf == MC_IN_PLACE ? rbuf : sbuf;
    char *t, *u;
    TRY(hier_scratch(h, 2 * nb, (void **)&t));
    u = t + nb;
    for (size_t j = 0; j < L; j++) /* (1) */
        for (size_t m = 0; m < N; m++)
            memcpy(t + (j * N + m) * b, s + (m * L + j) * b, b);
    INTRA(mc_alltoall(h->node, t, u, N * b, MC_UINT8), "alltoall in a node");
    for (size_t m = 0; m < N; m++) /* (3) */
        for (size_t i = 0; i < L; i++)
            memcpy(t + (m * L + i) * b, u + (i * N + m) * b, b);
    INTER(h, h->prov->alltoall(h->peers, t, rbuf, L * b, MC_UINT8),
          "alltoall of a slice");
    return MC_OK;
}
