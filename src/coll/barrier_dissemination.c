/*
 * Dissemination barrier (Hensgen, Finkel, Manber), ceil(log2 P) rounds.
 *
 *   round 0:  i -> i+1      0->1 1->2 2->3 3->4 4->0     (P = 5)
 *   round 1:  i -> i+2      0->2 1->3 2->4 3->0 4->1
 *   round 2:  i -> i+4      0->4 1->0 2->1 3->2 4->3
 *
 * In round r each rank raises its line at rank i + 2^r and waits for the
 * line of i - 2^r in its own flags. After the last round every rank has
 * (transitively) heard from every other one. The distances of the rounds
 * differ, so each line has one writer in the call (and for good: rule 4
 * of tp/tp.h), and values come from the call sequence number, so nothing
 * is reset between calls.
 * The barrier carries no data, so it uses flags directly rather than the
 * two-sided layer.
 */
#include "coll/coll.h"
#include "sched/sched.h"

int mc_barrier_dissemination_at(mc_team_t *c, uint32_t step)
{
    int n = c->size, me = c->rank;
    uint64_t v = mc_flagval(c, step);
    int rounds = mc_sched_dissem_rounds(n, 1);
    for (int r = 0; r < rounds; r++) {
        int d;
        mc_sched_dissem_dists(n, 1, r, &d);
        MC_CHECK(tp_flag_set_wait(c->tp, (me + d) % n, mc_flag_from(c, 0, me),
                                  v, me,
                                  mc_flag_from(c, 0, (me - d + n) % n), v));
    }
    return MC_OK;
}

int mc_barrier_dissemination(mc_team_t *c, const mc_args_t *a,
                             const mc_params_t *p)
{
    (void)a;
    (void)p;
    return mc_barrier_dissemination_at(c, 0);
}

const mc_algo_impl_t mc_barrier_dissemination_algo = {
    .fn = mc_barrier_dissemination,
};
