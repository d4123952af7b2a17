/*
 * The simulator as a library call (src/job/sim_job.h):
 *
 *   test_sim_job api   a job reports its statistics (events, each rank's
 *                      end, the trace, the traffic by rank); bad
 *                      arguments, an unknown platform and a core twice
 *                      fail before anything runs, naming what; a rank
 *                      function that fails makes the job fail with that
 *                      rank's status and message, the others' results
 *                      kept
 *   test_sim_job oom   the one out-of-memory policy: a simulation whose
 *                      model needs more memory than there is fails with
 *                      MC_ERR_NOMEM and a message naming what and how
 *                      much -- no abort, and no run that goes on with a
 *                      different model (the caches off). In a child
 *                      process whose address space is limited
 *                      (RLIMIT_AS): a platform whose L2 tags take 256 MiB
 *                      per core; then a sweep of limits over a
 *                      16,384-core barrier (sparse flag words, event
 *                      queue, calendars), each either running or failing
 *                      cleanly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "job/sim_job.h"
#include "util/error.h"

#include "check.h"

/* ---- api ---- */

typedef struct bcast_arg {
    int fail_rank;   /* this rank's function fails (-1: none) */
    int *ran;        /* [ranks] each rank's function ran */
} bcast_arg_t;

static int bcast_rank(mc_comm_t *c, int rank, void *arg)
{
    bcast_arg_t *a = arg;
    double x[512] = {0};
    a->ran[rank] = 1;
    if (rank == 0)
        x[511] = 42;
    int rc = mc_bcast(c, x, 512, MC_FLOAT64, 0);
    if (rc == MC_OK && x[511] != 42)
        rc = mc_error(MC_ERR_INTERNAL, "rank %d received %g", rank, x[511]);
    if (rc == MC_OK && rank == a->fail_rank) /* after the collective */
        rc = mc_error(MC_ERR_ARG, "rank %d refuses on purpose", rank);
    return rc;
}

static int run_bcast(const char *platform, int ranks, const int *cores,
                     int fail_rank, unsigned want, mc_sim_job_stats_t *st)
{
    static int ran[64];
    memset(ran, 0, sizeof ran);
    bcast_arg_t a = {fail_rank, ran};
    mc_sim_job_t job;
    mc_sim_job_set(&job, NULL, platform, ranks, bcast_rank, &a);
    job.cores = cores;
    job.want = want;
    return mc_sim_job_run(&job, st);
}

static void stats(void)
{
    mc_sim_job_stats_t st;
    unsigned all = MC_SIM_JOB_RANK_TIMES | MC_SIM_JOB_TRACE |
                   MC_SIM_JOB_TRAFFIC;
    int rc = run_bcast("scc48", 13, NULL, -1, all, &st);
    CHECK(rc == MC_OK, "a 13-rank bcast: %s", mc_last_error());
    CHECK(st.ran && st.ranks == 13 && st.failed == 0 && !st.deadlocked,
          "ran %d, ranks %d, failed %d", st.ran, st.ranks, st.failed);
    CHECK(st.engine.events > 0 && st.engine.ops > 0 && st.engine.lines > 0,
          "engine counters: %llu events, %llu ops",
          (unsigned long long)st.engine.events,
          (unsigned long long)st.engine.ops);
    CHECK(st.engine.wall_s > 0 && st.wall_s >= st.engine.wall_s,
          "wall times %g, engine %g", st.wall_s, st.engine.wall_s);
    mc_ps_t last = 0;
    for (int r = 0; st.rank_end_ps && r < 13; r++) {
        CHECK(st.rank_end_ps[r] > 0, "rank %d ended at %lld", r,
              (long long)st.rank_end_ps[r]);
        last = st.rank_end_ps[r] > last ? st.rank_end_ps[r] : last;
    }
    CHECK(st.rank_end_ps && st.end_ps == last, "end %lld, latest %lld",
          (long long)st.end_ps, (long long)last);
    CHECK(st.trace && st.ntrace > 0, "no trace");
    uint64_t root_out = 0;
    for (int r = 0; st.traffic && r < 13; r++)
        root_out += st.traffic[r]; /* row 0: from rank 0 */
    CHECK(st.traffic && root_out >= 4096, "rank 0 moved %llu bytes out",
          (unsigned long long)root_out);
    mc_sim_job_stats_free(&st);
    CHECK(!st.rank_end_ps && !st.trace && !st.traffic, "not freed");
    /* nothing asked for, nothing allocated; the same simulated time */
    rc = run_bcast("scc48", 13, NULL, -1, 0, &st);
    CHECK(rc == MC_OK && !st.rank_end_ps && !st.trace && !st.traffic &&
              st.end_ps == last,
          "without extras: rc %d, end %lld", rc, (long long)st.end_ps);
}

