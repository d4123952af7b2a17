/*
 * mpi_compare: the MPI collective and the manycoll collective side by side,
 * in the same processes. Shared between mpi_compare.c (options, timing
 * loop, statistics, report) and mpi_cases.c (buffers, calls, checks).
 */
#ifndef MPI_COMPARE_H
#define MPI_COMPARE_H

#include <stddef.h>

#include <mpi.h>

#include <manycoll.h>

typedef enum {
    CO_BARRIER,
    CO_BCAST,
    CO_REDUCE,
    CO_ALLREDUCE,
    CO_ALLGATHER,
    CO_ALLTOALL,
    CO_REDUCE_SCATTER_BLOCK,
    CO_ALL, /* the above are --colls all; those below only when named */
    CO_GATHER = CO_ALL,
    CO_SCATTER,
    CO_COUNT
} coll_t;

enum { LIB_MPI = 0, LIB_MC = 1, LIB_COUNT };

/* One case on one rank: a collective at one size, with a send and a
 * receive buffer per library (same contents, never shared, so neither
 * library warms the other's data) and this rank's expected output. */
typedef struct bench_case {
    coll_t coll;
    size_t bytes; /* the size asked for: per rank block where the call
                     has blocks (allgather, alltoall, reduce_scatter_block,
                     gather, scatter), the whole vector otherwise */
    size_t count; /* elements per call argument (float64 or byte) */
    int rank, size, root;
    MPI_Comm mpi;
    mc_comm_t *mc;
    unsigned char *sbuf[LIB_COUNT], *rbuf[LIB_COUNT];
    size_t slen, rlen; /* bytes of each */
    unsigned char *expect; /* rlen bytes; NULL where rbuf is not checked */
} bench_case_t;

/* --sides: side A calls PMPI_X instead of MPI_X; side B calls MPI_X
 * (through libmanycoll_mpi when it is loaded) instead of manycoll;
 * side_progress: both sides call manycoll, side B with the MPI progress
 * function of libmanycoll_mpi set (mc_set_progress) */
extern int side_a_pmpi, side_b_lib, side_progress;
/* removes that progress function and frees its MPI request */
void case_progress_end(void);

const char *coll_name(coll_t c);
int coll_from_name(const char *s, coll_t *out);
/* 1 if the collective works on float64 sums, 0 if on bytes */
int coll_is_reduction(coll_t c);

/* Sets up the buffers and the expected output; 0 or -1 (out of memory). */
int case_setup(bench_case_t *k);
void case_free(bench_case_t *k);
/* Writes the poison pattern over lib's output (outside the timed part). */
void case_poison(bench_case_t *k, int lib);
/* One call of lib's collective; 0 or an error already described in msg. */
int case_run(bench_case_t *k, int lib, char *msg, size_t len);
/* Checks both libraries' outputs (lib < 0) against each other and the
 * expected values, or only lib's against the expected values; 0 if right,
 * else 1 with a message naming the first bad byte. */
int case_verify(const bench_case_t *k, int lib, char *msg, size_t len);

#endif
