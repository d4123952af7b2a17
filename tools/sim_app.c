/*
 * manycoll sim --app gcmc[:k=v,...]: an application proxy on every core of
 * a simulated chip, its local work charged as simulated compute (the
 * platform's o_flop per floating-point operation, src/app/gcmc.h). --algo forces
 * the proxy's long-range allreduce. Prints rank 0's result.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/gcmc.h"
#include "job/sim_job.h"
#include "sim_cmd.h"
#include "tools.h"

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
    mc_sim_job_t job;
    mc_sim_job_defaults(&job);
    job.plat = p;
    job.sim = (mc_sim_opts_t){o->cont_mpb, o->cont_link, o->cont_mc,
                              o->jitter, o->stack_size, 0, NULL, NULL, 0};
    job.ranks = o->ranks;
    job.cores = o->cores; /* --map (src/plat/map.c), else rank = core */
    job.want = o->trace ? MC_SIM_JOB_TRACE : 0;
    mc_sim_job_stats_t st;
    mc_gcmc_result_t r0;
    int rc = mc_gcmc_sim(&job, &g, &st, &r0);
    if (rc == MC_OK)
        mc_gcmc_print(&g, &r0, o->ranks, p->name);
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
