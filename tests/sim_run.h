/*
 * A test program's run on a simulated chip: fn on every one of n cores of
 * `platform`, each core's failure on stderr, one summary line on stdout
 * (`name: PLATFORM, N cores: F failed, T us simulated`). Returns the exit
 * status: 0 all passed, 1 a core failed, 2 the job could not run.
 */
#ifndef MC_TESTS_SIM_RUN_H
#define MC_TESTS_SIM_RUN_H

#include <stdio.h>

#include "job/sim_job.h"

static inline int sim_run(const char *name, const char *platform, int n,
                          mc_sim_rank_fn fn)
{
    mc_sim_job_t job;
    mc_sim_job_set(&job, NULL, platform, n, fn, NULL);
    mc_sim_job_stats_t st;
    int rc = mc_sim_job_run(&job, &st);
    if (!st.ran) {
        fprintf(stderr, "%s: %s\n", name, mc_last_error());
        return 2;
    }
    for (int i = 0; i < st.nerrors; i++)
        fprintf(stderr, "core %d: %s\n", st.errors[i].rank,
                st.errors[i].msg);
    printf("%s: %s, %d cores: %d failed, %.3f us simulated\n", name,
           platform, n, st.failed, (double)st.end_ps / 1e6);
    return rc != MC_OK || st.failed ? 1 : 0;
}

#endif
