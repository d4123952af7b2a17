/*
 * Datatypes and reduction operations.
 *
 * Semantics users can rely on:
 *   - integer SUM and PROD wrap (two's complement), never saturate: signed
 *     types are computed in the unsigned type of the same width, which has
 *     the same bit result and no undefined behaviour;
 *   - MIN/MAX compare unsigned types as unsigned and signed as signed;
 *   - LAND/LOR give 1 or 0; bitwise and logical ops are integer-only;
 *   - user ops follow MPI: fn(in, inout) computes inout = in op inout with
 *     `in` the left (lower-rank) operand.
 *
 * The kernels are plain loops that gcc vectorises; each is compiled for
 * AVX-512, AVX2 and a portable baseline, and the best one for the CPU is
 * picked at load time (gcc target_clones, an ifunc).
 */
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "ops/half.h"
#include "ops/ops.h"
#include "util/error.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) &&      \
    !defined(MC_NO_MULTIVERSION)
#define MC_KERNEL                                                            \
    __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define MC_KERNEL
#endif

const size_t mc_dtype_sizes_[MC_DTYPE_COUNT] = {
    [MC_INT8] = 1,   [MC_INT16] = 2,   [MC_INT32] = 4,   [MC_INT64] = 8,
    [MC_UINT8] = 1,  [MC_UINT16] = 2,  [MC_UINT32] = 4,  [MC_UINT64] = 8,
    [MC_FLOAT32] = 4, [MC_FLOAT64] = 8, [MC_FLOAT16] = 2, [MC_BFLOAT16] = 2,
    [MC_COMPLEX64] = 8, [MC_COMPLEX128] = 16,
    [MC_FLOAT_INT] = sizeof(struct { float v; int i; }),
    [MC_DOUBLE_INT] = sizeof(struct { double v; int i; }),
    [MC_2INT] = sizeof(struct { int v; int i; }),
    [MC_LONG_INT] = sizeof(struct { long v; int i; }),
};

size_t mc_dtype_size(mc_dtype_t dt)
{
    if ((unsigned)dt >= MC_DTYPE_COUNT)
        return 0;
    return mc_dtype_sizes_[dt];
}

/* the ops MPI defines on each kind of type */
#define BIT(op) (1u << (op))
#define ARITH (BIT(MC_SUM) | BIT(MC_PROD) | BIT(MC_MIN) | BIT(MC_MAX))
const unsigned mc_dtype_ops_[MC_DTYPE_COUNT] = {
    [MC_INT8 ... MC_UINT64] = ARITH | BIT(MC_BAND) | BIT(MC_BOR) |
                              BIT(MC_BXOR) | BIT(MC_LAND) | BIT(MC_LOR),
    [MC_FLOAT32 ... MC_BFLOAT16] = ARITH,
    [MC_COMPLEX64 ... MC_COMPLEX128] = BIT(MC_SUM) | BIT(MC_PROD),
    [MC_FLOAT_INT ... MC_LONG_INT] = BIT(MC_MINLOC) | BIT(MC_MAXLOC),
};

/* ---- user ops ----
 * A slot is claimed with a compare-and-swap on `state`, so two threads
 * creating ops at once never get the same slot; the function pointer is
 * published last (release), and a reader that sees it (acquire) sees the
 * commutativity too. Freeing clears the function first, then the claim. */
#define MC_MAX_USER_OPS 64
static struct {
    _Atomic int state; /* 0 free, 1 claimed */
    _Atomic(mc_user_fn) fn;
    _Atomic int commutative;
} user_ops[MC_MAX_USER_OPS];

int mc_op_create(mc_user_fn fn, int commutative, mc_op_t *op)
{
    if (!fn)
        return mc_error(MC_ERR_ARG, "mc_op_create: argument 'fn' is NULL");
    if (!op)
        return mc_error(MC_ERR_ARG, "mc_op_create: argument 'op' is NULL");
    for (int i = 0; i < MC_MAX_USER_OPS; i++) {
        int free_slot = 0;
        if (!atomic_compare_exchange_strong(&user_ops[i].state, &free_slot,
                                            1))
            continue;
        atomic_store_explicit(&user_ops[i].commutative, commutative != 0,
                              memory_order_relaxed);
        atomic_store_explicit(&user_ops[i].fn, fn, memory_order_release);
        *op = (mc_op_t)(MC_OP_USER_BASE + i);
        return MC_OK;
    }
    return mc_error(MC_ERR_NOMEM,
                    "mc_op_create: all %d user op slots are in use",
                    MC_MAX_USER_OPS);
}

