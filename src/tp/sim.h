/*
 * The simulator transport: the transport of a rank on a simulated core
 * (the simulator itself is src/sim/). The API makes communicators of it
 * (src/api/api.h: mc_sim_comm_create).
 */
#ifndef MC_TP_SIM_H
#define MC_TP_SIM_H

#include "tp/tp.h"

typedef struct mc_sim mc_sim_t;               /* sim/engine.h */
typedef struct mc_sim_domain mc_sim_domain_t; /* sim/engine.h */

/* The memory (MPBs and flag areas, tp.h) of a communicator of n ranks on
 * cores[0..n): the first caller creates it, later ones with the same
 * (parent, key) get the same one. */
int mc_sim_tp_domain(mc_sim_t *sim, mc_sim_domain_t *parent, uint64_t key,
                     const int *cores, int n, mc_sim_domain_t **out);

/* The transport of `rank` of domain `dom`; call from the core's program. */
int mc_sim_tp_create(mc_sim_t *sim, mc_sim_domain_t *dom, int rank,
                     mc_tp_t **out);

#endif
