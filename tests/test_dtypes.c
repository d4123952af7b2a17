/*
 * The wider datatypes' kernels (src/ops/reduce_ext.c) against references
 * that share nothing with them:
 *   - binary16 -> float32 for all 65,536 bit patterns, against a decoder
 *     built on ldexp; float32 -> binary16 against the nearest entry of the
 *     sorted table of all finite halves (ties to the even pattern), for
 *     every float32 within 2 ulps of each half and of each midpoint, and a
 *     stride through all float32 bit patterns; the CPU's F16C conversion
 *     (when present) against the portable one on the same inputs;
 *   - bfloat16 the same way (its neighbours are the truncation and the
 *     next pattern up);
 *   - SUM of p 16-bit vectors combined by the kernel in random tree
 *     orders (rounding at every combining) stays within (p - 1) u
 *     sum|x_i| of the exact fp64 sum; as the collectives do it (widened
 *     to float32, summed there, rounded once) within u sum|x_i| plus
 *     float32's (p - 1) 2^-24 sum|x_i| (include/manycoll.h);
 *   - complex SUM and PROD, MINLOC and MAXLOC ties, and which op is
 *     defined on which datatype.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/half.h"
#include "ops/ops.h"

#include "check.h"

static uint64_t rng = 88172645463325252ULL;
static uint64_t next(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

/* ---- binary16 ---- */

static double ref_f16_value(uint16_t h)
{
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double s = h & 0x8000 ? -1.0 : 1.0;
    if (e == 31)
        return m ? NAN : s * INFINITY;
    return s * (e ? ldexp(1024 + m, e - 25) : ldexp(m, -24));
}

static double pos_halves[0x7c00]; /* value of pattern i, 0 .. 0x7bff */

/* nearest half to x (ties to the even pattern), by binary search */
static uint16_t ref_to_f16(double x)
{
    uint16_t sign = signbit(x) ? 0x8000 : 0;
    double a = fabs(x);
    if (isnan(x))
        return 0x7e00;
    if (a >= 65520.0) /* halfway between 65504 and 2^16 and beyond */
        return sign | 0x7c00;
    int lo = 0, hi = 0x7bff;
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (pos_halves[mid] <= a)
            lo = mid;
        else
            hi = mid;
    }
    double dl = a - pos_halves[lo], dh = pos_halves[hi] - a;
    int pick = dl < dh ? lo : dh < dl ? hi : (lo % 2 == 0 ? lo : hi);
    if (a < pos_halves[lo])
        pick = lo;
    return sign | (uint16_t)pick;
}

static int same_f16(uint16_t a, uint16_t b)
{
    int nan_a = (a & 0x7c00) == 0x7c00 && (a & 0x3ff);
    int nan_b = (b & 0x7c00) == 0x7c00 && (b & 0x3ff);
    return nan_a ? nan_b : a == b;
}

static void check_f32_to_f16(float f)
{
    uint16_t want = ref_to_f16((double)f), got = mc_f32_to_f16(f);
    CHECK(same_f16(got, want), "f16(%a) = %#x, want %#x", (double)f, got,
          want);
    uint16_t nat;
    if (mc_f16_unblock(&f, &nat, 1, 1) == 1) {
        float eight[8] = {f, f, f, f, f, f, f, f};
        uint16_t out[8];
        mc_f16_unblock(eight, out, 8, 1); /* the vector path */
        CHECK(same_f16(out[3], want), "F16C f16(%a) = %#x, want %#x",
              (double)f, out[3], want);
    }
}

