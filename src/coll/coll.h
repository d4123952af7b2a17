/*
 * What every algorithm file needs -- the call (args.h), the team (team.h),
 * its flag layout (flags.h), the transport (tp/tp.h), errors -- and what
 * it exports: its entry point and its description (mc_algo_impl_t: its
 * parameters, where it can serve and what runs instead), which the
 * registry (src/select/registry.c) names in one row.
 *
 * Where an algorithm cannot serve, the selection runs its fallback, with
 * the fallback's own parameters, and so on down the chain (as UCC's
 * ucc_coll_init walks its list); no algorithm calls another's entry
 * point. What the team and the parameters decide is settled once per
 * communicator (`usable`, `needs`); what only a call shows, the
 * algorithm answers with MC_NOT_APPLICABLE before it communicates, and
 * the dispatcher runs the fallback settled for it in advance:
 *
 *   rule: mesh-rounds:rounds=2      usable? no: more tiles than maxtiles
 *     -> pairwise (its defaults, resolved)   usable: runs
 *   rule: rsag                      usable: runs; a call whose element
 *     -> declined (MC_NOT_APPLICABLE)        does not fit the chunk:
 *     -> reduce-bcast, settled in advance    runs instead
 *
 * Adding an algorithm: write src/coll/<coll>_<algo>.c with a drawing of
 * its schedule, its parameter table and its mc_<coll>_<algo>_algo; declare
 * it below; add its row to the registry. The generated tests, `manycoll
 * info` and the selection take it from there.
 */
#ifndef MC_COLL_H
#define MC_COLL_H

#include "coll/args.h"
#include "coll/flags.h"
#include "coll/team.h"
#include "tp/tp.h"
#include "util/error.h"

typedef int (*mc_algo_fn)(mc_team_t *c, const mc_args_t *a,
                          const mc_params_t *p);

/* What an entry point returns, instead of MC_OK or an error, for a call it
 * declines before communicating (mc_algo_impl_t.declines): not an error;
 * the dispatcher runs the next selection of the chain. Positive, so
 * MC_CHECK passes it on. Never returned to the user. */
enum { MC_NOT_APPLICABLE = 1 };

/* One parameter ("k" in "ocbcast:k=4"). An algorithm's table is indexed
 * by its own enum with designated initializers, so the values of
 * mc_params_t come in that order, and is closed by a NULL name. */
typedef struct mc_param_desc {
    const char *name;
    int64_t def;      /* default; 0 often means "automatic" (see help) */
    int64_t min;
    int64_t max;
    const char *help;
} mc_param_desc_t;

/* What an algorithm needs that a call or a team may not have. A
 * commutative op is the selection's to check (per call: the rule's
 * selection for other ops is settled in advance); the others name the
 * family whose `usable` hook the algorithm has, which checks them (the
 * registry check holds the two together), for `manycoll info` and the
 * tests that skip what a team cannot run. */
enum {
    MC_ALGO_COMMUTATIVE = 1u << 0, /* a commutative op */
    MC_ALGO_SINGLE_COPY = 1u << 1, /* single copy between every pair of
                                      ranks, and 2 ranks or more
                                      (coll/direct.h: mc_direct_usable) */
    MC_ALGO_GRID = 1u << 2,        /* ranks that fill a grid of a mesh chip
                                      (coll/mesh.h: mc_mesh_usable) */
    MC_ALGO_HIER = 1u << 3,        /* ranks whose places in the machine are
                                      known and span more than one L3
                                      (MC_BIND; coll/mesh.h:
                                      mc_hier_usable) */
};

/* Automatic parameters that need a performance model. The algorithms do
 * not call models; the selection fills these in once per communicator
 * (src/select/auto.c). */
typedef enum {
    MC_MODEL_NONE = 0,
    MC_MODEL_BCAST_TREE,  /* MC_CC_K1..: optimal small-bcast tree (cc.h) */
    MC_MODEL_REDUCE_TREE, /* k1..k4: optimal small-reduce tree */
    MC_MODEL_BARRIER_M,   /* MC_CC_M: peers per dissemination round */
} mc_model_param_t;

/* What an algorithm file exports besides its entry point. */
typedef struct mc_algo_impl {
    mc_algo_fn fn;
    const mc_param_desc_t *params; /* NULL: no parameters */
    unsigned needs;                /* MC_ALGO_* */
    /* 1 if the algorithm can serve team t with parameters p (resolved),
     * else 0 and *why a short phrase ("not a full grid of tiles") for the
     * reports. The selection asks once per rule, when it settles the rule
     * for a communicator, never per call (optional: NULL serves any
     * team). */
    int (*usable)(const mc_team_t *t, const mc_params_t *p,
                  const char **why);
    /* what makes the algorithm decline a call (MC_NOT_APPLICABLE), a
     * condition of the call that the team does not decide ("the call's
     * element is larger than the chunk"), for the reports; NULL: it never
     * does */
    const char *declines;
    /* the algorithm of the same collective that runs instead when a need
     * is not met, `usable` says no or a call is declined, as a spec
     * ("reduce-bcast", "flat:k=2"): parsed and resolved by the selection
     * like any other, with its own parameters. Required with any of them
     * (checked at start-up). */
    const char *fallback;
    /* replaces automatic parameters by the values the algorithm will use
     * on team t, for reports and calls alike (optional) */
    int (*resolve)(const mc_team_t *t, mc_params_t *p);
    mc_model_param_t model;
} mc_algo_impl_t;

