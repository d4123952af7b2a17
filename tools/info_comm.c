/*
 * manycoll info --comm-bytes [--shm N,...] [--sim PLATFORM[:RANKS],...]
 *                            [--bound BYTES] [--lenient]
 *
 * What a communicator costs one rank, in bytes, after choosing an
 * algorithm (bcast:binomial), a barrier and an 8-byte allreduce (so that
 * what algorithms make on first use is counted): the communicator, its
 * per-peer state and scratch, its share of the selection rules, the transport's private state; and, in shared
 * memory, the rank's flag words and MPB. On shm, N processes are forked
 * (default 2, 8, 64); in the simulator every core of the platform (or
 * RANKS of them) is a rank (default mesh64x64, 4,096 cores). The largest
 * value over the ranks is shown. With --bound, the exit status is 1 if a
 * rank's private bytes exceed BYTES (the comm_bytes test).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "api/comm.h"
#include "plat/platform.h"
#include "job/sim_job.h"
#include "tools.h"

typedef mc_comm_footprint_t fp_t;

#define MAXOF(a, b) ((a) > (b) ? (a) : (b))

static void fp_max(fp_t *m, const fp_t *f)
{
    m->comm = MAXOF(m->comm, f->comm);
    m->team_heap = MAXOF(m->team_heap, f->team_heap);
    m->rules = MAXOF(m->rules, f->rules);
    m->rules_sharers = MAXOF(m->rules_sharers, f->rules_sharers);
    m->tp = MAXOF(m->tp, f->tp);
    m->flags = MAXOF(m->flags, f->flags);
    m->mpb = MAXOF(m->mpb, f->mpb);
    m->total = MAXOF(m->total, f->total);
}

/* the calls that make lazily created state, then the footprint, then a
 * barrier: no rank frees its communicator (and its share of the rules)
 * before every rank has measured. An algorithm is chosen first, as
 * `manycoll sim --algo` does on every core: the rules it makes must stay
 * shared too (they once were remade by every simulated core). */
static int measure(mc_comm_t *c, fp_t *f)
{
    double in = 1, out = 0;
    int rc = mc_comm_set_algo(c, "bcast", "binomial");
    if (rc == MC_OK)
        rc = mc_barrier(c);
    if (rc == MC_OK)
        rc = mc_allreduce(c, &in, &out, 1, MC_FLOAT64, MC_SUM);
    if (rc == MC_OK)
        mc_comm_footprint(c, f);
    return rc == MC_OK ? mc_barrier(c) : rc;
}

static void shm_rank(const char *job, int r, int n, int fd)
{
    mc_comm_t *c;
    fp_t f;
    int rc = mc_comm_create_shm(job, r, n, &c);
    if (rc == MC_OK)
        rc = measure(c, &f);
    if (rc == MC_OK && write(fd, &f, sizeof f) != (ssize_t)sizeof f)
        rc = MC_ERR_SYS;
    if (rc != MC_OK)
        fprintf(stderr, "rank %d: %s\n", r, mc_last_error());
    if (rc == MC_OK)
        mc_comm_free(c);
    _exit(rc == MC_OK ? 0 : 1);
}

static int shm_row(int n, fp_t *m)
{
    char job[MC_JOB_NAME_MAX];
    int fds[2];
    if (mc_job_name(job, sizeof job) != MC_OK || pipe(fds))
        return 1;
    for (int r = 0; r < n; r++) {
        pid_t pid = fork();
        if (pid == 0) {
            close(fds[0]);
            shm_rank(job, r, n, fds[1]);
        }
        if (pid < 0)
            return 1;
    }
    close(fds[1]);
    int got = 0, bad = 0, st;
    fp_t f;
    while (read(fds[0], &f, sizeof f) == (ssize_t)sizeof f && ++got)
        fp_max(m, &f);
    close(fds[0]);
    while (wait(&st) > 0)
        bad += !WIFEXITED(st) || WEXITSTATUS(st);
    return bad || got != n;
}

/* a simulated rank measures into its slot of the job's array */
static int sim_rank(mc_comm_t *c, int rank, void *arg)
{
    return measure(c, &((fp_t *)arg)[rank]);
}

