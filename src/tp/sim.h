/* The simulator transport (public to the tools). */
#ifndef MC_TP_SIM_H
#define MC_TP_SIM_H

#include "internal.h"
#include "sim/engine.h"

/* A communicator for `rank` of domain `dom`; call from the core's program. */
int mc_sim_comm_create(mc_sim_t *sim, mc_sim_domain_t *dom, int rank,
                       mc_comm_t **out);

#endif
