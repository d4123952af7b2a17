/*
 * The simulator against the OC-Bcast paper's model (Petrovic et al.,
 * SPAA'12, section 3):
 *
 *   test_sim_model formulas     with contention off, every put and get
 *       completion time on scc48, 1-128 lines, from three source cores to
 *       every core (distances 1-9), equals formulas (1)-(12) to the
 *       picosecond; a flag write lands at L_put^mem(1) (formula 10). The
 *       expected values are computed here from Table 1 and the SCC's
 *       layout, independently of the simulator's code.
 *   test_sim_model contention [--table]   n = 1..47 cores get 128 lines
 *       from core 0's MPB at once (the paper's Figure 4a): no slowdown up
 *       to about 24 getters (< 5%), a clear one at 47 (>= 1.5x).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/engine.h"
#include "tp/sim.h"

#include "scc_layout.h"

/* formulas (2), (3), (5), (6) */
static long Cw_mpb(int d) { return O_MPB + 2L * d * L_HOP; }
static long Cr_mpb(int d) { return O_MPB + 2L * d * L_HOP; }
static long Cw_mem(int d) { return O_MEM_W + 2L * d * L_HOP; }
static long Cr_mem(int d) { return O_MEM_R + 2L * d * L_HOP; }
static long Lw_mpb(int d) { return O_MPB + (long)d * L_HOP; }   /* (1) */

typedef struct probe {
    mc_sim_t *sim;
    mc_sim_domain_t *dom;
    int core;
    int bad, checked;
} probe_t;

static void expect(probe_t *p, const char *what, int m, int dst, long got,
                   long want)
{
    p->checked++;
    if (got != want && p->bad++ < 10)
        fprintf(stderr, "%s m=%d core %d -> %d: %ld ps, formula %ld ps\n",
                what, m, p->core, dst, got, want);
}

static void formulas_main(void *arg)
{
    probe_t *p = arg;
    mc_tp_t *tp;
    if (mc_sim_tp_create(p->sim, p->dom, p->core, &tp) != MC_OK) {
        p->bad++;
        return;
    }
    static unsigned char buf[128 * 32];
    static const int ms[] = {1, 2, 3, 17, 96, 127, 128};
    int me = p->core, dm = dmem(me);
    for (int dst = 0; dst < 48; dst++) {
        int d = dist(me, dst);
        for (size_t i = 0; i < sizeof ms / sizeof *ms; i++) {
            int m = ms[i];
            size_t n = (size_t)m * 32;
            mc_ps_t t0 = mc_sim_now(p->sim);
            tp_put(tp, dst, 0, buf, n);
            mc_ps_t t1 = mc_sim_now(p->sim);
            tp_put_mpb(tp, dst, 0, 0, n);
            mc_ps_t t2 = mc_sim_now(p->sim);
            tp_get(tp, buf, dst, 0, n);
            mc_ps_t t3 = mc_sim_now(p->sim);
            tp_get_mpb(tp, 0, dst, 0, n);
            mc_ps_t t4 = mc_sim_now(p->sim);
            /* (8) (7) (12) (11), with d_src = 1 for the local MPB */
            expect(p, "put mem->mpb", m, dst, t1 - t0,
                   O_PUT_MEM + m * Cr_mem(dm) + m * Cw_mpb(d));
            expect(p, "put mpb->mpb", m, dst, t2 - t1,
                   O_PUT_MPB + m * Cr_mpb(1) + m * Cw_mpb(d));
            expect(p, "get mpb->mem", m, dst, t3 - t2,
                   O_GET_MEM + m * Cr_mpb(d) + m * Cw_mem(dm));
            expect(p, "get mpb->mpb", m, dst, t4 - t3,
                   O_GET_MPB + m * Cr_mpb(d) + m * Cw_mpb(1));
        }
    }
    tp->ops->destroy(tp);
}

/* core 47 waits for a flag of its own that core 0 raises: it wakes at the
 * flag's landing, L_put^mem(1) (10), plus its poll, C_get^mem(1) (12) */
static mc_ps_t flag_raised, flag_seen;

static void flag_writer(void *arg)
{
    probe_t *p = arg;
    mc_tp_t *tp;
    mc_sim_tp_create(p->sim, p->dom, p->core, &tp);
    flag_raised = mc_sim_now(p->sim);
    tp_flag_set(tp, 47, 0, 1);
    tp->ops->destroy(tp);
}

static void flag_waiter(void *arg)
{
    probe_t *p = arg;
    mc_tp_t *tp;
    mc_sim_tp_create(p->sim, p->dom, p->core, &tp);
    tp_flag_wait(tp, 47, 0, 1);
    flag_seen = mc_sim_now(p->sim);
    tp->ops->destroy(tp);
}

static int setup(const char *cont, int n, mc_platform_t **pl, mc_sim_t **sim,
                 mc_sim_domain_t **dom)
{
    int on = !strcmp(cont, "all");
    mc_sim_opts_t o = {on, on, on, 0, 0, 0, NULL, NULL, 0};
    int cores[48];
    for (int i = 0; i < 48; i++)
        cores[i] = i;
    if ((!*pl && mc_platform_load("scc48", pl) != MC_OK) ||
        mc_sim_create(*pl, n, &o, sim) != MC_OK ||
        mc_sim_tp_domain(*sim, NULL, 0, cores, 48, dom) != MC_OK) {
        fprintf(stderr, "setup: %s\n", mc_last_error());
        return -1;
    }
    return 0;
}