#define MC_ALGO_DECL(fn)                                                     \
    int fn(mc_team_t *c, const mc_args_t *a, const mc_params_t *p);        \
    extern const mc_algo_impl_t fn##_algo

MC_ALGO_DECL(mc_barrier_dissemination);
/* the dissemination barrier's rounds with flag value mc_flagval(c, step),
 * for algorithms that use it inside a call (coll/mesh.c) */
int mc_barrier_dissemination_at(mc_team_t *c, uint32_t step);
MC_ALGO_DECL(mc_barrier_flat);
MC_ALGO_DECL(mc_barrier_linear);
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
MC_ALGO_DECL(mc_reduce_binomial);
MC_ALGO_DECL(mc_allreduce_reduce_bcast);
MC_ALGO_DECL(mc_allreduce_ring);
MC_ALGO_DECL(mc_allreduce_ring_mpb);
MC_ALGO_DECL(mc_reduce_rs_gather);
MC_ALGO_DECL(mc_allgather_ring);
MC_ALGO_DECL(mc_alltoall_pairwise);
MC_ALGO_DECL(mc_gather_linear);
MC_ALGO_DECL(mc_gather_flat);
MC_ALGO_DECL(mc_scatter_linear);
MC_ALGO_DECL(mc_scatter_flat);
MC_ALGO_DECL(mc_scan_linear); /* scan and exscan */
MC_ALGO_DECL(mc_scan_recursive_doubling); /* scan and exscan */
MC_ALGO_DECL(mc_reduce_scatter_block_ring);
MC_ALGO_DECL(mc_reduce_scatter_block_reduce_scatter);
/* the v-variants: counts and displacements per rank (args.h) */
MC_ALGO_DECL(mc_allgatherv_ring);
MC_ALGO_DECL(mc_alltoallv_pairwise);
MC_ALGO_DECL(mc_gatherv_linear);
MC_ALGO_DECL(mc_scatterv_linear);
MC_ALGO_DECL(mc_reduce_scatter_reduce);
MC_ALGO_DECL(mc_reduce_scatter_flat);
/* The schedules that composite algorithms are built of (reduce-bcast,
 * reduce-scatter, reduce-scatterv): the bodies of binomial reduce and
 * bcast and of linear scatter, which take no parameters, so that no
 * algorithm runs another's entry point with its own */
int mc_binomial_reduce(mc_team_t *c, const mc_args_t *a);
int mc_binomial_bcast(mc_team_t *c, const mc_args_t *a);
int mc_linear_scatter(mc_team_t *c, const mc_args_t *a);
/* root sends counts[q] elements from displs[q] (NULL: back to back) to
 * each rank q, which receives them (rbytes) into rbuf (scatterv_linear.c);
 * counts is read on the root only */
int mc_scatterv_blocks(mc_team_t *c, int root, const void *sbuf,
                       const size_t *counts, const size_t *displs,
                       size_t dsize, void *rbuf, size_t rbytes, int in_place);
/* single copy for large messages (coll/direct.h) */
MC_ALGO_DECL(mc_bcast_direct);
MC_ALGO_DECL(mc_reduce_direct);
MC_ALGO_DECL(mc_reduce_direct_root);
MC_ALGO_DECL(mc_allreduce_direct);
MC_ALGO_DECL(mc_allreduce_direct_all);
MC_ALGO_DECL(mc_reduce_scatter_block_direct);
MC_ALGO_DECL(mc_reduce_scatter_direct);
MC_ALGO_DECL(mc_allgather_direct);
MC_ALGO_DECL(mc_alltoall_direct);
MC_ALGO_DECL(mc_gather_direct);
MC_ALGO_DECL(mc_scatter_direct);
/* the model-tuned cache-coherence algorithms (Ramos & Hoefler, cc.h) */
MC_ALGO_DECL(mc_bcast_cc_tree);
MC_ALGO_DECL(mc_bcast_cc_flat);
MC_ALGO_DECL(mc_bcast_cc_pipeline);
MC_ALGO_DECL(mc_reduce_cc_tree);
MC_ALGO_DECL(mc_barrier_dissemination_m);
/* NoCMsg's contention-free mesh algorithms (Yagna et al., coll/mesh.h)
 * and the recursive doubling they are compared with */
MC_ALGO_DECL(mc_barrier_mesh_tree);
MC_ALGO_DECL(mc_bcast_mesh_tree);
MC_ALGO_DECL(mc_reduce_mesh_2step);
MC_ALGO_DECL(mc_allreduce_mesh);
MC_ALGO_DECL(mc_alltoall_mesh_rounds);
MC_ALGO_DECL(mc_allreduce_recursive_doubling);
/* trees down the machine's hierarchy (hwloc; MC_BIND=1) */
MC_ALGO_DECL(mc_bcast_hier);
MC_ALGO_DECL(mc_reduce_hier);

#endif
