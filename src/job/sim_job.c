/*
 * A simulated job (sim_job.h): platform, engine, the communicators'
 * domain, a coroutine per rank that makes its communicator and runs the
 * job's function, the run, and what it returns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/api.h"
#include "job/sim_job.h"
#include "util/error.h"

/* a rank that failed: kept in a list (a million ranks keep nothing
 * unless they fail), sorted by rank at the end */
typedef struct failure {
    struct failure *next;
    int rank, status;
    char msg[256];
} failure_t;

typedef struct job_run {
    const mc_sim_job_t *job;
    mc_sim_t *sim;
    mc_sim_domain_t *dom;
    mc_ps_t *end;         /* [ranks] when each rank's function returned */
    failure_t *failures;
    int nfailed;
} job_run_t;

/* a rank's coroutine: its argument (the run, and which rank) */
typedef struct rank_arg {
    job_run_t *run;
    int rank;
} rank_arg_t;

int mc_sim_job_defaults(mc_sim_job_t *job)
{
    if (!job)
        return mc_error(MC_ERR_ARG, "mc_sim_job_defaults: argument 'job' "
                                    "is NULL");
    memset(job, 0, sizeof *job);
    job->sim.contention_mpb = job->sim.contention_link =
        job->sim.contention_mc = -1;
    return MC_OK;
}

int mc_sim_job_set(mc_sim_job_t *job, const mc_platform_t *plat,
                   const char *platform, int ranks, mc_sim_rank_fn fn,
                   void *arg)
{
    MC_CHECK(mc_sim_job_defaults(job));
    job->plat = plat;
    job->platform = platform;
    job->ranks = ranks;
    job->rank_fn = fn;
    job->arg = arg;
    return MC_OK;
}

/* the message of the failure is the one of this moment: the next core
 * to run may make errors of its own */
static void note_failure(job_run_t *r, int rank, int status)
{
    r->nfailed++;
    failure_t *f = malloc(sizeof *f);
    if (!f)
        return; /* counted, without its message */
    f->rank = rank;
    f->status = status;
    snprintf(f->msg, sizeof f->msg, "%s", mc_last_error());
    f->next = r->failures;
    r->failures = f;
}

static void rank_main(void *arg)
{
    rank_arg_t *a = arg;
    job_run_t *r = a->run;
    mc_comm_t *c = NULL;
    /* making the communicator is not the job's traffic */
    mc_sim_count_traffic(r->sim, 0);
    int rc = mc_sim_comm_create(r->sim, r->dom, a->rank, &c);
    if (rc == MC_OK) {
        mc_sim_count_traffic(r->sim, 1);
        rc = r->job->rank_fn(c, a->rank, r->job->arg);
        mc_sim_count_traffic(r->sim, 0);
    }
    r->end[a->rank] = mc_sim_now(r->sim);
    if (rc != MC_OK)
        note_failure(r, a->rank, rc);
    if (c)
        mc_comm_free(c);
}

static int check_job(const mc_sim_job_t *job, const mc_sim_job_stats_t *st)
{
    static const char fn[] = "mc_sim_job_run";
    if (!st)
        return mc_error(MC_ERR_ARG, "%s: argument 'st' is NULL", fn);
    if (!job)
        return mc_error(MC_ERR_ARG, "%s: argument 'job' is NULL", fn);
    if (!job->rank_fn)
        return mc_error(MC_ERR_ARG, "%s: job->rank_fn is NULL", fn);
    if (!job->plat && !job->platform)
        return mc_error(MC_ERR_ARG, "%s: job->platform is NULL (and no "
                                    "job->plat)", fn);
    if (job->ranks < 1 || job->ranks > MC_PLAT_MAX_CORES)
        return mc_error(MC_ERR_ARG, "%s: job->ranks is %d, must be in "
                                    "[1, %d]", fn, job->ranks,
                        MC_PLAT_MAX_CORES);
    if (job->want & ~(unsigned)(MC_SIM_JOB_RANK_TIMES | MC_SIM_JOB_TRACE |
                                MC_SIM_JOB_TRAFFIC))
        return mc_error(MC_ERR_ARG, "%s: job->want has unknown bits 0x%x",
                        fn, job->want);
    return MC_OK;
}

/* cores[r] of every rank (job->cores, or r), each a core of p, none
 * twice; *ncores = the cores to simulate (the highest used, plus one) */
