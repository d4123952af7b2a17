/*
 * What the mesh algorithms of NoCMsg (Yagna, Patil, Mueller) share:
 * the grid a communicator forms (tp->topo), trees over its cores, and the
 * barrier the alltoall rounds end with. Schedules come from sched/mesh.h.
 *
 * Tiles and cores. A grid is W x H tiles with cpt cores each (2 on the
 * SCC). The trees run over tiles; each tile has a leader -- the root in
 * the root's tile, else its last core (the SCC's "odd" core) -- which is
 * the tile's node in the tile tree, and the other cores of a tile hang
 * off their leader, served after the leader's tile children ("the odd
 * core is served first and then signals its sibling", section 4.4):
 *
 *     tile tree:  T0 --> T1 --> T2        cores (cpt = 2):  1 --> 3 --> 5
 *                                                           |     |     |
 *                                                           0     2     4
 *
 * Pushing into a peer. The mesh algorithms write into the receiver's MPB
 * or flag line (a UDN send), where every other algorithm writes only its
 * own and lets peers read. A receiver may still be in the previous call,
 * using that memory, so nothing is pushed into a rank before it has said,
 * in this call, that it is ready: a credit flag (bcast), a "go" from the
 * receiver (reduce), or a barrier (alltoall). Double buffers are reused
 * after an acknowledgement; the last chunks need none.
 *
 * Flag lines: a sender's data flag is its line of bank 0 at the receiver
 * (mc_flag_from(c, 0, sender)), a receiver's credit or acknowledgement its
 * line of bank 1 at the sender; a call's values only grow on each line
 * (steps of mc_flagval), so a second mesh algorithm in the same call (the
 * broadcast of allreduce:mesh) starts its steps after the first one's.
 */
#ifndef MC_COLL_MESH_H
#define MC_COLL_MESH_H

#include "coll/coll.h"
#include "sched/mesh.h"

/* The parameters the mesh and hierarchy algorithms share, in this order
 * in their tables: the chunk first, then (broadcasts) sn. The mesh
 * reduction and broadcast (mc_reduce_mesh_run, mc_bcast_mesh_run) read
 * them from the parameters of whichever algorithm runs them. */
enum { MC_MESH_CHUNK = 0, MC_MESH_SN = 1 };
#define MC_MESH_CHUNK_PARAM                                                  \
    {"chunk", 0, 0, 1LL << 30,                                               \
     "bytes per chunk through the receiver's MPB slots; 0 = as large as "    \
     "they are"}
#define MC_MESH_SN_PARAM                                                     \
    {"sn", 1, 0, 1,                                                          \
     "1: broadcast on the static network where the chip has one "            \
     "(simulated tilepro64); 0: the cores forward"}
/* the tables of those that take these alone (mesh.c): the chunk (the
 * reductions, bcast hier), the chunk and sn (the mesh broadcasts) */
extern const mc_param_desc_t mc_mesh_params_chunk[];
extern const mc_param_desc_t mc_mesh_params_chunk_sn[];

#define MC_MESH_MAX_CPT 8

typedef struct mc_mview {
    int W, H, cpt;       /* tiles and cores per tile */
    int x, y, slot;      /* this rank's tile and place in it */
} mc_mview_t;

/* 1 (and *v) if the communicator is a full grid of at most
 * MC_MESH_MAX_CPT cores per tile, else 0 (the selection runs no mesh
 * algorithm there: mc_mesh_usable). */
int mc_mview(const mc_team_t *c, mc_mview_t *v);

/* The usable hook of the mesh algorithms (mc_algo_impl_t.usable,
 * MC_ALGO_GRID): 1 if the ranks of t fill a grid (mc_mview), else 0 and
 * *why. */
int mc_mesh_usable(const mc_team_t *t, const mc_params_t *p,
                   const char **why);
/* ... and of the hierarchy algorithms (MC_ALGO_HIER; bcast_hier.c): 1 if
 * the ranks' places are known (MC_BIND) and span two L3s or more, else
 * 0 and *why */
int mc_hier_usable(const mc_team_t *t, const mc_params_t *p,
                   const char **why);

static inline int mc_mview_rank(const mc_mview_t *v, int x, int y, int slot)
{
    return (y * v->W + x) * v->cpt + slot;
}

/* A node of a tree over the cores (see above). */
typedef struct mc_mtree {
    int parent;    /* -1 at the root */
    int nchildren;
    int child[MC_MESH_MAX_CHILDREN + MC_MESH_MAX_CPT];
    int depth;     /* tile hops to the root */
} mc_mtree_t;

/* The node of `rank` in the tree of `style` (sched/mesh.h) rooted at
 * core `root`. */
void mc_mview_tree(const mc_mview_t *v, int style, int root, int rank,
                   mc_mtree_t *out);

/* The barrier tree's root: the leader of the centre tile. */
static inline int mc_mview_centre(const mc_mview_t *v)
{
    return mc_mview_rank(v, mc_mesh_centre(v->W), mc_mesh_centre(v->H),
                         v->cpt - 1);
}

/* NoCMsg's barrier: children notify their parents up to the centre,
 * which answers down the tree; flag values mc_flagval(c, step). */
int mc_mesh_barrier(mc_team_t *c, const mc_mview_t *v, int style,
                    uint32_t step);
/* The dissemination barrier with flag values mc_flagval(c, step). */
int mc_mesh_barrier_dissem(mc_team_t *c, uint32_t step);

/* The MPB (c->mpb.avail) cut into nslots slots of *stride bytes, a whole
 * number of lines: returns the bytes a chunk carries, the stride or
 * `want` if smaller (a multiple of 8, so no element straddles chunks;
 * 0 = as large as fits). */
size_t mc_mesh_slots(const mc_team_t *c, int nslots, size_t want,
                     size_t *stride);

/* Flag steps a mesh reduction of `bytes` uses: allreduce:mesh starts
 * its broadcast after them. */
uint32_t mc_reduce_mesh_steps(const mc_team_t *c, size_t bytes,
                              const mc_params_t *p);

/* The mesh broadcast and reduction from a given first flag step. */
int mc_bcast_mesh_run(mc_team_t *c, const mc_args_t *a,
                      const mc_params_t *p, uint32_t step0);
int mc_reduce_mesh_run(mc_team_t *c, const mc_args_t *a,
                       const mc_params_t *p, uint32_t step0);

#endif