static int formulas(void)
{
    mc_platform_t *pl = NULL;
    mc_sim_t *sim;
    mc_sim_domain_t *dom;
    if (setup("none", 48, &pl, &sim, &dom))
        return 1;
    probe_t pr[3] = {{sim, dom, 0, 0, 0}, {sim, dom, 21, 0, 0},
                     {sim, dom, 46, 0, 0}};
    for (int i = 0; i < 3; i++)
        mc_sim_spawn(sim, pr[i].core, formulas_main, &pr[i]);
    probe_t w = {sim, dom, 0, 0, 0}, r = {sim, dom, 47, 0, 0};
    mc_sim_run(sim);
    mc_sim_destroy(sim);
    if (setup("none", 48, &pl, &sim, &dom))
        return 1;
    w.sim = r.sim = sim;
    w.dom = r.dom = dom;
    mc_sim_spawn(sim, 0, flag_writer, &w);
    mc_sim_spawn(sim, 47, flag_waiter, &r);
    mc_sim_run(sim);
    long want = O_PUT_MEM + Cr_mem(dmem(0)) + Lw_mpb(dist(0, 47)) +
                O_GET_MEM + Cr_mpb(1) + Cw_mem(dmem(47));
    int bad = pr[0].bad + pr[1].bad + pr[2].bad;
    int checked = pr[0].checked + pr[1].checked + pr[2].checked;
    if (flag_seen - flag_raised != want) {
        fprintf(stderr, "flag 0 -> 47 seen after %lld ps, formulas (10) + "
                        "(12) give %ld ps\n",
                (long long)(flag_seen - flag_raised), want);
        bad++;
    }
    mc_sim_destroy(sim);
    mc_platform_free(pl);
    printf("formulas: %d put/get completion times checked against formulas "
           "(1)-(12), %d differ; flag landing %s\n",
           checked, bad, flag_seen - flag_raised == want ? "exact" : "WRONG");
    return bad != 0;
}

/* ---- concurrent gets (Figure 4a) ---- */

typedef struct getter {
    probe_t p;
    mc_ps_t took;
} getter_t;

static void getter_main(void *arg)
{
    getter_t *g = arg;
    mc_tp_t *tp;
    mc_sim_tp_create(g->p.sim, g->p.dom, g->p.core, &tp);
    mc_ps_t t0 = mc_sim_now(g->p.sim);
    tp_get_mpb(tp, 0, 0, 0, 128 * 32);
    g->took = mc_sim_now(g->p.sim) - t0;
    tp->ops->destroy(tp);
}

/* n cores (1..n) get 128 lines from core 0 at once: min, mean, max us */
static void concurrent(mc_platform_t **pl, int n, const char *cont,
                       double out[3])
{
    mc_sim_t *sim;
    mc_sim_domain_t *dom;
    getter_t g[48];
    if (setup(cont, 48, pl, &sim, &dom))
        exit(1);
    for (int i = 1; i <= n; i++) {
        g[i] = (getter_t){{sim, dom, i, 0, 0}, 0};
        mc_sim_spawn(sim, i, getter_main, &g[i]);
    }
    mc_sim_run(sim);
    double lo = 1e30, hi = 0, sum = 0;
    for (int i = 1; i <= n; i++) {
        double t = (double)g[i].took / 1e6;
        lo = t < lo ? t : lo;
        hi = t > hi ? t : hi;
        sum += t;
    }
    out[0] = lo, out[1] = sum / n, out[2] = hi;
    mc_sim_destroy(sim);
}

static int contention(int table)
{
    mc_platform_t *pl = NULL;
    double worst_upto24 = 0, at47[3] = {0}, slow47 = 0;
    if (table)
        printf("%-8s %10s %10s %10s %14s\n", "getters", "min_us", "mean_us",
               "max_us", "max/no-cont");
    for (int n = 1; n <= 47; n++) {
        double on[3], off[3];
        concurrent(&pl, n, "all", on);
        concurrent(&pl, n, "none", off);
        double slow = on[2] / off[2];
        if (n <= 24 && slow > worst_upto24)
            worst_upto24 = slow;
        if (n == 47) {
            memcpy(at47, on, sizeof at47);
            slow47 = slow;
        }
        if (table)
            printf("%-8d %10.2f %10.2f %10.2f %14.3f\n", n, on[0], on[1],
                   on[2], slow);
    }
    mc_platform_free(pl);
    printf("contention: up to 24 getters the slowest is at most %.1f%% "
           "slower than without contention; with 47 it is %.2fx slower "
           "(fastest %.1f us, slowest %.1f us)\n",
           (worst_upto24 - 1) * 100, slow47, at47[0], at47[2]);
    /* the paper: no measurable effect up to about 24, a clear one at 47
     * (its slowest cores 2-4x; our arbiter is fair, see docs) */
    return !(worst_upto24 < 1.05 && slow47 >= 1.5);
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "formulas"))
        return formulas();
    if (argc >= 2 && !strcmp(argv[1], "contention"))
        return contention(argc >= 3 && !strcmp(argv[2], "--table"));
    fprintf(stderr, "usage: test_sim_model formulas|contention [--table]\n");
    return 2;
}
