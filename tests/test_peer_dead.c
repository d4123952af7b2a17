/*
 * A rank killed with SIGKILL in the middle of a collective: the others
 * must return MC_ERR_PEER_DEAD, naming the dead rank, within a second.
 * Rank 1 kills itself from inside a user reduction op, i.e. while the
 * allreduce is under way. Run as `manycoll run -n N test_peer_dead`;
 * tests/expect_run.sh checks that the launcher names rank 1.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "manycoll.h"

static void die_in_op(const void *in, void *io, size_t n, mc_dtype_t dt)
{
    (void)in, (void)io, (void)n, (void)dt;
    raise(SIGKILL);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(void)
{
    alarm(30);
    mc_comm_t *c;
    if (mc_init(&c) != MC_OK)
        return 1;
    int me = mc_comm_rank(c), n = mc_comm_size(c);
    mc_op_t op;
    mc_op_create(die_in_op, 1, &op);
    /* a reduce to rank 1: rank 1 combines its children's data with the
     * killing op, so it dies while the others are sending to it or waiting
     * further down the tree. Ranks that finish the reduce before the death
     * meet it in the barrier that follows. */
    mc_comm_set_algo(c, "reduce", "binomial");
    static long buf[1024], out[1024];
    mc_barrier(c);
    double t0 = now_s();
    int rc = mc_reduce(c, buf, out, 1024, MC_INT64, me == 1 ? op : MC_SUM,
                       1);
    if (rc == MC_OK)
        rc = mc_barrier(c);
    double dt = now_s() - t0;
    (void)n;
    if (rc == MC_ERR_PEER_DEAD && strstr(mc_last_error(), "rank 1") &&
        dt < 1.0) {
        printf("rank %d: MC_ERR_PEER_DEAD after %.3f s: %s\n", me, dt,
               mc_last_error());
        return 0;
    }
    fprintf(stderr, "rank %d: allreduce returned %d (%s) after %.3f s: %s\n",
            me, rc, mc_strerror(rc), dt, mc_last_error());
    return 1;
}
