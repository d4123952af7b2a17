/*
 * Non-blocking and persistent collectives beyond the walk (which runs
 * every algorithm in every form, one call at a time): several calls
 * outstanding on several communicators, completed in every order with
 * test and wait; ranks that start calls of different communicators in
 * different orders (MPI allows it; progress must be global or they hang);
 * a blocking call behind outstanding ones; persistent requests started
 * again with new inputs, and started in different orders on different
 * ranks (they match in init order); request errors; a duplicated communicator; and
 * (--die) a peer that dies
 * while a non-blocking call is outstanding.
 *
 *   manycoll run -n N test_nbc            shared memory
 *   manycoll run -n N test_nbc --die      rank 1 dies: the others' waits
 *                                         fail with MC_ERR_PEER_DEAD < 1 s
 *   test_nbc --sim PLATFORM N             N cores of a simulated chip
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "manycoll.h"
#include "sim_run.h"

#define FAIL(...)                                                            \
    do {                                                                     \
        fprintf(stderr, "rank %d: ", me);                                    \
        fprintf(stderr, __VA_ARGS__);                                        \
        fprintf(stderr, " (%s)\n", mc_last_error());                        \
        return 1;                                                            \
    } while (0)
#define OK(call)                                                             \
    do {                                                                     \
        int rc_ = (call);                                                    \
        if (rc_ != MC_OK)                                                    \
            FAIL("%s: %s", #call, mc_strerror(rc_));                         \
    } while (0)

enum { NREQ = 4, N = 37 };

/* four calls on two communicators; c2 numbers the ranks backwards */
typedef struct calls {
    int64_t sum_in[N], sum_out[N], bc[N], ag_in[2], *ag_out;
    mc_request_t *r[NREQ];
} calls_t;

static int start_calls(mc_comm_t *c1, mc_comm_t *c2, calls_t *k, int round,
                       int c2_first)
{
    int me = mc_comm_rank(c1);
    for (int i = 0; i < N; i++) {
        k->sum_in[i] = me * 1000 + i + round;
        k->sum_out[i] = -1;
        k->bc[i] = mc_comm_rank(c2) == 0 ? round * 7 + i : -1;
    }
    k->ag_in[0] = me, k->ag_in[1] = round;
    for (int pass = 0; pass < 2; pass++) {
        if ((pass == 0) == !c2_first) { /* c1's two calls, in order */
            OK(mc_iallreduce(c1, k->sum_in, k->sum_out, N, MC_INT64, MC_SUM,
                             &k->r[0]));
            OK(mc_iallgather(c1, k->ag_in, k->ag_out, 2, MC_INT64, &k->r[2]));
        } else {                        /* c2's two */
            OK(mc_ibcast(c2, k->bc, N, MC_INT64, 0, &k->r[1]));
            OK(mc_ibarrier(c2, &k->r[3]));
        }
    }
    return 0;
}

static int check_calls(const calls_t *k, int n, int round, int me)
{
    for (int i = 0; i < N; i++) {
        int64_t want = 1000LL * n * (n - 1) / 2 + (int64_t)n * (i + round);
        if (k->sum_out[i] != want)
            FAIL("round %d: iallreduce[%d] = %lld, want %lld", round, i,
                 (long long)k->sum_out[i], (long long)want);
        if (k->bc[i] != round * 7 + i)
            FAIL("round %d: ibcast[%d] = %lld", round, i,
                 (long long)k->bc[i]);
    }
    for (int q = 0; q < n; q++)
        if (k->ag_out[2 * q] != q || k->ag_out[2 * q + 1] != round)
            FAIL("round %d: iallgather block %d wrong", round, q);
    return 0;
}

/* completes the four requests in the order of `how` */
static int complete(calls_t *k, int how, int me)
{
    static const int orders[4][NREQ] = {
        {0, 1, 2, 3}, {3, 2, 1, 0}, {1, 3, 0, 2}, {2, 0, 3, 1}};
    if (how == 4) { /* waitall */
        OK(mc_waitall(NREQ, k->r));
        for (int i = 0; i < NREQ; i++)
            if (k->r[i])
                FAIL("mc_waitall left request %d set", i);
        return 0;
    }
    if (how == 5) { /* test every one, round robin, until all are done */
        for (int left = NREQ; left;)
            for (int i = 0; i < NREQ; i++) {
                int done = 0;
                if (!k->r[i])
                    continue;
                OK(mc_test(k->r[i], &done));
                if (done)
                    k->r[i] = NULL, left--;
            }
        return 0;
    }
    for (int j = 0; j < NREQ; j++)
        OK(mc_wait(k->r[orders[how][j]]));
    return 0;
}

