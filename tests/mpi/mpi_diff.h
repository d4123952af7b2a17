/*
 * mpi_diff: random differential test of collective results through
 * libmanycoll_mpi (MPI_X) and through the MPI alone (PMPI_X), each
 * checked against a reference every rank computes on its own. Shared
 * between mpi_diff.c (the cases and the report), mpi_diff_run.c (the
 * calls and the checks) and mpi_diff_ref.c (the types, the ops, the
 * inputs, the reference).
 */
#ifndef MPI_DIFF_H
#define MPI_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

/* how an element is read: signed or unsigned integer of size bytes, a
 * float, a double, or a (value, index) pair of MPI_2INT / MPI_DOUBLE_INT */
typedef enum { K_INT, K_UINT, K_FLOAT, K_DOUBLE, K_2INT, K_DOUBLE_INT } kind_t;

typedef struct dtype {
    const char *name;
    MPI_Datatype dt;
    int size;    /* bytes of one element in a buffer (its extent) */
    kind_t kind;
} dtype_t;

enum { NTYPES_D = 21 };
extern dtype_t diff_types[NTYPES_D];
void diff_types_init(void);

typedef enum {
    O_SUM, O_PROD, O_MIN, O_MAX, O_LAND, O_LOR, O_LXOR, O_BAND, O_BOR,
    O_BXOR, O_MAXLOC, O_MINLOC, NOPS
} op_t;

extern const char *const diff_op_names[NOPS];
MPI_Op diff_op(op_t o);
/* 1 if MPI defines op o on types of kind k */
int diff_op_valid(op_t o, kind_t k);

/* the input of comm rank r at element j of case c (writes one element of
 * t at p): integers often of full width (sums overflow), floats small
 * integers (every order of combining is exact), pairs with ties */
void diff_input(const dtype_t *t, op_t o, uint64_t seed, int c, int r,
                long j, void *p);
/* raw bytes for a collective that only moves data */
void diff_bytes(uint64_t seed, int c, int r, void *p, size_t n);
/* acc = acc (op) x, one element of t (the exact result: integers wrap,
 * as C's unsigned arithmetic does) */
void diff_combine(const dtype_t *t, op_t o, void *acc, const void *x);
/* 1 if the elements are equal (pairs: value and index) */
int diff_equal(const dtype_t *t, const void *a, const void *b);

uint64_t diff_rand(uint64_t x);

/* ---- the cases (mpi_diff.c) and their calls (mpi_diff_run.c) ---- */

typedef enum {
    C_ALLREDUCE, C_REDUCE, C_RSB, C_SCAN, C_EXSCAN, C_BCAST, C_GATHER,
    C_SCATTER, C_ALLGATHER, C_ALLTOALL, NCOLLS
} coll_t;

static inline int reduces(coll_t c)
{
    return c <= C_EXSCAN;
}

typedef struct dcase {
    coll_t coll;
    int comm, type, count, root, ip;
    op_t op;
} dcase_t;

enum { NCOMMS = 4 };
extern MPI_Comm diff_comms[NCOMMS];
extern uint64_t diff_seed;
/* send, receive, expected and scratch buffers, each big enough for any case */
extern unsigned char *sbuf, *rbuf, *want, *tmp;

/* case c on one side (lib: MPI_X, else PMPI_X): 1 if this rank's result
 * is wrong or the call failed */
int run_case(int c, const dcase_t *d, int lib);

#endif