static int place(const mc_sim_job_t *job, const mc_platform_t *p,
                 int *cores, int *ncores)
{
    int n = job->ranks;
    if (n > p->ncores)
        return mc_error(MC_ERR_ARG, "mc_sim_job_run: job->ranks is %d, "
                        "platform %s has %d cores", n, p->name, p->ncores);
    unsigned char *used = calloc((size_t)p->ncores, 1);
    if (!used)
        return mc_error(MC_ERR_NOMEM, "mc_sim_job_run: out of memory for "
                        "a map of %d cores", p->ncores);
    int rc = MC_OK;
    *ncores = 0;
    for (int r = 0; r < n && rc == MC_OK; r++) {
        int c = job->cores ? job->cores[r] : r;
        if (c < 0 || c >= p->ncores || used[c])
            rc = mc_error(MC_ERR_ARG, "mc_sim_job_run: job->cores[%d] is "
                          "%d: %s", r, c, c < 0 || c >= p->ncores
                                              ? "not a core of the platform"
                                              : "another rank's core");
        else
            used[c] = 1;
        cores[r] = c;
        *ncores = c >= *ncores ? c + 1 : *ncores;
    }
    free(used);
    return rc;
}

/* the failures, lowest ranks first, into st; the status to return */
static int report_failures(job_run_t *r, mc_sim_job_stats_t *st)
{
    st->failed = r->nfailed;
    for (int k = 0; k < MC_SIM_JOB_ERRORS; k++) {
        failure_t *best = NULL;
        int above = k ? st->errors[k - 1].rank : -1;
        for (failure_t *f = r->failures; f; f = f->next)
            if (f->rank > above && (!best || f->rank < best->rank))
                best = f;
        if (!best)
            break;
        st->errors[k].rank = best->rank;
        st->errors[k].status = best->status;
        memcpy(st->errors[k].msg, best->msg, sizeof best->msg);
        st->nerrors = k + 1;
    }
    if (!r->nfailed)
        return MC_OK;
    if (!st->nerrors)
        return mc_error(MC_ERR_NOMEM, "%d ranks failed (out of memory for "
                        "their messages)", r->nfailed);
    const mc_sim_job_error_t *e = &st->errors[0];
    if (r->nfailed == 1)
        return mc_error(e->status, "rank %d: %s", e->rank, e->msg);
    return mc_error(e->status, "rank %d: %s (%d ranks failed)", e->rank,
                    e->msg, r->nfailed);
}

/* the trace and the traffic by rank, copied out of the engine */
static int copy_out(job_run_t *r, const int *cores, mc_sim_job_stats_t *st)
{
    int n = r->job->ranks;
    if (r->job->want & MC_SIM_JOB_TRACE) {
        size_t nt;
        const mc_sim_trace_rec_t *t = mc_sim_trace(r->sim, &nt);
        st->trace = malloc((nt ? nt : 1) * sizeof *t);
        if (!st->trace)
            return mc_error(MC_ERR_NOMEM, "mc_sim_job_run: out of memory "
                            "for a trace of %zu records", nt);
        if (nt)
            memcpy(st->trace, t, nt * sizeof *t);
        st->ntrace = nt;
    }
    if (r->job->want & MC_SIM_JOB_TRAFFIC) {
        int nc;
        const uint64_t *t = mc_sim_traffic(r->sim, &nc);
        st->traffic = calloc((size_t)n * (size_t)n, sizeof *st->traffic);
        if (!st->traffic)
            return mc_error(MC_ERR_NOMEM, "mc_sim_job_run: out of memory "
                            "for a traffic matrix of %d ranks", n);
        for (int a = 0; t && a < n; a++)
            for (int b = 0; b < n; b++)
                st->traffic[(size_t)a * (size_t)n + (size_t)b] =
                    t[(size_t)cores[a] * (size_t)nc + (size_t)cores[b]];
    }
    return MC_OK;
}

/* the ranks' coroutines, the run and its results */
static int simulate(job_run_t *r, const int *cores, mc_sim_job_stats_t *st)
{
    int n = r->job->ranks;
    rank_arg_t *args = malloc(sizeof *args * (size_t)n);
    if (!args)
        return mc_error(MC_ERR_NOMEM, "mc_sim_job_run: out of memory for "
                        "%d ranks", n);
    int rc = MC_OK;
    for (int i = 0; i < n && rc == MC_OK; i++) {
        args[i] = (rank_arg_t){r, i};
        rc = mc_sim_spawn(r->sim, cores[i], rank_main, &args[i]);
    }
    int run_rc = rc == MC_OK ? mc_sim_run(r->sim) : rc;
    char why[256] = "";
    if (run_rc != MC_OK && run_rc != MC_ERR_TIMEOUT) /* before the ranks' */
        snprintf(why, sizeof why, "%s", mc_last_error());
    if (rc == MC_OK) {
        st->ran = 1;
        st->deadlocked = run_rc == MC_ERR_TIMEOUT;
        st->sim_status = run_rc != MC_ERR_TIMEOUT ? run_rc : MC_OK;
        mc_sim_get_stats(r->sim, &st->engine);
        for (int i = 0; i < n; i++)
            st->end_ps = r->end[i] > st->end_ps ? r->end[i] : st->end_ps;
        rc = copy_out(r, cores, st);
    }
    free(args);
    if (rc != MC_OK)
        return rc;
    /* the ranks' failures say where a deadlock left them; a simulator
     * that failed (out of memory) made them fail: its message first */
    rc = report_failures(r, st);
    if (run_rc != MC_OK && run_rc != MC_ERR_TIMEOUT)
        return mc_error(run_rc, "%s", why);
    return rc != MC_OK ? rc : run_rc;
}

