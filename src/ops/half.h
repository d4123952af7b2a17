/*
 * 16-bit floating point (IEEE binary16 and bfloat16): conversions to and
 * from float32, and the reduction kernel that computes in float32 and
 * rounds once per combining (reduce_ext.c). The collectives' SUM and PROD
 * do not combine 16-bit partial results with it: they widen the inputs to
 * float32 (mc_half_widen), reduce those, and round once (api/coll.c).
 * The conversions are exposed for tests: both the portable one and the
 * CPU's (F16C), which the kernel picks at run time.
 */
#ifndef MC_OPS_HALF_H
#define MC_OPS_HALF_H

#include <stddef.h>
#include <stdint.h>

#include "manycoll.h"

/* binary16 <-> float32, portable bit arithmetic; float32 -> binary16
 * rounds to nearest, ties to even (overflow to infinity, NaN stays NaN) */
float mc_f16_to_f32(uint16_t h);
uint16_t mc_f32_to_f16(float f);
/* bfloat16 <-> float32 (ties to even; NaN stays NaN) */
float mc_bf16_to_f32(uint16_t h);
uint16_t mc_f32_to_bf16(float f);

/* n binary16 values to and from float32 with the fastest conversion this
 * CPU has (F16C where present, else the portable one above); `native`
 * forces one (1: F16C, 0: portable), -1 picks. 1 if F16C is used. */
int mc_f16_block(const uint16_t *h, float *f, size_t n, int native);
int mc_f16_unblock(const float *f, uint16_t *h, size_t n, int native);

/* n MC_FLOAT16 or MC_BFLOAT16 values to float32 (exact) and back (to
 * nearest, ties to even), with the fastest conversion this CPU has */
void mc_half_widen(mc_dtype_t dt, const uint16_t *h, float *f, size_t n);
void mc_half_narrow(mc_dtype_t dt, const float *f, uint16_t *h, size_t n);

/* inout[i] = in[i] op inout[i] on MC_FLOAT16 or MC_BFLOAT16 elements,
 * through float32 (SUM, PROD, MIN, MAX) */
void mc_reduce_half(void *inout, const void *in, size_t n, mc_dtype_t dt,
                    mc_op_t op);
/* the same for MC_COMPLEX64/128 (SUM, PROD) and the pair types (MINLOC,
 * MAXLOC) */
void mc_reduce_complex(void *inout, const void *in, size_t n, mc_dtype_t dt,
                       mc_op_t op);
void mc_reduce_pairs(void *inout, const void *in, size_t n, mc_dtype_t dt,
                     mc_op_t op);

#endif
