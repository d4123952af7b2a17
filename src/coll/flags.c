/* The flag layout: its users, their allocation and the checks (see
 * flags.h). */
#include <stdio.h>

#include "coll/cc.h"
#include "coll/fast.h"
#include "coll/flags.h"
#include "util/error.h"

/* The users of the shared lines. A new user adds an entry to
 * mc_flag_owner_t (flags_state.h) and a row here; mc_flag_alloc places
 * it. The row's order is the order of the lines. */
const mc_flag_user_t mc_flag_users[MC_FL_COUNT] = {
    [MC_FL_FAST] = {"coll/fast.c", MC_FAST_LINES + 1, MC_FLAG_OWN},
    [MC_FL_RSAG] = {"coll/allreduce_rsag.c", 2, MC_FLAG_OWN},
    [MC_FL_CC_ACK] = {"coll/cc.h", MC_CC_ACK_LINES, MC_FLAG_MULTI},
    [MC_FL_CHECK_ARGS] = {"api/check_args.c", 2, MC_FLAG_OWN},
    [MC_FL_P2P_DMA] = {"coll/p2p.c", 1, MC_FLAG_OWN},
};

int mc_flag_alloc(const mc_flag_user_t *users, int n, int own, int multi,
                  mc_flag_range_t *out)
{
    int next[2] = {0, own};            /* the next free line of each kind */
    const int end[2] = {own, own + multi};
    for (int i = 0; i < n; i++) {
        int w = users[i].writers == MC_FLAG_MULTI;
        if (users[i].lines < 1 || users[i].lines > end[w] - next[w])
            return mc_error(MC_ERR_INTERNAL,
                            "flag lines: %d for %s, %d of the %d %s lines "
                            "left (coll/flags.c)",
                            users[i].lines, users[i].owner,
                            end[w] - next[w], w ? multi : own,
                            w ? "several-writer" : "own");
        out[i] = (mc_flag_range_t){users[i].owner, next[w], users[i].lines};
        next[w] += users[i].lines;
    }
    return MC_OK;
}

int mc_flag_ranges_check(const mc_flag_range_t *r, int n, int lines)
{
    for (int i = 0; i < n; i++) {
        if (r[i].count < 1 || r[i].first < 0 ||
            r[i].first + r[i].count > lines)
            return mc_error(MC_ERR_INTERNAL,
                            "flag lines %d-%d of %s: outside the %d shared "
                            "lines (coll/flags.h)",
                            r[i].first, r[i].first + r[i].count - 1,
                            r[i].owner, lines);
        for (int j = 0; j < i; j++)
            if (r[i].first < r[j].first + r[j].count &&
                r[j].first < r[i].first + r[i].count)
                return mc_error(MC_ERR_INTERNAL,
                                "flag lines %d-%d of %s overlap lines %d-%d "
                                "of %s (coll/flags.h)",
                                r[i].first, r[i].first + r[i].count - 1,
                                r[i].owner, r[j].first,
                                r[j].first + r[j].count - 1, r[j].owner);
    }
    return MC_OK;
}

static int p2p_lines(int n, int per)
{
    return (2 * n + per - 1) / per;
}

int mc_flag_words(int n, int per)
{
    return (p2p_lines(n, per) + 2 * n + MC_FLAG_SHARED_LINES) * per;
}

int mc_flags_init(mc_team_t *t, int what)
{
    (void)what;
    int per = tp_flags_per_line(t->tp), n = t->size;
    mc_flag_range_t r[MC_FL_COUNT];
    MC_CHECK(mc_flag_alloc(mc_flag_users, MC_FL_COUNT, MC_TP_OWN_LINES,
                           MC_TP_MULTI_LINES, r));
    MC_ASSERT(mc_flag_ranges_check(r, MC_FL_COUNT, MC_FLAG_SHARED_LINES) ==
                  MC_OK,
              "%s", mc_last_error());
    if (per < 1 || mc_flag_words(n, per) > t->tp->nflags)
        return mc_error(MC_ERR_INTERNAL,
                        "transport %s: %d flag words per rank, the layout "
                        "of coll/flags.h needs %d for %d ranks",
                        t->tp->ops->name, t->tp->nflags,
                        mc_flag_words(n, per), n);
    mc_flags_state_t *f = &t->fl;
    f->per = per;
    f->alg0 = p2p_lines(n, per) * per;
    f->shared0 = f->alg0 + 2 * n * per;
    for (int o = 0; o < MC_FL_COUNT; o++)
        f->first[o] = f->shared0 + r[o].first * per;
    return MC_OK;
}

void mc_flags_fini(mc_team_t *t)
{
    t->fl = (mc_flags_state_t){0};
}
