/*
 * The grid view, core trees and barriers of the mesh algorithms (mesh.h).
 */
#include <stdlib.h>

#include "coll/mesh.h"
#include "sched/sched.h"
/* the barrier's set-then-wait as one call (the simulator saves a switch
 * to the core) */
#include "tp/fused.h"

int mc_mview(const mc_team_t *c, mc_mview_t *v)
{
    const mc_topo_t *t = tp_grid(c->tp);
    if (!t || t->cpt > MC_MESH_MAX_CPT || t->w * t->h * t->cpt != c->size)
        return 0;
    int tile = c->rank / t->cpt;
    *v = (mc_mview_t){.W = t->w, .H = t->h, .cpt = t->cpt,
                      .x = tile % t->w, .y = tile / t->w,
                      .slot = c->rank % t->cpt};
    return 1;
}

const mc_param_desc_t mc_mesh_params_chunk[] = {
    [MC_MESH_CHUNK] = MC_MESH_CHUNK_PARAM,
    {NULL, 0, 0, 0, NULL},
};

const mc_param_desc_t mc_mesh_params_chunk_sn[] = {
    [MC_MESH_CHUNK] = MC_MESH_CHUNK_PARAM,
    [MC_MESH_SN] = MC_MESH_SN_PARAM,
    {NULL, 0, 0, 0, NULL},
};

int mc_mesh_usable(const mc_team_t *t, const mc_params_t *p,
                   const char **why)
{
    (void)p;
    mc_mview_t v;
    *why = mc_mview(t, &v) ? NULL
           : tp_grid(t->tp) ? "the ranks do not fill a grid of tiles (of "
                              "at most 8 cores)"
                            : "no grid (not a mesh chip)";
    return *why == NULL;
}

/* the core that stands for tile (x, y) in a tree rooted at core `root` */
static int leader(const mc_mview_t *v, int root, int x, int y)
{
    int t = y * v->W + x;
    return t == root / v->cpt ? root : t * v->cpt + v->cpt - 1;
}

void mc_mview_tree(const mc_mview_t *v, int style, int root, int rank,
                   mc_mtree_t *out)
{
    int tile = rank / v->cpt, x = tile % v->W, y = tile / v->W;
    int rt = root / v->cpt, rx = rt % v->W, ry = rt / v->W;
    int lead = leader(v, root, x, y);
    out->nchildren = 0;
    if (rank != lead) { /* a tile sibling: hangs off its leader */
        out->parent = lead;
        out->depth = abs(x - rx) + abs(y - ry);
        return;
    }
    mc_mesh_node_t nd;
    mc_mesh_tree(v->W, v->H, style, rx, ry, x, y, &nd);
    out->depth = nd.depth;
    out->parent = nd.parent < 0 ? -1
                                : leader(v, root, nd.parent % v->W,
                                         nd.parent / v->W);
    for (int i = 0; i < nd.nchildren; i++)
        out->child[out->nchildren++] =
            leader(v, root, nd.child[i] % v->W, nd.child[i] / v->W);
    for (int s = 0; s < v->cpt; s++) /* then the siblings */
        if (tile * v->cpt + s != rank)
            out->child[out->nchildren++] = tile * v->cpt + s;
}

/*
 * Up: a core waits for its children, then tells its parent; down: it
 * waits for its parent, then tells its children. One flag per edge and
 * direction; every edge is one mesh link (or the tile's own router).
 */
int mc_mesh_barrier(mc_team_t *c, const mc_mview_t *v, int style,
                    uint32_t step)
{
    mc_mtree_t nd;
    mc_mview_tree(v, style, mc_mview_centre(v), c->rank, &nd);
    uint64_t val = mc_flagval(c, step);
    int me = c->rank;
    for (int i = 0; i < nd.nchildren; i++)
        MC_CHECK(tp_flag_wait(c->tp, me, mc_flag_from(c, 0, nd.child[i]),
                              val));
    if (nd.parent >= 0) {
        MC_CHECK(tp_flag_set_wait(c->tp, nd.parent, mc_flag_from(c, 0, me),
                                  val, me, mc_flag_from(c, 1, nd.parent),
                                  val));
    }
    for (int i = 0; i < nd.nchildren; i++)
        tp_flag_set(c->tp, nd.child[i], mc_flag_from(c, 1, me), val);
    return MC_OK;
}

int mc_mesh_barrier_dissem(mc_team_t *c, uint32_t step)
{
    return mc_barrier_dissemination_at(c, step);
}

size_t mc_mesh_slots(const mc_team_t *c, int nslots, size_t want,
                     size_t *stride)
{
    size_t line = c->tp->line;
    *stride = c->mpb.avail / (size_t)nslots / line * line;
    if (want && want < *stride)
        return want < 8 ? 8 : want / 8 * 8;
    return *stride;
}
