/*
 * Limits and hostile values, in one process (no launcher needed):
 *
 *   - counts whose byte size would overflow are MC_ERR_ARG, not a crash
 *     (mc_bcast with count SIZE_MAX, allreduce with SIZE_MAX/8 + 2, ...);
 *   - mc_comm_create_shm with an absurd size is MC_ERR_ARG at once, and a
 *     size whose segment cannot fit is an error naming the size, with
 *     nothing left in /dev/shm;
 *   - every numeric environment variable outside its range makes mc_init
 *     fail with MC_ERR_ARG naming the variable (MC_TIMEOUT=nan, inf, abc,
 *     0, -5, 10s; MC_SPIN=1e9 (not a whole number in decimal) or 2^32;
 *     MC_SINGLE_COPY=2, abc; ...), each in a
 *     child process of its own;
 *   test_limits shm_full (in a /dev/shm of 1 MiB, tests/harden/
 *     in_small_shm.sh): a job whose segment does not fit fails at creation
 *     with MC_ERR_SYS naming /dev/shm and the size needed, on every rank,
 *     instead of dying of SIGBUS in the first large collective; so does
 *     a split whose segment does not fit; nothing is left behind.
 */
#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "manycoll.h"

static int failed;

static void expect(const char *what, int rc, int want, const char *word)
{
    if (rc != want || (word && !strstr(mc_last_error(), word))) {
        fprintf(stderr, "%s: got %d (%s) '%s', expected %d mentioning "
                        "'%s'\n", what, rc, mc_strerror(rc), mc_last_error(),
                want, word ? word : "");
        failed++;
    }
}

static int leftovers(const char *job)
{
    char pre[160];
    snprintf(pre, sizeof pre, "manycoll-%u-%s", (unsigned)geteuid(), job);
    DIR *d = opendir("/dev/shm");
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        n += !strncmp(e->d_name, pre, strlen(pre));
    if (d)
        closedir(d);
    return n;
}

static void counts(void)
{
    mc_comm_t *w;
    if (mc_init(&w) != MC_OK) {
        fprintf(stderr, "mc_init: %s\n", mc_last_error());
        exit(1);
    }
    static double b[64], r[64];
    expect("bcast count SIZE_MAX", mc_bcast(w, b, SIZE_MAX, MC_FLOAT64, 0),
           MC_ERR_ARG, "'count'");
    expect("allreduce count SIZE_MAX/8+2",
           mc_allreduce(w, b, r, SIZE_MAX / 8 + 2, MC_FLOAT64, MC_SUM),
           MC_ERR_ARG, "'count'");
    expect("allgather count SIZE_MAX/2",
           mc_allgather(w, b, r, SIZE_MAX / 2, MC_INT8), MC_ERR_ARG,
           "'count'");
    expect("reduce count 2^61", mc_reduce(w, b, r, (size_t)1 << 61,
                                          MC_INT32, MC_SUM, 0),
           MC_ERR_ARG, "'count'");
    /* and the communicator still works */
    b[0] = 2;
    expect("allreduce after", mc_allreduce(w, b, r, 1, MC_FLOAT64, MC_SUM),
           MC_OK, NULL);
    if (r[0] != 2)
        failed++, fprintf(stderr, "allreduce after: %g\n", r[0]);
    mc_finalize();
}

