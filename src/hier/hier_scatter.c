/*
 * Hierarchical scatter (uniform nodes of consecutive ranks): the gather
 * backwards. Root r on node n_r, local index l_r; B_n = node n's L blocks.
 *
 *   r = 4 (node 1, l1), 3 nodes x 3:
 *   (1) slice 1: prov->scatter from node 1     1: B_0   4: (keeps B_1)   7: B_2
 *   (2) every node: mc_scatter from l1         each rank its block
 */
#include "hier/hier_impl.h"

int mc_hier_scatter(mc_hier_t *h, const void *sbuf, void *rbuf, size_t count,
                    mc_dtype_t dt, int root)
{
    size_t b = count * mc_dtype_size(dt), nb = (size_t)h->ppn * b;
    if (b == 0)
        return MC_OK;
    int n_r = hier_node_of(h, root), l_r = hier_local_of(h, root);
    int is_root = h->rank == root, lead = h->local == l_r;
    const char *src = NULL;
    if (is_root) {
        src = hier_at(sbuf, (size_t)n_r * nb);
    } else if (lead) {
        char *tmp;
        TRY(hier_scratch(h, nb, (void **)&tmp));
        src = tmp;
    }
    if (lead)
        INTER(h, h->prov->scatter(h->peers, is_root ? sbuf : NULL,
                                  is_root ? MC_IN_PLACE : (void *)src, nb,
                                  MC_UINT8, n_r),
              "scatter");
    INTRA(mc_scatter(h->node, src, rbuf, b, MC_UINT8, l_r), "scatter");
    return MC_OK;
}
