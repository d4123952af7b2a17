/*
 * icount_calls: the small calls of bench/icount_check.py, through the
 * public API only (it also builds against old revisions, for a bisect).
 *
 *   icount_calls JOB RANK SIZE CALLS COLL[,COLL...] [BYTES] [MAPS]
 *
 * Joins the shared-memory communicator JOB (mc_comm_create_shm) as RANK of
 * SIZE, then for each collective (barrier, allreduce, bcast, reduce,
 * allgather, alltoall; float64 SUM, root 0) runs 64 warm-up calls
 * and CALLS measured ones. Every measured call is preceded by a call of
 * icount_mark_call() and the last one followed by icount_mark_end(): a
 * valgrind tool that traces instructions (lackey) sees where each call
 * starts and ends. Under callgrind, collection is on only around the
 * measured calls (run it with --collect-atstart=no). MAPS, if given, gets
 * a copy of /proc/self/maps once the communicator exists (where the
 * shared segment and the library lie) and the marks' addresses.
 * Natively the marks and the client requests cost a few instructions.
 *
 * Built with -DICOUNT_MPI (icount_calls_mpi_<variant>, one per MPI variant
 * of libmanycoll_mpi, bench/icount_check.py --mpi), the same calls are
 * MPI's on MPI_COMM_WORLD (MPI_DOUBLE, MPI_SUM): run under mpirun with
 * libmanycoll_mpi preloaded, what is counted is the drop-in's path, MPI
 * entry point and all. JOB, RANK and SIZE are then ignored.
 */
#include <alloca.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef ICOUNT_MPI
#include <mpi.h>
typedef MPI_Comm comm_t;
#else
#include "manycoll.h"
typedef mc_comm_t *comm_t;
#endif

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#endif
#endif
#ifndef CALLGRIND_TOGGLE_COLLECT
#define CALLGRIND_TOGGLE_COLLECT
#endif

/* more than the 32 line slots of coll/fast.h: the measured calls are in
 * the steady state, where a call checks that its slot is free */
#define WARMUP 64

void icount_mark_call(void);
void icount_mark_end(void);

__attribute__((noinline)) void icount_mark_call(void)
{
    __asm__ __volatile__("" ::: "memory");
}

__attribute__((noinline)) void icount_mark_end(void)
{
    __asm__ __volatile__("" ::: "memory");
}

static double sbuf[512], rbuf[512 * 2];

/* the function the measured loop calls: the dispatch on the name happens
 * once, outside the marks */
typedef int (*call_fn)(comm_t, size_t);
#define CALL(name, expr)                                                     \
    static int call_##name(comm_t c, size_t n)                               \
    {                                                                        \
        (void)n;                                                             \
        return expr;                                                         \
    }
#ifdef ICOUNT_MPI
#define CNT ((int)n)
CALL(barrier, MPI_Barrier(c))
CALL(allreduce, MPI_Allreduce(sbuf, rbuf, CNT, MPI_DOUBLE, MPI_SUM, c))
CALL(bcast, MPI_Bcast(rbuf, CNT, MPI_DOUBLE, 0, c))
CALL(reduce, MPI_Reduce(sbuf, rbuf, CNT, MPI_DOUBLE, MPI_SUM, 0, c))
CALL(allgather, MPI_Allgather(sbuf, CNT, MPI_DOUBLE, rbuf, CNT, MPI_DOUBLE,
                              c))
CALL(alltoall, MPI_Alltoall(sbuf, CNT, MPI_DOUBLE, rbuf, CNT, MPI_DOUBLE, c))
#else
CALL(barrier, mc_barrier(c))
CALL(allreduce, mc_allreduce(c, sbuf, rbuf, n, MC_FLOAT64, MC_SUM))
CALL(bcast, mc_bcast(c, rbuf, n, MC_FLOAT64, 0))
CALL(reduce, mc_reduce(c, sbuf, rbuf, n, MC_FLOAT64, MC_SUM, 0))
CALL(allgather, mc_allgather(c, sbuf, rbuf, n, MC_FLOAT64))
CALL(alltoall, mc_alltoall(c, sbuf, rbuf, n, MC_FLOAT64))
#endif

static call_fn lookup(const char *coll)
{
    static const struct { const char *name; call_fn fn; } t[] = {
        {"barrier", call_barrier}, {"allreduce", call_allreduce},
        {"bcast", call_bcast}, {"reduce", call_reduce},
        {"allgather", call_allgather}, {"alltoall", call_alltoall}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (!strcmp(coll, t[i].name))
            return t[i].fn;
    fprintf(stderr, "icount_calls: unknown collective '%s'\n", coll);
    exit(2);
}

static void write_maps(const char *path)
{
    FILE *in = fopen("/proc/self/maps", "r"), *out = fopen(path, "w");
    if (!in || !out) {
        perror(path);
        exit(2);
    }
    fprintf(out, "mark_call %p\nmark_end %p\n", (void *)icount_mark_call,
            (void *)icount_mark_end);
    char line[4096];
    while (fgets(line, sizeof line, in))
        fputs(line, out);
    fclose(in);
    fclose(out);
}

static __attribute__((noinline)) int measure(comm_t c, const char *coll, size_t count, int calls)
{
    call_fn fn = lookup(coll);
    for (int i = 0; i < WARMUP; i++)
        if (fn(c, count))
            return 1;
    CALLGRIND_TOGGLE_COLLECT;
    int rc = 0;
    for (int i = 0; i < calls && !rc; i++) {
        icount_mark_call();
        rc = fn(c, count);
    }
    icount_mark_end();
    CALLGRIND_TOGGLE_COLLECT;
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: icount_calls JOB RANK SIZE CALLS "
                        "COLL[,COLL...] [BYTES] [MAPS]\n");
        return 2;
    }
    int rank = atoi(argv[2]), size = atoi(argv[3]), calls = atoi(argv[4]);
    size_t bytes = argc > 6 ? (size_t)atol(argv[6]) : 8;
    size_t count = bytes / sizeof(double);
    if (count < 1 || count > 512) {
        fprintf(stderr, "icount_calls: BYTES must be 8 to 4096\n");
        return 2;
    }
#ifdef ICOUNT_MPI
    (void)rank;
    (void)size;
    MPI_Init(&argc, &argv);
    comm_t c = MPI_COMM_WORLD;
    MPI_Barrier(c); /* the drop-in's shared segment exists from here */
#else
    comm_t c;
    if (mc_comm_create_shm(argv[1], rank, size, &c)) {
        fprintf(stderr, "icount_calls: %s\n", mc_last_error());
        return 1;
    }
#endif
    if (argc > 7)
        write_maps(argv[7]);
    /* the measured calls' stack frames at the same offset in their 64-byte
     * lines whatever the environment's size (which moves the stack):
     * their line count does not change from one run to the next */
    uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
    volatile char *pad = alloca(64 + (sp & 63));
    pad[0] = 0;
    char *colls = strdup(argv[5]);
    for (char *s = strtok(colls, ","); s; s = strtok(NULL, ","))
        if (measure(c, s, count, calls)) {
            fprintf(stderr, "icount_calls: %s failed\n", s);
            return 1;
        }
    free(colls);
#ifdef ICOUNT_MPI
    MPI_Finalize();
#else
    mc_comm_free(c);
#endif
    return 0;
}