static int sim_cores(mc_platform_t *p, int n, fp_t *m)
{
    fp_t *f = calloc((size_t)n, sizeof *f);
    if (!f)
        return mc_error(MC_ERR_NOMEM, "out of memory for %d cores", n) != 0;
    mc_sim_job_t job;
    mc_sim_job_set(&job, p, NULL, n, sim_rank, f);
    mc_sim_job_stats_t st;
    int rc = mc_sim_job_run(&job, &st);
    for (int i = 0; rc == MC_OK && i < n; i++)
        fp_max(m, &f[i]);
    free(f);
    return rc != MC_OK;
}

/* spec: PLATFORM[:RANKS]; lenient: --lenient */
static int sim_row(const char *spec, int lenient, int *n, fp_t *m,
                   char *name, size_t len)
{
    snprintf(name, len, "%s", spec);
    char *colon = strchr(name, ':');
    if (colon)
        *colon = 0;
    mc_platform_t *p;
    if (mc_tool_platform("info", name, lenient, &p) != MC_OK)
        return 1;
    *n = colon ? atoi(colon + 1) : p->ncores;
    int rc = *n >= 1 && *n <= p->ncores
                 ? sim_cores(p, *n, m)
                 : mc_error(MC_ERR_ARG, "%s has %d cores, not %s", name,
                            p->ncores, colon + 1) != MC_OK;
    mc_platform_free(p);
    return rc;
}

static void print_row(const char *tp, int n, const fp_t *f)
{
    char rules[32];
    snprintf(rules, sizeof rules, "%zu (/%d)", f->rules, f->rules_sharers);
    printf("  %-20s %8d %8zu %8zu %9zu %12s %6zu %8zu %6zu\n", tp, n,
           f->total, f->comm, f->team_heap, rules, f->tp, f->flags, f->mpb);
}

static int over(const fp_t *f, long long bound, const char *where, int n)
{
    if (bound <= 0 || f->total <= (size_t)bound)
        return 0;
    fprintf(stderr, "manycoll info: %s at %d ranks: %zu private bytes per "
                    "rank, more than --bound %lld\n", where, n, f->total,
            bound);
    return 1;
}

static int rows(const char *shm, const char *sims, long long bound,
                int lenient)
{
    int bad = 0;
    char list[4096], *save;
    snprintf(list, sizeof list, "%s", shm);
    for (char *t = strtok_r(list, ",", &save); t;
         t = strtok_r(NULL, ",", &save)) {
        fp_t m = {0};
        int n = atoi(t);
        if (n < 1 || n > MC_MAX_RANKS || shm_row(n, &m)) {
            fprintf(stderr, "manycoll info: shm at '%s' ranks failed\n", t);
            return 1;
        }
        print_row("shm", n, &m);
        bad |= over(&m, bound, "shm", n);
    }
    snprintf(list, sizeof list, "%s", sims);
    for (char *t = strtok_r(list, ",", &save); t;
         t = strtok_r(NULL, ",", &save)) {
        fp_t m = {0};
        char name[256], label[300];
        int n = 0;
        if (sim_row(t, lenient, &n, &m, name, sizeof name)) {
            fprintf(stderr, "manycoll info: --sim %s: %s\n", t,
                    mc_last_error());
            return 1;
        }
        snprintf(label, sizeof label, "sim %s", name);
        print_row(label, n, &m);
        bad |= over(&m, bound, label, n);
    }
    return bad;
}

int info_comm(int argc, char **argv)
{
    const char *shm = "2,8,64", *sims = "mesh64x64";
    long long bound = 0;
    int lenient = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--comm-bytes"))
            continue;
        if (!strcmp(a, "--lenient")) {
            lenient = 1;
            continue;
        }
        if (!strcmp(a, "--shm") || !strcmp(a, "--sim") ||
            !strcmp(a, "--bound")) {
            if (!v)
                return mc_usage_error("info", "%s needs a value", a);
            if (a[2] == 'b')
                bound = atoll(v);
            else
                *(a[3] == 'h' ? &shm : &sims) = v;
            i++;
            continue;
        }
        return mc_usage_error("info", "unknown option '%s'", a);
    }
    printf("bytes per rank of one communicator after choosing "
           "bcast:binomial, a barrier\nand an 8-byte allreduce, the largest "
           "over the ranks\n(private = comm + team heap + rules + tp; "
           "flags and MPB are shared memory)\n");
    printf("  %-20s %8s %8s %8s %9s %12s %6s %8s %6s\n", "transport",
           "ranks", "private", "comm", "team heap", "rules (/by)", "tp",
           "flags", "MPB");
    return rows(shm, sims, bound, lenient);
}
