/*
 * Ranks that go away, run under `manycoll run` (tests/harden.cmake checks
 * what the launcher reports):
 *
 *   early_exit   rank 2 calls exit(3) between two barriers, without
 *                mc_finalize: the others' next barrier fails with
 *                MC_ERR_PEER_DEAD within a second (not after MC_TIMEOUT)
 *   split_death  rank 1 takes part in the exchange of mc_comm_split (the
 *                parent's allgather), then dies: its group partner's split
 *                fails within a second; the other group splits fine
 *   first_death  ranks read rank 3's buffers (single-copy allreduce)
 *                when it is killed; rank 3 has a large address space, so
 *                the others may fail and exit before it is reaped: the
 *                launcher must still name rank 3
 *   stall        rank 1 sleeps through two barriers, a bcast from it and
 *                a reduce, each on a communicator of its own; the others
 *                time out (MC_TIMEOUT=1) naming the rank they wait for
 *                (rank 1, or in the reduce the rank that waits for it),
 *                never themselves
 *   slow_start   rank 0 creates the job's memory, rank 1 sleeps (the
 *                caller kills the whole job meanwhile: nothing may be
 *                left in /dev/shm)
 *
 * MC_TIMEOUT is 30 s in these tests, so a wait that ends within a second
 * did not end by timing out.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "manycoll.h"

static int me;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* rc must be MC_ERR_PEER_DEAD within 1 s of t0 */
static int expect_dead(const char *what, int rc, double t0)
{
    double dt = now_s() - t0;
    if (rc == MC_ERR_PEER_DEAD && dt < 1.0) {
        printf("rank %d: %s: MC_ERR_PEER_DEAD after %.3f s: %s\n", me, what,
               dt, mc_last_error());
        return 0;
    }
    fprintf(stderr, "rank %d: %s: returned %d (%s) after %.3f s: %s\n", me,
            what, rc, mc_strerror(rc), dt, mc_last_error());
    return 1;
}

static int early_exit(mc_comm_t *w)
{
    mc_barrier(w);
    if (me == 2)
        exit(3); /* atexit leaves the communicator, no mc_finalize */
    double t0 = now_s();
    return expect_dead("barrier after rank 2 exited", mc_barrier(w), t0);
}

static int split_death(mc_comm_t *w)
{
    int mine[2] = {me / 2, 0}, all[64];
    mc_comm_t *half;
    if (me == 1) {
        /* the exchange mc_comm_split makes, then death */
        mc_allgather(w, mine, all, 2, MC_INT32);
        raise(SIGKILL);
    }
    double t0 = now_s();
    int rc = mc_comm_split(w, me / 2, 0, &half);
    if (me != 0)
        return rc != MC_OK; /* ranks 2 and 3: a group of their own */
    return expect_dead("split whose partner died", rc, t0);
}

static void die_on_3(const void *in, void *io, size_t n, mc_dtype_t dt)
{
    static int calls;
    if (me == 3 && ++calls == 40)
        raise(SIGKILL); /* peers are reading my buffers now */
    const double *a = in;
    double *b = io;
    for (size_t i = 0; i < n; i++)
        b[i] += a[i];
    (void)dt;
}

static int first_death(mc_comm_t *w)
{
    size_t n = 1 << 17; /* 1 MiB: the single-copy allreduce */
    double *x = calloc(n, sizeof *x), *y = calloc(n, sizeof *y);
    if (me == 3) {
        /* a large address space takes a while to tear down */
        size_t big = (size_t)256 << 20;
        char *p = mmap(NULL, big, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p != MAP_FAILED)
            memset(p, 1, big);
    }
    mc_op_t op;
    mc_op_create(die_on_3, 1, &op);
    mc_comm_set_algo(w, "allreduce", "direct:chunk=8192");
    for (int i = 0; i < 100; i++)
        if (mc_allreduce(w, x, y, n, MC_FLOAT64, op) != MC_OK)
            _exit(1); /* at once: before rank 3 is reaped, maybe */
    return 1;
}

/* every other rank times out naming the rank it waits for */
static int stall(mc_comm_t *w)
{
    static const char *const algos[][2] = {
        {"barrier", "flat"}, {"barrier", "dissemination"},
        {"bcast", "binomial"}, {"reduce", "binomial"}};
    mc_comm_t *c[4];
    int bad = 0;
    for (int i = 0; i < 4; i++) {
        if (mc_comm_split(w, 0, me, &c[i]) != MC_OK) {
            fprintf(stderr, "rank %d: split: %s\n", me, mc_last_error());
            return 1;
        }
        mc_comm_set_algo(c[i], algos[i][0], algos[i][1]);
    }
    if (me == 1) {
        sleep(6); /* past the others' four timeouts of 1 s */
        return 0;
    }
    for (int i = 0; i < 4; i++) {
        long v = 1, out;
        int rc = i < 2   ? mc_barrier(c[i])
                 : i < 3 ? mc_bcast(c[i], &v, 1, MC_INT64, 1)
                         : mc_reduce(c[i], &v, &out, 1, MC_INT64, MC_SUM, 0);
        /* the innermost message (a peer's failure may wrap it): "rank X
         * of job 'J' waited T s (MC_TIMEOUT) for rank Y (...)" */
        const char *msg = mc_last_error(), *in = msg, *p;
        while ((p = strstr(in + 1, "rank ")) && strstr(p, " waited "))
            in = p;
        int x = -1, y = -1;
        const char *f = strstr(in, " for rank ");
        sscanf(in, "rank %d", &x);
        if (f)
            sscanf(f, " for rank %d", &y);
        /* a reduce waits along a chain: rank 2 for rank 0, which waits
         * for rank 1 */
        if (rc != MC_ERR_TIMEOUT || x < 0 || y < 0 || x == y ||
            (i < 3 && y != 1)) {
            fprintf(stderr, "rank %d, %s %s: %d: %s\n", me, algos[i][0],
                    algos[i][1], rc, msg);
            bad = 1;
        } else if (me == 0) {
            printf("%s %s: %s\n", algos[i][0], algos[i][1], msg);
        }
    }
    return bad;
}

int main(int argc, char **argv)
{
    alarm(60);
    if (argc > 1 && !strcmp(argv[1], "slow_start") &&
        atoi(getenv("MC_RANK") ? getenv("MC_RANK") : "0") == 1)
        sleep(30);
    mc_comm_t *w;
    if (mc_init(&w) != MC_OK) {
        fprintf(stderr, "mc_init: %s\n", mc_last_error());
        return 1;
    }
    me = mc_comm_rank(w);
    if (argc < 2)
        return 2;
    if (!strcmp(argv[1], "early_exit"))
        return early_exit(w);
    if (!strcmp(argv[1], "split_death"))
        return split_death(w);
    if (!strcmp(argv[1], "first_death"))
        return first_death(w);
    if (!strcmp(argv[1], "stall"))
        return stall(w);
    if (!strcmp(argv[1], "slow_start"))
        sleep(30);
    return 2;
}
