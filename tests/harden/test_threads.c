/*
 * Threads and manycoll (docs/security.md, "Threads"):
 *
 *   test_threads comm   (under `manycoll run -n N`): each rank creates
 *       its world in a thread that then exits, splits it from another
 *       thread, and uses both at the same time from two more; rank 0 is
 *       slow, so its peers wait long enough to check its liveness. The
 *       creating thread's exit must not read as the rank's death.
 *   test_threads ops [N]  threads create and free user ops at the same
 *       time, N times each: no two may hold the same op.
 *
 * Both also run in the ThreadSanitizer build (tests/harden.cmake).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "manycoll.h"

static mc_comm_t *world, *half;
static int failed;

static void fail(const char *what, int rc)
{
    fprintf(stderr, "test_threads: %s: %d (%s): %s\n", what, rc,
            mc_strerror(rc), mc_last_error());
    failed = 1;
}

static void *create_world(void *arg)
{
    (void)arg;
    int rc = mc_init(&world);
    if (rc != MC_OK)
        fail("mc_init in a thread", rc);
    return NULL;
}

static void *split_it(void *arg)
{
    (void)arg;
    int rc = mc_comm_split(world, mc_comm_rank(world) % 2, 0, &half);
    if (rc != MC_OK)
        fail("mc_comm_split in another thread", rc);
    return NULL;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* thread 1: allreduce on the world; rank 0 is slow, so the others wait
 * and check its liveness */
static void *use_world(void *arg)
{
    (void)arg;
    int me = mc_comm_rank(world), n = mc_comm_size(world);
    for (int i = 0; i < 20 && !failed; i++) {
        if (me == 0)
            sleep_ms(30);
        long x = me + 1, y = 0;
        int rc = mc_allreduce(world, &x, &y, 1, MC_INT64, MC_SUM);
        if (rc != MC_OK || y != (long)n * (n + 1) / 2) {
            fail("allreduce on the world, in a third thread", rc);
            break;
        }
    }
    return NULL;
}

/* thread 2, at the same time: barriers on the split */
static void *use_half(void *arg)
{
    (void)arg;
    for (int i = 0; i < 200 && !failed; i++) {
        int rc = mc_barrier(half);
        if (rc != MC_OK) {
            fail("barrier on the split, in a fourth thread", rc);
            break;
        }
    }
    return NULL;
}

static int run_thread(void *(*fn)(void *))
{
    pthread_t t;
    if (pthread_create(&t, NULL, fn, NULL) != 0)
        return 1;
    return pthread_join(t, NULL);
}

static int comm_test(void)
{
    run_thread(create_world); /* this thread exits after mc_init */
    if (!failed)
        run_thread(split_it);
    if (!failed) { /* two communicators, used at the same time */
        pthread_t a, b;
        pthread_create(&a, NULL, use_world, NULL);
        pthread_create(&b, NULL, use_half, NULL);
        pthread_join(a, NULL);
        pthread_join(b, NULL);
    }
    if (!failed)
        printf("test_threads comm: rank %d: world made in an exited "
               "thread, split and both used at once from others: fine\n",
               mc_comm_rank(world));
    mc_finalize();
    return failed;
}

/* ---- ops from several threads ---- */

#define NT 4
static _Atomic int owner[128]; /* op - MC_OP_USER_BASE -> thread + 1 */
static _Atomic int dups;
static pthread_barrier_t start;

static void op_fn(const void *in, void *io, size_t n, mc_dtype_t dt)
{
    (void)in, (void)io, (void)n, (void)dt;
}

/* creates and frees ops in a loop; an op that another thread holds at the
 * same time is a duplicate */
static void *churn(void *arg)
{
    int me = (int)(long)arg + 1, rounds = atomic_load(&owner[127]);
    pthread_barrier_wait(&start);
    for (int k = 0; k < rounds; k++) {
        mc_op_t op;
        if (mc_op_create(op_fn, k % 2, &op) != MC_OK) {
            atomic_fetch_add(&dups, 1);
            continue;
        }
        int i = (int)op - MC_OP_USER_BASE, free_slot = 0;
        if (i < 0 || i >= 64 ||
            !atomic_compare_exchange_strong(&owner[i], &free_slot, me)) {
            atomic_fetch_add(&dups, 1);
            continue; /* leave it: the other holder frees it */
        }
        atomic_store(&owner[i], 0);
        mc_op_free(&op);
    }
    return NULL;
}

static int ops_test(int rounds)
{
    pthread_t t[NT];
    atomic_store(&owner[127], rounds);
    pthread_barrier_init(&start, NULL, NT);
    for (long i = 0; i < NT; i++)
        pthread_create(&t[i], NULL, churn, (void *)i);
    for (int i = 0; i < NT; i++)
        pthread_join(t[i], NULL);
    if (dups) {
        fprintf(stderr, "test_threads ops: %d times two threads held the "
                        "same op (of %d x %d creations)\n", dups, NT,
                rounds);
        return 1;
    }
    printf("test_threads ops: %d threads x %d op creations: never the same "
           "op twice\n", NT, rounds);
    return 0;
}

int main(int argc, char **argv)
{
    alarm(120);
    if (argc > 1 && !strcmp(argv[1], "comm"))
        return comm_test();
    if (argc > 1 && !strcmp(argv[1], "ops"))
        return ops_test(argc > 2 ? atoi(argv[2]) : 100000);
    fprintf(stderr, "usage: test_threads comm|ops [rounds]\n");
    return 2;
}
