/*
 * Kernels of the wider datatypes: 16-bit floats (binary16, bfloat16),
 * complex numbers and MPI's (value, index) pairs for MINLOC/MAXLOC.
 *
 * 16-bit floats are combined in float32 and rounded once per combining,
 * as oneCCL and MPICH 5.0 do: blocks of HALF_BLOCK elements are widened
 * to float32 on the stack, combined, and narrowed back. Widening and
 * narrowing use the CPU's F16C instructions where the CPU has them (eight
 * values per instruction, the same rounding: to nearest, ties to even),
 * else portable bit arithmetic; the choice is made once, at the first
 * call. bfloat16 needs no special instruction: it is the upper half of a
 * float32, and the rounding is an integer add that gcc vectorises.
 */
#include <stdatomic.h>
#include <string.h>

#include "ops/half.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>
#define MC_HAVE_F16C_BUILD 1
#endif

/* ---- portable conversions ---- */

static uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float float_of(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

float mc_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16;
    uint32_t exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    if (exp == 0x1f) /* infinity or NaN (the payload moves up) */
        return float_of(sign | 0x7f800000u | mant << 13);
    if (exp) /* normal: rebias 15 -> 127 */
        return float_of(sign | (exp + 112) << 23 | mant << 13);
    /* zero or subnormal: mant * 2^-24, exact in float32 */
    return float_of(sign | bits_of((float)mant * 0x1p-24f));
}

uint16_t mc_f32_to_f16(float f)
{
    uint32_t x = bits_of(f);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
    x &= 0x7fffffffu;
    if (x >= 0x47800000u) /* >= 65536, infinity or NaN */
        return sign | (x > 0x7f800000u ? 0x7e00 : 0x7c00);
    if (x < 0x38800000u) {
        /* below 2^-14: a subnormal result. Adding 0.5 puts the half's
         * subnormal unit (2^-24) at float32's last mantissa bit, and the
         * FPU's own rounding (to nearest even) does the rest. */
        uint32_t y = bits_of(float_of(x) + 0.5f);
        return sign | (uint16_t)(y - 0x3f000000u);
    }
    /* normal: rebias, then round the 13 dropped bits to nearest even (a
     * carry into the exponent is right, up to infinity at 65520) */
    uint32_t odd = (x >> 13) & 1;
    x += ((uint32_t)(15 - 127) << 23) + 0xfff + odd;
    return sign | (uint16_t)(x >> 13);
}

float mc_bf16_to_f32(uint16_t h)
{
    return float_of((uint32_t)h << 16);
}

uint16_t mc_f32_to_bf16(float f)
{
    uint32_t x = bits_of(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) /* NaN: keep it quiet */
        return (uint16_t)(x >> 16 | 0x40);
    x += 0x7fff + ((x >> 16) & 1);
    return (uint16_t)(x >> 16);
}

/* ---- the CPU's conversions ---- */

#ifdef MC_HAVE_F16C_BUILD
__attribute__((target("avx,f16c"))) static void
f16c_widen(const uint16_t *h, float *f, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(f + i, _mm256_cvtph_ps(_mm_loadu_si128(
                                    (const __m128i *)(const void *)(h + i))));
    for (; i < n; i++)
        f[i] = mc_f16_to_f32(h[i]);
}

__attribute__((target("avx,f16c"))) static void
f16c_narrow(const float *f, uint16_t *h, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm_storeu_si128((__m128i *)(void *)(h + i),
                         _mm256_cvtps_ph(_mm256_loadu_ps(f + i),
                                         _MM_FROUND_TO_NEAREST_INT |
                                             _MM_FROUND_NO_EXC));
    for (; i < n; i++)
        h[i] = mc_f32_to_f16(f[i]);
}

/* F16C and AVX in CPUID, and the OS saving the YMM registers */
static int cpu_has_f16c(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    unsigned need = 1u << 27 | 1u << 28 | 1u << 29; /* osxsave avx f16c */
    if ((c & need) != need)
        return 0;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (lo & 6) == 6;
}
#else
static int cpu_has_f16c(void) { return 0; }
#endif

/* 0 unknown, 1 portable, 2 F16C */
static _Atomic int f16_impl;

/* the CPU's answer, asked once: CPUID traps to the hypervisor in a VM
 * (microseconds), and tests ask for the native form on every call */
static int has_f16c(void)
{
    int v = atomic_load_explicit(&f16_impl, memory_order_relaxed);
    if (!v) {
        v = cpu_has_f16c() ? 2 : 1;
        atomic_store_explicit(&f16_impl, v, memory_order_relaxed);
    }
    return v == 2;
}

static int use_native(int native)
{
    return native >= 0 ? native && has_f16c() : has_f16c();
}

