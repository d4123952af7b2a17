/*
 * Dissemination barrier with m peers per round (Ramos & Hoefler 2013,
 * Section 4.2, Eq. 4.11; Table B.2), ceil(log_{m+1} P) rounds.
 *
 *   P = 9, m = 2: two rounds instead of four
 *   round 0:  i -> i+1, i+2      distances 1, 2     (j (m+1)^0, j = 1..m)
 *   round 1:  i -> i+3, i+6      distances 3, 6     (j (m+1)^1)
 *
 * In round r each rank raises its line at its m peers i + j (m+1)^r and
 * then waits for the lines of i - j (m+1)^r in its own flags (only
 * distances below P take part: src/sched/sched.h). After round r a rank
 * has heard, transitively, from the (m+1)^(r+1) - 1 ranks before it.
 * Every distance of every round is different (base-(m+1) numbers with
 * one non-zero digit), so each of my lines has one writer in a call, and
 * for good (rule 4 of tp/tp.h); values come from the call sequence
 * number, so nothing is reset between calls. m = 1 is the classic
 * barrier.
 *
 * The report's protocol has the waiter read the peers' own flags and
 * count notifications; here a peer writes straight into my line (one
 * remote write instead of a remote read plus a counter update), which is
 * what the transport offers on the SCC too.
 *
 * Parameter m: peers per round; 0 = automatic, from the optimiser on the
 * built-in xeonphi60 model with the rounds this schedule runs (resolved
 * once per communicator). m >= P is cut to P - 1 (one round).
 */
#include "coll/cc.h"
#include "sched/sched.h"

enum { P_M = MC_CC_M, P_COUNT };

int mc_barrier_dissemination_m(mc_team_t *c, const mc_args_t *a,
                               const mc_params_t *p)
{
    (void)a;
    int n = c->size, me = c->rank;
    if (n == 1)
        return MC_OK;
    /* m = 0 (automatic) is resolved by the selection; a call that still
     * sees it (run outside the selection) takes one peer per round */
    int64_t m = p->v[P_M] < 1 ? 1 : p->v[P_M] < n - 1 ? p->v[P_M] : n - 1;
    uint64_t v = mc_flagval(c, 0);
    mc_cc_fl_t f;
    mc_cc_fl_init(&f, c);
    int rounds = mc_sched_dissem_rounds(n, (int)m);
    long base = 1;
    for (int r = 0; r < rounds; r++, base *= m + 1) {
        /* the distances of mc_sched_dissem_dists, without an array of m */
        for (long d = base; d <= m * base && d < n; d += base)
            tp_flag_set(c->tp, (int)((me + d) % n), mc_cc_line(&f, 0, me), v);
        for (long d = base; d <= m * base && d < n; d += base)
            MC_CHECK(tp_flag_wait(c->tp, me,
                                  mc_cc_line(&f, 0, (int)((me - d + n) % n)),
                                  v));
    }
    return MC_OK;
}

static const mc_param_desc_t params[P_COUNT + 1] = {
    [P_M] = {"m", 0, 0, 1 << 16,
             "peers per round; 0 = automatic (optimiser, built-in xeonphi60 "
             "model)"},
};

const mc_algo_impl_t mc_barrier_dissemination_m_algo = {
    .fn = mc_barrier_dissemination_m, .params = params,
    .model = MC_MODEL_BARRIER_M,
};
