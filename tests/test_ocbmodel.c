/*
 * The OC-Bcast paper's model (src/model/ocbmodel.c, ocbcoll.c) on scc48:
 * formulas 1-16 against values computed by hand from Table 1, Table 2
 * reproduced, and the latency claims of the paper's analytical figure 6.
 *
 * Table 1 in ps: L_hop 5000, o_mpb 126000, o_mem_w 461000, o_mem_r
 * 208000, o_put_mpb 69000, o_get_mpb 330000, o_put_mem 190000,
 * o_get_mem 95000.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/ocbmodel.h"
#include "util/error.h"

static int failures;

static void eq(mc_ps_t got, mc_ps_t want, const char *what)
{
    if (got != want) {
        fprintf(stderr, "FAIL %s: got %lld ps, want %lld ps\n", what,
                (long long)got, (long long)want);
        failures++;
    }
}

static void near(double got, double want, double rel, const char *what)
{
    if (!(fabs(got - want) <= rel * fabs(want))) {
        fprintf(stderr, "FAIL %s: got %.4f, want %.4f (within %.0f%%)\n",
                what, got, want, rel * 100);
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

static void figure2(const mc_platform_t *p)
{
    eq(mc_ocb_lw_mpb(p, 1), 131000, "(1) L_w^mpb(1) = 0.126 + 0.005");
    eq(mc_ocb_lw_mpb(p, 9), 171000, "(1) L_w^mpb(9) = 0.126 + 9 x 0.005");
    eq(mc_ocb_cw_mpb(p, 1), 136000, "(2) C_w^mpb(1) = 0.126 + 2 x 0.005");
    eq(mc_ocb_cw_mpb(p, 9), 216000, "(2) C_w^mpb(9) = 0.126 + 18 x 0.005");
    eq(mc_ocb_cr_mpb(p, 4), 166000, "(3) C_r^mpb(4) = 0.126 + 8 x 0.005");
    eq(mc_ocb_lw_mem(p, 3), 476000, "(4) L_w^mem(3) = 0.461 + 3 x 0.005");
    eq(mc_ocb_cw_mem(p, 1), 471000, "(5) C_w^mem(1) = 0.461 + 2 x 0.005");
    eq(mc_ocb_cr_mem(p, 3), 238000, "(6) C_r^mem(3) = 0.208 + 6 x 0.005");
    /* 0.069 + 96 (0.136 + 0.176) */
    eq(mc_ocb_cput_mpb(p, 96, 5), 30021000, "(7) C_put^mpb(96, 5)");
    /* 0.19 + 96 (0.218 + 0.136) */
    eq(mc_ocb_cput_mem(p, 96, 1, 1), 34174000, "(8) C_put^mem(96, 1, 1)");
    eq(mc_ocb_cput_mem(p, 1, 1, 1), 544000, "(8) C_put^mem(1, 1, 1)");
    /* (7) at d = 1, 26.181, less the last ack: - 0.136 + 0.131 */
    eq(mc_ocb_lput_mpb(p, 96, 1), 26176000, "(9) L_put^mpb(96, 1)");
    eq(mc_ocb_lput_mem(p, 1, 1, 1), 539000, "(10) L_put^mem(1, 1, 1)");
    /* 0.33 + 96 (0.136 + 0.136) */
    eq(mc_ocb_cget_mpb(p, 96, 1), 26442000, "(11) C_get^mpb(96, 1)");
    /* 0.095 + 96 (0.136 + 0.471) */
    eq(mc_ocb_cget_mem(p, 96, 1, 1), 58367000, "(12) C_get^mem(96, 1, 1)");
    eq(mc_ocb_cget_mem(p, 1, 1, 1), 702000, "(12) C_get^mem(1, 1, 1)");
}

static void flags(const mc_platform_t *p)
{
    /* RCCE flags: (10), (8), (12) of one line */
    eq(mc_ocb_flag_lat(p, 1, 1), 539000, "RCCE flag lands at L_put^mem(1)");
    eq(mc_ocb_flag_cost(p, 1, 1), 544000, "RCCE flag costs C_put^mem(1)");
    eq(mc_ocb_poll_cost(p, 1, 1), 702000, "RCCE poll costs C_get^mem(1)");
    eq(mc_ocb_flag_cost(p, 3, 2), 190000 + 218000 + 10000 + 126000 + 30000,
       "RCCE flag at d = 3, memory at d = 2");
    mc_platform_t raw = *p;
    raw.flags_rcce = 0;
    eq(mc_ocb_flag_lat(&raw, 1, 1), 131000, "MPB flag lands at L_w^mpb");
    eq(mc_ocb_flag_cost(&raw, 1, 1), 136000, "MPB flag costs C_w^mpb");
    eq(mc_ocb_poll_cost(&raw, 1, 1), 136000, "MPB poll costs C_r^mpb");
}

