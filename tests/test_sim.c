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

#include "job/sim_job.h"
#include "sim/grid.h"
#include "walk.h"

/* what each rank walks (the walk's tallies), with its arrival record */
typedef struct rank_walk {
    mc_walk_t w;
    mc_arrivals_t arr;
} rank_walk_t;

/* the barrier's arrival record in virtual time (src/oracle/arrivals.c) */
static int64_t sim_clock(void)
{
    mc_ps_t t = 0;
    (void)mc_sim_job_time(&t);
    return (int64_t)t;
}

static void sim_pause(uint64_t ns)
{
    (void)mc_sim_job_busy("pause", (mc_ps_t)ns * 1000);
}

static int walk_rank(mc_comm_t *c, int rank, void *arg)
{
    return mc_walk(c, &((rank_walk_t *)arg)[rank].w);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_sim PLATFORM [options]\n");
        return 2;
    }
    mc_walk_t w = {.seed = 1, .level = MC_WALK_MEDIUM};
    mc_sim_job_t job;
    mc_sim_job_defaults(&job);
    mc_sim_opts_t *so = &job.sim;
    int ranks = 0;
    const char *grid = NULL;
    for (int i = 2; i + 1 < argc; i += 2) {
        const char *a = argv[i], *v = argv[i + 1];
        if (!strcmp(a, "--ranks")) ranks = atoi(v);
        else if (!strcmp(a, "--jitter")) so->jitter_seed = strtoull(v, 0, 10) | 1u << 31;
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
            so->contention_mpb = so->contention_link = so->contention_mc =
                !strcmp(v, "all");
    }
    mc_platform_t *p;
    if (mc_platform_load(argv[1], &p) != MC_OK) {
        fprintf(stderr, "test_sim: %s\n", mc_last_error());
        return 2;
    }
    int n = ranks > 0 ? ranks : p->ncores;
    int *cores = malloc(sizeof(int) * (size_t)p->ncores);
    if (grid) {
        mc_plat_grid_t g;
        if (mc_plat_grid_parse(grid, &g) ||
            mc_plat_grid_cores(p, &g, "--grid", cores) != MC_OK) {
            fprintf(stderr, "test_sim: bad --grid %s\n", grid);
            return 2;
        }
        n = g.w * g.h * g.cpt;
        job.cores = cores;
    }
    rank_walk_t *walks = calloc((size_t)n, sizeof *walks);
    w.blocking_only = n >= 512;
    w.skip_v = n >= 512;
    mc_arrival_slot_t *slots = calloc((size_t)n, sizeof *slots);
    for (int i = 0; i < n; i++) {
        walks[i].w = w;
        mc_arrivals_view(slots, i, n, w.seed, sim_clock, sim_pause,
                         &walks[i].arr);
        walks[i].w.arrivals = &walks[i].arr;
    }
    job.plat = p;
    job.ranks = n;
    job.rank_fn = walk_rank;
    job.arg = walks;
    mc_sim_job_stats_t st;
    int rc = mc_sim_job_run(&job, &st);
    if (!st.ran) {
        fprintf(stderr, "test_sim: %s\n", mc_last_error());
        return 2;
    }
    for (int i = 0; i < st.nerrors; i++)
        fprintf(stderr, "rank %d: %s\n", st.errors[i].rank,
                st.errors[i].msg);
    printf("test_sim: %s, %d ranks, jitter %llu: %d algorithms, %d cases "
           "per rank (%d too big, skipped), %d ranks failed; %.3f ms "
           "simulated in %.2f s\n",
           p->name, n, (unsigned long long)so->jitter_seed, walks[0].w.algos,
           walks[0].w.cases, walks[0].w.skipped, st.failed,
           (double)st.end_ps / 1e9, st.engine.wall_s);
    mc_sim_job_stats_free(&st);
    mc_platform_free(p);
    free(cores);
    free(walks);
    free(slots);
    return rc != MC_OK ? 1 : 0;
}
