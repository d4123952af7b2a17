/*
 * manycoll sim: run a collective on a simulated chip.
 *
 *   manycoll sim --platform P --coll C [--algo A[:k=v,...]] [--sizes LIST]
 *                [--ranks N] [--root R] [--check] [--json] [--trace FILE]
 *                [--jitter SEED] [--contention all|none|mpb,link,mc]
 *                [--dtype T] [--op O]
 *
 * Each size is a fresh simulation in which every core calls the collective
 * at time 0. Reported: latency (first call to last return, us), throughput
 * (bytes / latency, MB/s = bytes/us), and the spread of per-core return
 * times (min, max, stdev). With --warmup W --iters N every core makes
 * W + N calls back to back (no barrier between them, so ranks may drift
 * apart as on a real chip, and caches warm up); the figures above are then
 * those of the N measured calls divided by N, and rank0_avg_us is rank
 * 0's average per measured call, iter_mean_us and iter_var_us2 the mean
 * and variance of its single calls. With --check every core verifies its result
 * against the scalar reference; without it the cores share their buffers,
 * so 4096 cores do not need 4096 copies of a large message. With
 * --compute US every call is the non-blocking one: start, US simulated
 * microseconds of computation, wait (the overlap it allows: docs/guide).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <unistd.h>

#include "api/api.h"
#include "oracle/check.h"
#include "oracle/hier_case.h"
#include "job/sim_job.h"
#include "select/select.h"
#include "sim/grid.h"
#include "sim_cmd.h"
#include "tools.h"

/* what a rank measures (its failures are the job's: mc_sim_job_run) */
typedef struct core_job {
    mc_arrivals_t arr; /* --check of a barrier */
    mc_ps_t start, end;
} core_job_t;

typedef struct sim_job {
    double *r0_call;     /* rank 0: each measured call, us */
    int n;               /* ranks */
    const sim_opts_t *o;
    mc_case_t k;
    mc_case_bufs_t shared;
    /* rank 0's communicator: the algorithm asked for, the one that runs
     * and why (mc_comm_explain) */
    char algo[160], ran[160], why[400];
    core_job_t *cores;
    mc_arrival_slot_t *slots; /* the barrier's arrival record */
    int *node_of, *local_of;  /* --hier: chip and index on it per rank */
} sim_job_t;

/* virtual time of the calling rank (ps) */
static mc_ps_t sim_now(void)
{
    mc_ps_t t = 0;
    (void)mc_sim_job_time(&t); /* on a simulated rank: cannot fail */
    return t;
}

/* ... for the barrier's arrival record */
static int64_t sim_clock(void)
{
    return (int64_t)sim_now();
}

/* --compute: the non-blocking call, a computation of `us` simulated
 * microseconds, its wait */
static int nb_call(mc_comm_t *c, const mc_case_t *k, mc_case_bufs_t *b,
                   double us)
{
    mc_case_t kn = *k;
    kn.form = MC_FORM_NONBLOCKING;
    mc_request_t *req = NULL;
    if (b->arrivals)
        mc_arrivals_enter(b->arrivals);
    int rc = mc_case_call(c, &kn, b, &req);
    if (rc == MC_OK && us > 0)
        rc = mc_sim_job_busy("compute", (mc_ps_t)(us * MC_PS_PER_US));
    if (rc == MC_OK)
        rc = mc_wait(req);
    if (b->arrivals)
        mc_arrivals_exit(b->arrivals);
    return rc;
}

/* --hier: the hierarchy of chips (src/oracle/hier_case.c); *hp = h if the
 * collective runs hierarchically here, NULL for the flat one. Rank 0 says
 * which in the algorithm column. */
static int hier_open(sim_job_t *j, int rank, mc_comm_t *c, mc_hier_t *h,
                     mc_hier_t **hp)
{
    MC_CHECK(mc_hier_case_setup(c, j->node_of, j->local_of, h));
    if (j->o->hier_ml >= 0)
        h->par.ml_min_bytes = (size_t)j->o->hier_ml;
    int on = mc_hier_supports(h, (mc_coll_t)j->k.coll, 1);
    *hp = on ? h : NULL;
    if (rank == 0) {
        char in[128] = "", out[128] = "";
        size_t bytes = j->k.count * mc_dtype_size(j->k.dt);
        mc_comm_describe(h->node, j->k.coll, bytes, mc_case_op(&j->k), in,
                         sizeof in);
        if (h->peers)
            mc_comm_describe(h->peers, j->k.coll, bytes, mc_case_op(&j->k),
                             out, sizeof out);
        char flat[sizeof j->algo];
        memcpy(flat, j->algo, sizeof flat);
        int ml = (j->k.coll == MC_COLL_ALLREDUCE ||
                  j->k.coll == MC_COLL_REDUCE) &&
                 h->uniform && h->ppn > 1 && j->k.count >= (size_t)h->ppn &&
                 bytes >= h->par.ml_min_bytes;
        if (on) {
            snprintf(j->algo, sizeof j->algo, "hier:%dx%d%s (chip %s; %s %s)",
                     h->nnodes, h->ppn, h->uniform ? "" : "(uneven)", in,
                     ml ? "slices" : "leaders", out);
            snprintf(j->ran, sizeof j->ran, "%s", j->algo);
            snprintf(j->why, sizeof j->why, "--hier: in each chip, then "
                     "between the chips");
        } else
            snprintf(j->algo, sizeof j->algo, "%s (flat: no hierarchical "
                     "%s)", flat, mc_coll_name(j->k.coll));
    }
    return MC_OK;
}