static void sizes(void)
{
    char job[MC_JOB_NAME_MAX];
    mc_comm_t *c;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    mc_job_name(job, sizeof job);
    expect("create_shm size 2^30", mc_comm_create_shm(job, 0, 1 << 30, &c),
           MC_ERR_ARG, "'size'");
    /* 2^20 ranks: a segment of hundreds of TB, refused before writing */
    mc_job_name(job, sizeof job);
    int rc = mc_comm_create_shm(job, 0, 1 << 20, &c);
    expect("create_shm size 2^20", rc, MC_ERR_SYS, "needs");
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double dt = (double)(t1.tv_sec - t0.tv_sec) +
                (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    if (dt > 5 || leftovers(job)) {
        fprintf(stderr, "huge sizes: %.1f s, %d segments left\n", dt,
                leftovers(job));
        failed++;
    }
}

static const struct {
    const char *var, *value;
} bad_env[] = {
    {"MC_TIMEOUT", "nan"},   {"MC_TIMEOUT", "inf"},
    {"MC_TIMEOUT", "abc"},   {"MC_TIMEOUT", "0"},
    {"MC_TIMEOUT", "-5"},    {"MC_TIMEOUT", "10s"},
    {"MC_TIMEOUT", "1e300"}, {"MC_TIMEOUT", "0x10"},
    {"MC_SPIN", "1e9"},      {"MC_SPIN", "4294967296"},
    {"MC_SPIN", "-2"},       {"MC_SPIN", "abc"},
    {"MC_SINGLE_COPY", "2"}, {"MC_SINGLE_COPY", "abc"},
    {"MC_MPB_SIZE", "100"},  {"MC_MPB_SIZE", "2G"},
    {"MC_MPB_SIZE", "0.5K1"}, {"MC_P2P_CHUNK", "12"},
    {"MC_P2P_CHUNK", "-8"},  {"MC_CHECK_ARGS", "yes"},
    {"MC_CPUS", "-2"},       {"MC_CPUS", "2x"},
    {"MC_LOCAL_RANKS", "-2"}, {"MC_LOCAL_RANKS", "4x"},
};

static void environment(void)
{
    for (size_t i = 0; i < sizeof bad_env / sizeof *bad_env; i++) {
        pid_t pid = fork();
        if (pid == 0) {
            alarm(10);
            setenv(bad_env[i].var, bad_env[i].value, 1);
            mc_comm_t *w;
            int rc = mc_init(&w);
            if (rc == MC_ERR_ARG && strstr(mc_last_error(), bad_env[i].var))
                _exit(0);
            fprintf(stderr, "%s=%s: mc_init returned %d: %s\n",
                    bad_env[i].var, bad_env[i].value, rc, mc_last_error());
            _exit(1);
        }
        int st;
        waitpid(pid, &st, 0);
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            fprintf(stderr, "%s=%s: not refused (status %#x)\n",
                    bad_env[i].var, bad_env[i].value, st);
            failed++;
        }
    }
}

/* a rank of a job made with mc_comm_create_shm: 0 if it behaved */
static int full_rank(const char *job, int rank, int size)
{
    mc_comm_t *c, *sub;
    static double buf[1 << 17];
    setenv("MC_MPB_SIZE", size == 2 ? "1M" : "256K", 1);
    int rc = mc_comm_create_shm(job, rank, size, &c);
    if (size == 2) {
        if (rc == MC_ERR_SYS && strstr(mc_last_error(), "/dev/shm"))
            return 0;
        if (rc == MC_OK) /* touches the MPBs: SIGBUS if not reserved */
            rc = mc_comm_set_algo(c, "bcast", "binomial");
        if (rc == MC_OK)
            rc = mc_bcast(c, buf, 1 << 17, MC_FLOAT64, 0);
        fprintf(stderr, "rank %d of 2: %d: %s\n", rank, rc, mc_last_error());
        return 1;
    }
    /* 3 ranks fit, a split of two more does not */
    if (rc != MC_OK) {
        fprintf(stderr, "rank %d of 3: %s\n", rank, mc_last_error());
        return 1;
    }
    rc = mc_comm_split(c, rank % 2, 0, &sub);
    if (rank % 2 == 1) /* alone: unnamed memory, not /dev/shm */
        return rc != MC_OK;
    if (rc == MC_ERR_SYS && strstr(mc_last_error(), "/dev/shm"))
        return 0;
    if (rc == MC_OK)
        rc = mc_comm_set_algo(sub, "bcast", "binomial");
    if (rc == MC_OK)
        rc = mc_bcast(sub, buf, 1 << 15, MC_FLOAT64, 0);
    fprintf(stderr, "rank %d, split: %d: %s\n", rank, rc, mc_last_error());
    return 1;
}

static int shm_full(void)
{
    for (int size = 2; size <= 3; size++) {
        char job[MC_JOB_NAME_MAX];
        pid_t pids[3];
        mc_job_name(job, sizeof job);
        for (int r = 0; r < size; r++)
            if ((pids[r] = fork()) == 0)
                _exit(full_rank(job, r, size));
        for (int r = 0; r < size; r++) {
            int st;
            waitpid(pids[r], &st, 0);
            if (!WIFEXITED(st) || WEXITSTATUS(st)) {
                fprintf(stderr, "job of %d, rank %d: %s %d\n", size, r,
                        WIFSIGNALED(st) ? "killed by signal" : "status",
                        WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
                failed++;
            }
        }
        if (leftovers(job))
            failed++, fprintf(stderr, "left in /dev/shm: %s\n", job);
    }
    if (!failed)
        printf("test_limits shm_full: segments that do not fit /dev/shm "
               "are refused at creation, naming it\n");
    return failed != 0;
}

int main(int argc, char **argv)
{
    alarm(60);
    if (argc > 1 && !strcmp(argv[1], "shm_full"))
        return shm_full();
    counts();
    sizes();
    environment();
    if (failed)
        return 1;
    printf("test_limits: huge counts, sizes and every bad variable refused "
           "with a message\n");
    return 0;
}
