/*
 * The launcher of shared-memory jobs (launch.h), behind `manycoll run` and
 * `manycoll bench`: starts N ranks of a program on this machine, forwards
 * SIGINT/SIGTERM, finds the rank that failed first, and removes what the
 * job left in /dev/shm. The command prints what it finds.
 *
 * The job's shared memory is an unnamed file the launcher creates and the
 * ranks inherit (MC_JOB_FD): it has no name in /dev/shm at any time, so
 * even a job killed as a whole while starting leaves nothing there. The
 * names of communicators split from it start with the job's name, and the
 * launcher unlinks any of them that are left at the end.
 *
 * Which rank failed first: the one that died first, not the one reaped
 * first (a rank that finds a peer dead may exit before the dead one is
 * reaped, e.g. when the dead one's large address space takes a while to
 * tear down). Ranks that find a peer dead (or gone before a call it had
 * to take part in) say so on a pipe (MC_NOTE_FD: "dead <pid>"); the
 * launcher names the first rank so reported, and otherwise the first
 * failed rank it reaped. Notes that come after the launcher itself began
 * stopping ranks are not evidence and are ignored.
 *
 * When a rank fails, the others get a grace period to notice (they fail
 * with MC_ERR_PEER_DEAD within a second) and exit on their own; whoever is
 * still running after it is terminated.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "manycoll.h"
#include "tp/launch.h"
#include "tp/shm.h"
#include "util/error.h"

#define GRACE_S 5.0

static volatile sig_atomic_t got_signal;

/* records a forwarded signal (SIGINT, SIGTERM) */
static void on_signal(int sig)
{
    got_signal = sig;
}

/* monotonic seconds */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* the launcher's view of a running job */
typedef struct job_state {
    const char *job;
    const char *who;
    pid_t *pids;
    int *alive, *status;
    int n, running;
    int *failed, nfailed; /* failed ranks, in the order reaped */
    int *noted, nnoted;   /* ranks peers found dead, first first */
    int job_fd, note_rd, note_wr;
    char notes[512];
    size_t notes_len;
    int stopping;         /* the launcher has begun signalling ranks */
} job_state_t;

/* forks rank `rank` and execs argv in it with the job's environment */
static pid_t spawn(job_state_t *js, char **argv, int rank)
{
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    char buf[32];
    setenv("MC_JOB", js->job, 1);
    snprintf(buf, sizeof buf, "%d", rank);
    setenv("MC_RANK", buf, 1);
    snprintf(buf, sizeof buf, "%d", js->n);
    setenv("MC_SIZE", buf, 1);
    snprintf(buf, sizeof buf, "%d", js->job_fd);
    setenv("MC_JOB_FD", buf, 1);
    snprintf(buf, sizeof buf, "%d", js->note_wr);
    setenv("MC_NOTE_FD", buf, 1);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    execvp(argv[0], argv);
    fprintf(stderr, "%s: cannot start %s: %s\n", js->who, argv[0],
            strerror(errno));
    _exit(127);
}

/* sends sig to every rank still running */
static void kill_all(job_state_t *js, int sig)
{
    js->stopping = 1;
    for (int r = 0; r < js->n; r++)
        if (js->alive[r])
            kill(js->pids[r], sig);
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

/* collects the ranks that ended, and which of them failed */
static void reap(job_state_t *js)
{
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
        for (int r = 0; r < js->n; r++) {
            if (js->pids[r] != pid || !js->alive[r])
                continue;
            js->alive[r] = 0;
            js->status[r] = status;
            js->running--;
            if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0))
                js->failed[js->nfailed++] = r;
        }
    }
}

/* records that a peer found the rank of `pid` dead or gone */
static void note_rank(job_state_t *js, int pid)
{
    for (int r = 0; r < js->n; r++) {
        if (js->pids[r] != pid)
            continue;
        for (int i = 0; i < js->nnoted; i++)
            if (js->noted[i] == r)
                return;
        js->noted[js->nnoted++] = r;
    }
}

/* reads the ranks' notes ("dead <pid>\n", "left <pid>\n") */
static void read_notes(job_state_t *js)
{
    ssize_t got;
    while ((got = read(js->note_rd, js->notes + js->notes_len,
                       sizeof js->notes - 1 - js->notes_len)) > 0) {
        js->notes_len += (size_t)got;
        js->notes[js->notes_len] = 0;
        char *nl;
        while ((nl = strchr(js->notes, '\n')) != NULL) {
            int pid;
            *nl = 0;
            if (!js->stopping && (sscanf(js->notes, "dead %d", &pid) == 1 ||
                                  sscanf(js->notes, "left %d", &pid) == 1))
                note_rank(js, pid);
            js->notes_len -= (size_t)(nl + 1 - js->notes);
            memmove(js->notes, nl + 1, js->notes_len + 1);
        }
        if (js->notes_len == sizeof js->notes - 1)
            js->notes_len = 0; /* a line too long: not a note */
    }
}

