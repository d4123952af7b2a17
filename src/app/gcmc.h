/*
 * A proxy of the grand-canonical Monte Carlo application of Kohler et al.
 * (section V-B, Algorithms 1 and 2): its loop, its local work and its
 * collectives, with the physics reduced to what costs the same. It runs
 * as a rank of `manycoll run` (`manycoll gcmc`) and on every core of a
 * simulated chip (`manycoll sim --app gcmc`, mc_gcmc_sim), where its local
 * work is charged as simulated compute (o_flop per floating-point
 * operation). The command prints the result (tools/gcmc_cmd.c).
 */
#ifndef MC_APP_GCMC_H
#define MC_APP_GCMC_H

#include <stdint.h>

#include "api/api.h"
#include "api/comm.h"
#include "job/sim_job.h"

typedef struct mc_gcmc_opts {
    int cycles;     /* GCMC moves */
    int particles;  /* in the whole system, spread over the ranks */
    int atoms;      /* per particle */
    int kmax;       /* Fourier terms per atom (Algorithm 2, line 6) */
    int kvecs;      /* complex coefficients summed: the allreduce carries
                       2 kvecs doubles (276 -> 552 in the paper) */
    int trig_flops; /* flops one cos + sin counts for (simulator) */
    int images;     /* periodic images per short-range atom pair */
    uint64_t seed;
    const char *algo; /* the long-range allreduce's algorithm, or NULL */
} mc_gcmc_opts_t;

typedef struct mc_gcmc_result {
    double total_s;   /* the whole loop, on this rank */
    double longen_s;  /* in LongEn: local work and its allreduce */
    double comm_s;    /* in collectives */
    int accepted;
    double energy;    /* the last accepted total energy */
} mc_gcmc_result_t;

void mc_gcmc_defaults(mc_gcmc_opts_t *o);
/* "cycles=20,particles=480,..." over *o; MC_ERR_ARG names a bad key */
int mc_gcmc_parse(const char *kv, mc_gcmc_opts_t *o);
/* the loop on communicator c; `now` returns seconds (wall clock on shm,
 * simulated time on a simulated chip) */
int mc_gcmc_run(mc_comm_t *c, const mc_gcmc_opts_t *o,
                double (*now)(void *), void *now_arg, mc_gcmc_result_t *r);
/* the proxy on every rank of simulated job *job (its rank_fn and arg are
 * set here, its clock is the simulated time): mc_sim_job_run's status and
 * *st, and rank 0's result in *r0 */
int mc_gcmc_sim(mc_sim_job_t *job, const mc_gcmc_opts_t *o,
                mc_sim_job_stats_t *st, mc_gcmc_result_t *r0);

#endif
