/*
 * The two-sided flavours of Kohler et al. (coll/p2p.h) through the
 * algorithms that take them, at the message sizes where they differ: the
 * generated walk runs each registered variant at two counts, which never
 * cut a message into whole lines and a padded last line (tail=1), nor an
 * RCCE_comm split whose first block is several times the others
 * (balance=0). Here every combination of sync, tail, balance and fused
 * runs at counts below, at and around one line, a few lines, P blocks and
 * a few more (blocks that are lines and a part), in doubles and int32,
 * checked against the scalar reference (tools/check.c).
 *
 *   test_flavours --sim PLATFORM [--ranks N] [--jitter SEED]
 *   manycoll run -n N test_flavours
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "api/comm.h"
#include "../tools/check.h" /* the oracle's, not tests/check.h */
#include "job/sim_job.h"

typedef struct kalgo {
    const char *coll, *name;
    int sync, balance, tail, fused; /* which parameters it has */
} kalgo_t;

static const kalgo_t algos[] = {
    {"allreduce", "ring", 1, 1, 1, 1},
    {"allreduce", "ring-mpb", 0, 0, 0, 0},
    {"reduce", "rs-gather", 1, 1, 1, 1},
    {"reduce_scatter_block", "ring", 1, 0, 1, 1},
    {"allgather", "ring", 1, 0, 1, 0},
    {"alltoall", "pairwise", 1, 0, 1, 0},
    {"bcast", "scatter-allgather", 1, 1, 1, 0},
};

static int run_one(mc_comm_t *c, mc_case_t k, const char *spec, int *cases)
{
    int rank = mc_comm_rank(c), n = mc_comm_size(c);
    mc_case_bufs_t b;
    char msg[600];
    if (mc_case_alloc(&k, rank, n, &b) != MC_OK)
        return -1;
    mc_case_fill(&k, rank, n, &b);
    int rc = mc_case_run(c, &k, &b), bad = 0;
    ++*cases;
    if (rc != MC_OK || mc_case_verify(&k, rank, n, &b, msg, sizeof msg)) {
        if (rc != MC_OK)
            mc_case_describe(&k, msg, sizeof msg);
        fprintf(stderr, "FAIL [%s] rank %d: %s%s%s\n", spec, rank, msg,
                rc ? ": " : "", rc ? mc_last_error() : "");
        bad = 1;
    }
    mc_case_free(&b);
    return rc != MC_OK ? -1 : bad;
}

/* every count of interest, for a communicator of n ranks and lines of
 * `line` bytes (in elements of 8 bytes) */
static int counts(int n, size_t line, size_t out[16])
{
    size_t l = line / 8, m = 0;
    size_t list[] = {1, l - 1, l, l + 1, 3 * l + 2, (size_t)n,
                     (size_t)n * l + 1, (size_t)n * (l + 1) - 1,
                     (size_t)n * 3 * l + 5 * (size_t)n / 2 + 3, 0};
    for (size_t i = 0; list[i]; i++)
        out[m++] = list[i];
    return (int)m;
}