static int persistent(mc_comm_t *c, int me, int n)
{
    int64_t in[N], out[N];
    mc_request_t *r;
    OK(mc_allreduce_init(c, in, out, N, MC_INT64, MC_MAX, &r));
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < N; i++)
            in[i] = (me == (i + round) % n) ? 100 + round : round;
        OK(mc_start(r));
        if (mc_start(r) != MC_ERR_ARG)
            FAIL("mc_start of an active request did not fail");
        mc_request_t *tmp = r;
        if (mc_request_free(&tmp) != MC_ERR_ARG || tmp != r)
            FAIL("mc_request_free of an active request did not fail");
        OK(mc_wait(r));
        for (int i = 0; i < N; i++)
            if (out[i] != 100 + round)
                FAIL("persistent round %d: out[%d] = %lld", round, i,
                     (long long)out[i]);
    }
    int done = 0;
    OK(mc_test(r, &done)); /* inactive: done */
    if (!done)
        FAIL("mc_test of an inactive request: not done");
    OK(mc_request_free(&r));
    if (r)
        FAIL("mc_request_free did not clear the handle");
    return 0;
}

/* Persistent calls match in init order (MPI 4; MPICH's coll/p_order):
 * odd ranks start them in the other order, and a blocking call behind
 * them completes them first. A request freed on some ranks only leaves
 * its context in use on the others: the next init must not take it. */
static int init_order(mc_comm_t *c, int me, int n)
{
    int64_t a = me + 1, sa = -1, b = -1, g[2] = {me, -me}, x = 7 * me, y;
    int64_t *ag = calloc((size_t)n * 2, sizeof(int64_t));
    mc_request_t *r[3], *d;
    OK(mc_allreduce_init(c, &a, &sa, 1, MC_INT64, MC_SUM, &r[0]));
    OK(mc_bcast_init(c, &b, 1, MC_INT64, n - 1, &r[1]));
    OK(mc_allgather_init(c, g, ag, 2, MC_INT64, &r[2]));
    for (int round = 0; round < 2; round++) {
        b = me == n - 1 ? 40 + round : -1;
        for (int j = 0; j < 3; j++)
            OK(mc_start(r[me & 1 ? 2 - j : j]));
        if (round == 1) /* completes the three first, in any order */
            OK(mc_allreduce(c, &x, &y, 1, MC_INT64, MC_SUM));
        for (int j = 0; j < 3; j++)
            OK(mc_wait(r[(j + me) % 3]));
        if (sa != (int64_t)n * (n + 1) / 2 || b != 40 + round)
            FAIL("init order, round %d: sum %lld, bcast %lld", round,
                 (long long)sa, (long long)b);
        for (int i = 0; i < n; i++)
            if (ag[2 * i] != i || ag[2 * i + 1] != -i)
                FAIL("init order, round %d: allgather[%d]", round, i);
    }
    /* a blocking call on some ranks while their started request is
     * still open: it must complete that request first, since the other
     * ranks wait for it before they make the blocking call */
    b = me == n - 1 ? 77 : -1;
    OK(mc_start(r[1]));
    if (me & 1)
        OK(mc_wait(r[1]));
    OK(mc_allreduce(c, &x, &y, 1, MC_INT64, MC_SUM));
    if (!(me & 1))
        OK(mc_wait(r[1]));
    if (b != 77)
        FAIL("init order: bcast %lld behind a blocking call", (long long)b);
    if (!(me & 1))
        OK(mc_request_free(&r[0])); /* odd ranks still hold its context */
    OK(mc_allreduce_init(c, &a, &sa, 1, MC_INT64, MC_MAX, &d));
    if (me & 1)
        OK(mc_request_free(&r[0]));
    OK(mc_start(d));
    OK(mc_start(r[1]));
    OK(mc_wait(r[1]));
    OK(mc_wait(d));
    if (sa != n)
        FAIL("init order: max %lld after a free on some ranks", (long long)sa);
    OK(mc_request_free(&d));
    OK(mc_request_free(&r[1]));
    OK(mc_request_free(&r[2]));
    free(ag);
    return 0;
}

/* a blocking call behind two outstanding ones of its communicator */
static int behind(mc_comm_t *c, int me, int n)
{
    int64_t a = me, b = 2 * me, x = -1, y = -1, z = 3 * me, w = -1;
    mc_request_t *r1, *r2;
    OK(mc_iallreduce(c, &a, &x, 1, MC_INT64, MC_SUM, &r1));
    OK(mc_iallreduce(c, &b, &y, 1, MC_INT64, MC_SUM, &r2));
    OK(mc_allreduce(c, &z, &w, 1, MC_INT64, MC_SUM));
    int64_t s = (int64_t)n * (n - 1) / 2;
    if (w != 3 * s)
        FAIL("blocking allreduce behind two: %lld", (long long)w);
    OK(mc_wait(r2));
    OK(mc_wait(r1));
    if (x != s || y != 2 * s)
        FAIL("the two before it: %lld %lld", (long long)x, (long long)y);
    if (mc_iallreduce(c, &a, &x, 1, MC_INT64, MC_SUM, NULL) != MC_ERR_ARG ||
        !strstr(mc_last_error(), "'req'"))
        FAIL("a NULL req was not named");
    return 0;
}

