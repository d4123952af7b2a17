/*
 * Ranks that disagree on a collective's arguments (run under `manycoll
 * run -n 3` or more):
 *
 *   test_mismatch bounds   single copy, no checking mode: a rank whose
 *       count is larger than a peer's must not read past the peer's
 *       buffer: it fails with MC_ERR_ARG naming both counts, and every
 *       other rank fails too (no hang, no MC_OK);
 *   test_mismatch check    MC_CHECK_ARGS=1: count, datatype, root, op,
 *       collective, a rank (or the root) skipping a call, a count of 0 on
 *       one rank: MC_ERR_ARG on every rank within a second or two.
 *
 * Each case runs on a fresh communicator split from the world (a failed
 * call makes its communicator unusable).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "manycoll.h"

#define BIG (1 << 17) /* doubles: 1 MiB, the single-copy algorithms */

static double *sb, *rb;
static int me, np, failed;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef int (*case_fn)(mc_comm_t *c, int me);

/* runs one case on a fresh communicator: every rank must fail with
 * `want` (MC_ERR_ARG where it is the reader, any error elsewhere if
 * want_everywhere is 0) within 3 s; without the checking mode a rank
 * whose part was done before the error (a broadcast's or scatter's
 * reader, a gather's sender: no one waits for it) may return MC_OK, and
 * then its next call on the communicator fails */
static void run_case(mc_comm_t *w, const char *name, case_fn fn,
                     const char *word, int arg_everywhere)
{
    mc_comm_t *c;
    if (mc_comm_split(w, 0, me, &c) != MC_OK) {
        fprintf(stderr, "%s: split: %s\n", name, mc_last_error());
        exit(1);
    }
    double t0 = now_s();
    int rc = fn(c, me);
    double dt = now_s() - t0;
    mc_barrier(w); /* every rank is done with the case */
    if (rc == MC_OK && !arg_everywhere) { /* c is broken all the same */
        t0 = now_s();
        rc = mc_barrier(c);
        dt = now_s() - t0;
    }
    const char *msg = mc_last_error();
    int ok = rc < 0 && dt < 3 && (!arg_everywhere || rc == MC_ERR_ARG) &&
             (rc != MC_ERR_ARG || !word || strstr(msg, word));
    if (!ok) {
        fprintf(stderr, "rank %d, %s: returned %d (%s) after %.2f s: %s\n",
                me, name, rc, mc_strerror(rc), dt, msg);
        failed++;
    } else if (me == 0) {
        printf("%-28s rank 0: %s\n", name, msg);
    }
    mc_barrier(w);
    mc_comm_free(c);
    mc_barrier(w); /* the world is untouched by the case */
}

/* ---- single copy, no checking mode ---- */

static int ag_count(mc_comm_t *c, int r)
{
    mc_comm_set_algo(c, "allgather", "direct");
    return mc_allgather(c, sb, rb, r == 1 ? BIG / np : BIG / np / 2,
                        MC_FLOAT64);
}

static int a2a_count(mc_comm_t *c, int r)
{
    mc_comm_set_algo(c, "alltoall", "direct");
    return mc_alltoall(c, sb, rb, r == 2 ? BIG / np : BIG / np / 2,
                       MC_FLOAT64);
}

static int ar_count(mc_comm_t *c, int r)
{
    mc_comm_set_algo(c, "allreduce", "direct");
    return mc_allreduce(c, sb, rb, r == 0 ? BIG : BIG / 2, MC_FLOAT64,
                        MC_SUM);
}

static int rsb_count(mc_comm_t *c, int r)
{
    mc_comm_set_algo(c, "reduce_scatter_block", "direct");
    return mc_reduce_scatter_block(c, sb, rb, r == 1 ? BIG / np : 100,
                                   MC_FLOAT64, MC_SUM);
}

/* rank 1 thinks every block is larger: its reads pass the others' input */
static int rs_counts(mc_comm_t *c, int r)
{
    size_t rc[64];
    for (int q = 0; q < np && q < 64; q++)
        rc[q] = r == 1 ? BIG / np : 100;
    mc_comm_set_algo(c, "reduce_scatter", "direct");
    return mc_reduce_scatter(c, sb, rb, rc, MC_FLOAT64, MC_SUM);
}

static int bc_count(mc_comm_t *c, int r)
{
    mc_comm_set_algo(c, "bcast", "direct");
    return mc_bcast(c, sb, r == 0 ? BIG / 4 : BIG, MC_FLOAT64, 0);
}

/* rank 1 thinks the blocks are larger: it would write past the root's
 * receive buffer (gather) or read past its send buffer (scatter) */
static int ga_count(mc_comm_t *c, int r)
{
    mc_comm_set_algo(c, "gather", "direct");
    return mc_gather(c, sb, rb, r == 1 ? BIG / np : BIG / np / 2,
                     MC_FLOAT64, 0);
}

