/*
 * Internals of the collective test cases shared by check.c (inputs, the
 * scalar reference, buffers) and check_verify.c (verification).
 */
#ifndef MC_CHECK_IMPL_H
#define MC_CHECK_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "oracle/check.h"

#define GUARD 64          /* bytes after each buffer ... */
#define GUARD_BYTE 0xA5   /* ... holding this */
#define POISON_BYTE 0x5A  /* outputs, and inputs not significant */

/* one element of any datatype: integers in u/i, real values in f (16-bit
 * floats as their exact value), complex as f + im i, pairs as (f, loc) */
typedef struct chk_num {
    union {
        uint64_t u;
        int64_t i;
        double f;
    };
    union { /* 16 bytes in all: returned in registers */
        double im;
        int64_t loc;
    };
} chk_num_t;

/* kinds of datatypes (check_types.c) */
typedef enum { CHK_INT, CHK_FLOAT, CHK_HALF, CHK_COMPLEX, CHK_PAIR } chk_kind_t;
static inline chk_kind_t chk_kind(mc_dtype_t dt)
{
    if (dt < MC_FLOAT32)
        return CHK_INT;
    if (dt < MC_FLOAT16)
        return CHK_FLOAT;
    return dt < MC_COMPLEX64 ? CHK_HALF
           : dt < MC_FLOAT_INT ? CHK_COMPLEX
                               : CHK_PAIR;
}
int chk_op_defined(mc_op_t op, mc_dtype_t dt);
/* an input of a 16-bit float, complex or pair type from hash h (cls: the
 * op class of op_class, -1 when nothing is combined) */
chk_num_t chk_gen_wide(const mc_case_t *k, uint64_t who, uint64_t h,
                       int cls);
/* a op b for those types, a the left (lower-rank) operand */
chk_num_t chk_combine_wide(mc_dtype_t dt, int op, chk_num_t a, chk_num_t b);
/* got equals want as the type's results must */
int chk_same(mc_dtype_t dt, chk_num_t got, chk_num_t want);
/* the largest element of any datatype, in bytes */
#define CHK_ELEM_MAX 16

int chk_is_float(mc_dtype_t dt);
/* element idx of p; the wider types out of line (check_types.c) */
chk_num_t chk_load_wide(mc_dtype_t dt, const void *p, size_t idx);
void chk_store_wide(mc_dtype_t dt, void *p, size_t idx, chk_num_t v);

static inline chk_num_t chk_load(mc_dtype_t dt, const void *p, size_t idx)
{
    chk_num_t v;
    switch (dt) {
    case MC_INT8: v.i = ((const int8_t *)p)[idx]; break;
    case MC_INT16: v.i = ((const int16_t *)p)[idx]; break;
    case MC_INT32: v.i = ((const int32_t *)p)[idx]; break;
    case MC_INT64: v.i = ((const int64_t *)p)[idx]; break;
    case MC_UINT8: v.u = ((const uint8_t *)p)[idx]; break;
    case MC_UINT16: v.u = ((const uint16_t *)p)[idx]; break;
    case MC_UINT32: v.u = ((const uint32_t *)p)[idx]; break;
    case MC_UINT64: v.u = ((const uint64_t *)p)[idx]; break;
    case MC_FLOAT32: v.f = ((const float *)p)[idx]; break;
    case MC_FLOAT64: v.f = ((const double *)p)[idx]; break;
    default: return chk_load_wide(dt, p, idx);
    }
    v.loc = 0;
    return v;
}

/* integers are stored by truncating the two's complement bits */
static inline void chk_store(mc_dtype_t dt, void *p, size_t idx,
                             chk_num_t v)
{
    switch (dt) {
    case MC_INT8: case MC_UINT8: ((uint8_t *)p)[idx] = (uint8_t)v.u; break;
    case MC_INT16: case MC_UINT16: ((uint16_t *)p)[idx] = (uint16_t)v.u; break;
    case MC_INT32: case MC_UINT32: ((uint32_t *)p)[idx] = (uint32_t)v.u; break;
    case MC_INT64: case MC_UINT64: ((uint64_t *)p)[idx] = v.u; break;
    case MC_FLOAT32: ((float *)p)[idx] = (float)v.f; break;
    case MC_FLOAT64: ((double *)p)[idx] = v.f; break;
    default: chk_store_wide(dt, p, idx, v); break;
    }
}
/* the input element `idx` of contributor `who` */
chk_num_t chk_gen(const mc_case_t *k, uint64_t who, size_t idx);
/* element idx of the reduction of all `size` contributions */
chk_num_t chk_reduced(const mc_case_t *k, int size, size_t idx);
/* contributor ids of alltoall blocks and of the scatter root's input */
uint64_t chk_a2a_who(int src, int dst, int size);
uint64_t chk_scatter_who(int root);
/* Element i of the send buffer as mc_case_fill leaves it: 1 and its
 * value, or 0 where the buffer holds poison (not significant here). */
int chk_send_elem(const mc_case_t *k, int rank, int size, size_t i,
                  chk_num_t *v);

/* the send and receive buffer arguments of a case's call on `rank`:
 * b's, or MC_IN_PLACE where the case is in place and the collectives'
 * table puts it (check.c) */
void chk_call_bufs(const mc_case_t *k, int rank, const mc_case_bufs_t *b,
                   const void **s, void **r);

/* the v-variants (check_v.c); b->v holds the case's counts and
 * displacements, 4 x size entries, made by chk_v_lens */
int chk_is_v(mc_coll_t coll);
size_t chk_v_total(const mc_case_t *k, int size);
void chk_v_lens(const mc_case_t *k, int rank, int size,
                const mc_case_bufs_t *b, size_t *s, size_t *r);
void chk_v_fill(const mc_case_t *k, int rank, int size, mc_case_bufs_t *b);
int chk_v_call(mc_comm_t *c, const mc_case_t *k, mc_case_bufs_t *b,
               mc_op_t op, mc_request_t **req);
int chk_v_verify(const mc_case_t *k, int rank, int size,
                 const mc_case_bufs_t *b, char *msg, size_t len);

#endif
