/*
 * MC_CHECK_ARGS=1: every collective call first checks that all ranks
 * called the same collective with the same count, datatype, op and root,
 * and fails with MC_ERR_ARG on every rank if they did not (MPI leaves a
 * mismatch undefined; here it would give wrong data or a hang).
 *
 *   call n on rank r:   line C[n % 2] of r := {flag n; coll|dt|op|root,
 *                                               count}   (one line write)
 *                       for every peer q: wait for q's C[n % 2] >= n,
 *                       read its two words; compare all with rank 0's
 *
 * Every rank reads every rank's words, so every rank sees the same
 * mismatch and reports it the same way, naming both ranks' arguments.
 * Two lines per rank are enough: a rank writes C[n % 2] again at call
 * n + 2 only after it has read every peer's C[(n + 1) % 2] for call n + 1,
 * which each peer writes after it has read everything of call n. The lines
 * are the shared range MC_FL_CHECK_ARGS (coll/flags.h), written by their
 * owner only.
 *
 * The check costs nothing when it is off: it is not a branch on the fast
 * path. Turning it on points the entry of every selection of the
 * communicator (its rules and their rank-order alternatives) at `checked`
 * below (select/rules.h: the key's wrap), which checks and then runs the
 * selected algorithm's own entry.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/comm.h"
#include "coll/flags.h"
#include "select/registry.h"
#include "select/select.h"
#include "util/error.h"
#include "util/names.h"

static uint64_t pack(const mc_args_t *a)
{
    return (uint64_t)a->coll | (uint64_t)(a->dt & 0xff) << 8 |
           (uint64_t)((unsigned)a->op & 0xffff) << 16 |
           (uint64_t)(uint32_t)a->root << 32;
}

/* "bcast(count=10, dt=float64, root=2)" from the packed words */
static void describe(const uint64_t w[2], char *buf, size_t len)
{
    mc_coll_t coll = (mc_coll_t)(w[0] & 0xff);
    unsigned dt = (unsigned)(w[0] >> 8) & 0xff, op = (w[0] >> 16) & 0xffff;
    int root = (int)(uint32_t)(w[0] >> 32);
    char ops[32] = "", roots[32] = "";
    int red = coll < MC_COLL_COUNT && mc_coll_has(coll, MC_COLL_REDUCES);
    int rooted = coll < MC_COLL_COUNT && mc_coll_has(coll, MC_COLL_ROOTED);
    if (red && op < MC_OP_BUILTIN_COUNT)
        snprintf(ops, sizeof ops, ", op=%s", mc_op_name((mc_op_t)op));
    else if (red)
        snprintf(ops, sizeof ops, ", op=%u (user)", op);
    if (rooted)
        snprintf(roots, sizeof roots, ", root=%d", root);
    if (coll == MC_COLL_BARRIER)
        snprintf(buf, len, "mc_barrier()");
    else
        snprintf(buf, len, "mc_%s(count=%llu, dt=%s%s%s)",
                 mc_coll_name(coll), (unsigned long long)w[1],
                 mc_dtype_name((mc_dtype_t)dt), ops, roots);
}

int mc_check_args_exchange(mc_comm_t *c, const mc_args_t *a)
{
    mc_team_t *t = &c->team;
    int line = mc_flag_line(t, MC_FL_CHECK_ARGS, (int)(t->seq % 2));
    uint64_t mine[2] = {pack(a), a->count}, first[2], got[2];
    tp_line_set(t->tp, t->rank, line, t->seq, mine, sizeof mine);
    int bad = -1;
    for (int q = 0; q < t->size; q++) {
        uint64_t *w = q == 0 ? first : got;
        if (q == t->rank)
            memcpy(w, mine, sizeof mine);
        else
            MC_CHECK(tp_line_wait(t->tp, q, line, t->seq, w, sizeof mine));
        if (q > 0 && bad < 0 && memcmp(w, first, sizeof mine) != 0) {
            bad = q;
            memcpy(mine, w, sizeof mine); /* keep rank q's for the message */
        }
    }
    if (bad < 0)
        return MC_OK;
    char x[96], y[96];
    describe(first, x, sizeof x);
    describe(mine, y, sizeof y);
    return mc_error(MC_ERR_ARG, "collective call %llu: the ranks' arguments "
                    "differ (MC_CHECK_ARGS=1): rank 0 called %s, rank %d "
                    "called %s", (unsigned long long)c->team.seq, x, bad, y);
}

/* the entry of every rule's selection while the check is on: the check,
 * then the selected algorithm's own entry (the team is the
 * communicator's first member, api/comm.h). What runs a call it declines
 * (mc_sel_t.next) keeps its own entry: the check has been made. */
static int checked(mc_team_t *t, const mc_args_t *a, const mc_params_t *p)
{
    mc_comm_t *c = (mc_comm_t *)t;
    const mc_sel_t *s = mc_select(c->rules, a);
    MC_CHECK(mc_check_args_exchange(c, a));
    return s->algo->impl->fn(t, a, p);
}

mc_algo_fn mc_check_args_wrap(int on)
{
    return on ? checked : NULL;
}
