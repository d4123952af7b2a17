/* `manycoll sim`: options, one simulated size, output. */
#ifndef MC_SIM_CMD_H
#define MC_SIM_CMD_H

#include "data.h"
#include "oracle/check.h"
#include "job/sim_job.h"

typedef struct sim_opts {
    const char *platform;
    int lenient;          /* --lenient: unknown keys of the platform file
                             ignored, with a warning */
    const char *algo;     /* the --algo being simulated (algos[i]) */
    const char *algos[8]; /* every --algo, compared side by side */
    int nalgos;
    const char *plot;     /* --plot FILE: latency against size (PNG) */
    mc_case_t k;          /* collective, datatype, op, root */
    size_t sizes[64];
    int nsizes;
    int ranks;            /* 0 = every core */
    int grid;             /* --grid given: ranks fill the rectangle g */
    mc_plat_grid_t g;
    int check, json;
    const char *trace;
    const char *traffic;  /* --traffic FILE (sim_traffic.c) */
    uint64_t jitter;
    size_t stack_size;    /* --stack-size: per simulated core (0: the
                             engine's default) */
    int cont_mpb, cont_link, cont_mc; /* -1 = platform default */
    int runs;             /* --runs: simulations per size, each with its
                             own jitter seed (0 = 1; sim_runs.c) */
    const char *app;      /* --app: an application proxy instead */
    int iters, warmup;    /* --iters N calls measured after --warmup W,
                             back to back in one simulation (0: 1, 0) */
    int nb;               /* --compute given: the non-blocking call, */
    double compute_us;    /* with this long a computation between its
                             start and its wait */
    const char *map;      /* --map linear|FILE (src/plat/map.c) */
    int hier;             /* --hier: src/hier, one node per chip */
    long long hier_ml;    /* --hier-ml BYTES: multi-leader from here on
                             (-1: the library's default) */
    int *cores;           /* rank -> core, from --map (owned), or NULL */
    int pingpong;         /* --coll pingpong: between the cores of --pair */
    int pair[2];
    int quiet;            /* no progress lines on stderr (the data
                             calls, data.h) */
} sim_opts_t;

typedef struct sim_result {
    size_t bytes;
    double lat_us, bw_MBps, done_min_us, done_max_us, done_stdev_us;
    /* the algorithm asked for (--algo, or the rule's), the one that ran
     * (a fallback where the asked one cannot serve) and why */
    char algo[160], ran[160], why[400];
    mc_sim_stats_t st;
    /* --runs N: the latency of each run (owned, free()), their mean
     * (then also lat_us) and sample variance; stats summed over runs */
    int runs;
    double *run_lat, run_var;
    /* the measured calls: on rank 0, their average (the end of the last
     * minus the start of the first, over their number: Kohler et al.'s
     * metric), the mean and sample variance of each call's time */
    double rank0_avg_us, iter_mean_us, iter_var_us2;
    /* a failed simulation: the first failing ranks, "rank R: why" lines */
    char fail[512];
} sim_result_t;

/* the options of `manycoll sim`: 0, or a usage error's status (2) */
int mc_sim_parse(int argc, char **argv, sim_opts_t *o);
/* the options before any is given */
void mc_sim_defaults(sim_opts_t *o);
/* "all", "none", or a list of mpb, link, mc into o->cont_*: 0 or -1 */
int mc_sim_contention(const char *v, sim_opts_t *o);
/* --grid, --map, --ranks and --root against platform p: the ranks and
 * where they sit (o->cores); the "platform default" contention resolved
 * into o and p. MC_OK, or MC_ERR_ARG with mc_last_error() */
int mc_sim_place(sim_opts_t *o, mc_platform_t *p);
/* the record of one simulated size, as --json prints it */
void mc_sim_row_fill(const sim_opts_t *o, const mc_platform_t *p,
                     const sim_result_t *r, mc_sim_row_t *row);
/* simulates one message size; writes the trace if trace_file */
int mc_sim_run_size(const sim_opts_t *o, const mc_platform_t *p,
                    size_t bytes, sim_result_t *r, const char *trace_file);
/* --runs: o->runs simulations of one size, each with its own jitter
 * seed drawn from --jitter (the first one's is --jitter itself) */
int mc_sim_run_runs(const sim_opts_t *o, const mc_platform_t *p,
                    size_t bytes, sim_result_t *r, const char *trace_file);
/* --app: the application proxy on every core (sim_app.c) */
int mc_sim_run_app(const sim_opts_t *o, const mc_platform_t *p);
/* --coll pingpong (sim_pingpong.c) */
int mc_sim_run_pingpong(const sim_opts_t *o, const mc_platform_t *p);
/* --traffic: the first size's bytes per rank pair (t: ranks x ranks, by
 * rank; cores: where the ranks ran), as JSON; 0 or -1 */
int mc_sim_write_traffic(const uint64_t *t, const mc_platform_t *p,
                         const int *cores, int n, const sim_result_t *r,
                         const char *coll, const char *file);
/* --plot: n points (label, bytes, latency in us) drawn by python3 and
 * matplotlib into file (sim_plot.c); 0, or -1 with the reason on stderr.
 * mc_sim_plot_check says beforehand whether it can work. */
typedef struct sim_point {
    char label[340];
    size_t bytes;
    double lat_us;
} sim_point_t;
int mc_sim_plot_check(void);
int mc_sim_plot(const char *file, const char *title, const sim_point_t *pt,
                int n);
/* Chrome/Perfetto trace of a finished simulation's n records */
int mc_sim_write_trace(const mc_platform_t *p, const mc_sim_trace_rec_t *t,
                       size_t n, const char *file);

#endif
