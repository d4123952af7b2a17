/*
 * Datatypes and reduction operations as the layers above use them: the
 * kernels that combine two vectors (reduce_ops.c). The public half (sizes,
 * user ops) is in manycoll.h.
 */
#ifndef MC_OPS_OPS_H
#define MC_OPS_OPS_H

#include <stddef.h>

#include "manycoll.h"

/* MC_OK if op is defined on dt, else MC_ERR_ARG (no message: the caller
 * names the argument). */
int mc_op_check(mc_op_t op, mc_dtype_t dt);
/* 1 if op is commutative (every built-in op; user ops as created). */
int mc_op_commutative(mc_op_t op);
/* inout = in op inout if in_left, else inout = inout op in. */
void mc_reduce_into(void *inout, const void *in, size_t count, mc_dtype_t dt,
                    mc_op_t op, int in_left);

#endif
