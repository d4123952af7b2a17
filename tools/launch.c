/*
 * The launcher behind `manycoll run` (and `manycoll bench`): starts N
 * ranks of a program on this machine, forwards SIGINT/SIGTERM, reports the
 * first rank that failed, and removes the job's shared memory afterwards.
 *
 * When a rank fails, the others get a grace period to notice (they fail
 * with MC_ERR_PEER_DEAD within a second) and exit on their own; whoever is
 * still running after it is terminated.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "manycoll.h"
#include "tools.h"
#include "tp/shm.h"

#define GRACE_S 5.0

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
    got_signal = sig;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static pid_t spawn(char **argv, const char *job, int rank, int n)
{
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    char buf[32];
    setenv("MC_JOB", job, 1);
    snprintf(buf, sizeof buf, "%d", rank);
    setenv("MC_RANK", buf, 1);
    snprintf(buf, sizeof buf, "%d", n);
    setenv("MC_SIZE", buf, 1);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    execvp(argv[0], argv);
    fprintf(stderr, "manycoll run: cannot start %s: %s\n", argv[0],
            strerror(errno));
    _exit(127);
}

static void kill_all(const pid_t *pids, const int *alive, int n, int sig)
{
    for (int r = 0; r < n; r++)
        if (alive[r])
            kill(pids[r], sig);
}

/* describes a wait status; returns the exit code to report for it */
static int describe(int status, char *buf, size_t len)
{
    if (WIFSIGNALED(status)) {
        int s = WTERMSIG(status);
        snprintf(buf, len, "killed by signal %d (%s)", s, strsignal(s));
        return 128 + s;
    }
    int code = WEXITSTATUS(status);
    snprintf(buf, len, "exited with status %d", code);
    return code;
}

typedef struct job_state {
    pid_t *pids;
    int *alive;
    int n, running;
    int first_rank, first_code;
    char first_why[128];
} job_state_t;

static void reap(job_state_t *js)
{
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
        for (int r = 0; r < js->n; r++) {
            if (js->pids[r] != pid || !js->alive[r])
                continue;
            js->alive[r] = 0;
            js->running--;
            int failed = !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
            if (failed && js->first_rank < 0) {
                js->first_rank = r;
                js->first_code = describe(status, js->first_why,
                                          sizeof js->first_why);
            }
        }
    }
}

int mc_launch(int n, char **argv, double timeout)
{
    char job[MC_JOB_NAME_MAX];
    if (mc_job_name(job, sizeof job) != MC_OK) {
        fprintf(stderr, "manycoll run: %s\n", mc_last_error());
        return 1;
    }
    job_state_t js = {.n = n, .first_rank = -1};
    js.pids = calloc((size_t)n, sizeof(pid_t));
    js.alive = calloc((size_t)n, sizeof(int));
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    for (int r = 0; r < n; r++) {
        js.pids[r] = spawn(argv, job, r, n);
        if (js.pids[r] < 0) {
            fprintf(stderr, "manycoll run: fork: %s\n", strerror(errno));
            kill_all(js.pids, js.alive, r, SIGKILL);
            n = js.n = r;
            break;
        }
        js.alive[r] = 1;
        js.running++;
    }
    double start = now_s(), fail_at = 0, term_at = 0;
    int timed_out = 0, forwarded = 0;
    while (js.running > 0) {
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
        reap(&js);
        double t = now_s();
        if (got_signal && !forwarded) {
            kill_all(js.pids, js.alive, n, got_signal);
            forwarded = 1;
            term_at = t;
        }
        if (js.first_rank >= 0 && fail_at == 0)
            fail_at = t;
        if (timeout > 0 && t - start > timeout && !timed_out) {
            timed_out = 1;
            fprintf(stderr, "manycoll run: job timed out after %.0f s\n",
                    timeout);
            kill_all(js.pids, js.alive, n, SIGTERM);
            term_at = t;
        }
        if (fail_at > 0 && term_at == 0 && t - fail_at > GRACE_S) {
            kill_all(js.pids, js.alive, n, SIGTERM);
            term_at = t;
        }
        if (term_at > 0 && t - term_at > 2.0)
            kill_all(js.pids, js.alive, n, SIGKILL);
    }
    mc_shm_cleanup_job(job);
    int rc = 0;
    if (js.first_rank >= 0) {
        fprintf(stderr, "manycoll run: rank %d (pid %d) %s\n", js.first_rank,
                (int)js.pids[js.first_rank], js.first_why);
        rc = js.first_code ? js.first_code : 1;
    } else if (timed_out) {
        rc = 124;
    } else if (got_signal) {
        rc = 128 + got_signal;
    }
    free(js.pids);
    free(js.alive);
    return rc;
}