/* rank 0: what the call asks for, runs and why; after the calls (last),
 * corrected if the algorithm declined the last one */
static void explain(sim_job_t *j, const mc_comm_t *c, int last)
{
    mc_explain_t x;
    mc_comm_explain(c, j->k.coll, j->k.count * mc_dtype_size(j->k.dt),
                    mc_case_op(&j->k), &x);
    if (last)
        mc_comm_explain_last(c, &x);
    snprintf(j->algo, sizeof j->algo, "%s", x.asked);
    snprintf(j->ran, sizeof j->ran, "%s", x.ran);
    snprintf(j->why, sizeof j->why, "%s", x.why);
}

/* the measured calls of one rank: --warmup W, then --iters N */
static int calls(sim_job_t *j, int rank, mc_comm_t *c, mc_hier_t *hp,
                 mc_case_bufs_t *b)
{
    core_job_t *cj = &j->cores[rank];
    int n = j->o->warmup + (j->o->iters > 0 ? j->o->iters : 1), rc = MC_OK;
    for (int i = 0; i < n && rc == MC_OK; i++) {
        mc_ps_t t0 = sim_now();
        if (i == j->o->warmup) {
            cj->start = t0;
            mc_sim_job_count_traffic(1);
        }
        rc = hp          ? mc_hier_case_run(hp, &j->k, b)
             : j->o->nb ? nb_call(c, &j->k, b, j->o->compute_us)
                        : mc_case_run(c, &j->k, b);
        if (rank == 0 && i >= j->o->warmup)
            j->r0_call[i - j->o->warmup] =
                (double)(sim_now() - t0) / MC_PS_PER_US;
    }
    cj->end = sim_now();
    return rc;
}

/* a rank of the job (mc_sim_job_run): the collective, checked with
 * --check */
static int rank_main(mc_comm_t *c, int rank, void *arg)
{
    sim_job_t *j = arg;
    int n = j->n;
    mc_sim_job_count_traffic(0); /* --traffic: the measured calls */
    if (j->o->algo)
        MC_CHECK(mc_comm_set_algo(c, mc_coll_name(j->k.coll), j->o->algo));
    if (rank == 0)
        explain(j, c, 0);
    mc_case_bufs_t own, *b = &j->shared;
    if (j->o->check) {
        b = &own;
        if (mc_case_alloc(&j->k, rank, n, b) != MC_OK)
            return mc_error(MC_ERR_NOMEM, "out of memory");
        mc_case_fill(&j->k, rank, n, b);
        /* no pause before the barrier: it would change the timings */
        mc_arrivals_view(j->slots, rank, n, 0, sim_clock, NULL,
                         &j->cores[rank].arr);
        b->arrivals = &j->cores[rank].arr;
    }
    mc_hier_t h, *hp = NULL;
    int rc = j->o->hier ? hier_open(j, rank, c, &h, &hp) : MC_OK;
    if (rc == MC_OK)
        rc = calls(j, rank, c, hp, b);
    if (rc == MC_OK && rank == 0 && !hp) /* the last call declined? */
        explain(j, c, 1);
    char why[512];
    if (rc == MC_OK && j->o->check &&
        mc_case_verify(&j->k, rank, n, b, why, sizeof why))
        rc = mc_error(MC_ERR_INTERNAL, "%s", why);
    if (j->o->check)
        mc_case_free(b);
    if (j->o->hier)
        mc_hier_case_free(&h);
    return rc;
}

