/* The flag layout and its checks (see flags.h). */
#include <stdio.h>

#include "coll/cc.h"
#include "coll/fast.h"
#include "coll/flags.h"
#include "util/error.h"

/* The reservations of the shared lines. A new owner adds an entry to
 * mc_flag_owner_t and one here; the checks below see every range. Lines
 * 0-4, 6-7 and 45-47 are free. */
const mc_flag_range_t mc_flag_ranges[MC_FL_COUNT] = {
    [MC_FL_FAST] = {"coll/fast.c", 12, MC_FAST_LINES + 1},
    [MC_FL_RSAG] = {"coll/allreduce_rsag.c", 8, 2},
    [MC_FL_CC_ACK] = {"coll/cc.h", 48, MC_CC_ACK_LINES},
    [MC_FL_CHECK_ARGS] = {"api/check_args.c", 10, 2},
    [MC_FL_P2P_DMA] = {"coll/p2p.c", 5, 1},
};

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
    MC_CHECK(mc_flag_ranges_check(mc_flag_ranges, MC_FL_COUNT,
                                  MC_FLAG_SHARED_LINES));
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
        f->first[o] = f->shared0 + mc_flag_ranges[o].first * per;
    return MC_OK;
}

void mc_flags_fini(mc_team_t *t)
{
    t->fl = (mc_flags_state_t){0};
}
