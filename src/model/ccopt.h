/*
 * The optimiser of Ramos & Hoefler (2013), Section 4.4 and Appendix B:
 * for each thread count n, the parameters that minimise a collective's
 * best-case (min) model of ccmodel.h -- the barrier's peers per round m,
 * the small broadcast's and small reduction's tree (height d, per-level
 * fan-outs k_1..k_d, top level first).
 *
 * The search is exhaustive (branch and bound over trees), so the result
 * is the true minimum of the model; among parameter sets whose min agrees
 * to a relative 1e-9 the first found wins: smallest m; for trees the
 * lexicographically smallest k (which is also the most balanced of the
 * tied trees). `ties` counts the other optimal sets.
 */
#ifndef MC_MODEL_CCOPT_H
#define MC_MODEL_CCOPT_H

#include "model/ccmodel.h"

typedef enum {
    MC_CCOPT_BCAST_SMALL = 0,
    MC_CCOPT_REDUCE_SMALL,
    MC_CCOPT_BARRIER,
    MC_CCOPT_COUNT
} mc_ccopt_coll_t;

typedef struct mc_ccopt_opts {
    int rounds_paper; /* barrier rounds ceil(log_m n) (1, Table B.2) or
                       * ceil(log_{m+1} n) as the schedule runs (0) */
    int any_order;    /* trees: allow k_{i+1} > k_i (0: k_1 >= k_2 >= ...,
                       * the order of Tables B.1 and B.3) */
    int dmax;         /* tree height limit, 1..MC_CCM_MAX_LEVELS */
} mc_ccopt_opts_t;

typedef struct mc_ccopt_result {
    int ranks;
    int m, rounds;               /* barrier */
    int d;                       /* trees */
    int k[MC_CCM_MAX_LEVELS];
    double min_ns, max_ns;       /* the models at these parameters */
    int ties;                    /* other parameter sets with the same min */
} mc_ccopt_result_t;

/* Defaults: the choices that reproduce Appendix B. */
void mc_ccopt_opts_default(mc_ccopt_opts_t *o);

/* "bcast-small", "reduce-small", "barrier". */
int mc_ccopt_coll_from_name(const char *name, mc_ccopt_coll_t *out);
const char *mc_ccopt_coll_name(mc_ccopt_coll_t c);

/* The model of a tree collective at given parameters. */
int mc_ccopt_tree_eval(const mc_ccm_t *m, mc_ccopt_coll_t coll, int d,
                       const int *k, mc_ccm_range_t *out);

/* Minimises the min model of `coll` for n >= 2 ranks. */
int mc_ccopt_solve(const mc_ccm_t *m, mc_ccopt_coll_t coll, int n,
                   const mc_ccopt_opts_t *o, mc_ccopt_result_t *r);

#endif
