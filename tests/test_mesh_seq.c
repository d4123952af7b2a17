/*
 * Back-to-back calls with no barrier between them, on a simulated grid
 * with jitter: each mesh algorithm (which pushes into its peers' MPBs and
 * flag lines) alternates with a two-sided one (which publishes in the
 * sender's own MPB for peers to read), so a rank that is already in the
 * next call writes into peers still finishing this one. The mesh
 * algorithms must wait for the receiver's word before pushing
 * (coll/mesh.h); without it the results come out wrong here.
 *
 *   test_mesh_seq [--jitter SEED]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "../tools/check.h" /* the oracle's, not tests/check.h */
#include "job/sim_job.h"
#include "sim/grid.h"

#define CALLS 12

typedef struct pair {
    mc_coll_t a, b;       /* alternated */
    const char *algo_a, *algo_b;
    size_t count;         /* int32 elements */
} pair_t;

static const pair_t pairs[] = {
    {MC_COLL_ALLTOALL, MC_COLL_BCAST, "mesh-rounds", "binomial", 1000},
    {MC_COLL_ALLTOALL, MC_COLL_REDUCE, "mesh-rounds", "binomial", 600},
    {MC_COLL_ALLTOALL, MC_COLL_BCAST, "mesh-rounds:chunk=64", "binomial", 100},
    {MC_COLL_BCAST, MC_COLL_ALLGATHER, "mesh-tree:sn=0,chunk=64", "ring", 300},
    {MC_COLL_BCAST, MC_COLL_ALLGATHER, "mesh-tree:sn=0", "ring", 5},
    {MC_COLL_REDUCE, MC_COLL_BCAST, "mesh-2step:chunk=64", "binomial", 300},
    {MC_COLL_REDUCE, MC_COLL_BCAST, "mesh-2step", "binomial", 3},
    {MC_COLL_ALLREDUCE, MC_COLL_ALLTOALL, "mesh:sn=0,chunk=64", "pairwise",
     200},
};

static int one(mc_comm_t *c, mc_coll_t coll, size_t count, int i, int *bad)
{
    int n = mc_comm_size(c), me = mc_comm_rank(c);
    mc_case_t k = {.coll = coll, .count = count, .dt = MC_INT32,
                   .op = MC_SUM, .root = (i * 5) % n, .seed = 77u + (unsigned)i};
    mc_case_bufs_t b;
    if (mc_case_alloc(&k, me, n, &b) != MC_OK)
        return -1;
    mc_case_fill(&k, me, n, &b);
    int rc = mc_case_run(c, &k, &b);
    char msg[600];
    if (rc != MC_OK || mc_case_verify(&k, me, n, &b, msg, sizeof msg)) {
        if ((*bad)++ < 3) {
            mc_case_describe(&k, msg, sizeof msg);
            fprintf(stderr, "FAIL rank %d call %d: %s (%s)\n", me, i, msg,
                    rc ? mc_last_error() : "wrong result");
        }
    }
    mc_case_free(&b);
    return rc;
}

/* a rank: every pair's calls back to back on one communicator (its call
 * numbers keep growing); wrong results counted in its slot of arg */
static int seq_rank(mc_comm_t *c, int rank, void *arg)
{
    int *bad = &((int *)arg)[rank];
    for (size_t p = 0; p < sizeof pairs / sizeof *pairs; p++) {
        const pair_t *pr = &pairs[p];
        if (mc_comm_set_algo(c, mc_coll_name(pr->a), pr->algo_a) != MC_OK ||
            mc_comm_set_algo(c, mc_coll_name(pr->b), pr->algo_b) != MC_OK) {
            fprintf(stderr, "setup: %s\n", mc_last_error());
            (*bad)++;
            break;
        }
        for (int i = 0; i < CALLS; i++)
            if (one(c, i % 2 ? pr->b : pr->a, pr->count, i, bad))
                break;
    }
    return *bad ? mc_error(MC_ERR_INTERNAL, "%d calls failed", *bad) : MC_OK;
}

int main(int argc, char **argv)
{
    uint64_t jitter = argc > 2 ? strtoull(argv[2], 0, 10) : 5;
    mc_platform_t *p;
    if (mc_platform_load("tilepro64", &p) != MC_OK)
        return 2;
    mc_plat_grid_t g;
    int cores[64], bad[64] = {0};
    mc_plat_grid_parse("3x3@1,1", &g);
    mc_plat_grid_cores(p, &g, "grid", cores);
    mc_sim_job_t job;
    mc_sim_job_defaults(&job);
    job.plat = p;
    job.sim.jitter_seed = jitter | 1u << 31;
    job.ranks = g.w * g.h;
    job.cores = cores;
    job.rank_fn = seq_rank;
    job.arg = bad;
    mc_sim_job_stats_t st;
    int rc = mc_sim_job_run(&job, &st);
    if (!st.ran)
        return 2;
    printf("test_mesh_seq: %zu pairs x %d calls on 3x3, jitter %llu: %s\n",
           sizeof pairs / sizeof *pairs, CALLS, (unsigned long long)jitter,
           rc ? "FAILED" : "all right");
    mc_platform_free(p);
    return rc ? 1 : 0;
}