/* rc is MC_ERR_ARG (or want) and the message has `text` */
static void refused(int rc, int want, const mc_sim_job_stats_t *st,
                    const char *text)
{
    CHECK(rc == want && !st->ran && strstr(mc_last_error(), text),
          "want %d naming '%s': rc %d, ran %d, '%s'", want, text, rc,
          st->ran, mc_last_error());
}

static void refusals(void)
{
    mc_sim_job_stats_t st;
    mc_sim_job_t job;
    mc_sim_job_defaults(&job);
    CHECK(mc_sim_job_run(NULL, &st) == MC_ERR_ARG &&
              strstr(mc_last_error(), "'job'"), "NULL job: %s",
          mc_last_error());
    job.platform = "scc48";
    job.ranks = 4;
    CHECK(mc_sim_job_run(&job, &st) == MC_ERR_ARG &&
              strstr(mc_last_error(), "rank_fn"), "no rank_fn: %s",
          mc_last_error());
    CHECK(mc_sim_job_run(&job, NULL) == MC_ERR_ARG &&
              strstr(mc_last_error(), "'st'"), "NULL st: %s",
          mc_last_error());
    int rc = run_bcast("no-such-chip", 4, NULL, -1, 0, &st);
    CHECK(rc != MC_OK && !st.ran && strstr(mc_last_error(), "no-such-chip"),
          "unknown platform: rc %d, '%s'", rc, mc_last_error());
    refused(run_bcast("scc48", 0, NULL, -1, 0, &st), MC_ERR_ARG, &st,
            "job->ranks is 0");
    refused(run_bcast("scc48", 49, NULL, -1, 0, &st), MC_ERR_ARG, &st,
            "has 48 cores");
    int twice[3] = {5, 7, 5}, outside[2] = {0, 48};
    refused(run_bcast("scc48", 3, twice, -1, 0, &st), MC_ERR_ARG, &st,
            "job->cores[2] is 5");
    refused(run_bcast("scc48", 2, outside, -1, 0, &st), MC_ERR_ARG, &st,
            "job->cores[1] is 48");
}

/* a failing rank: its status and message, every rank ran, stats kept */
static void rank_failure(void)
{
    mc_sim_job_stats_t st;
    int cores[6] = {47, 3, 12, 30, 0, 21};
    int rc = run_bcast("scc48", 6, cores, 4, MC_SIM_JOB_RANK_TIMES, &st);
    CHECK(rc == MC_ERR_ARG, "rc %d, want MC_ERR_ARG", rc);
    CHECK(strstr(mc_last_error(), "rank 4: rank 4 refuses on purpose"),
          "message: '%s'", mc_last_error());
    CHECK(st.ran && st.failed == 1 && st.nerrors == 1 &&
              st.errors[0].rank == 4 && st.errors[0].status == MC_ERR_ARG &&
              strstr(st.errors[0].msg, "refuses on purpose"),
          "failures: %d, first rank %d", st.failed, st.errors[0].rank);
    CHECK(st.engine.events > 0 && st.rank_end_ps && st.rank_end_ps[5] > 0,
          "statistics of a job with a failed rank");
    mc_sim_job_stats_free(&st);
}

/* ---- oom ---- */

/* runs fn in a child whose address space is limited to `extra` bytes
 * above what it has; the child's exit status (a signal: 128 + it) */
static int in_child(int (*fn)(void *), void *arg, size_t extra)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        long pages = 0;
        FILE *f = fopen("/proc/self/statm", "r");
        if (!f || fscanf(f, "%ld", &pages) != 1)
            _exit(90);
        fclose(f);
        size_t now = (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
        struct rlimit lim = {now + extra, now + extra};
        if (setrlimit(RLIMIT_AS, &lim) != 0)
            _exit(91);
        _exit(fn(arg));
    }
    int status;
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return 92;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int barrier_rank(mc_comm_t *c, int rank, void *arg)
{
    (void)rank, (void)arg;
    return mc_barrier(c);
}

