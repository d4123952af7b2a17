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
/* the simulator runs the rounds without switching to the core between
 * them (a million-core barrier's cost): the rounds as one call */
#include "tp/fused.h"

/* what a round needs, in a few bytes: the simulator keeps a copy with
 * the core and computes each round from it (tp_flag_rounds) */
typedef struct dissem {
    int n, me, fl0, per;
    uint64_t v;
} dissem_t;

/* round r of rank me: raise the line at me + d, wait for me - d's */
static void dissem_round(const void *ctx, int r, mc_tp_round_t *rd)
{
    const dissem_t *x = ctx;
    int n = x->n, me = x->me, d;
    mc_sched_dissem_dists(n, 1, r, &d);
    *rd = (mc_tp_round_t){.rank = (me + d) % n,
                          .idx = x->fl0 + me * x->per,
                          .v = x->v,
                          .wrank = me,
                          .widx = x->fl0 + (me - d + n) % n * x->per,
                          .wv = x->v};
}

int mc_barrier_dissemination_at(mc_team_t *c, uint32_t step)
{
    int n = c->size;
    int rounds = mc_sched_dissem_rounds(n, 1);
    /* mc_flag_from(c, 0, w) = fl0 + w * per (not written as
     * mc_flag_from(c, 0, 1) - fl0: a team of one has no writer 1) */
    dissem_t x = {n, c->rank, mc_flag_from(c, 0, 0), c->fl.per,
                  mc_flagval(c, step)};
    return tp_flag_rounds(c->tp, rounds, dissem_round, &x, sizeof x);
}

int mc_barrier_dissemination(mc_team_t *c, const mc_args_t *a,
                             const mc_params_t *p)
{
    (void)a;
    (void)p;
    return mc_barrier_dissemination_at(c, 0);
}

const mc_algo_impl_t mc_barrier_dissemination_algo = {
    .fn = mc_barrier_dissemination};
