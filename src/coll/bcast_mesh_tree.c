/*
 * NoCMsg's broadcast (Yagna, Patil, Mueller, section 2.3, Fig. 4): a
 * column-first tree rooted at the broadcaster, every edge one mesh link.
 * The root's column receives along Y and relays East, West and on; every
 * other core receives along its row and relays away from the root's
 * column. No two messages of the broadcast share a link.
 *
 *   4x4, root 5:      0 <--  1  --> 2 --> 3
 *                            ^
 *                     4 <-- [5] --> 6 --> 7      depth of a core = its
 *                            v                   hops to the root
 *                     8 <--  9  --> 10 --> 11
 *                            v
 *                    12 <-- 13  --> 14 --> 15
 *
 * sn=1, where the chip has a static network (tp->mcast: the simulated
 * tilepro64), is the paper's version: each core configures its route and
 * the routers forward with no software (transport op mcast). Otherwise
 * (sn=0, or no static network) the cores forward, pushing into their
 * children as a UDN send would, chunk by chunk through two slots per
 * child after its credit (coll/tree_push.h); a message that fits a flag
 * line rides in the line (one packet).
 * With two cores per tile the tree runs over tiles (coll/mesh.h). Not a
 * full grid: the selection runs the binomial broadcast.
 */
#include "coll/mesh.h"
#include "coll/tree_push.h"

enum { P_CHUNK = MC_MESH_CHUNK, P_SN = MC_MESH_SN };

int mc_bcast_mesh_run(mc_team_t *c, const mc_args_t *a, const mc_params_t *p,
                      uint32_t step0)
{
    mc_mview_t mv;
    if (!mc_mview(c, &mv))
        return mc_error(MC_ERR_INTERNAL, "mesh broadcast: not a full grid "
                        "(the selection runs a fallback there)");
    if (a->bytes == 0)
        return MC_OK;
    if (p->v[P_SN] && c->tp->mcast)
        return tp_mcast(c->tp, a->root, a->rbuf, a->bytes);
    mc_mtree_t nd;
    mc_mview_tree(&mv, MC_MTREE_COLFIRST, a->root, c->rank, &nd);
    return mc_push_bcast(c, a, nd.parent, nd.nchildren, nd.child,
                         (size_t)p->v[P_CHUNK], step0);
}

int mc_bcast_mesh_tree(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    return mc_bcast_mesh_run(c, a, p, 0);
}

const mc_algo_impl_t mc_bcast_mesh_tree_algo = {
    .fn = mc_bcast_mesh_tree, .params = mc_mesh_params_chunk_sn,
    .needs = MC_ALGO_GRID, .usable = mc_mesh_usable, .fallback = "binomial",
};
