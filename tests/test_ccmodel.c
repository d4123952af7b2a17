/*
 * The min-max models (src/model/ccmodel.c), the fits (fit.c) and the
 * optimiser (ccopt.c) against values computed by hand from the report's
 * equations. The toy profile has round numbers so every expected value
 * below can be checked on paper:
 *
 *   R_L = 1, R_R = 10, R_I = 20
 *   T_C(n): anchored R_L + R_R + c (n - 1) = 11 + 2 (n - 1); fit 5 + 2 n
 *   T_N = 3 N + 50 - 20 / N
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/ccopt.h"
#include "model/fit.h"
#include "util/error.h"

static int failures;

static void near(double got, double want, const char *what)
{
    if (!(fabs(got - want) <= 1e-9 * fmax(1, fabs(want)))) {
        fprintf(stderr, "FAIL %s: got %.10g, want %.10g\n", what, got, want);
        failures++;
    }
}

static void truth(int cond, const char *what)
{
    if (!cond) {
        fprintf(stderr, "FAIL %s (%s)\n", what, mc_last_error());
        failures++;
    }
}

static mc_ccm_t toy(void)
{
    mc_ccm_t m = {.rl = 1, .rr = 10, .ri = 20, .tc_b = 5, .tc_c = 2,
                  .ml_o = 3, .ml_q = 50, .ml_p = 20, .has_tc = 1,
                  .has_ml = 1};
    return m;
}

static void notifications(void)
{
    mc_ccm_t m = toy();
    mc_ccm_range_t t;
    /* Eq. 4.1/4.2, 3 children: 20 + 3*10 = 50; 20 + 2*3*10 = 80 */
    truth(mc_ccm_notify_bw(&m, 4, &t) == MC_OK, "notify_bw");
    near(t.min, 50, "notify_bw min");
    near(t.max, 80, "notify_bw max");
    /* Eq. 4.6, d = 2, k = (3, 2): min (2+1)*20 + 2*2*1 = 64;
     * max 20 + 2(10 + T_C(3)) + 2(10 + T_C(2)) = 20 + 50 + 46 = 116 */
    int k[2] = {3, 2};
    truth(mc_ccm_notify_fw(&m, 2, k, &t) == MC_OK, "notify_fw");
    near(t.min, 64, "notify_fw min");
    near(t.max, 116, "notify_fw max");
    near(mc_ccm_tc(&m, 3), 15, "T_C(3) anchored");
    m.tc_mode = MC_CCM_TC_FIT;
    near(mc_ccm_tc(&m, 3), 11, "T_C(3) fit");
    m.tc_inv = 1, m.tc_a = 12, m.tc_b = 30;
    near(mc_ccm_tc(&m, 3), 32, "T_C(3) I state: 30 + 6 - 12/3");
    m.tc_mode = MC_CCM_TC_ANCHORED;
    near(mc_ccm_tc(&m, 3), 32, "I state ignores anchoring");
    near(mc_ccm_tn(&m, 2), 46, "T_N(2) = 6 + 50 - 10");
}

static void broadcasts(void)
{
    mc_ccm_t m = toy();
    mc_ccm_range_t t;
    int k[2] = {3, 2};
    /* Eq. 4.7: min 64 + (15 + 13) + (50 + 40) = 182;
     *          max 116 + 28 + (80 + 60) = 284 */
    truth(mc_ccm_bcast_small(&m, 2, k, &t) == MC_OK, "bcast_small");
    near(t.min, 182, "bcast_small min");
    near(t.max, 284, "bcast_small max");
    m.tc_mode = MC_CCM_TC_FIT; /* T_C(3) = 11, T_C(2) = 9 */
    truth(mc_ccm_bcast_small(&m, 2, k, &t) == MC_OK, "bcast_small fit");
    near(t.min, 64 + 20 + 90, "bcast_small min, fitted b");
    near(t.max, 20 + 2 * 21 + 2 * 19 + 20 + 140, "bcast_small max, fit");
    m.tc_mode = MC_CCM_TC_ANCHORED;
    /* Eq. 4.8/4.9, 4 threads, 2-line slices: T_C(3) = 15, T_N(2) = 46
     * min: (20+2) + (2+15+46) + 2(10+1+46) + (20+1) = 220
     * max: (20+2(10+15)+10) + (20+15+46) + 2(20+46) + 21 = 314 */
    truth(mc_ccm_bcast_pipelined(&m, 4, 2, &t) == MC_OK, "pipelined");
    near(t.min, 220, "pipelined min");
    near(t.max, 314, "pipelined max");
    /* Eq. 4.10, 4 threads, 10 lines: copy = (1+10-2) + 2*2 + 3*10 = 43
     * notif min 20 + 3 + 10 + 15 + 3*10 = 78; max 20+1+30+30+60 = 141 */
    truth(mc_ccm_bcast_flat(&m, 4, 10, &t) == MC_OK, "flat");
    near(t.min, 121, "flat min");
    near(t.max, 184, "flat max");
}

