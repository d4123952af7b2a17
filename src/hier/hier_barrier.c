/*
 * Hierarchical barrier: gather the node, the leaders' barrier, release the
 * node.
 *
 *   node 0: 0 1 2         node 1: 3 4 5
 *   (1) mc_barrier(node)   all local ranks have arrived
 *   (2) 0 ---- prov->barrier(leaders) ---- 3
 *   (3) mc_barrier(node)   leaders have seen every node: release
 *
 * Step (1) could be a one-way gather and (3) a one-way release; manycoll's
 * barrier is both at the cost of about one flag line per rank, which
 * keeps this file free of anything but the public API.
 */
#include "hier/hier_impl.h"

int mc_hier_barrier(mc_hier_t *h)
{
    INTRA(mc_barrier(h->node), "barrier (arrive)");
    if (h->local == 0)
        INTER(h, h->prov->barrier(h->peers), "barrier");
    INTRA(mc_barrier(h->node), "barrier (release)");
    return MC_OK;
}