/* statistics of one size; returns 0 if every core succeeded */
static int summarize(const sim_opts_t *o, sim_job_t *j,
                     const mc_sim_job_stats_t *st, size_t bytes,
                     sim_result_t *r)
{
    int n = j->n;
    double lo = 1e300, hi = 0, sum = 0, sq = 0;
    mc_ps_t first = j->cores[0].start;
    size_t used = 0;
    r->fail[0] = 0;
    for (int i = 0; i < st->nerrors && used < sizeof r->fail; i++)
        /* the first few, in rank order */
        used += (size_t)snprintf(r->fail + used, sizeof r->fail - used,
                                 "%srank %d: %s", i ? "\n" : "",
                                 st->errors[i].rank, st->errors[i].msg);
    for (int i = 0; i < n; i++)
        if (j->cores[i].start < first)
            first = j->cores[i].start;
    for (int i = 0; i < n; i++) {
        double t = (double)(j->cores[i].end - first) / MC_PS_PER_US;
        lo = t < lo ? t : lo;
        hi = t > hi ? t : hi;
        sum += t;
        sq += t * t;
    }
    double mean = sum / n, per = o->iters > 1 ? o->iters : 1;
    lo /= per, hi /= per, mean /= per, sq /= per * per;
    r->rank0_avg_us = (double)(j->cores[0].end - j->cores[0].start) /
                      MC_PS_PER_US / per;
    double m = 0, v = 0;
    for (int i = 0; i < (int)per; i++)
        m += j->r0_call[i] / per;
    for (int i = 0; i < (int)per; i++)
        v += (j->r0_call[i] - m) * (j->r0_call[i] - m);
    r->iter_mean_us = m;
    r->iter_var_us2 = per > 1 ? v / (per - 1) : 0;
    r->bytes = bytes;
    r->lat_us = hi;
    r->bw_MBps = hi > 0 ? (double)bytes / hi : 0;
    r->done_min_us = lo;
    r->done_max_us = hi;
    r->done_stdev_us = sqrt(fmax(0, sq / n - mean * mean));
    r->st = st->engine;
    snprintf(r->algo, sizeof r->algo, "%s", j->algo);
    snprintf(r->ran, sizeof r->ran, "%s", j->ran);
    snprintf(r->why, sizeof r->why, "%s", j->why);
    return st->failed;
}

/* stderr, from the simulator every 2^20 events: after 3 s of wall time,
 * at most every 2 s */
typedef struct sim_progress {
    struct timespec start;
    double last;
} sim_progress_t;

static void on_progress(void *arg, uint64_t events, double sim_us)
{
    sim_progress_t *pr = arg;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    double s = (double)(t.tv_sec - pr->start.tv_sec) +
               (double)(t.tv_nsec - pr->start.tv_nsec) * 1e-9;
    if (s < 3 || s - pr->last < 2)
        return;
    pr->last = s;
    fprintf(stderr, "manycoll sim: %.0f s: %.1fM events, %.3f us simulated\n",
            s, (double)events * 1e-6, sim_us);
}

/* --hier: node = chip, numbered in the order of the ranks' first cores;
 * local index = the rank's place among its chip's ranks */
static int chips_of(const mc_platform_t *p, const int *cores, int n,
                    sim_job_t *j)
{
    int nch = p->host.nchips > 1 ? p->host.nchips : 1;
    j->node_of = malloc(sizeof(int) * (2 * (size_t)n + 2 * (size_t)nch));
    if (!j->node_of)
        return mc_error(MC_ERR_NOMEM, "out of memory for %d cores", n);
    j->local_of = j->node_of + n;
    int *id = j->local_of + n, *cnt = id + nch, nodes = 0;
    for (int c = 0; c < nch; c++)
        id[c] = -1, cnt[c] = 0;
    for (int r = 0; r < n; r++) {
        int chip = mc_plat_chip(p, cores[r]);
        if (id[chip] < 0)
            id[chip] = nodes++;
        j->node_of[r] = id[chip];
        j->local_of[r] = cnt[chip]++;
    }
    return MC_OK;
}

/* rank i on cores[i] (--map, src/plat/map.c; --grid; else core i) */
static void rank_cores(const sim_opts_t *o, const mc_platform_t *p,
                       int *cores)
{
    for (int i = 0; i < o->ranks; i++)
        cores[i] = o->cores ? o->cores[i] : i;
    if (o->grid) {
        mc_plat_grid_t g = o->g;
        mc_plat_grid_cores(p, &g, "--grid", cores); /* checked: sim_main.c */
    }
}

/* the per-size state of a job: rank placement, buffers, per-rank
 * records; MC_OK or an error (freed by job_free either way) */
