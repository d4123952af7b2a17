/*
 * Automatic parameters of the model-tuned algorithms (cc-tree bcast and
 * reduce, dissemination-m): the optimiser of ccopt.h on a model built in
 * to the library -- the report's Xeon Phi (xeonphi60, E-state buffers,
 * the readings that reproduce Appendix B) -- so an algorithm left on
 * "automatic" gets the report's parameters without reading any file.
 * Parameters for THIS machine come from a tuning file instead
 * (`manycoll tune --profile P`, docs/tuning.md).
 */
#ifndef MC_MODEL_CCAUTO_H
#define MC_MODEL_CCAUTO_H

#include "model/ccopt.h"

/* The built-in model: the numbers of platforms/profiles/xeonphi60.json
 * (R_L, R_R, R_I of Table 1.5b; E-E fits of Tables 3.1 and 3.2); the
 * test cc_ccauto checks that they agree with that file. */
void mc_ccauto_builtin(mc_ccm_t *m);

/* The optimal tree for n >= 2 ranks of at most dmax levels, with the
 * model m (NULL: the built-in one): *d levels, fan-outs k[0..*d) top
 * first. coll is MC_CCOPT_BCAST_SMALL or MC_CCOPT_REDUCE_SMALL. */
int mc_ccauto_tree(const mc_ccm_t *m, mc_ccopt_coll_t coll, int n, int dmax,
                   int *d, int *k);

/* The optimal peers per round of the dissemination barrier for n >= 2
 * ranks, with rounds ceil(log_{m+1} n) as the schedule runs them. */
int mc_ccauto_barrier(const mc_ccm_t *m, int n, int *mpeers);

#endif
