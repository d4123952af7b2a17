/*
 * The generated correctness walk (walk.c) on a simulated chip: every core
 * of the platform runs the walk as its program.
 *
 *   test_sim PLATFORM [--ranks N] [--level tiny|light|medium|full]
 *            [--jitter SEED] [--contention all|none] [--coll C] [--algo A]
 *            [--grid WxH[@X,Y]]   (ranks on a rectangle of tiles, row by row)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "sim/engine.h"
#include "sim/grid.h"
#include "tp/sim.h"
#include "walk.h"

typedef struct job {
    mc_sim_t *sim;
    mc_sim_domain_t *dom;
    int rank;
    mc_walk_t w;
    mc_arrivals_t arr;
    int rc;
} job_t;

/* the barrier's arrival record in virtual time (tools/arrivals.c) */
static int64_t sim_clock(void)
{
    return (int64_t)mc_sim_now(mc_sim_self());
}

static void sim_pause(uint64_t ns)
{
    mc_sim_op_t op = {.name = "pause", .fixed = (mc_ps_t)ns * 1000};
    mc_sim_do(mc_sim_self(), &op);
}

static void core_main(void *arg)
{
    job_t *j = arg;
    mc_comm_t *c;
    j->rc = mc_sim_comm_create(j->sim, j->dom, j->rank, &c);
    if (j->rc != MC_OK) {
        fprintf(stderr, "rank %d: %s\n", j->rank, mc_last_error());
        return;
    }
    j->rc = mc_walk(c, &j->w);
    mc_comm_free(c);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_sim PLATFORM [options]\n");
        return 2;
    }
    mc_walk_t w = {.seed = 1, .level = MC_WALK_MEDIUM};
    mc_sim_opts_t so = {-1, -1, -1, 0, 0, 0, NULL, NULL, 0};
    int ranks = 0;
    const char *grid = NULL;
    for (int i = 2; i + 1 < argc; i += 2) {
        const char *a = argv[i], *v = argv[i + 1];
        if (!strcmp(a, "--ranks")) ranks = atoi(v);
        else if (!strcmp(a, "--jitter")) so.jitter_seed = strtoull(v, 0, 10) | 1u << 31;
        else if (!strcmp(a, "--coll")) w.coll = v;
        else if (!strcmp(a, "--grid")) grid = v;
        else if (!strcmp(a, "--algo")) w.algo = v;
        else if (!strcmp(a, "--level")) {
            if ((w.level = mc_walk_level(v)) == -2) {
                fprintf(stderr, "test_sim: --level: unknown level '%s'\n", v);
                return 2;
            }
        }
        else if (!strcmp(a, "--contention"))
            so.contention_mpb = so.contention_link = so.contention_mc =
                !strcmp(v, "all");
    }
    mc_platform_t *p;
    if (mc_platform_load(argv[1], &p) != MC_OK) {
        fprintf(stderr, "test_sim: %s\n", mc_last_error());
        return 2;
    }
    int n = ranks > 0 ? ranks : p->ncores, ncores = n;
    mc_sim_t *sim;
    int *cores = malloc(sizeof(int) * (size_t)p->ncores);
    for (int i = 0; i < n; i++)
        cores[i] = i;
    if (grid) {
        mc_plat_grid_t g;
        if (mc_plat_grid_parse(grid, &g) ||
            mc_plat_grid_cores(p, &g, "--grid", cores) != MC_OK) {
            fprintf(stderr, "test_sim: bad --grid %s\n", grid);
            return 2;
        }
        n = g.w * g.h * g.cpt;
        for (int i = 0; i < n; i++)
            ncores = cores[i] >= ncores ? cores[i] + 1 : ncores;
    }
    job_t *jobs = calloc((size_t)n, sizeof(job_t));
    w.blocking_only = n >= 512;
    w.skip_v = n >= 512;
    mc_sim_domain_t *dom;
    if (mc_sim_create(p, ncores, &so, &sim) != MC_OK ||
        mc_sim_tp_domain(sim, NULL, 0, cores, n, &dom) != MC_OK) {
        fprintf(stderr, "test_sim: %s\n", mc_last_error());
        return 2;
    }
    mc_arrival_slot_t *slots = calloc((size_t)n, sizeof *slots);
    for (int i = 0; i < n; i++) {
        jobs[i] = (job_t){.sim = sim, .dom = dom, .rank = i, .w = w};
        mc_arrivals_view(slots, i, n, w.seed, sim_clock, sim_pause,
                         &jobs[i].arr);
        jobs[i].w.arrivals = &jobs[i].arr;
        mc_sim_spawn(sim, cores[i], core_main, &jobs[i]);
    }
    int rc = mc_sim_run(sim);
    int bad = rc != MC_OK;
    for (int i = 0; i < n; i++)
        bad += jobs[i].rc != 0;
    mc_sim_stats_t st;
    mc_sim_get_stats(sim, &st);
    printf("test_sim: %s, %d ranks, jitter %llu: %d algorithms, %d cases "
           "per rank (%d too big, skipped), %d ranks failed; %.3f ms "
           "simulated in %.2f s\n",
           p->name, n, (unsigned long long)so.jitter_seed, jobs[0].w.algos,
           jobs[0].w.cases, jobs[0].w.skipped, bad, (double)mc_sim_now(sim) / 1e9, st.wall_s);
    mc_sim_destroy(sim);
    mc_platform_free(p);
    free(cores);
    free(jobs);
    free(slots);
    return bad ? 1 : 0;
}