static mc_user_fn user_fn(int i)
{
    return atomic_load_explicit(&user_ops[i].fn, memory_order_acquire);
}

static int user_index(mc_op_t op)
{
    int i = (int)op - MC_OP_USER_BASE;
    if (i < 0 || i >= MC_MAX_USER_OPS || !user_fn(i))
        return -1;
    return i;
}

int mc_op_free(mc_op_t *op)
{
    if (!op)
        return mc_error(MC_ERR_ARG, "mc_op_free: argument 'op' is NULL");
    int i = user_index(*op);
    if (i < 0)
        return mc_error(MC_ERR_ARG,
                        "mc_op_free: argument 'op' (%d) is not a user op",
                        (int)*op);
    atomic_store_explicit(&user_ops[i].fn, NULL, memory_order_release);
    atomic_store_explicit(&user_ops[i].state, 0, memory_order_release);
    *op = (mc_op_t)-1;
    return MC_OK;
}

int mc_op_commutative(mc_op_t op)
{
    int i = user_index(op);
    return i < 0 ? 1
                 : atomic_load_explicit(&user_ops[i].commutative,
                                        memory_order_relaxed);
}

/* MC_OK if op can reduce dt, else MC_ERR_ARG (no message). */
int mc_op_check(mc_op_t op, mc_dtype_t dt)
{
    if ((unsigned)dt >= MC_DTYPE_COUNT)
        return MC_ERR_ARG;
    if ((int)op >= MC_OP_USER_BASE)
        return user_index(op) >= 0 ? MC_OK : MC_ERR_ARG;
    if ((unsigned)op >= MC_OP_BUILTIN_COUNT)
        return MC_ERR_ARG;
    return mc_dtype_ops_[dt] & BIT(op) ? MC_OK : MC_ERR_ARG;
}

/* ---- kernels: inout[i] = in[i] op inout[i] (commutative builtins) ---- */

#define LOOP(T, expr)                                                        \
    do {                                                                     \
        const T *a = in;                                                     \
        T *b = io;                                                           \
        for (size_t i = 0; i < n; i++)                                       \
            b[i] = (T)(expr);                                                \
    } while (0)

MC_KERNEL static void k_sum(const void *in, void *io, size_t n, mc_dtype_t dt)
{
    switch (dt) {
    case MC_INT8: case MC_UINT8: LOOP(uint8_t, a[i] + b[i]); break;
    case MC_INT16: case MC_UINT16: LOOP(uint16_t, a[i] + b[i]); break;
    case MC_INT32: case MC_UINT32: LOOP(uint32_t, a[i] + b[i]); break;
    case MC_INT64: case MC_UINT64: LOOP(uint64_t, a[i] + b[i]); break;
    case MC_FLOAT32: LOOP(float, a[i] + b[i]); break;
    case MC_FLOAT64: LOOP(double, a[i] + b[i]); break;
    default: break;
    }
}

MC_KERNEL static void k_prod(const void *in, void *io, size_t n,
                             mc_dtype_t dt)
{
    switch (dt) {
    /* promote to unsigned int first: uint8/uint16 would otherwise be
     * promoted to (signed) int, whose product can overflow */
    case MC_INT8: case MC_UINT8: LOOP(uint8_t, (unsigned)a[i] * b[i]); break;
    case MC_INT16: case MC_UINT16:
        LOOP(uint16_t, (unsigned)a[i] * b[i]);
        break;
    case MC_INT32: case MC_UINT32: LOOP(uint32_t, a[i] * b[i]); break;
    case MC_INT64: case MC_UINT64: LOOP(uint64_t, a[i] * b[i]); break;
    case MC_FLOAT32: LOOP(float, a[i] * b[i]); break;
    case MC_FLOAT64: LOOP(double, a[i] * b[i]); break;
    default: break;
    }
}

#define MINMAX(T, cmp) LOOP(T, a[i] cmp b[i] ? a[i] : b[i])

