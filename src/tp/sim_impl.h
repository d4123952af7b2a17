/* Private to the simulator transport (sim.c, sim_mcast.c): its state. */
#ifndef MC_TP_SIM_IMPL_H
#define MC_TP_SIM_IMPL_H

#include <stdint.h>

#include "sim/engine.h"
#include "tp/tp.h"

typedef struct sim_tp {
    mc_tp_t base;
    mc_sim_t *sim;
    mc_sim_domain_t *dom;
    int core;
    uint64_t mcasts; /* static-network multicasts so far */
} sim_tp_t;

static inline sim_tp_t *st(mc_tp_t *t) { return (sim_tp_t *)t; }

/* the transport's mcast (sim_mcast.c) */
int mc_sim_tp_mcast(mc_tp_t *tp, int root, void *buf, size_t n);

#endif
