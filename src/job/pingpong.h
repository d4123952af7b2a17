/*
 * The ping-pong of RCCE and of Reble et al.'s Fig. 6 between two cores of
 * a simulated chip (or of two chips), as a simulated job (sim_job.h):
 * rank 0 on core A sends n bytes to rank 1 on core B with the two-sided
 * layer (coll/p2p.c, RCCE's local put / remote get), which sends them
 * back; `warmup` rounds, then `iters` measured.
 *
 *   core A:  [send n ......][recv n ......]   x (warmup + iters)
 *   core B:  [recv n ......][send n ......]
 *
 * The result is the definition of RCCE's and iRCCE's ping-pong
 * benchmarks: the half round trip (measured time on core A / 2 iters) and
 * the throughput n / half round trip in MB/s (bytes per us). Every
 * message is checked on arrival. Data only: `manycoll sim --coll pingpong`
 * prints it.
 */
#ifndef MC_JOB_PINGPONG_H
#define MC_JOB_PINGPONG_H

#include "job/sim_job.h"

typedef struct mc_pingpong {
    const mc_platform_t *plat;
    mc_sim_opts_t sim; /* contention, jitter, stack size */
    int cores[2];      /* A and B: two different cores of plat */
    size_t bytes;
    int warmup, iters; /* iters < 1 counts as 1 */
} mc_pingpong_t;

typedef struct mc_pingpong_result {
    double half_rtt_us;
    double mbps;  /* bytes per us */
    int locality; /* of B seen from A: MC_LOC_TILE, _CHIP or _OTHER */
    int scheme;   /* between chips: MC_P2P_*; -1 on one chip (RCCE's) */
    int piped;    /* iRCCE's pipelining was on for this size */
} mc_pingpong_result_t;

/* Runs the ping-pong of pp->bytes: MC_OK and *r, or an error whose
 * message names the size and the rank that failed */
int mc_sim_pingpong(const mc_pingpong_t *pp, mc_pingpong_result_t *r);

#endif