/* a duplicate's call outstanding while the original runs blocking ones */
static int dup_comm(mc_comm_t *c, int me, int n)
{
    mc_comm_t *d;
    OK(mc_comm_dup(c, &d));
    if (mc_comm_rank(d) != me || mc_comm_size(d) != n)
        FAIL("mc_comm_dup: rank %d of %d", mc_comm_rank(d), mc_comm_size(d));
    int64_t v = me + 1, s = -1, x = 10 * me, y = -1;
    mc_request_t *r, *p;
    OK(mc_barrier_init(d, &p)); /* freed after d: its context outlives d */
    OK(mc_iallreduce(d, &v, &s, 1, MC_INT64, MC_SUM, &r));
    OK(mc_allreduce(c, &x, &y, 1, MC_INT64, MC_SUM));
    OK(mc_barrier(c));
    OK(mc_wait(r));
    if (s != (int64_t)n * (n + 1) / 2 || y != 10LL * n * (n - 1) / 2)
        FAIL("dup: %lld and %lld", (long long)s, (long long)y);
    OK(mc_comm_free(d));
    OK(mc_request_free(&p));
    return 0;
}

static int program(mc_comm_t *c1)
{
    int me = mc_comm_rank(c1), n = mc_comm_size(c1);
    mc_comm_t *c2;
    OK(mc_comm_split(c1, 0, n - 1 - me, &c2));
    /* algorithms of several rounds, whose later sends wait for earlier
     * receives: a rank that does not progress a call holds its peers up */
    OK(mc_comm_set_algo(c1, "allreduce", "ring"));
    OK(mc_comm_set_algo(c1, "allgather", "ring"));
    OK(mc_comm_set_algo(c2, "bcast", "binomial"));
    OK(mc_comm_set_algo(c2, "barrier", "dissemination"));
    calls_t k;
    k.ag_out = calloc((size_t)n * 2, sizeof(int64_t));
    int round = 0;
    for (int how = 0; how < 6; how++)
        for (int c2_first = 0; c2_first < 2; c2_first++, round++) {
            /* odd ranks start the other communicator first */
            if (start_calls(c1, c2, &k, round, c2_first ^ (me & 1)) ||
                complete(&k, how, me) || check_calls(&k, n, round, me))
                return 1;
        }
    free(k.ag_out);
    if (persistent(c2, me, n) || init_order(c1, me, n) ||
        behind(c1, me, n) || dup_comm(c1, me, n))
        return 1;
    OK(mc_comm_free(c2));
    return 0;
}

/* ---- --die: rank 1 dies inside its reduction op ---- */

static void die_in_op(const void *in, void *io, size_t cnt, mc_dtype_t dt)
{
    (void)in, (void)io, (void)cnt, (void)dt;
    raise(SIGKILL);
}

static int die(mc_comm_t *c)
{
    int me = mc_comm_rank(c);
    mc_op_t op;
    OK(mc_op_create(die_in_op, 1, &op));
    OK(mc_comm_set_algo(c, "reduce", "binomial"));
    static int64_t buf[1024], out[1024];
    OK(mc_barrier(c));
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    mc_request_t *r, *b;
    OK(mc_ireduce(c, buf, out, 1024, MC_INT64, me == 1 ? op : MC_SUM, 1,
                  &r));
    OK(mc_ibarrier(c, &b));
    int rc = mc_wait(r), rc_b = mc_wait(b); /* both complete, failed */
    rc = rc != MC_OK ? rc : rc_b;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double dt = (double)(t1.tv_sec - t0.tv_sec) +
                (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    if (rc == MC_ERR_PEER_DEAD && strstr(mc_last_error(), "rank 1") &&
        dt < 1.0) {
        printf("rank %d: MC_ERR_PEER_DEAD after %.3f s: %s\n", me, dt,
               mc_last_error());
        return 0;
    }
    FAIL("the waits returned %d after %.3f s", rc, dt);
}

/* ---- the simulator ---- */

static int sim_rank(mc_comm_t *c, int rank, void *arg)
{
    (void)rank, (void)arg;
    return program(c);
}

static int on_sim(const char *platform, int n)
{
    int rc = sim_run("test_nbc", platform, n, sim_rank);
    mc_finalize(); /* the pooled requests */
    return rc;
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "--sim"))
        return on_sim(argv[2], atoi(argv[3]));
    mc_comm_t *c;
    if (mc_init(&c) != MC_OK) {
        fprintf(stderr, "test_nbc: mc_init: %s\n", mc_last_error());
        return 1;
    }
    int rc = argc > 1 && !strcmp(argv[1], "--die") ? die(c) : program(c);
    if (rc == 0 && mc_comm_rank(c) == 0)
        printf("test_nbc: %d ranks: ok\n", mc_comm_size(c));
    mc_finalize();
    return rc;
}
