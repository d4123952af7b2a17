/*
 * manycoll sim --coll pingpong --pair A,B: the ping-pong of RCCE and of
 * Reble et al.'s Fig. 6 between two cores of a simulated chip (or of two
 * chips): rank 0 on core A sends n bytes to rank 1 on core B with the
 * two-sided layer (coll/p2p.c, RCCE's local put / remote get), which sends
 * them back; --warmup W rounds, then --iters N measured.
 *
 *   core A:  [send n ......][recv n ......]   x (W + N)
 *   core B:  [recv n ......][send n ......]
 *
 * Reported per size: the half round trip (measured time on core A / 2N)
 * and the throughput n / half round trip in MB/s (bytes per us), the
 * definition of RCCE's and iRCCE's ping-pong benchmarks. Every message is
 * checked on arrival.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/comm.h"
#include "coll/p2p.h"
#include "job/sim_job.h"
#include "sim_cmd.h"
#include "tools.h"

typedef struct pp_core {
    const sim_opts_t *o;
    int rank, bad;
    int scheme; /* between chips: MC_P2P_*; -1 on one chip (RCCE's) */
    int piped;  /* iRCCE's pipelining on for this size */
    size_t n;
    mc_ps_t t0, t1;
    unsigned char *buf;
} pp_core_t;

static unsigned char pattern(int round, size_t i)
{
    return (unsigned char)(round * 131 + i * 7 + 1);
}

static void fill(unsigned char *b, size_t n, int round)
{
    for (size_t i = 0; i < n; i++)
        b[i] = pattern(round, i);
}

static int same(const unsigned char *b, size_t n, int round)
{
    for (size_t i = 0; i < n; i++)
        if (b[i] != pattern(round, i))
            return 0;
    return 1;
}

/* one round from the side of `rank`: 0 sends first */
static int round_trip(mc_team_t *t, pp_core_t *c, int round)
{
    int peer = 1 - c->rank, rc;
    if (c->rank == 0) {
        fill(c->buf, c->n, round);
        if ((rc = mc_p2p_send(t, peer, c->buf, c->n)) != MC_OK)
            return rc;
        memset(c->buf, 0, c->n);
        rc = mc_p2p_recv(t, peer, c->buf, c->n, NULL);
    } else {
        memset(c->buf, 0, c->n);
        if ((rc = mc_p2p_recv(t, peer, c->buf, c->n, NULL)) != MC_OK)
            return rc;
        c->bad |= !same(c->buf, c->n, round);
        rc = mc_p2p_send(t, peer, c->buf, c->n);
    }
    c->bad |= c->rank == 0 && !same(c->buf, c->n, round);
    return rc;
}

/* rank `rank` of the job: W + N round trips, timed on the simulated
 * clock */
static int pp_rank(mc_comm_t *comm, int rank, void *arg)
{
    pp_core_t *c = &((pp_core_t *)arg)[rank];
    const mc_team_t *t = &comm->team;
    c->scheme = tp_locality(t->tp, 1 - c->rank) != MC_LOC_OTHER ? -1
                : t->vscc.land ? t->vscc.scheme
                              : MC_P2P_LP_RG;
    c->piped = t->p2p.pipe && !t->vscc.land && c->n > t->p2p.pipe;
    int rounds = c->o->warmup + (c->o->iters > 0 ? c->o->iters : 1);
    int rc = MC_OK;
    for (int i = 0; i < rounds && rc == MC_OK; i++) {
        if (i == c->o->warmup)
            MC_CHECK(mc_sim_job_time(&c->t0));
        rc = round_trip(&comm->team, c, i);
    }
    MC_CHECK(mc_sim_job_time(&c->t1));
    if (rc == MC_OK && c->bad)
        rc = mc_error(MC_ERR_INTERNAL, "received wrong data");
    return rc;
}

static const char *const loc_names[] = {"self", "tile", "chip",
                                        "other-chip"};
static const char *const scheme_names[] = {"rcce", "lp_rg", "rp_lg",
                                           "lp_lg"};

