/*
 * Broadcast down the machine's hierarchy (NoCMsg's idea on a real
 * machine: keep every message inside the part of the machine it must
 * reach). With MC_BIND=1 the transport knows each rank's package, NUMA
 * node and L3 cache (tp/hwtopo.h); the root sends once into each other
 * package, each package leader once into each other NUMA node of its
 * package, and so on down to the cores of each L3 (sched/hier.h):
 *
 *   2 sockets x 2 L3 x 2 cores, root 0:
 *
 *     socket 0            socket 1
 *     L3 {0 1}  {2 3}     L3 {4 5}  {6 7}
 *         0 ----------------> 4                 one crossing per socket,
 *         0 ----> 2           4 ----> 6         one per L3 below it,
 *         0 > 1   2 > 3       4 > 5   6 > 7     then the L3's own cores
 *
 * Each edge pushes the message into the child's MPB, chunked and double
 * buffered, after the child's credit (coll/tree_push.h). Without a known
 * hierarchy (MC_BIND unset, or the simulator), or with every rank in the
 * same L3 (no boundary to keep to): the selection runs the binomial
 * broadcast (mc_hier_usable, which reduce_hier.c shares).
 */
#include "coll/mesh.h"
#include "coll/tree_push.h"
#include "sched/hier.h"

#define MAX_CHILDREN 512

enum { P_CHUNK = MC_MESH_CHUNK };

int mc_hier_usable(const mc_team_t *t, const mc_params_t *p,
                   const char **why)
{
    (void)p;
    const mc_topo_t *h = tp_hier(t->tp);
    *why = !h ? "the ranks' places are not known (MC_BIND unset, or not "
                "this machine)"
           : mc_hier_groups(t->size, h->levels, h->low) < 2
               ? "every rank in one L3 (no boundary to keep to)"
               : NULL;
    return *why == NULL;
}

int mc_bcast_hier(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    const mc_topo_t *t = tp_hier(c->tp);
    if (!t)
        return mc_error(MC_ERR_INTERNAL, "bcast:hier: the places are not "
                        "known (the selection runs its fallback then)");
    int parent, child[MAX_CHILDREN];
    int nc = mc_hier_node(c->size, t->levels, t->ids, t->low, a->root,
                          c->rank, &parent, child, MAX_CHILDREN);
    if (nc > MAX_CHILDREN)
        return mc_error(MC_ERR_UNSUPPORTED, "bcast:hier: rank %d would have "
                        "%d children, at most %d", c->rank, nc, MAX_CHILDREN);
    return mc_push_bcast(c, a, parent, nc, child, (size_t)p->v[P_CHUNK], 0);
}

const mc_algo_impl_t mc_bcast_hier_algo = {
    .fn = mc_bcast_hier, .params = mc_mesh_params_chunk,
    .needs = MC_ALGO_HIER, .usable = mc_hier_usable, .fallback = "binomial",
};