static void barrier_reduce(void)
{
    mc_ccm_t m = toy();
    mc_ccm_range_t t;
    /* Eq. 4.11/4.12, m = 3, r = 2: 2(1 + 30 + 10); 2(10 + 120 + 70) */
    truth(mc_ccm_barrier(&m, 3, 2, &t) == MC_OK, "barrier");
    near(t.min, 82, "barrier min");
    near(t.max, 400, "barrier max");
    truth(mc_ccm_barrier_rounds(26, 3, 1) == 3 &&
          mc_ccm_barrier_rounds(27, 3, 1) == 3 &&
          mc_ccm_barrier_rounds(28, 3, 1) == 4 &&
          mc_ccm_barrier_rounds(16, 3, 0) == 2 &&
          mc_ccm_barrier_rounds(17, 3, 0) == 3 &&
          mc_ccm_barrier_rounds(2, 1, 1) == 1 &&
          mc_ccm_barrier_rounds(3, 1, 1) == -1 &&
          mc_ccm_barrier_rounds(3, 1, 0) == 2 &&
          mc_ccm_barrier_rounds(1, 5, 1) == 0, "barrier rounds");
    /* Eq. 4.13/4.14, k = (3, 2), T_k = o k:
     *   min levels 20+15+40+1+9 = 85 and 20+13+30+1+6 = 70, + 10 = 165
     *   max levels 20+30+80+1+9 = 140 and 20+26+60+1+6 = 113, + 10 = 263
     * T_k = T_N(k): T_N(3) = 59 - 20/3, T_N(2) = 46 */
    int k[2] = {3, 2};
    truth(mc_ccm_reduce_small(&m, 2, k, &t) == MC_OK, "reduce");
    near(t.min, 165, "reduce min");
    near(t.max, 263, "reduce max");
    m.tk_mode = MC_CCM_TK_FULL;
    truth(mc_ccm_reduce_small(&m, 2, k, &t) == MC_OK, "reduce full");
    near(t.min, (76 + 59 - 20.0 / 3) + (64 + 46) + 10, "reduce min, T_N");
    /* the report's own numbers: barrier for 2 threads on the Xeon Phi,
     * 8.6 + 235.8 + 235.8 and 8 * 235.8 */
    mc_ccm_t phi = {.rl = 8.6, .rr = 235.8, .ri = 277.7};
    truth(mc_ccm_barrier(&phi, 1, 1, &t) == MC_OK, "phi barrier");
    near(t.min, 480.2, "phi barrier min");
    near(t.max, 1886.4, "phi barrier max");
}

static void errors(void)
{
    mc_ccm_t m = toy();
    mc_ccm_range_t t;
    int k[2] = {3, 0};
    truth(mc_ccm_bcast_small(&m, 0, k, &t) == MC_ERR_ARG &&
          strstr(mc_last_error(), "d = 0"), "d = 0 rejected, named");
    truth(mc_ccm_reduce_small(&m, 2, k, &t) == MC_ERR_ARG &&
          strstr(mc_last_error(), "k_2"), "k_2 = 0 rejected, named");
    truth(mc_ccm_notify_bw(&m, 1, &t) == MC_ERR_ARG &&
          strstr(mc_last_error(), "nth"), "nth = 1 rejected");
    truth(mc_ccm_bcast_pipelined(&m, 4, 0.5, &t) == MC_ERR_ARG &&
          strstr(mc_last_error(), "N_cl"), "slice < 1 line rejected");
    m.has_tc = 0;
    truth(mc_ccm_bcast_small(&m, 1, k, &t) == MC_ERR_ARG &&
          strstr(mc_last_error(), "contention"), "missing T_C named");
    m = toy();
    m.has_ml = 0;
    truth(mc_ccm_bcast_flat(&m, 4, 8, &t) == MC_ERR_ARG &&
          strstr(mc_last_error(), "multi-line"), "missing T_N named");
    mc_ccopt_coll_t c;
    truth(mc_ccopt_coll_from_name("bcast-large", &c) == MC_ERR_ARG &&
          strstr(mc_last_error(), "bcast-large"), "unknown coll named");
}

