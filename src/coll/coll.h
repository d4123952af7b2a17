/* Entry points of the algorithms (one file each in src/coll/). */
#ifndef MC_COLL_H
#define MC_COLL_H

#include "internal.h"

#define MC_ALGO_DECL(fn)                                                     \
    int fn(mc_comm_t *c, const mc_args_t *a, const mc_params_t *p)

MC_ALGO_DECL(mc_barrier_dissemination);
MC_ALGO_DECL(mc_barrier_flat);
MC_ALGO_DECL(mc_bcast_flat);
MC_ALGO_DECL(mc_reduce_flat);
MC_ALGO_DECL(mc_allreduce_flat);
MC_ALGO_DECL(mc_allreduce_rsag);
MC_ALGO_DECL(mc_allgather_flat);
MC_ALGO_DECL(mc_alltoall_flat);
MC_ALGO_DECL(mc_reduce_scatter_block_flat);
MC_ALGO_DECL(mc_bcast_binomial);
MC_ALGO_DECL(mc_bcast_scatter_allgather);
MC_ALGO_DECL(mc_bcast_ocbcast);
void mc_bcast_ocbcast_report(const mc_comm_t *c, mc_params_t *p);
MC_ALGO_DECL(mc_reduce_binomial);
MC_ALGO_DECL(mc_allreduce_reduce_bcast);
MC_ALGO_DECL(mc_allreduce_ring);
MC_ALGO_DECL(mc_allreduce_ring_mpb);
MC_ALGO_DECL(mc_reduce_rs_gather);
MC_ALGO_DECL(mc_allgather_ring);
MC_ALGO_DECL(mc_alltoall_pairwise);
MC_ALGO_DECL(mc_gather_linear);
MC_ALGO_DECL(mc_scatter_linear);
MC_ALGO_DECL(mc_reduce_scatter_block_ring);
MC_ALGO_DECL(mc_reduce_scatter_block_reduce_scatter);
/* single copy for large messages (coll/direct.h) */
MC_ALGO_DECL(mc_bcast_direct);
MC_ALGO_DECL(mc_reduce_direct);
MC_ALGO_DECL(mc_allreduce_direct);
MC_ALGO_DECL(mc_reduce_scatter_block_direct);
MC_ALGO_DECL(mc_allgather_direct);
MC_ALGO_DECL(mc_alltoall_direct);
/* the model-tuned cache-coherence algorithms (Ramos & Hoefler, cc.h) */
MC_ALGO_DECL(mc_bcast_cc_tree);
MC_ALGO_DECL(mc_bcast_cc_flat);
MC_ALGO_DECL(mc_bcast_cc_pipeline);
MC_ALGO_DECL(mc_reduce_cc_tree);
MC_ALGO_DECL(mc_barrier_dissemination_m);

#endif
