/*
 * Datatypes and reduction operations as the layers above use them: the
 * kernels that combine two vectors (reduce_ops.c). The public half (sizes,
 * user ops) is in manycoll.h.
 */
#ifndef MC_OPS_OPS_H
#define MC_OPS_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "manycoll.h"

/* MC_OK if op is defined on dt, else MC_ERR_ARG (no message: the caller
 * names the argument). */
int mc_op_check(mc_op_t op, mc_dtype_t dt);

/* The tables behind mc_dtype_size and mc_op_check (reduce_ops.c), for
 * the inline forms below: the entry points check every call's datatype
 * and op, and a call each cost the 8-byte allreduce 13 instructions. */
extern const size_t mc_dtype_sizes_[MC_DTYPE_COUNT];
extern const unsigned mc_dtype_ops_[MC_DTYPE_COUNT]; /* a bit per op */

/* mc_dtype_size, inline: 0 if dt is not a datatype */
static inline size_t mc_dtype_size_of(mc_dtype_t dt)
{
    return (unsigned)dt < MC_DTYPE_COUNT ? mc_dtype_sizes_[dt] : 0;
}

/* mc_op_check, inline for the built-in ops */
static inline int mc_op_check_of(mc_op_t op, mc_dtype_t dt)
{
    if ((unsigned)dt < MC_DTYPE_COUNT && (unsigned)op < MC_OP_BUILTIN_COUNT)
        return mc_dtype_ops_[dt] >> op & 1 ? MC_OK : MC_ERR_ARG;
    return mc_op_check(op, dt);
}
/* 1 if op is commutative (every built-in op; user ops as created). */
int mc_op_commutative(mc_op_t op);
/* inout = in op inout if in_left, else inout = inout op in. */
void mc_reduce_into(void *inout, const void *in, size_t count, mc_dtype_t dt,
                    mc_op_t op, int in_left);

/* One element of the commonest cases, without the kernels' dispatch (the
 * small-message fast paths reduce a word or two): inout = in op inout,
 * returns 1; 0 if it is not one of them (op a built-in op). Inline, so
 * that the transports' one-line reductions make no call for it. */
static inline int mc_reduce_scalar(void *io, const void *in, mc_dtype_t dt,
                                   mc_op_t op)
{
    if (dt == MC_FLOAT64) {
        double a = *(const double *)in, *b = io;
        switch (op) {
        case MC_SUM: *b = a + *b; return 1;
        case MC_MAX: *b = a > *b ? a : *b; return 1;
        case MC_MIN: *b = a < *b ? a : *b; return 1;
        default: return 0;
        }
    }
    if ((dt == MC_INT64 || dt == MC_UINT64) && op == MC_SUM) {
        uint64_t a = *(const uint64_t *)in, *b = io;
        *b = a + *b;
        return 1;
    }
    return 0;
}

/* mc_reduce_into with the one-element cases inline */
static inline void mc_reduce_small(void *inout, const void *in, size_t count,
                                   mc_dtype_t dt, mc_op_t op, int in_left)
{
    if (count == 1 && (unsigned)op < MC_OP_BUILTIN_COUNT &&
        mc_reduce_scalar(inout, in, dt, op))
        return;
    mc_reduce_into(inout, in, count, dt, op, in_left);
}

#endif
