/*
 * manycoll sim --app gcmc[:k=v,...]: an application proxy on every core of
 * a simulated chip, its local work charged as simulated compute (the
 * platform's o_flop per floating-point operation, gcmc.h). --algo forces
 * the proxy's long-range allreduce. Prints rank 0's result.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcmc.h"
#include "job/sim_job.h"
#include "sim_cmd.h"
#include "tools.h"

/* the gcmc run of every rank: its options in, rank 0's result out */
typedef struct app_job {
    const mc_gcmc_opts_t *o;
    mc_gcmc_result_t r0;
} app_job_t;

/* the simulated time in seconds (gcmc's clock) */
static double sim_now(void *arg)
{
    (void)arg;
    mc_ps_t t = 0;
    (void)mc_sim_job_time(&t); /* on a simulated rank: cannot fail */
    return (double)t / MC_PS_PER_US * 1e-6;
}

static int app_rank(mc_comm_t *c, int rank, void *arg)
{
    app_job_t *a = arg;
    mc_gcmc_result_t r;
    int rc = mc_gcmc_run(c, a->o, sim_now, NULL, &r);
    if (rc == MC_OK && rank == 0)
        a->r0 = r;
    return rc;
}

int mc_sim_run_app(const sim_opts_t *o, const mc_platform_t *p)
{
    mc_gcmc_opts_t g;
    mc_gcmc_defaults(&g);
    g.algo = o->algo;
    const char *colon = strchr(o->app, ':');
    if (strncmp(o->app, "gcmc", colon ? (size_t)(colon - o->app) : 5))
        return mc_usage_error("sim", "--app: unknown application '%s' "
                                     "(gcmc[:k=v,...])", o->app);
    if (colon && mc_gcmc_parse(colon + 1, &g) != MC_OK)
        return mc_usage_error("sim", "--app: %s", mc_last_error());
    app_job_t a = {.o = &g};
    mc_sim_job_t job;
    mc_sim_job_defaults(&job);
    job.plat = p;
    job.sim = (mc_sim_opts_t){o->cont_mpb, o->cont_link, o->cont_mc,
                              o->jitter, o->stack_size, 0, NULL, NULL, 0};
    job.ranks = o->ranks;
    job.cores = o->cores; /* --map (sim_map.c), else rank = core */
    job.rank_fn = app_rank;
    job.arg = &a;
    job.want = o->trace ? MC_SIM_JOB_TRACE : 0;
    mc_sim_job_stats_t st;
    int rc = mc_sim_job_run(&job, &st);
    if (rc == MC_OK)
        mc_gcmc_print(&g, &a.r0, o->ranks, p->name);
    else /* every failed rank: the first few, each with its message */
        for (int i = 0; i < st.nerrors; i++)
            fprintf(stderr, "manycoll sim: gcmc, rank %d: %s\n",
                    st.errors[i].rank, st.errors[i].msg);
    if (!st.ran)
        fprintf(stderr, "manycoll sim: %s\n", mc_last_error());
    if (st.ran && o->trace)
        mc_sim_write_trace(p, st.trace, st.ntrace, o->trace);
    mc_sim_job_stats_free(&st);
    return rc != MC_OK ? 1 : 0;
}