static void figure7(const mc_platform_t *p)
{
    truth(mc_ocb_kary_depth(48, 2) == 5, "k=2 tree over 48: 5 levels");
    truth(mc_ocb_kary_depth(48, 7) == 2, "k=7 tree over 48: 2 levels");
    truth(mc_ocb_kary_depth(48, 47) == 1, "k=47 tree over 48: 1 level");
    truth(mc_ocb_bisect_depth(48) == 6, "binary recursive tree: 6 levels");
    truth(mc_ocb_bisect_depth(1) == 0 && mc_ocb_bisect_depth(2) == 1,
          "bisect depth of 1 and 2 ranks");
    /* (13), k = 7, one line: 0.544 + 2 x 0.602 + 0.702 */
    eq(mc_ocb_f13(p, 48, 1, 7), 2450000, "(13) P=48, m=1, k=7");
    /* second line: 96 (2 x 0.272 + 0.218 + 0.471) */
    eq(mc_ocb_f13_lines(p, 48, 96, 7), 96 * 1233000, "(13) per line");
    /* (14), one line: 6 x (0.136 + 0.702) */
    eq(mc_ocb_f14(p, 48, 1), 5028000, "(14) P=48, m=1");
    /* second line: 6 x (0.136 + 0.136 + 0.471) + 0.218 */
    eq(mc_ocb_f14_lines(p, 48, 1), 4676000, "(14) per line");
    /* (15): 96 x 32 bytes / (26.442 + 58.367) us; 32 / 0.879 */
    near(mc_ocb_f15(p, 96), 3072 / 84.809, 1e-9, "(15) exact, M = 96");
    near(mc_ocb_f15_lines(p), 32 / 0.879, 1e-9, "(15) per line");
    /* (16): 48 x 3072 / (48 (34.174 + 58.367) + 93 (13.056 + 58.367));
     * 32 / (3 x 0.136 + 3 x 0.136 + 0.218 + 3 x 0.471) */
    near(mc_ocb_f16(p, 48, 96), 147456 / (48 * 92.541 + 93 * 71.423), 1e-9,
         "(16) exact, P = 48, M = 96");
    near(mc_ocb_f16_lines(p), 32 / 2.447, 1e-9, "(16) per line");
}

/* Table 2: analytic peak throughput, each within 10%, and the ratios */
static void table2(const mc_platform_t *p)
{
    static const int ks[3] = {2, 7, 47};
    static const double paper[3] = {35.22, 34.30, 35.88}, paper_sag = 13.38;
    double sag = mc_ocb_f16(p, 48, 96);
    printf("Table 2 (MB/s)        paper   model\n");
    near(sag, paper_sag, 0.10, "Table 2 scatter-allgather, formula (16)");
    for (int i = 0; i < 3; i++) {
        mc_ocb_cfg_t c = {.alg = MC_OCB_OCBCAST, .k = ks[i]};
        double bw = 0;
        char what[96];
        truth(mc_ocb_ocbcast_peak(p, &c, &bw, NULL) == MC_OK, "peak");
        snprintf(what, sizeof what, "Table 2 OC-Bcast k=%d", ks[i]);
        near(bw, paper[i], 0.10, what);
        snprintf(what, sizeof what, "Table 2 ratio k=%d / scatter-allgather",
                 ks[i]);
        near(bw / sag, paper[i] / paper_sag, 0.10, what);
        near(mc_ocb_f15(p, 96), paper[i], 0.10, "formula (15) exact");
        printf("OC-Bcast k=%-2d        %6.2f  %6.2f  (ratio %.3f vs %.3f)\n",
               ks[i], paper[i], bw, bw / sag, paper[i] / paper_sag);
    }
    printf("scatter-allgather     %6.2f  %6.2f\n", paper_sag, sag);
}

static double lat(const mc_platform_t *p, mc_ocb_alg_t alg, int k,
                  long lines)
{
    mc_ocb_cfg_t c = {.alg = alg, .k = k};
    mc_ocb_result_t r = {0};
    truth(mc_ocb_bcast(p, &c, (size_t)lines * 32, &r) == MC_OK, "bcast");
    return r.lat_us;
}

/* Figure 6 (modelled latency) and section 5.2: what the paper's model
 * says, not the measured values, is asserted */
