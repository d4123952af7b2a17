/*
 * The test cases' datatypes: loading and storing one element as a
 * chk_num_t, and the inputs and the reference combining of the wider
 * types (16-bit floats, complex, (value, index) pairs). Written apart from
 * the library: the 16-bit formats are decoded with ldexp and encoded from
 * frexp, the pair layouts come from the C structs MPI defines.
 *
 * The reference accumulates in fp64 and rounds once to the type (to
 * nearest, ties to even), and the library must equal it bit for bit.
 * 16-bit floats: the library keeps partial results in float32 and rounds
 * once (api/coll.c: run_wide), so the inputs are chosen exact in float32
 * in any order of combining but not in 16 bits, where rounding at every
 * combining would differ: sums add integers of the type's full
 * significand (bfloat16 [-255, 255], binary16 [-2047, 2047]; float32 holds
 * their sum exactly up to 8,000 contributors), products multiply +-1 and,
 * from the first eight contributors only, 2, 0.5 and 3 (3^8 has 13
 * significant bits). Complex sums add integers in [-4, 4] and products
 * multiply +-1, +-i, 2 and 0.5, exact in any order; min and max see
 * integers of up to 8 significant bits times powers of two. The error
 * bound of sums that are not exact in float32 is tested by test_dtypes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/check.h"
#include "oracle/check_impl.h"

typedef struct { float v; int i; } pair_fi;
typedef struct { double v; int i; } pair_di;
typedef struct { int v; int i; } pair_ii;
typedef struct { long v; int i; } pair_li;

/* the ops the MPI standard defines on each kind of type */
int chk_op_defined(mc_op_t op, mc_dtype_t dt)
{
    switch (chk_kind(dt)) {
    case CHK_INT: return op <= MC_LOR;
    case CHK_FLOAT: case CHK_HALF: return op <= MC_MAX;
    case CHK_COMPLEX: return op == MC_SUM || op == MC_PROD;
    default: return op == MC_MINLOC || op == MC_MAXLOC;
    }
}

/* ---- 16-bit floats ---- */

static double half_value(mc_dtype_t dt, uint16_t h)
{
    if (dt == MC_BFLOAT16) {
        uint32_t u = (uint32_t)h << 16;
        float f;
        memcpy(&f, &u, sizeof f);
        return f;
    }
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double s = h & 0x8000 ? -1.0 : 1.0;
    if (e == 31)
        return m ? NAN : s * INFINITY;
    return s * (e ? ldexp(1024 + m, e - 25) : ldexp(m, -24));
}

/* x rounded once to the type, to nearest, ties to even (nearbyint in
 * the default rounding mode); x must be exact in float32 (the inputs are
 * built so) */
static uint16_t half_bits(mc_dtype_t dt, double x)
{
    uint16_t sign = signbit(x) ? 0x8000 : 0;
    double a = fabs(x);
    if (a == 0)
        return sign;
    int e;
    double m = frexp(a, &e); /* a = m 2^e, m in [0.5, 1) */
    if (dt == MC_BFLOAT16) { /* 8 significant bits, float32's exponents */
        if (isinf(a))
            return sign | 0x7f80;
        double r = nearbyint(ldexp(m, 8)); /* in [128, 256] */
        /* r == 256 carries into the exponent, as the bits add */
        return sign | (uint16_t)(((e - 1 + 127) << 7) + (int)r - 128);
    }
    if (isinf(a))
        return sign | 0x7c00;
    if (e - 1 < -14) /* subnormal: a multiple of 2^-24 (1024: the least
                        normal, as the bits add) */
        return sign | (uint16_t)nearbyint(ldexp(a, 24));
    int bits = ((e - 1 + 15) << 10) + (int)nearbyint(ldexp(m, 11)) - 1024;
    return sign | (uint16_t)(bits >= 0x7c00 ? 0x7c00 : bits);
}

/* ---- load and store (integers and floats: check_impl.h) ---- */

#define AT(T) ((const T *)p)[idx]

chk_num_t chk_load_wide(mc_dtype_t dt, const void *p, size_t idx)
{
    chk_num_t v = {.u = 0};
    switch (dt) {
    case MC_FLOAT16: case MC_BFLOAT16:
        v.f = half_value(dt, AT(uint16_t));
        break;
    case MC_COMPLEX64: v.f = ((const float *)p)[2 * idx];
        v.im = ((const float *)p)[2 * idx + 1];
        break;
    case MC_COMPLEX128: v.f = ((const double *)p)[2 * idx];
        v.im = ((const double *)p)[2 * idx + 1];
        break;
    case MC_FLOAT_INT: v.f = AT(pair_fi).v, v.loc = AT(pair_fi).i; break;
    case MC_DOUBLE_INT: v.f = AT(pair_di).v, v.loc = AT(pair_di).i; break;
    case MC_2INT: v.f = AT(pair_ii).v, v.loc = AT(pair_ii).i; break;
    default: v.f = (double)AT(pair_li).v, v.loc = AT(pair_li).i; break;
    }
    return v;
}

