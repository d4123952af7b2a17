/*
 * Bad arguments get MC_ERR_ARG and a message naming the argument, at once:
 * no crash, no hang. Runs under `manycoll run -n 2`:
 *   - every rank makes the same bad calls on a communicator of its own
 *     (one rank: nobody waits, so it stays usable);
 *   - then on the world, rank 0 alone makes a bad call while rank 1 calls
 *     correctly: rank 1's call fails with rank 0's error within a second
 *     (not at MC_TIMEOUT), and the world is unusable on both.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "manycoll.h"

static int failed;

#define EXPECT(call, status, word)                                           \
    expect_(#call, (call), status, word, __LINE__)

static void expect_(const char *what, int rc, int status, const char *word,
                    int line)
{
    const char *msg = mc_last_error();
    if (rc != status || (word && !strstr(msg, word))) {
        fprintf(stderr, "line %d: %s returned %d (%s), message '%s'; "
                        "expected %d mentioning '%s'\n",
                line, what, rc, mc_strerror(rc), msg, status,
                word ? word : "");
        failed++;
    }
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* rank 0's argument error reaches rank 1, in the same call, in < 1 s */
static void peer_learns(mc_comm_t *w)
{
    double x[2] = {1, 2}, y[2];
    int me = mc_comm_rank(w);
    double t0 = now();
    if (me == 0) /* scatter's root: MC_IN_PLACE belongs in rbuf, not sbuf */
        EXPECT(mc_scatter(w, MC_IN_PLACE, y, 1, MC_FLOAT64, 0), MC_ERR_ARG,
               "'sbuf'");
    else
        EXPECT(mc_scatter(w, x, y, 1, MC_FLOAT64, 0), MC_ERR_ARG,
               "rank 0");
    double t = now() - t0;
    if (t > 1.0) {
        fprintf(stderr, "rank %d: the error took %.2f s\n", me, t);
        failed++;
    }
    if (me == 1 && !strstr(mc_last_error(), "'sbuf'")) {
        fprintf(stderr, "rank 1: '%s' does not name the argument\n",
                mc_last_error());
        failed++;
    }
    EXPECT(mc_barrier(w), MC_ERR_ARG, "unusable");
}

