/*
 * The GCMC proxy (gcmc.h) on every core of a simulated chip: a simulated
 * job whose ranks run mc_gcmc_run with the simulated time as their clock.
 */
#include "app/gcmc.h"

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

/* one simulated rank: the proxy, and rank 0's result kept */
static int app_rank(mc_comm_t *c, int rank, void *arg)
{
    app_job_t *a = arg;
    mc_gcmc_result_t r;
    int rc = mc_gcmc_run(c, a->o, sim_now, NULL, &r);
    if (rc == MC_OK && rank == 0)
        a->r0 = r;
    return rc;
}

int mc_gcmc_sim(mc_sim_job_t *job, const mc_gcmc_opts_t *o,
                mc_sim_job_stats_t *st, mc_gcmc_result_t *r0)
{
    app_job_t a = {.o = o};
    job->rank_fn = app_rank;
    job->arg = &a;
    int rc = mc_sim_job_run(job, st);
    *r0 = a.r0;
    return rc;
}