MC_KERNEL static void k_min(const void *in, void *io, size_t n, mc_dtype_t dt)
{
    switch (dt) {
    case MC_INT8: MINMAX(int8_t, <); break;
    case MC_INT16: MINMAX(int16_t, <); break;
    case MC_INT32: MINMAX(int32_t, <); break;
    case MC_INT64: MINMAX(int64_t, <); break;
    case MC_UINT8: MINMAX(uint8_t, <); break;
    case MC_UINT16: MINMAX(uint16_t, <); break;
    case MC_UINT32: MINMAX(uint32_t, <); break;
    case MC_UINT64: MINMAX(uint64_t, <); break;
    case MC_FLOAT32: MINMAX(float, <); break;
    case MC_FLOAT64: MINMAX(double, <); break;
    default: break;
    }
}

MC_KERNEL static void k_max(const void *in, void *io, size_t n, mc_dtype_t dt)
{
    switch (dt) {
    case MC_INT8: MINMAX(int8_t, >); break;
    case MC_INT16: MINMAX(int16_t, >); break;
    case MC_INT32: MINMAX(int32_t, >); break;
    case MC_INT64: MINMAX(int64_t, >); break;
    case MC_UINT8: MINMAX(uint8_t, >); break;
    case MC_UINT16: MINMAX(uint16_t, >); break;
    case MC_UINT32: MINMAX(uint32_t, >); break;
    case MC_UINT64: MINMAX(uint64_t, >); break;
    case MC_FLOAT32: MINMAX(float, >); break;
    case MC_FLOAT64: MINMAX(double, >); break;
    default: break;
    }
}

/* Bitwise and logical ops depend only on the width. */
MC_KERNEL static void k_bits(const void *in, void *io, size_t n,
                             mc_dtype_t dt, mc_op_t op)
{
    size_t w = mc_dtype_size(dt);
#define BITS(T)                                                              \
    switch (op) {                                                            \
    case MC_BAND: LOOP(T, a[i] & b[i]); break;                               \
    case MC_BOR: LOOP(T, a[i] | b[i]); break;                                \
    case MC_BXOR: LOOP(T, a[i] ^ b[i]); break;                               \
    case MC_LAND: LOOP(T, a[i] && b[i]); break;                              \
    case MC_LOR: LOOP(T, a[i] || b[i]); break;                               \
    default: break;                                                          \
    }
    switch (w) {
    case 1: BITS(uint8_t); break;
    case 2: BITS(uint16_t); break;
    case 4: BITS(uint32_t); break;
    case 8: BITS(uint64_t); break;
    default: break;
    }
#undef BITS
}

static void apply(void *io, const void *in, size_t n, mc_dtype_t dt,
                  mc_op_t op)
{
    if (dt >= MC_FLOAT16) {
        if (dt <= MC_BFLOAT16)
            mc_reduce_half(io, in, n, dt, op);
        else if (dt <= MC_COMPLEX128)
            mc_reduce_complex(io, in, n, dt, op);
        else
            mc_reduce_pairs(io, in, n, dt, op);
        return;
    }
    switch (op) {
    case MC_SUM: k_sum(in, io, n, dt); break;
    case MC_PROD: k_prod(in, io, n, dt); break;
    case MC_MIN: k_min(in, io, n, dt); break;
    case MC_MAX: k_max(in, io, n, dt); break;
    default: k_bits(in, io, n, dt, op); break;
    }
}

/* Blocks of this many bytes are staged through the stack for a
 * non-commutative user op whose MPB operand is on the right. */
#define STAGE_BYTES 4096

void mc_reduce_into(void *inout, const void *in, size_t count, mc_dtype_t dt,
                    mc_op_t op, int in_left)
{
    if (count == 1 && (unsigned)op < MC_OP_BUILTIN_COUNT &&
        mc_reduce_scalar(inout, in, dt, op))
        return;
    int u = user_index(op);
    if (u < 0) {
        apply(inout, in, count, dt, op);
        return;
    }
    mc_user_fn fn = user_fn(u);
    if (in_left || mc_op_commutative(op)) {
        fn(in, inout, count, dt);
        return;
    }
    /* inout = inout op in: tmp = in; fn(inout, tmp); inout = tmp */
    unsigned char tmp[STAGE_BYTES];
    size_t dsize = mc_dtype_size(dt);
    size_t per = STAGE_BYTES / dsize;
    for (size_t done = 0; done < count; done += per) {
        size_t m = count - done < per ? count - done : per;
        unsigned char *io = (unsigned char *)inout + done * dsize;
        memcpy(tmp, (const unsigned char *)in + done * dsize, m * dsize);
        fn(io, tmp, m, dt);
        memcpy(io, tmp, m * dsize);
    }
}