static int job_init(const sim_opts_t *o, const mc_platform_t *p,
                    size_t bytes, sim_job_t *j, int **cores)
{
    int n = o->ranks;
    *j = (sim_job_t){.o = o, .n = n, .k = o->k};
    size_t d = mc_dtype_size(j->k.dt);
    j->k.count = j->k.coll == MC_COLL_BARRIER ? 0 : (bytes + d - 1) / d;
    *cores = malloc(sizeof(int) * (size_t)p->ncores);
    j->cores = calloc((size_t)n, sizeof(core_job_t));
    j->slots = calloc((size_t)n, sizeof *j->slots);
    j->r0_call = calloc((size_t)(o->iters > 1 ? o->iters : 1),
                        sizeof(double));
    if (!*cores || !j->cores || !j->slots || !j->r0_call)
        return mc_error(MC_ERR_NOMEM, "out of memory for %d cores", n);
    rank_cores(o, p, *cores);
    if (o->hier)
        MC_CHECK(chips_of(p, *cores, n, j));
    double need = (double)mc_case_bytes(&j->k, n) * (o->check ? n : 1);
    double have = (double)sysconf(_SC_PHYS_PAGES) *
                  (double)sysconf(_SC_PAGESIZE);
    if (have > 0 && need > have)
        return mc_error(MC_ERR_NOMEM, "%zu bytes: the buffers need %.1f GiB, "
                        "the machine has %.1f GiB", bytes, need / (1 << 30),
                        have / (1 << 30));
    if (o->check)
        return MC_OK;
    int rc = mc_case_alloc(&j->k, 0, n, &j->shared);
    if (rc != MC_OK)
        return mc_error(rc, "%zu bytes: out of memory for the buffers (%zu "
                        "bytes)", bytes, mc_case_bytes(&j->k, n));
    mc_case_fill(&j->k, j->k.root, n, &j->shared);
    return MC_OK;
}

static void job_free(sim_job_t *j, int *cores)
{
    if (!j->o->check && j->shared.sbuf)
        mc_case_free(&j->shared);
    free(cores);
    free(j->cores);
    free(j->slots);
    free(j->r0_call);
    free(j->node_of);
}

/* --traffic and --trace of the first size (trace_file "": --traffic
 * only) */
static int write_outputs(const sim_opts_t *o, const mc_platform_t *p,
                         const int *cores, const mc_sim_job_stats_t *st,
                         const sim_result_t *r, const char *trace_file)
{
    int rc = MC_OK;
    if (st->traffic &&
        mc_sim_write_traffic(st->traffic, p, cores, o->ranks, r,
                             mc_coll_name(o->k.coll), o->traffic) != 0)
        rc = mc_error(MC_ERR_SYS, "cannot write the traffic matrix to %s",
                      o->traffic);
    if (trace_file && *trace_file &&
        mc_sim_write_trace(p, st->trace, st->ntrace, trace_file) != 0)
        rc = mc_error(MC_ERR_SYS, "cannot write the trace to %s",
                      trace_file);
    return rc;
}

int mc_sim_run_size(const sim_opts_t *o, const mc_platform_t *p,
                    size_t bytes, sim_result_t *r, const char *trace_file)
{
    sim_job_t j;
    int *cores = NULL;
    int rc = job_init(o, p, bytes, &j, &cores);
    if (rc != MC_OK) {
        job_free(&j, cores);
        return rc;
    }
    sim_progress_t pr = {.last = 0};
    clock_gettime(CLOCK_MONOTONIC, &pr.start);
    mc_sim_job_t job;
    mc_sim_job_defaults(&job);
    job.plat = p;
    job.sim = (mc_sim_opts_t){o->cont_mpb, o->cont_link, o->cont_mc,
                              o->jitter, o->stack_size, 0,
                              o->quiet ? NULL : on_progress, &pr, 0};
    job.ranks = o->ranks;
    job.cores = cores;
    job.rank_fn = rank_main;
    job.arg = &j;
    /* trace_file: the first size ("" when only --traffic is wanted) */
    job.want = (trace_file && *trace_file ? MC_SIM_JOB_TRACE : 0) |
               (trace_file && o->traffic ? MC_SIM_JOB_TRAFFIC : 0);
    mc_sim_job_stats_t st;
    rc = mc_sim_job_run(&job, &st);
    if (st.ran && !st.sim_status) { /* failed ranks show in the results */
        rc = summarize(o, &j, &st, j.k.count * mc_dtype_size(j.k.dt), r)
                 ? MC_ERR_INTERNAL
                 : MC_OK;
        if (rc == MC_OK &&
            r->done_max_us * MC_PS_PER_US >= (double)MC_PS_LIMIT)
            rc = mc_error(MC_ERR_ARG, "%zu bytes: the simulated time reached "
                          "its limit (2^61 ps): the platform's costs times "
                          "the message size are too large to simulate",
                          bytes);
        int wrc = write_outputs(o, p, cores, &st, r, trace_file);
        rc = wrc != MC_OK ? wrc : rc;
    }
    mc_sim_job_stats_free(&st);
    job_free(&j, cores);
    return rc;
}
