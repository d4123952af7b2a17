/*
 * The replay's inside: the plan of communicators (comms.c), the job and
 * its per-site accumulators (run.c, p2p.c, report.c).
 */
#ifndef MC_REPLAY_RUN_INT_H
#define MC_REPLAY_RUN_INT_H

#include "api/api.h"
#include "api/comm.h"
#include "replay/replay.h"

enum { MC_RP_CHIP = 1, MC_RP_BLOCK, MC_RP_STRIDE };

typedef struct mc_rp_fam {
    int *comms, n;  /* the trace's communicators in this family */
    int covered;    /* ranks in them */
    int rule, g;    /* above the recorded size: MC_RP_*, block or stride */
    int *pos;       /* [recorded rank] its place in its communicator of
                       the family, -1 (v-counts' lookup) */
} mc_rp_fam_t;

typedef struct mc_rp_plan {
    int N, P;           /* simulated, recorded ranks */
    mc_rp_fam_t *fam;
    int nfam;
    int *fam_of;        /* [comm] its family, -1: the world */
    int L, R0, R, mid;  /* rows (templates) */
    const mc_platform_t *plat;
    const int *cores;
    /* a node split above the recorded size (chips.c): the ranks chip by
     * chip, chip c's at chip_list[chip_first[c] .. chip_first[c + 1]) */
    int nchips, *chip_first, *chip_list;
} mc_rp_plan_t;

int mc_rp_plan(const mc_rp_trace_t *t, int N, const mc_platform_t *plat,
               const int *cores, mc_rp_plan_t *pl);
void mc_rp_plan_free(mc_rp_plan_t *pl);
int mc_rp_template(const mc_rp_plan_t *pl, int r);
/* chips.c: the index of the ranks by chip (mc_rp_plan makes it where a
 * family is a node split above the recorded size); the i-th rank of a
 * chip (-1: none), and how many of a chip's ranks are below rank q */
int mc_rp_chips(mc_rp_plan_t *pl);
void mc_rp_chips_free(mc_rp_plan_t *pl);
int mc_rp_chip_member(const mc_rp_plan_t *pl, int chip, int i);
int mc_rp_chip_below(const mc_rp_plan_t *pl, int chip, int q);
void mc_rp_split_of(const mc_rp_trace_t *t, const mc_rp_plan_t *pl, int f,
                    int r, int *color, int *key);
int mc_rp_member(const mc_rp_trace_t *t, const mc_rp_plan_t *pl, int f,
                 int r, int i);
int mc_rp_peer(const mc_rp_trace_t *t, const mc_rp_plan_t *pl, int ci,
               int r, int peer, int *out);

/* a site's sums over the ranks (report.c divides by nranks) */
typedef struct mc_rp_acc {
    uint64_t calls, bytes, nranks;
    double sim_ps, rec_ns;
    char ran[160];      /* what ran, at the site's first call */
} mc_rp_acc_t;

typedef struct mc_rp_job {
    const mc_rp_trace_t *t;
    const mc_rp_opts_t *o;
    mc_rp_plan_t pl;
    int32_t **site;     /* [recorded rank][record] site, -1 */
    uint64_t **bytes;   /* [recorded rank][record] its call's bytes (a
                           WAIT: its batch's) */
    int nsites;
    mc_rp_acc_t *acc;   /* [nsites] */
    const char **force; /* [nsites] --best: the algorithm tried, or NULL */
    char *sbuf, *rbuf;  /* shared by the ranks (contents do not matter) */
    size_t buflen;
    double comm_ps, compute_ps, unrepl_ns; /* sums over ranks */
} mc_rp_job_t;

/* sites.c: the sites of the streams (into r->sites, j->site, j->bytes) */
int mc_rp_sites(mc_rp_job_t *j, mc_rp_result_t *r);
/* p2p.c: the requests completed at the WAIT record w of rank r
 * (template tr), on the two-sided layer */
int mc_rp_batch(mc_rp_job_t *j, mc_comm_t *const *fc, mc_comm_t *world,
                int r, int tr, size_t w, size_t *pend, int *npend);
/* run.c: the rank function of the job (arg: the mc_rp_job_t) */
int mc_rp_rank_fn(mc_comm_t *world, int r, void *arg);
/* run.c: rank r's communicator for the trace's communicator ci */
mc_comm_t *mc_rp_comm(const mc_rp_job_t *j, mc_comm_t *const *fc,
                      mc_comm_t *world, int ci);

#endif