#define PUT(T, value, index)                                                 \
    do {                                                                     \
        T e_;                                                                \
        memset(&e_, 0, sizeof e_); /* padding too: compared bytewise */      \
        e_.v = (value);                                                      \
        e_.i = (index);                                                      \
        memcpy((unsigned char *)p + idx * sizeof e_, &e_, sizeof e_);        \
    } while (0)

void chk_store_wide(mc_dtype_t dt, void *p, size_t idx, chk_num_t v)
{
    switch (dt) {
    case MC_FLOAT16: case MC_BFLOAT16:
        ((uint16_t *)p)[idx] = half_bits(dt, v.f);
        break;
    case MC_COMPLEX64:
        ((float *)p)[2 * idx] = (float)v.f;
        ((float *)p)[2 * idx + 1] = (float)v.im;
        break;
    case MC_COMPLEX128:
        ((double *)p)[2 * idx] = v.f;
        ((double *)p)[2 * idx + 1] = v.im;
        break;
    case MC_FLOAT_INT: PUT(pair_fi, (float)v.f, (int)v.loc); break;
    case MC_DOUBLE_INT: PUT(pair_di, v.f, (int)v.loc); break;
    case MC_2INT: PUT(pair_ii, (int)v.f, (int)v.loc); break;
    default: PUT(pair_li, (long)v.f, (int)v.loc); break;
    }
}

/* ---- inputs and combining of the wider types ---- */

static double small_pow2(uint64_t h) /* 2^-4 .. 2^4 */
{
    return ldexp(1.0, (int)(h % 9) - 4);
}

chk_num_t chk_gen_wide(const mc_case_t *k, uint64_t who, uint64_t h,
                       int cls)
{
    chk_num_t v = {.u = 0};
    uint64_t h2 = h * 0x9e3779b97f4a7c15ULL ^ h >> 29;
    switch (chk_kind(k->dt)) {
    case CHK_HALF:
        if (cls == MC_SUM) {
            int m = k->dt == MC_BFLOAT16 ? 255 : 2047;
            v.f = (double)((int)(h % (uint64_t)(2 * m + 1)) - m);
            return v;
        }
        if (cls == MC_PROD) {
            static const double re[5] = {1, -1, 2, 0.5, 3};
            v.f = re[h % (who < 8 ? 5 : 2)];
            return v;
        }
        /* min and max: as complex */
        /* fall through */
    case CHK_COMPLEX:
        if (cls == MC_SUM) {
            v.f = (double)(int)(h % 9) - 4;
            v.im = (double)(int)(h2 % 9) - 4;
        } else if (cls == MC_PROD) {
            /* +-1, +-i, and 2 or 0.5 from the first eight contributors */
            static const double re[6] = {1, -1, 0, 0, 2, 0.5},
                                im[6] = {0, 0, 1, -1, 0, 0};
            unsigned pick = (unsigned)(h % (who < 8 ? 6 : 4));
            v.f = re[pick];
            v.im = im[pick];
        } else {
            v.f = (double)((int)(h % 511) - 255) * small_pow2(h >> 20);
            v.im = (double)((int)(h2 % 511) - 255) * small_pow2(h2 >> 20);
        }
        if (chk_kind(k->dt) == CHK_HALF)
            v.im = 0;
        return v;
    default: /* pairs: few values, so that ties (and their index) matter */
        if (cls >= 0) {
            v.f = (double)((int)(h % 7) - 3);
            v.loc = (int64_t)(h2 % 1000);
        } else {
            v.f = (double)(int32_t)h;
            v.loc = (int32_t)h2;
        }
        if (k->dt == MC_FLOAT_INT)
            v.f = (float)v.f;
        return v;
    }
}

chk_num_t chk_combine_wide(mc_dtype_t dt, int op, chk_num_t a, chk_num_t b)
{
    chk_num_t r = a;
    switch (op) {
    case MC_SUM: r.f = a.f + b.f, r.im = a.im + b.im; break;
    case MC_PROD:
        r.f = a.f * b.f - a.im * b.im;
        r.im = a.f * b.im + a.im * b.f;
        break;
    case MC_MIN: r.f = b.f < a.f ? b.f : a.f; break;
    case MC_MAX: r.f = b.f > a.f ? b.f : a.f; break;
    default: /* MINLOC, MAXLOC: the winning value, ties to the lower index */
        if (a.f == b.f)
            r.loc = a.loc < b.loc ? a.loc : b.loc;
        else if ((op == MC_MINLOC) == (b.f < a.f))
            r = b;
        break;
    }
    (void)dt;
    return r;
}

int chk_same(mc_dtype_t dt, chk_num_t got, chk_num_t want)
{
    switch (chk_kind(dt)) {
    case CHK_INT: return got.u == want.u;
    case CHK_FLOAT:
        return got.f == want.f ||
               fabs(got.f - want.f) <= 1e-6 * fabs(want.f);
    case CHK_PAIR: return got.f == want.f && got.loc == want.loc;
    default: /* 16-bit floats, complex: bit for bit (see the top) */
        return got.f == want.f && got.im == want.im;
    }
}