static int run_on(const mc_sim_job_t *job, const mc_platform_t *p,
                  mc_sim_job_stats_t *st)
{
    int n = job->ranks, ncores = 0, rc;
    job_run_t r = {.job = job};
    int *cores = malloc(sizeof *cores * (size_t)n);
    r.end = calloc((size_t)n, sizeof *r.end);
    if (!cores || !r.end)
        rc = mc_error(MC_ERR_NOMEM, "mc_sim_job_run: out of memory for %d "
                      "ranks", n);
    else
        rc = place(job, p, cores, &ncores);
    mc_sim_opts_t o = job->sim;
    o.trace = (job->want & MC_SIM_JOB_TRACE) != 0;
    o.traffic = (job->want & MC_SIM_JOB_TRAFFIC) != 0;
    if (rc == MC_OK)
        rc = mc_sim_create(p, ncores, &o, &r.sim);
    if (rc == MC_OK)
        rc = mc_sim_tp_domain(r.sim, NULL, 0, cores, n, &r.dom);
    if (rc == MC_OK)
        rc = simulate(&r, cores, st);
    mc_sim_destroy(r.sim);
    if (st->ran && (job->want & MC_SIM_JOB_RANK_TIMES)) {
        st->rank_end_ps = r.end; /* the caller's now */
        r.end = NULL;
    }
    for (failure_t *f = r.failures, *nx; f; f = nx) {
        nx = f->next;
        free(f);
    }
    free(r.end);
    free(cores);
    return rc;
}

int mc_sim_job_run(const mc_sim_job_t *job, mc_sim_job_stats_t *st)
{
    MC_CHECK(check_job(job, st));
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    memset(st, 0, sizeof *st);
    st->ranks = job->ranks;
    mc_platform_t *own = NULL;
    const mc_platform_t *p = job->plat;
    if (!p) {
        MC_CHECK(mc_platform_load(job->platform, &own));
        p = own;
    }
    int rc = run_on(job, p, st);
    mc_platform_free(own);
    if (!st->ran)
        mc_sim_job_stats_free(st); /* nothing half-made goes back */
    clock_gettime(CLOCK_MONOTONIC, &t1);
    st->wall_s = (double)(t1.tv_sec - t0.tv_sec) +
                 (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    return rc;
}

int mc_sim_job_stats_free(mc_sim_job_stats_t *st)
{
    if (!st)
        return mc_error(MC_ERR_ARG, "mc_sim_job_stats_free: argument 'st' "
                                    "is NULL");
    free(st->rank_end_ps);
    free(st->trace);
    free(st->traffic);
    st->rank_end_ps = NULL;
    st->trace = NULL;
    st->traffic = NULL;
    st->ntrace = 0;
    return MC_OK;
}

/* the simulator of the calling rank, or an error naming fn */
static int self(const char *fn, mc_sim_t **s)
{
    *s = mc_sim_self();
    if (!*s || mc_sim_self_core() < 0)
        return mc_error(MC_ERR_ARG, "%s: not called by a simulated rank "
                        "(a job's rank function)", fn);
    return MC_OK;
}

int mc_sim_job_time(mc_ps_t *now)
{
    mc_sim_t *s;
    if (!now)
        return mc_error(MC_ERR_ARG, "mc_sim_job_time: argument 'now' is "
                                    "NULL");
    MC_CHECK(self("mc_sim_job_time", &s));
    *now = mc_sim_now(s);
    return MC_OK;
}

int mc_sim_job_busy(const char *name, mc_ps_t d)
{
    mc_sim_t *s;
    MC_CHECK(self("mc_sim_job_busy", &s));
    if (d < 0)
        return mc_error(MC_ERR_ARG, "mc_sim_job_busy: argument 'd' is "
                        "%lld ps, must be >= 0", (long long)d);
    return mc_sim_busy(s, name ? name : "busy", d);
}

int mc_sim_job_count_traffic(int on)
{
    mc_sim_t *s;
    MC_CHECK(self("mc_sim_job_count_traffic", &s));
    mc_sim_count_traffic(s, on);
    return MC_OK;
}
