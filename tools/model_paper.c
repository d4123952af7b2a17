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
 * (scatter-allgather:overlap=1, model only; see the document). The rows
 * are computed in src/model/ocbpaper.c.
 */
#include <stdio.h>

#include "model_cmd.h"
#include "util/error.h"

/* row r of Table 2 */
static void t2_print(const mc_platform_t *p, int ranks, int json,
                     const mc_ocb_t2row_t *r)
{
    double paper = r->paper, diff = 100 * (r->ours / paper - 1);
    if (json) {
        printf("{\"table\":\"2\",\"platform\":\"%s\",\"ranks\":%d,"
               "\"algo\":\"%s\",\"paper_MBps\":%.2f,", p->name, ranks,
               r->name, paper);
        if (!r->overlap)
            printf("\"f_lines_MBps\":%.4f,\"f_exact_MBps\":%.4f,",
                   r->lines, r->exact);
        printf("\"model_paper_MBps\":%.4f,\"model_layout_MBps\":%.4f,"
               "\"ours_MBps\":%.4f,\"diff_pct\":%.2f,\"source\":\"model\"}\n",
               r->model_d1, r->model_layout, r->ours, diff);
        return;
    }
    if (r->overlap)
        printf("%-28s %7.2f %9s %9s", r->name, paper, "-", "-");
    else
        printf("%-28s %7.2f %9.2f %9.2f", r->name, paper, r->lines,
               r->exact);
    printf(" %9.2f %9.2f %9.2f %+6.1f%%\n", r->model_d1, r->model_layout,
           r->ours, diff);
}

/* a ratio to scatter-allgather, the paper's and ours */
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
    long M;
    mc_ocb_t2row_t r[MC_OCB_T2_ROWS];
    if (mc_ocb_table2(p, ranks, r, &M) != MC_OK) {
        fprintf(stderr, "manycoll model: %s\n", mc_last_error());
        return 1;
    }
    if (!json)
        printf("# Table 2 of Petrovic et al. on %s: P = %d, M_oc = %ld "
               "lines, MB/s = 10^6 bytes/s\n%-28s %7s %9s %9s %9s %9s %9s "
               "%7s\n",
               p->name, ranks, M, "algorithm", "paper", "per line", "exact",
               "model d=1", "layout", "ours", "diff");
    for (int i = 0; i < MC_OCB_T2_ROWS; i++)
        t2_print(p, ranks, json, &r[i]);
    if (!json)
        printf("# OC-Bcast / scatter-allgather (paper vs ours)\n");
    const mc_ocb_t2row_t *sag = &r[MC_OCB_T2_SAG];
    for (int i = 0; i < MC_OCB_T2_SAG; i++)
        t2_ratio(p, json, r[i].name, r[i].paper / sag->paper,
                 r[i].ours / sag->ours);
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
