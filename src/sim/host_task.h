/*
 * The host communication task of the vSCC (Reble et al., PMAM'15;
 * host_task.c): prefetching into the host, its software cache, and the
 * virtual DMA engine, for the calling core. Only the simulator's
 * transport calls these (tp/sim.c), and only where mc_sim_host_task says
 * there is a task.
 */
#ifndef MC_SIM_HOST_TASK_H
#define MC_SIM_HOST_TASK_H

#include "sim/engine.h"

/* The host communication task of a multi-chip platform whose host
 * acknowledges writes (write_ack "host"; cost_host.c), for the calling
 * core: 0 where there is none (one chip, transparent routing, the FPGA's
 * acknowledgements), and the calls below are then not to be made. */
int mc_sim_host_task(const mc_sim_t *s);
/* the task copies the caller's MPB bytes [off, off + n) into the host,
 * serving later reads of them from other chips from there (prefetch);
 * invalidate drops the copy. The caller pays one write to the task's
 * registers. */
int mc_sim_host_prefetch(mc_sim_t *s, size_t off, size_t n);
int mc_sim_host_invalidate(mc_sim_t *s, size_t off, size_t n);
/* virtual DMA: the task copies `lines` lines of the caller's MPB to the
 * MPB of core dst (the data is moved by the caller's transport); *flag
 * becomes v when they have landed, *done becomes done_v when the caller's
 * range has been read. The caller pays one write to the task's
 * registers. */
int mc_sim_host_dma(mc_sim_t *s, int dst, int64_t lines, uint64_t *flag,
                    uint64_t v, uint64_t *done, uint64_t done_v);

#endif
