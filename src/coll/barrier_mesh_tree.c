/*
 * NoCMsg's barrier (Yagna, Patil, Mueller, section 2.2, Fig. 3): a tree
 * rooted at the centre of the grid whose every edge is one mesh link, so
 * a core relays to at most 3 neighbours (the root to 4) and no two
 * notifications of a phase share a link. Children notify their parents
 * up to the root; the root answers down the tree.
 *
 *   4x4, root (1,1) = 5, tree=0 (column first):
 *
 *      0 <--  1  --> 2 --> 3         up:   the leaves 0 3 4 7 8 11 12 15
 *             ^                            first; 5 last, from 1 4 6 9
 *      4 <-- [5] --> 6 --> 7         down: 5 -> 6 4 9 1, 9 -> 10 8 13, ...
 *             v
 *      8 <--  9  --> 10 --> 11       height = 2 + 2 = 4 hops; every
 *             v                      arrow one link, once per phase
 *     12 <-- 13  --> 14 --> 15
 *
 * tree=1 balances the child counts (parents along X or Y by x+y parity,
 * sched/mesh.h). With two cores per tile (the SCC) the tree runs over
 * tiles and each tile's second core hangs off the first one served
 * (coll/mesh.h). Not a full grid: the selection runs the dissemination
 * barrier.
 */
#include "coll/mesh.h"

enum { P_TREE = 0 };

int mc_barrier_mesh_tree(mc_team_t *c, const mc_args_t *a,
                         const mc_params_t *p)
{
    (void)a;
    mc_mview_t v;
    if (!mc_mview(c, &v))
        return mc_error(MC_ERR_INTERNAL, "barrier:mesh-tree: not a full grid "
                        "(the selection runs its fallback there)");
    return mc_mesh_barrier(c, &v, (int)p->v[P_TREE], 0);
}

static const mc_param_desc_t params[] = {
    [P_TREE] = {"tree", 0, 0, 1,
     "0: column-first tree; 1: balanced (parents along X or Y by x+y "
     "parity)"},
    {NULL, 0, 0, 0, NULL},
};

const mc_algo_impl_t mc_barrier_mesh_tree_algo = {
    .fn = mc_barrier_mesh_tree, .params = params,
    .needs = MC_ALGO_GRID, .usable = mc_mesh_usable,
    .fallback = "dissemination",
};
