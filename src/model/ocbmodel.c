/*
 * Formulas 1-16 of Petrovic et al., SPAA'12 (Figures 2 and 7), on a
 * platform's parameters (Table 1 for scc48). See ocbmodel.h.
 *
 * Figure 2, one line at distance d (L^hop per router, o^mpb / o_w^mem /
 * o_r^mem per access):
 *
 *   (1) L_w^mpb(d) = o^mpb + d L^hop      (4) L_w^mem(d) = o_w^mem + d L^hop
 *   (2) C_w^mpb(d) = o^mpb + 2d L^hop     (5) C_w^mem(d) = o_w^mem + 2d L^hop
 *   (3) C_r^mpb(d) = o^mpb + 2d L^hop     (6) C_r^mem(d) = o_r^mem + 2d L^hop
 *
 * m lines move one at a time (a P54C has one memory transaction in
 * flight), so an operation is its fixed overhead plus m line costs:
 *
 *   (7)  C_put^mpb(m, dd)     = o_put^mpb + m C_r^mpb(1)  + m C_w^mpb(dd)
 *   (8)  C_put^mem(m, ds, dd) = o_put^mem + m C_r^mem(ds) + m C_w^mpb(dd)
 *   (9)  L_put^mpb(m, dd)     = (7) - C_w^mpb(dd) + L_w^mpb(dd)
 *   (10) L_put^mem(m, ds, dd) = (8) - C_w^mpb(dd) + L_w^mpb(dd)
 *   (11) C_get^mpb(m, ds)     = o_get^mpb + m C_r^mpb(ds) + m C_w^mpb(1)
 *   (12) C_get^mem(m, ds, dd) = o_get^mem + m C_r^mpb(ds) + m C_w^mem(dd)
 *
 * On scc48 (Table 1) at d = 1, in us: C_r^mpb = C_w^mpb = 0.136,
 * L_w^mpb = 0.131, C_r^mem = 0.218, C_w^mem = 0.471, L_w^mem = 0.466.
 */
#include <stdint.h>

#include "model/ocbmodel.h"

static mc_ps_t hops(const mc_platform_t *p, int d)
{
    return (mc_ps_t)d * p->c.L_hop;
}

mc_ps_t mc_ocb_lw_mpb(const mc_platform_t *p, int d) /* (1) */
{
    return p->c.o_mpb + hops(p, d);
}

mc_ps_t mc_ocb_cw_mpb(const mc_platform_t *p, int d) /* (2) */
{
    return p->c.o_mpb + 2 * hops(p, d);
}

mc_ps_t mc_ocb_cr_mpb(const mc_platform_t *p, int d) /* (3) */
{
    return p->c.o_mpb + 2 * hops(p, d);
}

mc_ps_t mc_ocb_lw_mem(const mc_platform_t *p, int d) /* (4) */
{
    return p->c.o_mem_w + hops(p, d);
}

mc_ps_t mc_ocb_cw_mem(const mc_platform_t *p, int d) /* (5) */
{
    return p->c.o_mem_w + 2 * hops(p, d);
}

mc_ps_t mc_ocb_cr_mem(const mc_platform_t *p, int d) /* (6) */
{
    return p->c.o_mem_r + 2 * hops(p, d);
}

mc_ps_t mc_ocb_cput_mpb(const mc_platform_t *p, long m, int d_dst) /* (7) */
{
    return p->c.o_put_mpb + m * mc_ocb_cr_mpb(p, 1) +
           m * mc_ocb_cw_mpb(p, d_dst);
}

mc_ps_t mc_ocb_cput_mem(const mc_platform_t *p, long m, int d_src,
                        int d_dst) /* (8) */
{
    return p->c.o_put_mem + m * mc_ocb_cr_mem(p, d_src) +
           m * mc_ocb_cw_mpb(p, d_dst);
}

mc_ps_t mc_ocb_lput_mpb(const mc_platform_t *p, long m, int d_dst) /* (9) */
{
    return p->c.o_put_mpb + m * mc_ocb_cr_mpb(p, 1) +
           (m - 1) * mc_ocb_cw_mpb(p, d_dst) + mc_ocb_lw_mpb(p, d_dst);
}

mc_ps_t mc_ocb_lput_mem(const mc_platform_t *p, long m, int d_src,
                        int d_dst) /* (10) */
{
    return p->c.o_put_mem + m * mc_ocb_cr_mem(p, d_src) +
           (m - 1) * mc_ocb_cw_mpb(p, d_dst) + mc_ocb_lw_mpb(p, d_dst);
}

mc_ps_t mc_ocb_cget_mpb(const mc_platform_t *p, long m, int d_src) /* (11) */
{
    return p->c.o_get_mpb + m * mc_ocb_cr_mpb(p, d_src) +
           m * mc_ocb_cw_mpb(p, 1);
}

