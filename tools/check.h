/*
 * Test cases for collectives: deterministic inputs, an independent scalar
 * reference for the expected outputs, and a verifier. Used by the test
 * programs, `manycoll bench --check` and `manycoll sim --check`; works on
 * any communicator, on any transport.
 */
#ifndef MC_CHECK_H
#define MC_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "coll/args.h"
#include "util/error.h"

/* user ops the cases can use (created on first use) */
typedef enum {
    MC_UOP_NONE = 0,
    MC_UOP_FIRST, /* non-commutative: x op y = x, result is rank 0's */
    MC_UOP_LAST,  /* non-commutative: x op y = y, result is rank P-1's */
    MC_UOP_SUM,   /* commutative user sum (integers wrap) */
    MC_UOP_COUNT
} mc_uop_t;

typedef struct mc_case {
    mc_coll_t coll;
    size_t count;
    mc_dtype_t dt;
    mc_op_t op;    /* builtin op (ignored if uop != NONE) */
    mc_uop_t uop;
    int root;
    int in_place;
    uint32_t seed;
} mc_case_t;

typedef struct mc_case_bufs {
    void *sbuf, *rbuf;
    size_t slen, rlen; /* bytes */
} mc_case_bufs_t;

/* The op handle a case uses (creates user ops on first use). */
mc_op_t mc_case_op(const mc_case_t *k);
/* 1 if op (builtin or user) applies to dt */
int mc_case_valid(const mc_case_t *k);
/* bytes of send plus receive buffer one rank needs for the case */
size_t mc_case_bytes(const mc_case_t *k, int size);
/* Allocates zeroed buffers for rank of size; free with mc_case_free. */
int mc_case_alloc(const mc_case_t *k, int rank, int size, mc_case_bufs_t *b);
void mc_case_free(mc_case_bufs_t *b);
/* Fills inputs and poisons outputs. */
void mc_case_fill(const mc_case_t *k, int rank, int size, mc_case_bufs_t *b);
/* Runs the collective through the public API. */
int mc_case_run(mc_comm_t *c, const mc_case_t *k, mc_case_bufs_t *b);
/* 0 if the outputs are right, else 1 with a message in msg. */
int mc_case_verify(const mc_case_t *k, int rank, int size,
                   const mc_case_bufs_t *b, char *msg, size_t len);
/* "allreduce count=7 int8 sum root=0 in-place" */
void mc_case_describe(const mc_case_t *k, char *buf, size_t len);

const char *mc_dtype_name(mc_dtype_t dt);
const char *mc_op_name(mc_op_t op);
int mc_dtype_from_name(const char *s, mc_dtype_t *out);
int mc_op_from_name(const char *s, mc_op_t *out);

#endif
