/*
 * A simulated job: make a simulated chip, give every rank a communicator
 * on its core, run a function on each rank, return what happened -- one
 * call. `manycoll sim`, `manycoll info --comm-bytes`, the tests that
 * simulate, Python and a future `manycoll replay` all come here; none of
 * them makes an engine, a domain or a coroutine of its own.
 *
 *   mc_sim_job_t job;
 *   mc_sim_job_defaults(&job);
 *   job.platform = "scc48";
 *   job.ranks = 48;
 *   job.rank_fn = my_rank;            // int my_rank(mc_comm_t *, int, void *)
 *   job.want = MC_SIM_JOB_RANK_TIMES;
 *   mc_sim_job_stats_t st;
 *   int rc = mc_sim_job_run(&job, &st); // data only: nothing is printed
 *   ... st.engine.events, st.end_ps, st.rank_end_ps[r] ...
 *   mc_sim_job_stats_free(&st);
 *
 * The layer. A job needs the API's communicator (src/api) over the
 * simulator's transport (src/tp) on the engine (src/sim) of a platform
 * (src/plat): it sits above all four, in src/job/, a layer of its own
 * (cmake/layers.cmake). Not in src/api: the API would then see the
 * engine and the platform files, and a program of the public header would
 * be one include away from the simulator's internals; the API stays a
 * communicator over *a* transport. Not in tools/: Python and the tests
 * link the library, not the command. A record-and-replay driver (the
 * per-rank replay of a trace, ARCHITECTURE.md) belongs here too: it is a
 * rank function and a job.
 *
 * Errors. A job that cannot start (an argument, an unknown platform, no
 * memory for the simulator) returns its status with st.ran = 0. A job
 * that ran returns MC_OK if every rank's function returned MC_OK; else the
 * status of the lowest failing rank, mc_last_error() naming that rank and
 * its message, st.ran = 1 and the statistics filled as for a success, the
 * failures in st.failed and st.errors. A simulator that runs out of memory
 * during the run fails the job with MC_ERR_NOMEM naming what it could not
 * allocate (st.ran = 1: the ranks' functions saw their calls fail).
 */
#ifndef MC_JOB_SIM_JOB_H
#define MC_JOB_SIM_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "manycoll.h"
#include "plat/platform.h"
#include "sim/engine.h"

/* The program of one rank, on its simulated core: comm is its
 * communicator of job.ranks ranks (freed by the job when it returns),
 * rank its rank in it. Returns MC_OK or an error status (with a message,
 * mc_error). */
typedef int (*mc_sim_rank_fn)(mc_comm_t *comm, int rank, void *arg);

/* What a job returns besides the engine's counters (mc_sim_job_t.want):
 * each is allocated for the caller (mc_sim_job_stats_free). */
enum {
    MC_SIM_JOB_RANK_TIMES = 1, /* st.rank_end_ps */
    MC_SIM_JOB_TRACE = 2,      /* st.trace, st.ntrace */
    MC_SIM_JOB_TRAFFIC = 4     /* st.traffic (at most MC_SIM_TRAFFIC_MAX
                                  cores simulated) */
};

typedef struct mc_sim_job {
    /* the chip: a loaded platform (the caller's, not freed), or else the
     * name of one (platforms/<name>.json, mesh<X>x<Y>, or a file) */
    const mc_platform_t *plat;
    const char *platform;
    /* contention, jitter, stack size, progress reports; its trace and
     * traffic fields are set from `want` */
    mc_sim_opts_t sim;
    int ranks;
    /* rank r runs on core cores[r] (all different); NULL: on core r */
    const int *cores;
    mc_sim_rank_fn rank_fn;
    void *arg;
    unsigned want; /* MC_SIM_JOB_* */
} mc_sim_job_t;

/* a failed rank: its status and message (cut to fit) */
#define MC_SIM_JOB_ERRORS 5
typedef struct mc_sim_job_error {
    int rank, status;
    char msg[256];
} mc_sim_job_error_t;

typedef struct mc_sim_job_stats {
    int ran;               /* 1: the simulation ran, the rest is filled */
    int ranks;
    mc_sim_stats_t engine; /* events, operations, lines, waits for links,
                              ports and the host, wall time of the run */
    double wall_s;         /* wall time of the whole job (platform,
                              engine, communicators and run) */
    mc_ps_t end_ps;        /* simulated time when the last rank's function
                              returned */
    mc_ps_t *rank_end_ps;  /* [ranks] ... each rank's (RANK_TIMES) */
    mc_sim_trace_rec_t *trace; /* (TRACE) every operation, core numbers */
    size_t ntrace;
    uint64_t *traffic;     /* (TRAFFIC) [ranks x ranks] by rank:
                              traffic[from * ranks + to] bytes of data (see
                              mc_sim_traffic), counted while the ranks'
                              functions ran (mc_sim_job_count_traffic) */
    int failed;            /* ranks whose function (or communicator)
                              failed */
    int deadlocked;        /* cores waited for flags nobody would write;
                              their waits failed with MC_ERR_TIMEOUT */
    int sim_status;        /* the simulator's own failure during the run
                              (MC_ERR_NOMEM), the job's status then; 0 */
    int nerrors;           /* the lowest failing ranks, in rank order */
    mc_sim_job_error_t errors[MC_SIM_JOB_ERRORS];
} mc_sim_job_stats_t;

/* zeroes *job and sets the defaults: contention as the platform says,
 * no jitter, the engine's stack size */
int mc_sim_job_defaults(mc_sim_job_t *job);

/* mc_sim_job_defaults, then the common fields: the platform (plat, or
 * if NULL the one named `platform`), the ranks and the rank function
 * with its argument */
int mc_sim_job_set(mc_sim_job_t *job, const mc_platform_t *plat,
                   const char *platform, int ranks, mc_sim_rank_fn fn,
                   void *arg);

/* Makes the simulated job, runs it, fills *st (see Errors above). */
int mc_sim_job_run(const mc_sim_job_t *job, mc_sim_job_stats_t *st);

/* frees what *st holds (rank times, trace, traffic); st stays valid,
 * empty */
int mc_sim_job_stats_free(mc_sim_job_stats_t *st);

/* ---- for rank functions, on their simulated core (MC_ERR_ARG
 * elsewhere) ---- */

/* *now = the simulated time of the calling rank (ps) */
int mc_sim_job_time(mc_ps_t *now);
/* the calling rank computes for d ps (`name` in the trace) */
int mc_sim_job_busy(const char *name, mc_ps_t d);
/* whether the calling rank's data movement counts in st.traffic from
 * now on (it does when its function begins, not while the job makes or
 * frees its communicator) */
int mc_sim_job_count_traffic(int on);

#endif
