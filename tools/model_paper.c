/*
 * manycoll model --platform P --table2 | --figure7: the numbers of the
 * OC-Bcast paper's section 5 next to ours (docs/papers/ocbcast.md).
 *
 * Table 2 (peak throughput, MB/s = 10^6 bytes/s, P = 48, M_oc = 96 lines):
 *   paper          the paper's values (its complete formulas, which are in
 *                  its full version only)
 *   per line       formula (15) / (16), right-hand sides
 *   exact          formula (15) / (16), left-hand sides, with the o_get /
 *                  o_put overheads of a 96-line chunk
 *   model d=1      OC-Bcast: (15) completed with the flags and polls of the
 *                  library's loop (mc_ocb_ocbcast_peak), paper mode;
 *                  scatter-allgather: the library's algorithm (RCCE_comm's
 *                  exchange ring), step by step (mc_ocb_bcast), on a
 *                  message of P M_oc lines
 *   model layout   the same with the platform's distances
 *   ours           what we set against the paper: OC-Bcast "model d=1",
 *                  scatter-allgather "exact" (16), the paper's own model of
 *                  it, which credits L1 for the forwarded slices (the
 *                  step-by-step model, like the simulator, has no caches)
 * A last row models a ring whose steps overlap their send and receive
 * (scatter-allgather:overlap=1, model only; see the document).
 */
#include <stdio.h>

#include "model_cmd.h"
#include "util/error.h"

static const struct {
    const char *name;
    int k;    /* 0: scatter-allgather */
    int overlap; /* scatter-allgather, overlapped ring (model only) */
    double paper;
} table2[] = {{"ocbcast:k=2", 2, 0, 35.22},
              {"ocbcast:k=7", 7, 0, 34.30},
              {"ocbcast:k=47", 47, 0, 35.88},
              {"scatter-allgather", 0, 0, 13.38},
              {"scatter-allgather:overlap=1", 0, 1, 13.38}};
#define T2_ROWS ((int)(sizeof table2 / sizeof *table2))
#define T2_SAG 3

typedef struct t2row {
    double lines, exact, model_d1, model_layout, ours;
} t2row_t;

static int t2_model(const mc_platform_t *p, int ranks, int i,
                    mc_ocb_mode_t mode, size_t msg, double *out)
{
    int k = table2[i].k;
    mc_ocb_cfg_t c = {.alg = k ? MC_OCB_OCBCAST : MC_OCB_SAG, .mode = mode,
                      .ranks = ranks, .k = k, .sag_overlap = table2[i].overlap};
    if (k)
        return mc_ocb_ocbcast_peak(p, &c, out, NULL);
    mc_ocb_result_t r;
    MC_CHECK(mc_ocb_bcast(p, &c, msg, &r));
    *out = r.bw_MBps;
    return MC_OK;
}

static int t2_row(const mc_platform_t *p, int ranks, long M, int i,
                  t2row_t *r)
{
    size_t msg = (size_t)ranks * (size_t)M * (size_t)p->line;
    int k = table2[i].k;
    r->lines = k ? mc_ocb_f15_lines(p) : mc_ocb_f16_lines(p);
    r->exact = k ? mc_ocb_f15(p, M) : mc_ocb_f16(p, ranks, M);
    MC_CHECK(t2_model(p, ranks, i, MC_OCB_PAPER, msg, &r->model_d1));
    MC_CHECK(t2_model(p, ranks, i, MC_OCB_LAYOUT, msg, &r->model_layout));
    r->ours = k || table2[i].overlap ? r->model_d1 : r->exact;
    return MC_OK;
}

static void t2_print(const mc_platform_t *p, int ranks, int json, int i,
                     const t2row_t *r)
{
    double paper = table2[i].paper, diff = 100 * (r->ours / paper - 1);
    if (json) {
        printf("{\"table\":\"2\",\"platform\":\"%s\",\"ranks\":%d,"
               "\"algo\":\"%s\",\"paper_MBps\":%.2f,", p->name, ranks,
               table2[i].name, paper);
        if (!table2[i].overlap)
            printf("\"f_lines_MBps\":%.4f,\"f_exact_MBps\":%.4f,",
                   r->lines, r->exact);
        printf("\"model_paper_MBps\":%.4f,\"model_layout_MBps\":%.4f,"
               "\"ours_MBps\":%.4f,\"diff_pct\":%.2f,\"source\":\"model\"}\n",
               r->model_d1, r->model_layout, r->ours, diff);
        return;
    }
    if (table2[i].overlap)
        printf("%-28s %7.2f %9s %9s", table2[i].name, paper, "-", "-");
    else
        printf("%-28s %7.2f %9.2f %9.2f", table2[i].name, paper, r->lines,
               r->exact);
    printf(" %9.2f %9.2f %9.2f %+6.1f%%\n", r->model_d1, r->model_layout,
           r->ours, diff);
}