static void figure6(const mc_platform_t *p)
{
    double k2 = lat(p, MC_OCB_OCBCAST, 2, 1), k7 = lat(p, MC_OCB_OCBCAST, 7, 1);
    double k47 = lat(p, MC_OCB_OCBCAST, 47, 1), bin = lat(p, MC_OCB_BINOMIAL,
                                                            0, 1);
    printf("1 line (us)   model  measured (Fig. 8a)\n"
           "k=2         %7.3f\nk=7         %7.3f  16.6\nk=47        %7.3f\n"
           "binomial    %7.3f  21.6\n", k2, k7, k47, bin);
    truth(k7 < bin && k2 < bin, "OC-Bcast k=2, 7 beat binomial at 1 line");
    truth(k47 > k2 && k47 > k7, "k=47 is the slowest for 1 line (5.2.3)");
    for (long m = 96; m <= 192; m += 96) {
        truth(lat(p, MC_OCB_OCBCAST, 7, m) < lat(p, MC_OCB_OCBCAST, 2, m),
              "k=7 beats k=2 at 96, 192 lines");
        truth(lat(p, MC_OCB_OCBCAST, 47, m) < lat(p, MC_OCB_BINOMIAL, 0, m),
              "every OC-Bcast beats binomial at 96, 192 lines");
    }
    truth(lat(p, MC_OCB_BINOMIAL, 0, 192) - lat(p, MC_OCB_OCBCAST, 7, 192) >
              bin - k7,
          "the gap to binomial grows with the size");
    double s1 = (lat(p, MC_OCB_OCBCAST, 7, 96) - k7) / 95;
    double s2 = (lat(p, MC_OCB_OCBCAST, 7, 192) -
                 lat(p, MC_OCB_OCBCAST, 7, 96)) / 96;
    truth(s2 < s1, "the slope drops beyond one chunk (pipelining)");
}

/* the step-by-step model against the closed forms it must agree with */
static void consistency(const mc_platform_t *p)
{
    mc_ocb_cfg_t c = {.alg = MC_OCB_OCBCAST, .k = 7};
    mc_ocb_result_t r;
    double peak;
    truth(mc_ocb_ocbcast_peak(p, &c, &peak, NULL) == MC_OK, "peak k=7");
    truth(mc_ocb_bcast(p, &c, 1 << 20, &r) == MC_OK, "1 MiB k=7");
    truth(r.bw_MBps < peak && r.bw_MBps > 0.98 * peak,
          "1 MiB approaches the peak from below");
    /* two ranks, one line, binomial, by hand: the sender puts (0.544)
     * and raises "sent", which lands at 0.544 + 0.539 = 1.083; the
     * receiver sees it one poll later (1.785), gets (0.702, 2.487) and
     * raises "ready" (lands 3.026, returns 3.031); the sender sees it at
     * 3.026 + 0.702 = 3.728 */
    mc_ocb_cfg_t b = {.alg = MC_OCB_BINOMIAL, .ranks = 2};
    truth(mc_ocb_bcast(p, &b, 32, &r) == MC_OK, "binomial 2 ranks");
    near(r.lat_us, 3.728, 1e-9, "binomial, 2 ranks, 1 line");
    near(r.done_min_us, 2.487 + 0.544, 1e-9, "receiver returns at 3.031");
    mc_ocb_cfg_t one = {.alg = MC_OCB_SAG, .ranks = 1};
    truth(mc_ocb_bcast(p, &one, 1000, &r) == MC_OK && r.lat_us == 0,
          "one rank costs nothing");
    mc_ocb_cfg_t bad = {.alg = MC_OCB_OCBCAST, .ranks = 49};
    truth(mc_ocb_bcast(p, &bad, 32, &r) == MC_ERR_ARG &&
              strstr(mc_last_error(), "ranks"),
          "49 ranks on scc48 is an error naming ranks");
    for (int n = 2; n <= 9; n++) { /* odd and even rings, both kinds */
        mc_ocb_cfg_t s = {.alg = MC_OCB_SAG, .ranks = n};
        truth(mc_ocb_bcast(p, &s, 10000, &r) == MC_OK && r.lat_us > 0,
              "exchange ring");
        double t = r.lat_us;
        s.sag_overlap = 1;
        truth(mc_ocb_bcast(p, &s, 10000, &r) == MC_OK && r.lat_us < t,
              "the overlapped ring is faster");
    }
}

int main(void)
{
    mc_platform_t *p;
    if (mc_platform_load("scc48", &p) != MC_OK) {
        fprintf(stderr, "FAIL loading scc48: %s\n", mc_last_error());
        return 1;
    }
    figure2(p);
    flags(p);
    figure7(p);
    table2(p);
    figure6(p);
    consistency(p);
    mc_platform_free(p);
    if (failures)
        fprintf(stderr, "%d failure(s)\n", failures);
    return failures ? 1 : 0;
}
