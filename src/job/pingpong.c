/*
 * The ping-pong between two simulated cores (pingpong.h).
 */
#include <stdlib.h>
#include <string.h>

#include "api/comm.h"
#include "coll/p2p.h"
#include "job/pingpong.h"
#include "util/error.h"

/* one core of the ping-pong */
typedef struct pp_core {
    const mc_pingpong_t *pp;
    int rank, bad;
    int scheme; /* between chips: MC_P2P_*; -1 on one chip (RCCE's) */
    int piped;  /* iRCCE's pipelining on for this size */
    size_t n;
    mc_ps_t t0, t1;
    unsigned char *buf;
} pp_core_t;

/* the byte at i of round `round`'s message */
static unsigned char pattern(int round, size_t i)
{
    return (unsigned char)(round * 131 + i * 7 + 1);
}

/* round `round`'s message */
static void fill(unsigned char *b, size_t n, int round)
{
    for (size_t i = 0; i < n; i++)
        b[i] = pattern(round, i);
}

/* whether b holds round `round`'s message */
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
    int rounds = c->pp->warmup + (c->pp->iters > 0 ? c->pp->iters : 1);
    int rc = MC_OK;
    for (int i = 0; i < rounds && rc == MC_OK; i++) {
        if (i == c->pp->warmup)
            MC_CHECK(mc_sim_job_time(&c->t0));
        rc = round_trip(&comm->team, c, i);
    }
    MC_CHECK(mc_sim_job_time(&c->t1));
    if (rc == MC_OK && c->bad)
        rc = mc_error(MC_ERR_INTERNAL, "received wrong data");
    return rc;
}

/* how close core b is to core a on p (MC_LOC_*) */
static int locality(const mc_platform_t *p, int a, int b)
{
    if (mc_plat_remote(p, a, b))
        return MC_LOC_OTHER;
    return p->tile_x[a] == p->tile_x[b] && p->tile_y[a] == p->tile_y[b]
               ? MC_LOC_TILE
               : MC_LOC_CHIP;
}

/* the job of the two cores pc: MC_OK, or its first rank's error */
static int run_job(const mc_pingpong_t *pp, pp_core_t *pc)
{
    mc_sim_job_t job;
    mc_sim_job_defaults(&job);
    job.plat = pp->plat;
    job.sim = pp->sim;
    job.ranks = 2;
    job.cores = pp->cores;
    job.rank_fn = pp_rank;
    job.arg = pc;
    mc_sim_job_stats_t st;
    int rc = mc_sim_job_run(&job, &st);
    if (rc != MC_OK && st.ran && st.nerrors)
        rc = mc_error(rc, "pingpong %zu bytes: rank %d %s", pp->bytes,
                      st.errors[0].rank, st.errors[0].msg);
    return rc;
}

int mc_sim_pingpong(const mc_pingpong_t *pp, mc_pingpong_result_t *r)
{
    size_t n = pp->bytes;
    pp_core_t pc[2] = {{0}, {0}};
    int rc = MC_OK;
    for (int i = 0; i < 2; i++) {
        pc[i] = (pp_core_t){.pp = pp, .rank = i, .n = n,
                            .buf = malloc(n ? n : 1)};
        if (!pc[i].buf)
            rc = mc_error(MC_ERR_NOMEM, "pingpong %zu bytes: out of memory",
                          n);
    }
    if (rc == MC_OK)
        rc = run_job(pp, pc);
    if (rc == MC_OK) {
        int iters = pp->iters > 0 ? pp->iters : 1;
        double half = (double)(pc[0].t1 - pc[0].t0) / MC_PS_PER_US / 2 /
                      iters;
        *r = (mc_pingpong_result_t){
            .half_rtt_us = half, .mbps = half > 0 ? (double)n / half : 0,
            .locality = locality(pp->plat, pp->cores[0], pp->cores[1]),
            .scheme = pc[0].scheme, .piped = pc[0].piped};
    }
    for (int i = 0; i < 2; i++)
        free(pc[i].buf);
    return rc;
}