static void t2_ratio(const mc_platform_t *p, int json, const char *name,
                     double paper, double ours)
{
    double diff = 100 * (ours / paper - 1);
    if (json)
        printf("{\"table\":\"2\",\"platform\":\"%s\",\"ratio\":\"%s / "
               "scatter-allgather\",\"paper\":%.4f,\"ours\":%.4f,"
               "\"diff_pct\":%.2f,\"source\":\"model\"}\n",
               p->name, name, paper, ours, diff);
    else
        printf("%-28s %7.3f %49.3f %+6.1f%%\n", name, paper, ours, diff);
}

int model_table2(const mc_platform_t *p, int ranks, int json)
{
    mc_ocb_cfg_t c = {.ranks = ranks};
    if (mc_ocb_resolve(p, &c) != MC_OK || ranks < 2) {
        fprintf(stderr, "manycoll model: --ranks: %s\n",
                ranks < 2 ? "Table 2 needs 2 ranks or more" : mc_last_error());
        return 2;
    }
    long M = (long)(c.chunk / (size_t)p->line);
    t2row_t r[T2_ROWS];
    for (int i = 0; i < T2_ROWS; i++)
        if (t2_row(p, ranks, M, i, &r[i]) != MC_OK) {
            fprintf(stderr, "manycoll model: %s\n", mc_last_error());
            return 1;
        }
    if (!json)
        printf("# Table 2 of Petrovic et al. on %s: P = %d, M_oc = %ld "
               "lines, MB/s = 10^6 bytes/s\n%-28s %7s %9s %9s %9s %9s %9s "
               "%7s\n",
               p->name, ranks, M, "algorithm", "paper", "per line", "exact",
               "model d=1", "layout", "ours", "diff");
    for (int i = 0; i < T2_ROWS; i++)
        t2_print(p, ranks, json, i, &r[i]);
    if (!json)
        printf("# OC-Bcast / scatter-allgather (paper vs ours)\n");
    for (int i = 0; i < T2_SAG; i++)
        t2_ratio(p, json, table2[i].name,
                 table2[i].paper / table2[T2_SAG].paper,
                 r[i].ours / r[T2_SAG].ours);
    return 0;
}

/* Figure 7's latency formulas (13) and (14) at each size */
int model_figure7(const mc_platform_t *p, int ranks, const size_t *sizes,
                  int n, int json)
{
    static const int ks[3] = {2, 7, 47};
    if (!json)
        printf("# Formulas (13) and (14) of Petrovic et al. on %s, P = %d, "
               "d = 1 (us); 'lines' = the second, per-line forms\n%-8s "
               "%9s %9s %9s %9s %9s %9s %9s %9s\n",
               p->name, ranks, "lines", "13,k=2", "13,k=7", "13,k=47", "14",
               "13L,k=2", "13L,k=7", "13L,k=47", "14L");
    for (int i = 0; i < n; i++) {
        long m = (long)((sizes[i] + (size_t)p->line - 1) / (size_t)p->line);
        double f13[3], f13l[3];
        for (int j = 0; j < 3; j++) {
            f13[j] = mc_ocb_us(mc_ocb_f13(p, ranks, m, ks[j]));
            f13l[j] = mc_ocb_us(mc_ocb_f13_lines(p, ranks, m, ks[j]));
        }
        double f14 = mc_ocb_us(mc_ocb_f14(p, ranks, m));
        double f14l = mc_ocb_us(mc_ocb_f14_lines(p, ranks, m));
        if (json)
            printf("{\"figure\":\"7\",\"platform\":\"%s\",\"ranks\":%d,"
                   "\"bytes\":%zu,\"lines\":%ld,\"f13_k2_us\":%.4f,"
                   "\"f13_k7_us\":%.4f,\"f13_k47_us\":%.4f,\"f14_us\":%.4f,"
                   "\"f13_lines_k2_us\":%.4f,\"f13_lines_k7_us\":%.4f,"
                   "\"f13_lines_k47_us\":%.4f,\"f14_lines_us\":%.4f,"
                   "\"source\":\"model\"}\n",
                   p->name, ranks, sizes[i], m, f13[0], f13[1], f13[2], f14,
                   f13l[0], f13l[1], f13l[2], f14l);
        else
            printf("%-8ld %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f\n",
                   m, f13[0], f13[1], f13[2], f14, f13l[0], f13l[1], f13l[2],
                   f14l);
    }
    return 0;
}