static void test_f16(void)
{
    for (int i = 0; i < 0x7c00; i++)
        pos_halves[i] = ref_f16_value((uint16_t)i);
    static uint16_t all[65536];
    static float wide[65536], wide_nat[65536];
    for (int h = 0; h < 65536; h++) {
        all[h] = (uint16_t)h;
        double want = ref_f16_value((uint16_t)h);
        float got = mc_f16_to_f32((uint16_t)h);
        CHECK(isnan(want) ? isnan(got) : (double)got == want &&
                  !signbit(got) == !signbit(want),
              "f32(%#x) = %a, want %a", h, (double)got, want);
        if (!isnan(want))
            CHECK(mc_f32_to_f16(got) == h, "round trip of %#x", h);
    }
    mc_f16_block(all, wide, 65536, 0);
    if (mc_f16_block(all, wide_nat, 65536, 1) == 1)
        for (int h = 0; h < 65536; h++)
            CHECK(memcmp(&wide[h], &wide_nat[h], 4) == 0 || isnan(wide[h]),
                  "F16C f32(%#x) = %a, portable %a", h, (double)wide_nat[h],
                  (double)wide[h]);
    else
        printf("no F16C on this CPU: the portable conversion only\n");
    /* every half and every midpoint between neighbours, +-2 ulps */
    for (int i = 0; i < 0x7c00; i++) {
        double pts[2] = {pos_halves[i],
                         i + 1 < 0x7c00
                             ? (pos_halves[i] + pos_halves[i + 1]) / 2
                             : 65520.0};
        for (int p = 0; p < 2; p++) {
            float c = (float)pts[p]; /* exact: halves and midpoints fit */
            for (int d = -2; d <= 2; d++) {
                uint32_t u;
                memcpy(&u, &c, 4);
                u += (uint32_t)d;
                float f;
                memcpy(&f, &u, 4);
                check_f32_to_f16(f);
                check_f32_to_f16(-f);
            }
        }
    }
    for (uint64_t u = 0; u < (1ULL << 32); u += 262139) {
        uint32_t v = (uint32_t)u;
        float f;
        memcpy(&f, &v, 4);
        check_f32_to_f16(f);
    }
}

/* ---- bfloat16 ---- */

static uint16_t ref_to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if (isnan(f))
        return 0x7fc0;
    uint32_t lo = u & 0xffff0000u, hi = lo + 0x10000u;
    float fl, fh;
    memcpy(&fl, &lo, 4);
    memcpy(&fh, &hi, 4);
    double dl = fabs((double)f - fl), dh = fabs((double)fh - f);
    if (isinf(fh)) /* the next pattern up is infinity: float32's max + ulp */
        dh = fabs(ldexp(1.0, 128) - fabs((double)f));
    if (dl < dh || (dl == dh && !(lo & 0x10000u)))
        return (uint16_t)(lo >> 16);
    return (uint16_t)(hi >> 16);
}

static void test_bf16(void)
{
    for (int h = 0; h < 65536; h++) {
        uint32_t u = (uint32_t)h << 16;
        float want, got = mc_bf16_to_f32((uint16_t)h);
        memcpy(&want, &u, 4);
        CHECK(memcmp(&got, &want, 4) == 0, "bf16 f32(%#x)", h);
    }
    for (uint64_t u = 0; u < (1ULL << 32); u += 16381) {
        uint32_t v = u & 1 ? ((uint32_t)u & 0xffff0000u) | 0x8000u /* ties */
                            : (uint32_t)u;
        float f;
        memcpy(&f, &v, 4);
        uint16_t got = mc_f32_to_bf16(f), want = ref_to_bf16(f);
        int nan = isnan(f);
        CHECK(nan ? (got & 0x7f80) == 0x7f80 && (got & 0x7f) : got == want,
              "bf16(%a) = %#x, want %#x", (double)f, got, want);
    }
}

/* ---- the error bound of a 16-bit SUM over p contributions ---- */

static double value16(mc_dtype_t dt, uint16_t h)
{
    return dt == MC_FLOAT16 ? ref_f16_value(h) : (double)mc_bf16_to_f32(h);
}