/* the job's shared memory and the pipe of the ranks' notes */
static int open_job(job_state_t *js)
{
    int p[2];
    js->job_fd = mc_shm_job_fd();
    if (js->job_fd < 0)
        return MC_ERR_SYS;
    if (pipe(p) != 0)
        return mc_error(MC_ERR_SYS, "pipe: %s", strerror(errno));
    js->note_rd = p[0];
    js->note_wr = p[1];
    /* the ranks never block on a note; the launcher never waits on one */
    fcntl(p[0], F_SETFD, FD_CLOEXEC);
    fcntl(p[0], F_SETFL, O_NONBLOCK);
    fcntl(p[1], F_SETFL, O_NONBLOCK);
    return MC_OK;
}

/* the rank to name: the first found dead or gone by a peer that failed
 * itself (a signal or a non-zero status), else the first found gone (it
 * exited 0 before its peers were done), else the first failed one
 * reaped, into *end with its exit code (1 for one that exited 0; none,
 * rank -1, if no rank failed). A rank that finished and left
 * may be noted before a killed one is: the killed one is the cause */
static void report(job_state_t *js, mc_launch_end_t *end)
{
    int r = js->nnoted ? js->noted[0] : js->nfailed ? js->failed[0] : -1;
    for (int i = js->nnoted - 1; i >= 0; i--) {
        int st = js->status[js->noted[i]];
        if (!(WIFEXITED(st) && WEXITSTATUS(st) == 0))
            r = js->noted[i];
    }
    end->rank = r;
    if (r < 0)
        return;
    int code = describe(js->status[r], end->why, sizeof end->why);
    end->pid = (int)js->pids[r];
    end->early = code == 0;
    end->code = code ? code : 1;
}

/* waits for every rank: forwards signals, stops the job on a timeout and
 * the others a grace period after a rank failed */
static void supervise(job_state_t *js, const mc_launch_opts_t *o,
                      int *timed_out)
{
    double start = now_s(), fail_at = 0, term_at = 0;
    int forwarded = 0;
    while (js->running > 0) {
        struct pollfd pf = {.fd = js->note_rd, .events = POLLIN};
        poll(&pf, 1, 2);
        read_notes(js);
        reap(js);
        double t = now_s();
        if (got_signal && !forwarded) {
            kill_all(js, got_signal);
            forwarded = 1;
            term_at = t;
        }
        if ((js->nfailed || js->nnoted) && fail_at == 0)
            fail_at = t;
        if (o->timeout > 0 && t - start > o->timeout && !*timed_out) {
            *timed_out = 1;
            if (o->on_timeout)
                o->on_timeout(o->timeout);
            kill_all(js, SIGTERM);
            term_at = t;
        }
        if (fail_at > 0 && term_at == 0 && t - fail_at > GRACE_S) {
            kill_all(js, SIGTERM);
            term_at = t;
        }
        if (term_at > 0 && t - term_at > 2.0)
            kill_all(js, SIGKILL);
    }
    read_notes(js);
}

/* frees what start_job allocated, and closes the notes' pipe */
static void close_job(job_state_t *js)
{
    if (js->note_rd >= 0)
        close(js->note_rd);
    free(js->pids);
    free(js->alive);
    free(js->status);
    free(js->failed);
    free(js->noted);
}

/* the job's tables and its shared memory: MC_OK, or an error */
static int start_job(job_state_t *js, int n)
{
    js->pids = calloc((size_t)n, sizeof(pid_t));
    js->alive = calloc((size_t)n, sizeof(int));
    js->status = calloc((size_t)n, sizeof(int));
    js->failed = calloc((size_t)n, sizeof(int));
    js->noted = calloc((size_t)n, sizeof(int));
    if (!js->pids || !js->alive || !js->status || !js->failed || !js->noted)
        return mc_error(MC_ERR_NOMEM, "out of memory for %d ranks", n);
    return open_job(js);
}

/* forks the ranks; on a failed fork, stops those started (the job then
 * has the ranks started so far) and records why in *end */
static void spawn_all(job_state_t *js, char **argv, mc_launch_end_t *end)
{
    for (int r = 0; r < js->n; r++) {
        js->pids[r] = spawn(js, argv, r);
        if (js->pids[r] < 0) {
            end->fork_errno = errno;
            kill_all(js, SIGKILL);
            js->n = r;
            return;
        }
        js->alive[r] = 1;
        js->running++;
    }
}

int mc_launch(int n, char **argv, const mc_launch_opts_t *o,
              mc_launch_end_t *end)
{
    char job[MC_JOB_NAME_MAX];
    *end = (mc_launch_end_t){.rank = -1};
    MC_CHECK(mc_job_name(job, sizeof job));
    end->named = 1;
    job_state_t js = {.job = job, .who = o->who, .n = n, .note_rd = -1};
    int rc = start_job(&js, n);
    if (rc != MC_OK) {
        close_job(&js);
        return rc;
    }
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    spawn_all(&js, argv, end);
    close(js.job_fd); /* the ranks have it */
    close(js.note_wr);
    int timed_out = 0;
    supervise(&js, o, &timed_out);
    mc_shm_cleanup_job(job);
    report(&js, end);
    if (!end->code && timed_out)
        end->code = 124;
    else if (!end->code && got_signal)
        end->code = 128 + got_signal;
    close_job(&js);
    return MC_OK;
}