static int one_algo(mc_comm_t *c, const kalgo_t *a, int *cases)
{
    mc_coll_t coll;
    mc_coll_from_name(a->coll, &coll);
    size_t cnt[16];
    int ncnt = counts(mc_comm_size(c), c->team.tp->line, cnt), bad = 0;
    for (int mode = 0; mode < 24; mode++) {
        int sync = mode % 3, tail = mode / 3 % 2, bal = mode / 6 % 2,
            fused = mode / 12;
        if ((!a->sync && sync) || (!a->tail && tail) ||
            (!a->balance && bal) || (!a->fused && fused))
            continue;
        char spec[160];
        int len = snprintf(spec, sizeof spec, "%s", a->name);
        const char *sep = ":";
        if (a->sync)
            len += snprintf(spec + len, sizeof spec - len, "%ssync=%d", sep,
                            sync), sep = ",";
        if (a->tail)
            len += snprintf(spec + len, sizeof spec - len, "%stail=%d", sep,
                            tail), sep = ",";
        if (a->balance)
            len += snprintf(spec + len, sizeof spec - len, "%sbalance=%d",
                            sep, bal), sep = ",";
        if (a->fused)
            snprintf(spec + len, sizeof spec - len, "%sfused=%d", sep, fused);
        if (mc_comm_set_algo(c, a->coll, spec) != MC_OK) {
            fprintf(stderr, "test_flavours: %s\n", mc_last_error());
            return -1;
        }
        for (int i = 0; i < ncnt; i++)
            for (int d = 0; d < 2; d++) {
                mc_case_t k = {.coll = coll, .count = cnt[i],
                               .dt = d ? MC_INT32 : MC_FLOAT64, .op = MC_SUM,
                               .root = (i + d) % mc_comm_size(c),
                               .in_place = i % 2 && coll != MC_COLL_BCAST,
                               .seed = (uint32_t)(100 * mode + i)};
                int rc = run_one(c, k, spec, cases);
                if (rc < 0)
                    return -1;
                bad += rc;
            }
    }
    return bad;
}

static int flavours(mc_comm_t *c, int *cases)
{
    int bad = 0;
    for (size_t i = 0; i < sizeof algos / sizeof *algos; i++) {
        int rc = one_algo(c, &algos[i], cases);
        if (rc < 0)
            return -1;
        bad += rc;
    }
    return bad;
}

/* a simulated rank: its cases counted in its slot of arg */
static int sim_rank(mc_comm_t *c, int rank, void *arg)
{
    int bad = flavours(c, &((int *)arg)[rank]);
    if (bad > 0)
        return mc_error(MC_ERR_INTERNAL, "%d cases gave wrong results", bad);
    return bad < 0 ? MC_ERR_INTERNAL : MC_OK;
}

static int on_sim(const char *platform, int ranks, uint64_t jitter)
{
    mc_platform_t *p;
    if (mc_platform_load(platform, &p) != MC_OK)
        return fprintf(stderr, "test_flavours: %s\n", mc_last_error()), 2;
    int n = ranks > 0 && ranks <= p->ncores ? ranks : p->ncores;
    int *cases = calloc((size_t)n, sizeof *cases);
    mc_sim_job_t job;
    mc_sim_job_defaults(&job);
    job.plat = p;
    job.sim.jitter_seed = jitter;
    job.ranks = n;
    job.rank_fn = sim_rank;
    job.arg = cases;
    mc_sim_job_stats_t st;
    int rc = mc_sim_job_run(&job, &st);
    if (!st.ran)
        return fprintf(stderr, "test_flavours: %s\n", mc_last_error()), 2;
    for (int i = 0; i < st.nerrors; i++)
        fprintf(stderr, "rank %d: %s\n", st.errors[i].rank,
                st.errors[i].msg);
    printf("test_flavours: %s, %d ranks: %d cases per rank, %d ranks "
           "failed\n", p->name, n, cases[0], st.failed);
    mc_platform_free(p);
    free(cases);
    return rc != MC_OK ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc > 2 && !strcmp(argv[1], "--sim")) {
        int ranks = 0;
        uint64_t jitter = 0;
        for (int i = 3; i + 1 < argc; i += 2) {
            if (!strcmp(argv[i], "--ranks"))
                ranks = atoi(argv[i + 1]);
            else if (!strcmp(argv[i], "--jitter"))
                jitter = strtoull(argv[i + 1], NULL, 10) | 1u << 31;
        }
        return on_sim(argv[2], ranks, jitter);
    }
    mc_comm_t *c;
    if (mc_init(&c) != MC_OK)
        return fprintf(stderr, "test_flavours: %s\n", mc_last_error()), 2;
    int cases = 0, rc = flavours(c, &cases);
    if (mc_comm_rank(c) == 0)
        printf("test_flavours: %d ranks: %d cases per rank, %s\n",
               mc_comm_size(c), cases, rc ? "FAILED" : "all right");
    mc_finalize();
    return rc ? 1 : 0;
}