static int sc_count(mc_comm_t *c, int r)
{
    mc_comm_set_algo(c, "scatter", "direct");
    return mc_scatter(c, sb, rb, r == 1 ? BIG / np : BIG / np / 2,
                      MC_FLOAT64, 0);
}

static int red_count(mc_comm_t *c, int r)
{
    mc_comm_set_algo(c, "reduce", "direct");
    return mc_reduce(c, sb, rb, r == 2 ? BIG / 2 : BIG, MC_FLOAT64, MC_SUM,
                     0);
}

/* the root passes a larger count than rank 2: it reads past rank 2's */
static int red_root_count(mc_comm_t *c, int r)
{
    mc_comm_set_algo(c, "reduce", "direct-root");
    return mc_reduce(c, sb, rb, r == 2 ? BIG / 2 : BIG, MC_FLOAT64, MC_SUM,
                     0);
}

/* ---- MC_CHECK_ARGS=1 ---- */

static int ck_count(mc_comm_t *c, int r)
{
    return mc_allreduce(c, sb, rb, r == 2 ? 11 : 10, MC_FLOAT64, MC_SUM);
}

static int ck_dtype(mc_comm_t *c, int r)
{
    return mc_bcast(c, sb, 4, r == 1 ? MC_INT64 : MC_FLOAT64, 0);
}

static int ck_root(mc_comm_t *c, int r)
{
    return mc_bcast(c, sb, 4, MC_FLOAT64, r == 2 ? 1 : 0);
}

static int ck_op(mc_comm_t *c, int r)
{
    return mc_allreduce(c, sb, rb, 4, MC_FLOAT64, r == 0 ? MC_MAX : MC_SUM);
}

static int ck_coll(mc_comm_t *c, int r)
{
    if (r == 1)
        return mc_allreduce(c, sb, rb, 4, MC_FLOAT64, MC_SUM);
    return mc_bcast(c, sb, 4, MC_FLOAT64, 0);
}

static int ck_skip(mc_comm_t *c, int r)
{
    int rc = r == 2 ? MC_OK : mc_bcast(c, sb, 4, MC_FLOAT64, 0);
    return rc == MC_OK ? mc_allreduce(c, sb, rb, 4, MC_FLOAT64, MC_SUM) : rc;
}

static int ck_root_skips(mc_comm_t *c, int r)
{
    int rc = r == 0 ? MC_OK : mc_bcast(c, sb, BIG, MC_FLOAT64, 0);
    return rc == MC_OK ? mc_barrier(c) : rc;
}

static int ck_zero(mc_comm_t *c, int r)
{
    return mc_allgather(c, sb, rb, r == 1 ? 0 : 8, MC_FLOAT64);
}

static int ck_big(mc_comm_t *c, int r)
{
    return mc_allgather(c, sb, rb, r == 1 ? BIG / np : BIG / np - 1,
                        MC_FLOAT64);
}

int main(int argc, char **argv)
{
    alarm(120);
    mc_comm_t *w;
    if (mc_init(&w) != MC_OK) {
        fprintf(stderr, "mc_init: %s\n", mc_last_error());
        return 1;
    }
    me = mc_comm_rank(w);
    np = mc_comm_size(w);
    sb = calloc(2 * BIG, sizeof(double));
    rb = calloc(2 * BIG, sizeof(double));
    if (np < 3 || argc < 2)
        return fprintf(stderr, "usage: run -n 3+ test_mismatch "
                               "bounds|check\n"), 2;
    if (!strcmp(argv[1], "bounds")) {
        run_case(w, "allgather count", ag_count, "count", 0);
        run_case(w, "alltoall count", a2a_count, "count", 0);
        run_case(w, "allreduce count", ar_count, "count", 0);
        run_case(w, "reduce_scatter_block count", rsb_count, "count", 0);
        run_case(w, "reduce_scatter rcounts", rs_counts, "rcounts summing",
                 0);
        run_case(w, "bcast count", bc_count, "count", 0);
        run_case(w, "gather count", ga_count, "count", 0);
        run_case(w, "scatter count", sc_count, "count", 0);
        run_case(w, "reduce count", red_count, "count", 0);
        run_case(w, "reduce (root alone) count", red_root_count, "count",
                 0);
    } else {
        run_case(w, "count", ck_count, "differ", 1);
        run_case(w, "datatype", ck_dtype, "differ", 1);
        run_case(w, "root", ck_root, "differ", 1);
        run_case(w, "op", ck_op, "differ", 1);
        run_case(w, "collective", ck_coll, "differ", 1);
        run_case(w, "a rank skips a call", ck_skip, "differ", 1);
        run_case(w, "the root skips a bcast", ck_root_skips, "differ", 1);
        run_case(w, "count 0 on one rank", ck_zero, "differ", 1);
        run_case(w, "large count", ck_big, "differ", 1);
    }
    mc_finalize();
    if (failed)
        return 1;
    if (me == 0)
        printf("test_mismatch %s: every rank failed at once, every case\n",
               argv[1]);
    return 0;
}
