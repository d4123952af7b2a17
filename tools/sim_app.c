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
#include "sim_cmd.h"
#include "tools.h"
#include "tp/sim.h"

typedef struct app_core {
    mc_sim_t *sim;
    mc_sim_domain_t *dom;
    const mc_gcmc_opts_t *o;
    int rank, rc;
    mc_gcmc_result_t r;
} app_core_t;

static double sim_now(void *arg)
{
    return (double)mc_sim_now(arg) / MC_PS_PER_US * 1e-6;
}

static void app_main(void *arg)
{
    app_core_t *a = arg;
    mc_comm_t *c;
    a->rc = mc_sim_comm_create(a->sim, a->dom, a->rank, &c);
    if (a->rc != MC_OK)
        return;
    a->rc = mc_gcmc_run(c, a->o, sim_now, a->sim, &a->r);
    if (a->rc != MC_OK)
        fprintf(stderr, "manycoll sim: gcmc, rank %d: %s\n", a->rank,
                mc_last_error());
    mc_comm_free(c);
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
    mc_sim_opts_t so = {o->cont_mpb, o->cont_link, o->cont_mc, o->jitter,
                        o->stack_size,
                        o->trace != NULL, NULL, NULL, 0};
    int n = o->ranks, rc, bad = 0;
    mc_sim_t *sim;
    mc_sim_domain_t *dom;
    int *cores = malloc(sizeof(int) * (size_t)n);
    app_core_t *ac = calloc((size_t)n, sizeof *ac);
    if (!cores || !ac)
        return mc_usage_error("sim", "out of memory");
    int ncores = n;
    for (int i = 0; i < n; i++) { /* --map (sim_map.c), else rank = core */
        cores[i] = o->cores ? o->cores[i] : i;
        ncores = cores[i] >= ncores ? cores[i] + 1 : ncores;
    }
    rc = mc_sim_create(p, ncores, &so, &sim);
    if (rc == MC_OK)
        rc = mc_sim_tp_domain(sim, NULL, 0, cores, n, &dom);
    for (int i = 0; i < n && rc == MC_OK; i++) {
        ac[i] = (app_core_t){.sim = sim, .dom = dom, .o = &g, .rank = i};
        rc = mc_sim_spawn(sim, cores[i], app_main, &ac[i]);
    }
    if (rc == MC_OK) {
        mc_sim_run(sim);
        for (int i = 0; i < n; i++)
            bad += ac[i].rc != MC_OK;
        if (!bad)
            mc_gcmc_print(&g, &ac[0].r, n, p->name);
        if (o->trace)
            mc_sim_write_trace(sim, o->trace);
        mc_sim_destroy(sim);
    } else {
        fprintf(stderr, "manycoll sim: %s\n", mc_last_error());
    }
    free(cores);
    free(ac);
    return rc != MC_OK || bad ? 1 : 0;
}