static void test_sum_bound(mc_dtype_t dt)
{
    enum { N = 64, PMAX = 48 };
    double u = dt == MC_FLOAT16 ? 0x1p-11 : 0x1p-8;
    static uint16_t x[PMAX][N];
    for (int trial = 0; trial < 200; trial++) {
        int p = 2 + (int)(next() % (PMAX - 1));
        double exact[N] = {0}, mag[N] = {0};
        for (int r = 0; r < p; r++)
            for (int i = 0; i < N; i++) {
                /* values in (-64, 64) with a full mantissa */
                float v = (float)((double)(next() % 2000001) / 15625.0 - 64);
                x[r][i] = dt == MC_FLOAT16 ? ref_to_f16(v) : ref_to_bf16(v);
                exact[i] += value16(dt, x[r][i]);
                mag[i] += fabs(value16(dt, x[r][i]));
            }
        /* combine in a random tree: pick two live vectors, fold one in */
        int live[PMAX];
        for (int r = 0; r < p; r++)
            live[r] = r;
        for (int n = p; n > 1; n--) {
            int a = (int)(next() % (uint64_t)n), b = (int)(next() % (uint64_t)(n - 1));
            b += b >= a;
            mc_reduce_into(x[live[b]], x[live[a]], N, dt, MC_SUM, 1);
            live[a] = live[n - 1];
        }
        for (int i = 0; i < N; i++) {
            double got = value16(dt, x[live[0]][i]);
            double bound = (p - 1) * u * mag[i];
            CHECK(fabs(got - exact[i]) <= bound,
                  "%s sum of %d: %g, exact %g, bound %g",
                  dt == MC_FLOAT16 ? "float16" : "bfloat16", p, got,
                  exact[i], bound);
        }
    }
}

/* the collectives' way (api/coll.c: run_wide): widen, sum in float32 in
 * a random order, round once */
static void test_once_bound(mc_dtype_t dt)
{
    enum { N = 64, PMAX = 48 };
    double u = dt == MC_FLOAT16 ? 0x1p-11 : 0x1p-8;
    static uint16_t x[PMAX][N];
    static float f[PMAX][N];
    for (int trial = 0; trial < 200; trial++) {
        int p = 2 + (int)(next() % (PMAX - 1));
        double exact[N] = {0}, mag[N] = {0};
        for (int r = 0; r < p; r++) {
            for (int i = 0; i < N; i++) {
                float v = (float)((double)(next() % 2000001) / 15625.0 - 64);
                x[r][i] = dt == MC_FLOAT16 ? ref_to_f16(v) : ref_to_bf16(v);
                exact[i] += value16(dt, x[r][i]);
                mag[i] += fabs(value16(dt, x[r][i]));
            }
            mc_half_widen(dt, x[r], f[r], N);
        }
        for (int n = p; n > 1; n--) { /* fold a random one into another */
            int a = (int)(next() % (uint64_t)n);
            int b = (int)(next() % (uint64_t)(n - 1));
            b += b >= a;
            for (int i = 0; i < N; i++)
                f[b][i] += f[a][i];
            memcpy(f[a], f[n - 1], sizeof f[a]);
        }
        uint16_t out[N];
        mc_half_narrow(dt, f[0], out, N);
        for (int i = 0; i < N; i++) {
            double got = value16(dt, out[i]);
            double bound = (u + (p - 1) * 0x1p-24) * mag[i];
            CHECK(fabs(got - exact[i]) <= bound,
                  "%s once-rounded sum of %d: %g, exact %g, bound %g",
                  dt == MC_FLOAT16 ? "float16" : "bfloat16", p, got,
                  exact[i], bound);
        }
    }
}

/* ---- complex, pairs, op validity ---- */