int mc_f16_block(const uint16_t *h, float *f, size_t n, int native)
{
#ifdef MC_HAVE_F16C_BUILD
    if (use_native(native)) {
        f16c_widen(h, f, n);
        return 1;
    }
#else
    (void)native;
#endif
    for (size_t i = 0; i < n; i++)
        f[i] = mc_f16_to_f32(h[i]);
    return 0;
}

int mc_f16_unblock(const float *f, uint16_t *h, size_t n, int native)
{
#ifdef MC_HAVE_F16C_BUILD
    if (use_native(native)) {
        f16c_narrow(f, h, n);
        return 1;
    }
#else
    (void)native;
#endif
    for (size_t i = 0; i < n; i++)
        h[i] = mc_f32_to_f16(f[i]);
    return 0;
}

/* ---- 16-bit floats: widen, combine in float32, narrow ---- */

#define HALF_BLOCK 256

void mc_half_widen(mc_dtype_t dt, const uint16_t *h, float *f, size_t n)
{
    if (dt == MC_FLOAT16)
        mc_f16_block(h, f, n, -1);
    else
        for (size_t i = 0; i < n; i++)
            f[i] = mc_bf16_to_f32(h[i]);
}

void mc_half_narrow(mc_dtype_t dt, const float *f, uint16_t *h, size_t n)
{
    if (dt == MC_FLOAT16)
        mc_f16_unblock(f, h, n, -1);
    else
        for (size_t i = 0; i < n; i++)
            h[i] = mc_f32_to_bf16(f[i]);
}

static void combine_f32(const float *a, float *b, size_t n, mc_op_t op)
{
    switch (op) {
    case MC_SUM: for (size_t i = 0; i < n; i++) b[i] = a[i] + b[i]; break;
    case MC_PROD: for (size_t i = 0; i < n; i++) b[i] = a[i] * b[i]; break;
    case MC_MIN:
        for (size_t i = 0; i < n; i++) b[i] = a[i] < b[i] ? a[i] : b[i];
        break;
    default:
        for (size_t i = 0; i < n; i++) b[i] = a[i] > b[i] ? a[i] : b[i];
        break;
    }
}

void mc_reduce_half(void *inout, const void *in, size_t n, mc_dtype_t dt,
                    mc_op_t op)
{
    float a[HALF_BLOCK], b[HALF_BLOCK];
    uint16_t *io = inout;
    const uint16_t *x = in;
    for (size_t done = 0; done < n; done += HALF_BLOCK) {
        size_t m = n - done < HALF_BLOCK ? n - done : HALF_BLOCK;
        mc_half_widen(dt, x + done, a, m);
        mc_half_widen(dt, io + done, b, m);
        combine_f32(a, b, m, op);
        mc_half_narrow(dt, b, io + done, m);
    }
}

/* ---- complex: {re, im} pairs ---- */

#define CPLX(T)                                                              \
    do {                                                                     \
        const T *a = in;                                                     \
        T *b = inout;                                                        \
        if (op == MC_SUM) {                                                  \
            for (size_t i = 0; i < 2 * n; i++)                               \
                b[i] = a[i] + b[i];                                          \
            break;                                                           \
        }                                                                    \
        for (size_t i = 0; i < 2 * n; i += 2) {                              \
            T re = a[i] * b[i] - a[i + 1] * b[i + 1];                        \
            T im = a[i] * b[i + 1] + a[i + 1] * b[i];                        \
            b[i] = re, b[i + 1] = im;                                        \
        }                                                                    \
    } while (0)

void mc_reduce_complex(void *inout, const void *in, size_t n, mc_dtype_t dt,
                       mc_op_t op)
{
    if (dt == MC_COMPLEX64)
        CPLX(float);
    else
        CPLX(double);
}

/* ---- (value, index) pairs ---- */

typedef struct { float v; int i; } pair_fi;
typedef struct { double v; int i; } pair_di;
typedef struct { int v; int i; } pair_ii;
typedef struct { long v; int i; } pair_li;

/* b = a when a wins: the smaller (MINLOC) or larger (MAXLOC) value, on a
 * tie the smaller index; commutative and associative, as MPI's */
#define PAIRS(T)                                                             \
    do {                                                                     \
        const T *a = in;                                                     \
        T *b = inout;                                                        \
        for (size_t k = 0; k < n; k++) {                                     \
            int wins = op == MC_MINLOC ? a[k].v < b[k].v : a[k].v > b[k].v;  \
            if (wins || (a[k].v == b[k].v && a[k].i < b[k].i))               \
                b[k] = a[k];                                                 \
        }                                                                    \
    } while (0)

void mc_reduce_pairs(void *inout, const void *in, size_t n, mc_dtype_t dt,
                     mc_op_t op)
{
    switch (dt) {
    case MC_FLOAT_INT: PAIRS(pair_fi); break;
    case MC_DOUBLE_INT: PAIRS(pair_di); break;
    case MC_2INT: PAIRS(pair_ii); break;
    default: PAIRS(pair_li); break;
    }
}
