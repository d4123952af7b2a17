/*
 * Automatic parameters that come from a performance model: the fan-outs
 * of cc-tree (bcast, reduce) and the peers per round of dissemination-m,
 * from the optimiser of Ramos & Hoefler's Appendix B on the model built
 * in to the library (src/model/ccauto.h). The selection resolves them
 * once per communicator (the registry's resolve hooks), never during a
 * call.
 */
#ifndef MC_SELECT_AUTO_H
#define MC_SELECT_AUTO_H

#include "coll/args.h"
#include "coll/team.h"

/* The registry's resolve hooks: the automatic values for the team's size
 * (explicit values are kept); MC_OK or the optimiser's error. */
int mc_auto_bcast_tree(const mc_team_t *t, mc_params_t *p);
int mc_auto_reduce_tree(const mc_team_t *t, mc_params_t *p);
int mc_auto_barrier(const mc_team_t *t, mc_params_t *p);

/* The same for n ranks: fan-outs k1..k4 (reduce or bcast tree) and peers
 * per round m into p, when p has 0 there. */
int mc_auto_tree(int reduce, int n, mc_params_t *p);
int mc_auto_barrier_m(int n, mc_params_t *p);

#endif
