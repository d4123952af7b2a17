/*
 * Automatic parameters that come from a performance model: the fan-outs
 * of cc-tree (bcast, reduce) and the peers per round of dissemination-m,
 * from the optimiser of Ramos & Hoefler's Appendix B on the model built
 * in to the library (src/model/ccauto.h). An algorithm asks for them in
 * its description (coll/coll.h: mc_algo_impl_t.model); the selection
 * resolves them once per communicator, never during a call.
 */
#ifndef MC_SELECT_AUTO_H
#define MC_SELECT_AUTO_H

#include "coll/coll.h"

/* Fills in the automatic parameters of kind (an algorithm's
 * mc_algo_impl_t.model) for team t's size; explicit values are kept.
 * MC_OK or the optimiser's error. */
int mc_auto_model(mc_model_param_t kind, const mc_team_t *t, mc_params_t *p);

/* The same for n ranks: fan-outs k1..k4 (reduce or bcast tree) and peers
 * per round m into p, when p has 0 there. */
int mc_auto_tree(int reduce, int n, mc_params_t *p);
int mc_auto_barrier_m(int n, mc_params_t *p);

#endif