int main(void)
{
    alarm(60); /* a hang is a failure too */
    mc_comm_t *w, *c;
    if (mc_init(&w) != MC_OK) {
        fprintf(stderr, "mc_init: %s\n", mc_last_error());
        return 1;
    }
    if (mc_comm_split(w, mc_comm_rank(w), 0, &c) != MC_OK) {
        fprintf(stderr, "mc_comm_split: %s\n", mc_last_error());
        return 1;
    }
    int n = mc_comm_size(c);
    double x[4] = {0}, y[4 * 64] = {0};
    EXPECT(mc_bcast(c, NULL, 4, MC_FLOAT64, 0), MC_ERR_ARG, "'buf'");
    EXPECT(mc_bcast(c, x, 4, MC_FLOAT64, n), MC_ERR_ARG, "'root'");
    EXPECT(mc_bcast(c, x, 4, MC_FLOAT64, -1), MC_ERR_ARG, "'root'");
    EXPECT(mc_bcast(c, x, 4, (mc_dtype_t)99, 0), MC_ERR_ARG, "'dt'");
    EXPECT(mc_bcast(NULL, x, 4, MC_FLOAT64, 0), MC_ERR_ARG, "'comm'");
    EXPECT(mc_allreduce(c, x, NULL, 4, MC_FLOAT64, MC_SUM), MC_ERR_ARG,
           "'rbuf'");
    EXPECT(mc_allreduce(c, NULL, y, 4, MC_FLOAT64, MC_SUM), MC_ERR_ARG,
           "'sbuf'");
    EXPECT(mc_allreduce(c, x, y, 4, MC_FLOAT64, (mc_op_t)42), MC_ERR_ARG,
           "'op'");
    EXPECT(mc_allreduce(c, x, y, 4, MC_FLOAT64, MC_BXOR), MC_ERR_ARG, "'op'");
    EXPECT(mc_allreduce(c, x, y, 4, MC_FLOAT64, (mc_op_t)(MC_OP_USER_BASE + 7)),
           MC_ERR_ARG, "'op'");
    EXPECT(mc_reduce(c, x, y, 4, MC_INT32, MC_SUM, 7 + n), MC_ERR_ARG,
           "'root'");
    EXPECT(mc_gather(c, x, NULL, 1, MC_FLOAT64, mc_comm_rank(c)), MC_ERR_ARG,
           "'rbuf'");
    EXPECT(mc_scatter(c, x, y, 1, MC_FLOAT64, -3), MC_ERR_ARG, "'root'");
    EXPECT(mc_allgather(c, x, MC_IN_PLACE, 1, MC_FLOAT64), MC_ERR_ARG,
           "'rbuf'");
    size_t one[1] = {1}, zero[1] = {0}, two[1] = {2};
    EXPECT(mc_allgatherv(c, x, 1, y, NULL, zero, MC_FLOAT64), MC_ERR_ARG,
           "'rcounts'");
    EXPECT(mc_allgatherv(c, x, 1, y, one, NULL, MC_FLOAT64), MC_ERR_ARG,
           "'displs'");
    EXPECT(mc_allgatherv(c, x, 2, y, one, zero, MC_FLOAT64), MC_ERR_ARG,
           "'scount'");
    EXPECT(mc_allgatherv(c, x, 1, NULL, one, zero, MC_FLOAT64), MC_ERR_ARG,
           "'rbuf'");
    EXPECT(mc_alltoallv(c, x, two, zero, y, one, zero, MC_FLOAT64),
           MC_ERR_ARG, "'scounts[rank]'");
    EXPECT(mc_gatherv(c, x, 1, y, one, zero, MC_FLOAT64, n), MC_ERR_ARG,
           "'root'");
    EXPECT(mc_scatterv(c, x, one, zero, y, 2, MC_FLOAT64, 0), MC_ERR_ARG,
           "'rcount'");
    EXPECT(mc_reduce_scatter(c, x, y, one, MC_FLOAT64, MC_BAND), MC_ERR_ARG,
           "'op'");
    EXPECT(mc_reduce_scatter(c, x, y, one, MC_2INT, MC_SUM), MC_ERR_ARG,
           "'op'");
    EXPECT(mc_allreduce(c, x, y, 1, MC_COMPLEX128, MC_MAX), MC_ERR_ARG,
           "'op'");
    EXPECT(mc_op_create(NULL, 1, NULL), MC_ERR_ARG, "'fn'");
    mc_comm_t *bad = (mc_comm_t *)1;
    EXPECT(mc_comm_create_shm("x", 3, 3, &bad), MC_ERR_ARG, "'rank'");
    EXPECT(mc_comm_create_shm("x", -1, 3, &bad), MC_ERR_ARG, "'rank'");
    EXPECT(mc_comm_create_shm("x", 0, 0, &bad), MC_ERR_ARG, "'size'");
    EXPECT(mc_comm_create_shm(NULL, 0, 1, &bad), MC_ERR_ARG, "'job'");
    EXPECT(mc_comm_create_shm("a/b", 0, 1, &bad), MC_ERR_ARG, "'job'");
    EXPECT(mc_comm_set_algo(c, "bcast", "nosuch"), MC_ERR_ARG, "binomial");
    EXPECT(mc_comm_set_algo(c, "bcast", "binomial:k=3"), MC_ERR_ARG, "'k'");
    EXPECT(mc_comm_set_algo(c, "nosuch", "binomial"), MC_ERR_ARG, "bcast");
    EXPECT(mc_comm_split(c, -5, 0, &bad), MC_ERR_ARG, "'color'");
    /* the communicator still works after all that */
    x[0] = 1;
    EXPECT(mc_allreduce(c, x, y, 1, MC_FLOAT64, MC_SUM), MC_OK, NULL);
    if (y[0] != n) {
        fprintf(stderr, "allreduce after errors gave %g, expected %d\n", y[0],
                n);
        failed++;
    }
    mc_comm_free(c);
    if (mc_comm_size(w) == 2)
        peer_learns(w);
    mc_finalize();
    if (failed)
        return 1;
    printf("test_errors: all bad calls refused with a message\n");
    return 0;
}