static void test_complex(void)
{
    double a[4] = {1.5, -2.0, 0.25, 3.0}, b[4] = {-4.0, 0.5, 2.0, -1.0};
    double s[4], p[4];
    memcpy(s, b, sizeof s);
    memcpy(p, b, sizeof p);
    mc_reduce_into(s, a, 2, MC_COMPLEX128, MC_SUM, 1);
    mc_reduce_into(p, a, 2, MC_COMPLEX128, MC_PROD, 1);
    for (int k = 0; k < 2; k++) {
        double ar = a[2 * k], ai = a[2 * k + 1], br = b[2 * k],
               bi = b[2 * k + 1];
        CHECK(s[2 * k] == ar + br && s[2 * k + 1] == ai + bi, "c128 sum");
        CHECK(p[2 * k] == ar * br - ai * bi && p[2 * k + 1] == ar * bi + ai * br,
              "c128 prod %d: (%g, %g)", k, p[2 * k], p[2 * k + 1]);
    }
    float fa[2] = {0.0f, 1.0f}, fb[2] = {0.0f, 1.0f}; /* i * i = -1 */
    mc_reduce_into(fb, fa, 1, MC_COMPLEX64, MC_PROD, 1);
    CHECK(fb[0] == -1.0f && fb[1] == 0.0f, "c64 i*i = (%g, %g)", fb[0], fb[1]);
}

static void test_pairs(void)
{
    struct { double v; int i; } a[3] = {{1.0, 7}, {2.0, 3}, {5.0, 9}},
                                b[3] = {{1.0, 4}, {3.0, 1}, {5.0, 2}};
    mc_reduce_into(b, a, 3, MC_DOUBLE_INT, MC_MINLOC, 1);
    CHECK(b[0].i == 4 && b[1].v == 2.0 && b[1].i == 3 && b[2].i == 2,
          "double-int minloc: (%g,%d) (%g,%d) (%g,%d)", b[0].v, b[0].i,
          b[1].v, b[1].i, b[2].v, b[2].i);
    struct { long v; int i; } la[2] = {{-5, 1}, {9, 8}}, lb[2] = {{-5, 0},
                                                                  {4, 2}};
    mc_reduce_into(lb, la, 2, MC_LONG_INT, MC_MAXLOC, 0);
    CHECK(lb[0].i == 0 && lb[1].v == 9 && lb[1].i == 8, "long-int maxloc");
    int ia[2] = {3, 5}, ib[2] = {3, 2};
    mc_reduce_into(ib, ia, 1, MC_2INT, MC_MAXLOC, 1);
    CHECK(ib[0] == 3 && ib[1] == 2, "2int maxloc tie keeps index 2");
}

static void test_validity(void)
{
    struct { mc_dtype_t dt; mc_op_t op; int ok; } t[] = {
        {MC_FLOAT16, MC_SUM, 1},      {MC_BFLOAT16, MC_MAX, 1},
        {MC_FLOAT16, MC_BAND, 0},     {MC_COMPLEX64, MC_PROD, 1},
        {MC_COMPLEX128, MC_MIN, 0},   {MC_FLOAT_INT, MC_MINLOC, 1},
        {MC_LONG_INT, MC_MAXLOC, 1},  {MC_2INT, MC_SUM, 0},
        {MC_INT32, MC_MINLOC, 0},     {MC_FLOAT64, MC_MAXLOC, 0},
        {MC_INT8, MC_LOR, 1},         {MC_FLOAT32, MC_LAND, 0},
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++)
        CHECK((mc_op_check(t[i].op, t[i].dt) == MC_OK) == t[i].ok,
              "op %d on dt %d: want %s", (int)t[i].op, (int)t[i].dt,
              t[i].ok ? "valid" : "invalid");
    CHECK(mc_dtype_size(MC_FLOAT16) == 2 && mc_dtype_size(MC_COMPLEX128) == 16 &&
              mc_dtype_size(MC_DOUBLE_INT) == 16 &&
              mc_dtype_size(MC_FLOAT_INT) == 8,
          "sizes");
}

int main(void)
{
    test_f16();
    test_bf16();
    test_sum_bound(MC_FLOAT16);
    test_sum_bound(MC_BFLOAT16);
    test_once_bound(MC_FLOAT16);
    test_once_bound(MC_BFLOAT16);
    test_complex();
    test_pairs();
    test_validity();
    return check_done("dtypes", "conversions, bounds, complex, pairs all "
                                "pass");
}
