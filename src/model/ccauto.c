/* Automatic parameters from the built-in xeonphi60 model: see ccauto.h. */
#include <string.h>

#include "model/ccauto.h"
#include "util/error.h"

void mc_ccauto_builtin(mc_ccm_t *m)
{
    memset(m, 0, sizeof *m);
    m->rl = 8.6;   /* R_L, Table 1.5b */
    m->rr = 235.8; /* R_R */
    m->ri = 277.7; /* R_I */
    m->has_tc = 1; /* contention E-E, Table 3.2: b + c n */
    m->tc_b = 320.5;
    m->tc_c = 56.2;
    m->has_ml = 1; /* multi-line E-E, Table 3.1: o N + q - p / N */
    m->ml_o = 76.0;
    m->ml_q = 1521.0;
    m->ml_p = 1096.0;
    m->tc_mode = MC_CCM_TC_ANCHORED;
    m->tk_mode = MC_CCM_TK_SLOPE;
}

int mc_ccauto_tree(const mc_ccm_t *m, mc_ccopt_coll_t coll, int n, int dmax,
                   int *d, int *k)
{
    mc_ccm_t builtin;
    if (!m) {
        mc_ccauto_builtin(&builtin);
        m = &builtin;
    }
    mc_ccopt_opts_t o;
    mc_ccopt_opts_default(&o);
    o.dmax = dmax;
    mc_ccopt_result_t r;
    MC_CHECK(mc_ccopt_solve(m, coll, n, &o, &r));
    *d = r.d;
    memcpy(k, r.k, sizeof(int) * (size_t)r.d);
    return MC_OK;
}

int mc_ccauto_barrier(const mc_ccm_t *m, int n, int *mpeers)
{
    mc_ccm_t builtin;
    if (!m) {
        mc_ccauto_builtin(&builtin);
        m = &builtin;
    }
    mc_ccopt_opts_t o;
    mc_ccopt_opts_default(&o);
    o.rounds_paper = 0; /* the rounds src/sched runs */
    mc_ccopt_result_t r;
    MC_CHECK(mc_ccopt_solve(m, MC_CCOPT_BARRIER, n, &o, &r));
    *mpeers = r.m;
    return MC_OK;
}