mc_ps_t mc_ocb_cget_mem(const mc_platform_t *p, long m, int d_src,
                        int d_dst) /* (12) */
{
    return p->c.o_get_mem + m * mc_ocb_cr_mpb(p, d_src) +
           m * mc_ocb_cw_mem(p, d_dst);
}

/* ---- flags (section 5.1 gives no cost; these are the transports') ---- */

mc_ps_t mc_ocb_flag_lat(const mc_platform_t *p, int d, int d_mem)
{
    return p->flags_rcce ? mc_ocb_lput_mem(p, 1, d_mem, d) /* (10) */
                         : mc_ocb_lw_mpb(p, d);            /* (1) */
}

mc_ps_t mc_ocb_flag_cost(const mc_platform_t *p, int d, int d_mem)
{
    return p->flags_rcce ? mc_ocb_cput_mem(p, 1, d_mem, d) /* (8) */
                         : mc_ocb_cw_mpb(p, d);            /* (2) */
}

mc_ps_t mc_ocb_poll_cost(const mc_platform_t *p, int d, int d_mem)
{
    return p->flags_rcce ? mc_ocb_cget_mem(p, 1, d, d_mem) /* (12) */
                         : mc_ocb_cr_mpb(p, d);            /* (3) */
}

/* ---- Figure 7 (section 5), all distances 1 ---- */

int mc_ocb_kary_depth(int P, int k)
{
    int depth = 0;
    if (k < 1)
        return 0;
    for (long v = P - 1; v > 0; v = (v - 1) / k)
        depth++;
    return depth;
}

int mc_ocb_bisect_depth(int P)
{
    int depth = 0;
    while ((1L << depth) < P)
        depth++;
    return depth;
}

/* (13): the root's put, one MPB-to-MPB get per level below the root, and
 * the last leaf's copy to private memory */
mc_ps_t mc_ocb_f13(const mc_platform_t *p, int P, long m, int k)
{
    return mc_ocb_cput_mem(p, m, 1, 1) +
           mc_ocb_kary_depth(P, k) * mc_ocb_cget_mpb(p, m, 1) +
           mc_ocb_cget_mem(p, m, 1, 1);
}

mc_ps_t mc_ocb_f13_lines(const mc_platform_t *p, int P, long m, int k)
{
    mc_ps_t per = mc_ocb_kary_depth(P, k) *
                      (mc_ocb_cr_mpb(p, 1) + mc_ocb_cw_mpb(p, 1)) +
                  mc_ocb_cr_mem(p, 1) + mc_ocb_cw_mem(p, 1);
    return m * per;
}

/* (14): per level, a put whose reads hit L1 (only its MPB writes count)
 * and the receiver's get into private memory */
mc_ps_t mc_ocb_f14(const mc_platform_t *p, int P, long m)
{
    return mc_ocb_bisect_depth(P) *
           (m * mc_ocb_cw_mpb(p, 1) + mc_ocb_cget_mem(p, m, 1, 1));
}

mc_ps_t mc_ocb_f14_lines(const mc_platform_t *p, int P, long m)
{
    mc_ps_t per = mc_ocb_bisect_depth(P) *
                      (mc_ocb_cr_mpb(p, 1) + mc_ocb_cw_mpb(p, 1) +
                       mc_ocb_cw_mem(p, 1)) +
                  mc_ocb_cr_mem(p, 1);
    return m * per;
}

/* lines per time in ps -> MB/s (bytes per us) */
static double mbps(const mc_platform_t *p, double lines, double ps)
{
    return ps > 0 ? lines * p->line / (ps / MC_PS_PER_US) : 0;
}

double mc_ocb_f15(const mc_platform_t *p, long M)
{
    mc_ps_t per_chunk = mc_ocb_cget_mpb(p, M, 1) + mc_ocb_cget_mem(p, M, 1, 1);
    return mbps(p, (double)M, (double)per_chunk);
}

double mc_ocb_f15_lines(const mc_platform_t *p)
{
    return mbps(p, 1, (double)(2 * mc_ocb_cr_mpb(p, 1) + mc_ocb_cw_mpb(p, 1) +
                               mc_ocb_cw_mem(p, 1)));
}

double mc_ocb_f16(const mc_platform_t *p, int P, long M)
{
    double scatter = (double)P * (double)(mc_ocb_cput_mem(p, M, 1, 1) +
                                          mc_ocb_cget_mem(p, M, 1, 1));
    double allgather = (2.0 * P - 3) * (double)(M * mc_ocb_cw_mpb(p, 1) +
                                                mc_ocb_cget_mem(p, M, 1, 1));
    return mbps(p, (double)P * (double)M, scatter + allgather);
}

double mc_ocb_f16_lines(const mc_platform_t *p)
{
    mc_ps_t per_line = 3 * mc_ocb_cr_mpb(p, 1) + 3 * mc_ocb_cw_mpb(p, 1) +
                       mc_ocb_cr_mem(p, 1) + 3 * mc_ocb_cw_mem(p, 1);
    return mbps(p, 1, (double)per_line);
}
