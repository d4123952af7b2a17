/*
 * Hierarchical gather (uniform nodes of consecutive ranks). Root r on node
 * n_r, local index l_r; b = bytes per rank, B_n = node n's L blocks.
 *
 *   r = 4 (node 1, l1), 3 nodes x 3:
 *   (1) every node: mc_gather to l1       1: B_0   4: B_1 (in rbuf)   7: B_2
 *   (2) slice 1: prov->gather of B_n to node 1      4: B_0 B_1 B_2
 *
 * The root's node gathers straight into the root's output, at n_r * L * b,
 * and gives it to the provider in place.
 */
#include "hier/hier_impl.h"

int mc_hier_gather(mc_hier_t *h, const void *sbuf, void *rbuf, size_t count,
                   mc_dtype_t dt, int root)
{
    size_t b = count * mc_dtype_size(dt), nb = (size_t)h->ppn * b;
    if (b == 0)
        return MC_OK;
    int n_r = hier_node_of(h, root), l_r = hier_local_of(h, root);
    int is_root = h->rank == root, lead = h->local == l_r;
    char *tgt = NULL;
    if (is_root)
        tgt = hier_at(rbuf, (size_t)n_r * nb);
    else if (lead)
        TRY(hier_scratch(h, nb, (void **)&tgt));
    INTRA(mc_gather(h->node, sbuf, tgt, b, MC_UINT8, l_r), "gather");
    if (lead)
        INTER(h, h->prov->gather(h->peers, is_root ? MC_IN_PLACE : tgt,
                                 is_root ? rbuf : NULL, nb, MC_UINT8, n_r),
              "gather");
    return MC_OK;
}
