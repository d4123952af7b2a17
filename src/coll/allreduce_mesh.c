/*
 * NoCMsg's allreduce (Yagna, Patil, Mueller, section 2.4): the two-step
 * mesh reduction to rank 0, then the mesh broadcast from rank 0 -- over
 * the static network where the chip has one (sn=1), as the paper does.
 *
 *   3x3, root 0:  reduce, step 1 (columns onto row 0, farthest first)
 *                   round 0: 6 -> 0, 7 -> 1, 8 -> 2
 *                   round 1: 3 -> 0, 4 -> 1, 5 -> 2
 *                 reduce, step 2 (row 0 onto 0)
 *                   round 2: 2 -> 0        round 3: 1 -> 0
 *                 broadcast down the column-first tree:
 *                   0 -> 1 -> 2
 *                   v
 *                   3 -> 4 -> 5            (reduce_mesh_2step.c and
 *                   v                       bcast_mesh_tree.c say how
 *                   6 -> 7 -> 8             each part runs)
 *
 * The broadcast's flag steps follow the reduction's, so the lines both
 * use keep growing (coll/mesh.h). Both read the chunk and sn of these
 * parameters (MC_MESH_CHUNK, MC_MESH_SN). A non-commutative op, or a
 * communicator that is not a full grid: the selection runs reduce-bcast
 * (binomial, rank order).
 */
#include "coll/mesh.h"

int mc_allreduce_mesh(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    mc_args_t r = *a;
    r.root = 0;
    MC_CHECK(mc_reduce_mesh_run(c, &r, p, 0));
    mc_args_t b = *a;
    b.root = 0;
    b.sbuf = b.rbuf;
    return mc_bcast_mesh_run(c, &b, p, mc_reduce_mesh_steps(c, a->bytes, p));
}

const mc_algo_impl_t mc_allreduce_mesh_algo = {
    .fn = mc_allreduce_mesh, .params = mc_mesh_params_chunk_sn,
    .needs = MC_ALGO_GRID | MC_ALGO_COMMUTATIVE, .usable = mc_mesh_usable,
    .fallback = "reduce-bcast",
};