static void fits(void)
{
    double x[14] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128}, y[14];
    for (int i = 0; i < 14; i++)
        y[i] = 76.0 * x[i] + 1521.0 - 1096.0 / x[i];
    mc_fitres_t f;
    truth(mc_fit(x, y, 14, 1, &f) == MC_OK, "fit o*N + q - p/N");
    near(f.slope, 76, "o");
    near(f.icept, 1521, "q");
    near(f.inv, 1096, "p");
    near(f.r2, 1, "R^2 of exact data");
    for (int i = 0; i < 5; i++)
        y[i] = 320.5 + 56.2 * (i + 1), x[i] = i + 1;
    truth(mc_fit(x, y, 5, 0, &f) == MC_OK, "fit b + c*n");
    near(f.slope, 56.2, "c");
    near(f.icept, 320.5, "b");
    near(f.inv, 0, "no a");
    truth(mc_fit(x, y, 2, 1, &f) == MC_ERR_ARG &&
          strstr(mc_last_error(), "needs 3"), "too few points named");
    double v[4] = {3, 1, 2, 10};
    mc_summary_t s = mc_summarize(v, 4);
    near(s.mean, 4, "mean");
    near(s.median, 2.5, "median");
    near(s.stdev, sqrt(((1) + 9 + 4 + 36) / 3.0), "stdev");
}

/* The optimiser against exhaustive enumeration done by hand: the toy
 * bcast-small min is R_I + d (2 R_I + 2 R_L + R_L + R_R - c) + (c + R_R)
 * sum k = 20 + 51 d + 12 sum k. For 5 ranks: d = 1, k = 4 -> 119;
 * d = 2 needs k1 + k1 k2 >= 4, sum 3 ((2,1)) -> 158. So (4). */
static void optimiser(void)
{
    mc_ccm_t m = toy();
    mc_ccopt_result_t r;
    truth(mc_ccopt_solve(&m, MC_CCOPT_BCAST_SMALL, 5, NULL, &r) == MC_OK,
          "solve bcast-small 5");
    truth(r.d == 1 && r.k[0] == 4, "bcast-small 5 ranks: one level of 4");
    near(r.min_ns, 20 + 51 + 48, "its min");
    /* 13 ranks: d=1 -> 20+51+144 = 215; d=2 (3,3) -> 20+102+72 = 194;
     * (4,2) and (5,1)... (4,2): 1+4+8 = 13, sum 6: tie with (3,3) */
    truth(mc_ccopt_solve(&m, MC_CCOPT_BCAST_SMALL, 13, NULL, &r) == MC_OK,
          "solve bcast-small 13");
    truth(r.d == 2 && r.k[0] == 3 && r.k[1] == 3 && r.ties == 1,
          "13 ranks: (3,3), tied with (4,2)");
    near(r.min_ns, 194, "its min");
    truth(mc_ccopt_solve(&m, MC_CCOPT_BARRIER, 9, NULL, &r) == MC_OK,
          "solve barrier 9");
    /* m=2: 4 rounds * 31 = 124... min over m of r(1 + 10 m + 10):
     * m=2 r=4: 4*31=124; m=3 r=2: 2*41 = 82; m=8 r=2: 2*91; m=4 r=2: 102 */
    truth(r.m == 3 && r.rounds == 2, "barrier 9: m = 3, 2 rounds");
    near(r.min_ns, 82, "its min");
}

int main(void)
{
    notifications();
    broadcasts();
    barrier_reduce();
    errors();
    fits();
    optimiser();
    if (failures)
        fprintf(stderr, "%d failure(s)\n", failures);
    else
        printf("ccmodel tests passed\n");
    return failures ? 1 : 0;
}
