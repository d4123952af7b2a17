/*
 * One rank of a fault-injection run (tests/harden/chaos.py drives it):
 *
 *   manycoll run -n N chaos_rank BYTES CALLS
 *
 * Every rank creates the world and makes CALLS calls, cycling through
 * every collective and mc_comm_split (+ a barrier on the split), checking
 * every result that comes back MC_OK (src/oracle/check.c). One rank, the
 * victim, injects a fault set by the environment:
 *
 *   CHAOS_VICTIM   its rank
 *   CHAOS_FAULT    kill (SIGKILL), stop (SIGSTOP), _exit (_exit(3) at once,
 *                  no atexit), exit (exit(3) after the call under way,
 *                  without mc_finalize)
 *   CHAOS_CALL     the call before which it arms a timer; -1: before
 *                  mc_init (the fault lands in the creation of the world)
 *   CHAOS_DELAY_US the timer: the fault comes this long after
 *
 * Lines on stdout (one write each, so lines of several ranks never mix):
 *   chaos fault F rank R pid P t NS           the victim, as it faults
 *   chaos rank R status S t NS calls K wrong W msg M
 *                                             every rank that returns
 * t is CLOCK_MONOTONIC in ns (one clock for every process of the machine).
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "oracle/check.h"
#include "manycoll.h"

static volatile sig_atomic_t exit_asked;
static const char *fault = "kill";
static int me = -1;

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* async-signal-safe: formats with snprintf into a stack buffer (no
 * locks on glibc for these conversions) and writes once */
static void say(const char *fmt, ...)
{
    char buf[700];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n > (int)sizeof buf - 1)
        n = (int)sizeof buf - 1;
    if (write(1, buf, (size_t)n) < 0)
        _exit(99);
}

static void on_timer(int sig)
{
    (void)sig;
    say("chaos fault %s rank %d pid %d t %lld\n", fault, me, (int)getpid(),
        now_ns());
    if (!strcmp(fault, "kill"))
        raise(SIGKILL);
    else if (!strcmp(fault, "stop"))
        raise(SIGSTOP);
    else if (!strcmp(fault, "_exit"))
        _exit(3);
    else
        exit_asked = 1;
}

static void arm(long us)
{
    struct itimerval it = {{0, 0}, {us / 1000000, us % 1000000}};
    if (us <= 0)
        it.it_value.tv_usec = 1;
    signal(SIGALRM, on_timer);
    setitimer(ITIMER_REAL, &it, NULL);
}

static void finish(int rc, int calls, int wrong)
{
    char msg[400];
    snprintf(msg, sizeof msg, "%s", rc ? mc_last_error() : "");
    for (char *p = msg; *p; p++)
        if (*p == '\n')
            *p = ' ';
    say("chaos rank %d status %d t %lld calls %d wrong %d msg %s\n", me, rc,
        now_ns(), calls, wrong, msg);
    /* survivors leave at once (no finalize): as a program that fails */
    _exit(rc || wrong ? 1 : 0);
}

static const mc_coll_t colls[] = {
    MC_COLL_BARRIER, MC_COLL_BCAST, MC_COLL_REDUCE, MC_COLL_ALLREDUCE,
    MC_COLL_ALLGATHER, MC_COLL_ALLTOALL, MC_COLL_REDUCE_SCATTER_BLOCK,
    MC_COLL_GATHER, MC_COLL_SCATTER, MC_COLL_COUNT /* = a split */};
#define NCOLLS (int)(sizeof colls / sizeof *colls)

/* one call: MC_OK and *wrong = 0 if the result is right */
static int one_call(mc_comm_t *w, int k, size_t bytes, int *wrong)
{
    int n = mc_comm_size(w);
    mc_coll_t coll = colls[k % NCOLLS];
    if (coll == MC_COLL_COUNT) {
        mc_comm_t *half;
        int rc = mc_comm_split(w, me % 2, me, &half);
        if (rc == MC_OK) {
            rc = mc_barrier(half);
            mc_comm_free(half);
        }
        return rc;
    }
    int blocks = mc_coll_info(coll)->props & MC_COLL_BLOCKS;
    size_t count = bytes / 8 / (size_t)(blocks ? n : 1);
    mc_case_t kc = {.coll = coll, .count = count ? count : 1,
                    .dt = MC_INT64, .op = MC_SUM, .root = k % n,
                    .seed = (uint32_t)k + 1};
    mc_case_bufs_t b;
    char why[256];
    if (mc_case_alloc(&kc, me, n, &b) != MC_OK)
        return MC_ERR_NOMEM;
    mc_case_fill(&kc, me, n, &b);
    int rc = mc_case_run(w, &kc, &b);
    /* data only: the barrier's meaning is the walk's (arrivals.c) */
    if (rc == MC_OK && coll != MC_COLL_BARRIER &&
        mc_case_verify(&kc, me, n, &b, why, sizeof why)) {
        say("chaos rank %d wrong result: %s\n", me, why);
        *wrong = 1;
    }
    mc_case_free(&b);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    size_t bytes = (size_t)atol(argv[1]);
    int calls = atoi(argv[2]), wrong = 0;
    const char *v = getenv("CHAOS_VICTIM"), *f = getenv("CHAOS_FAULT");
    const char *at = getenv("CHAOS_CALL"), *d = getenv("CHAOS_DELAY_US");
    int rank = atoi(getenv("MC_RANK") ? getenv("MC_RANK") : "0");
    int victim = v && atoi(v) == rank;
    int call = at ? atoi(at) : 0;
    long delay = d ? atol(d) : 0;
    if (f)
        fault = f;
    me = rank;
    if (victim && call < 0)
        arm(delay);
    mc_comm_t *w;
    int rc = mc_init(&w);
    if (rc != MC_OK)
        finish(rc, 0, 0);
    for (int k = 0; k < calls; k++) {
        if (victim && k == call)
            arm(delay);
        rc = one_call(w, k, bytes, &wrong);
        if (exit_asked)
            exit(3); /* a clean exit, without mc_finalize */
        if (rc != MC_OK || wrong)
            finish(rc, k, wrong);
    }
    if (victim) /* the fault is still to come: wait for it */
        for (int i = 0; i < 3000 && !exit_asked; i++)
            usleep(1000);
    if (exit_asked)
        exit(3);
    mc_finalize();
    finish(MC_OK, calls, wrong);
}
