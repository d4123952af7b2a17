/* `manycoll sim`: options, one simulated size, output. */
#ifndef MC_SIM_CMD_H
#define MC_SIM_CMD_H

#include "check.h"
#include "sim/engine.h"

typedef struct sim_opts {
    const char *platform;
    const char *algo;
    mc_case_t k;          /* collective, datatype, op, root */
    size_t sizes[64];
    int nsizes;
    int ranks;            /* 0 = every core */
    int grid;             /* --grid given: ranks fill the rectangle g */
    mc_plat_grid_t g;
    int check, json;
    const char *trace;
    uint64_t jitter;
    int cont_mpb, cont_link, cont_mc; /* -1 = platform default */
    int iters;            /* --iters: simulations per size (0 = 1) */
} sim_opts_t;

typedef struct sim_result {
    size_t bytes;
    double lat_us, bw_MBps, done_min_us, done_max_us, done_stdev_us;
    char algo[128];
    mc_sim_stats_t st;
    /* --iters N: the latency of each run (owned, free()), their mean
     * (then also lat_us) and sample variance; stats summed over runs */
    int iters;
    double *iter_lat, iter_var;
} sim_result_t;

/* the options of `manycoll sim`: 0, or a usage error's status (2) */
int mc_sim_parse(int argc, char **argv, sim_opts_t *o);
/* simulates one message size; writes the trace if trace_file */
int mc_sim_run_size(const sim_opts_t *o, const mc_platform_t *p,
                    size_t bytes, sim_result_t *r, const char *trace_file);
/* --iters: o->iters simulations of one size, each with its own jitter
 * seed drawn from --jitter (the first one's is --jitter itself) */
int mc_sim_run_iters(const sim_opts_t *o, const mc_platform_t *p,
                     size_t bytes, sim_result_t *r, const char *trace_file);
/* Chrome/Perfetto trace of a finished simulation */
int mc_sim_write_trace(mc_sim_t *s, const char *file);

#endif