static int bcast_any(mc_comm_t *c, int rank, void *arg)
{
    (void)arg;
    double x[64] = {(double)rank};
    return mc_bcast(c, x, 64, MC_FLOAT64, 0);
}

/* exit 0: ran; 1: MC_ERR_NOMEM naming what ("out of memory for" and a
 * size in bytes); 2: anything else (said on stderr) */
static int job_outcome(const char *platform, int ranks, mc_sim_rank_fn fn)
{
    mc_sim_job_t job;
    mc_sim_job_set(&job, NULL, platform, ranks, fn, NULL);
    job.sim.stack_size = 16384;
    mc_sim_job_stats_t st;
    int rc = mc_sim_job_run(&job, &st);
    const char *m = mc_last_error();
    if (rc == MC_OK)
        return 0;
    if (rc == MC_ERR_NOMEM &&
        (strstr(m, "out of memory") || strstr(m, "cannot reserve")) &&
        (strstr(m, "bytes") || strstr(m, "GiB"))) {
        fprintf(stderr, "  NOMEM: %s\n", m);
        return 1;
    }
    fprintf(stderr, "  status %d: %s\n", rc, m);
    return 2;
}

static int huge_l2(void *arg)
{
    return job_outcome(arg, 48, bcast_any);
}

static int big_barrier(void *arg)
{
    (void)arg;
    return job_outcome("mesh128x128", 16384, barrier_rank);
}

static void oom(int full)
{
    /* L2 tags of 256 MiB per core: the first core's caches cannot be
     * made in 200 MiB; once, the simulation went on uncached */
    const char *plat = "test_sim_job_l2.json";
    FILE *f = fopen(plat, "w");
    if (!f) {
        CHECK(0, "cannot write %s", plat);
        return;
    }
    fprintf(f, "{\"extends\": \"scc48-cached\", \"name\": \"huge-l2\", "
               "\"cache\": {\"enabled\": true, \"l1_bytes\": 16384, "
               "\"l1_ways\": 2, \"l2_bytes\": 1073741824, \"l2_ways\": 4, "
               "\"l1_hit_us\": 0.015, \"l2_hit_us\": 0.049}}\n");
    fclose(f);
    int rc = in_child(huge_l2, (void *)plat, (size_t)200 << 20);
    CHECK(rc == 1, "huge L2 in 200 MiB: child exit %d, want 1 (NOMEM)", rc);
    remove(plat);
    /* limits from tight to ample, finely where this build's run starts
     * to fit (about 500 MiB: stacks reserved, then the ports' calendars,
     * the event queue, flag writes in flight and flag lines give out in
     * turn): every run succeeds or fails cleanly, the tight ones fail,
     * the ample one runs; `oom` alone takes the limits marked 1 (make
     * test), `oom --full` all of them (make repro: near 500 MiB a run can
     * take a minute to fail, most of it in the kernel) */
    int nomem = 0, ok = 0;
    static const size_t limits[] = {256, 352, 412, 436, 448, 460, 466, 472,
                                    478, 484, 490, 496, 502, 508, 544,
                                    1024, 4096};
    static const char quick[] = {1, 0, 0, 1, 0, 0, 1, 0, 0, 1,
                                 0, 0, 0, 0, 0, 1, 1};
    for (size_t k = 0; k < sizeof limits / sizeof *limits; k++) {
        size_t mib = limits[k];
        if (!full && !quick[k])
            continue;
        rc = in_child(big_barrier, NULL, mib << 20);
        printf("16,384-core barrier in %zu MiB more: %s\n", mib,
               rc == 0 ? "ran" : rc == 1 ? "out of memory, said so"
                                         : "FAILED");
        CHECK(rc == 0 || rc == 1, "%zu MiB: child exit %d", mib, rc);
        nomem += rc == 1;
        ok += rc == 0;
        CHECK(mib < 4096 || rc == 0, "4 GiB: child exit %d, want a run", rc);
    }
    CHECK(nomem > 0 && ok > 0, "%d limits ran, %d ran out of memory: "
          "the sweep should see both", ok, nomem);
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "api";
    if (!strcmp(what, "api")) {
        stats();
        refusals();
        rank_failure();
    } else if (!strcmp(what, "oom")) {
        oom(argc > 2 && !strcmp(argv[2], "--full"));
    } else {
        fprintf(stderr, "usage: test_sim_job api|oom [--full]\n");
        return 2;
    }
    char name[64];
    snprintf(name, sizeof name, "test_sim_job %s", what);
    return check_done(name, "all right");
}