/* one line of the results: half round trip and throughput of size n */
static void print_size(const sim_opts_t *o, const mc_platform_t *p,
                       const pp_core_t *pc, int loc, size_t n, int first)
{
    int iters = o->iters > 0 ? o->iters : 1;
    double half = (double)(pc[0].t1 - pc[0].t0) / MC_PS_PER_US / 2 / iters;
    double mbps = half > 0 ? (double)n / half : 0;
    if (o->json)
        printf("{\"platform\":\"%s\",\"coll\":\"pingpong\",\"pair\":[%d,"
               "%d],\"locality\":\"%s\",\"scheme\":\"%s\",\"piped\":%d,"
               "\"bytes\":%zu,\"iters\":%d,\"warmup\":%d,"
               "\"half_rtt_us\":%.4f,\"MBps\":%.4f}\n",
               p->name, o->pair[0], o->pair[1], loc_names[loc],
               scheme_names[pc[0].scheme + 1], pc[0].piped, n, iters,
               o->warmup, half, mbps);
    else {
        if (first)
            printf("# pingpong, cores %d and %d (%s, scheme %s), %d "
                   "rounds after %d\n%-10s %14s %12s\n", o->pair[0],
                   o->pair[1], loc_names[loc], scheme_names[pc[0].scheme + 1],
                   iters, o->warmup, "bytes", "half_rtt_us", "MB/s");
        printf("%-10zu %14.3f %12.3f%s\n", n, half, mbps,
               pc[0].piped ? "  piped" : "");
    }
    fflush(stdout);
}

/* one size: 0, or 1 after saying what failed */
static int run_size(const sim_opts_t *o, const mc_platform_t *p, size_t n,
                    int first)
{
    const int *cores = o->pair;
    pp_core_t pc[2] = {{0}, {0}};
    int rc = MC_OK;
    for (int i = 0; i < 2; i++) {
        pc[i] = (pp_core_t){.o = o, .rank = i, .n = n,
                            .buf = malloc(n ? n : 1)};
        if (!pc[i].buf)
            rc = mc_error(MC_ERR_NOMEM, "pingpong %zu bytes: out of memory",
                          n);
    }
    mc_sim_job_t job;
    mc_sim_job_defaults(&job);
    job.plat = p;
    job.sim = (mc_sim_opts_t){o->cont_mpb, o->cont_link, o->cont_mc,
                              o->jitter, o->stack_size, 0, NULL, NULL, 0};
    job.ranks = 2;
    job.cores = cores;
    job.rank_fn = pp_rank;
    job.arg = pc;
    mc_sim_job_stats_t st;
    if (rc == MC_OK && (rc = mc_sim_job_run(&job, &st)) != MC_OK &&
        st.ran && st.nerrors)
        rc = mc_error(rc, "pingpong %zu bytes: rank %d %s", n,
                      st.errors[0].rank, st.errors[0].msg);
    if (rc == MC_OK) {
        int loc = mc_plat_remote(p, cores[0], cores[1]) ? MC_LOC_OTHER
                  : p->tile_x[cores[0]] == p->tile_x[cores[1]] &&
                          p->tile_y[cores[0]] == p->tile_y[cores[1]]
                      ? MC_LOC_TILE
                      : MC_LOC_CHIP;
        print_size(o, p, pc, loc, n, first);
    }
    for (int i = 0; i < 2; i++)
        free(pc[i].buf);
    if (rc != MC_OK)
        fprintf(stderr, "manycoll sim: %s\n", mc_last_error());
    return rc != MC_OK;
}

int mc_sim_run_pingpong(const sim_opts_t *o, const mc_platform_t *p)
{
    if (o->pair[0] == o->pair[1] || o->pair[0] >= p->ncores ||
        o->pair[1] >= p->ncores)
        return mc_usage_error("sim", "--pair %d,%d: two different cores of "
                                     "%s's %d", o->pair[0], o->pair[1],
                              p->name, p->ncores);
    for (int i = 0; i < 2; i++)
        if (p->failed && p->failed[o->pair[i]])
            return mc_usage_error("sim", "--pair: core %d is listed in %s's "
                                         "failed_cores", o->pair[i], p->name);
    int bad = 0;
    for (int i = 0; i < o->nsizes && !bad; i++)
        bad = run_size(o, p, o->sizes[i], i == 0);
    return bad;
}
