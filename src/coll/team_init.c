/* Creating a team (team.h): each part's *_init in the order their
 * layouts depend on one another, and the *_fini in reverse. */
#include "coll/fast.h"
#include "coll/flags.h"
#include "coll/p2p.h"
#include "coll/team.h"
#include "util/error.h"

/* the MPB's layout and the flags first (the fast paths' line slots are
 * flag lines), then the fast paths (they reserve the MPB's tail), then
 * the two-sided layer (its chunk is what is left of the MPB) */
static int parts_init(mc_team_t *t, int what)
{
    mc_team_mpb_init(t);
    MC_CHECK(mc_flags_init(t, what));
    MC_CHECK(mc_fast_init(t, what));
    return mc_p2p_init(t, what);
}

static void start(mc_team_t *t, mc_tp_t *tp)
{
    *t = (mc_team_t){.tp = tp, .rank = tp->rank, .size = tp->size};
}

int mc_team_layout(mc_team_t *t, mc_tp_t *tp)
{
    start(t, tp);
    return parts_init(t, MC_TEAM_LAYOUT);
}

int mc_team_init(mc_team_t *t, mc_tp_t *tp)
{
    start(t, tp); /* tp is owned from here on, also on failure */
    int rc = parts_init(t, MC_TEAM_FULL);
    if (rc != MC_OK)
        mc_team_fini(t);
    return rc;
}

void mc_team_fini(mc_team_t *t)
{
    if (t->tp)
        t->tp->ops->destroy(t->tp);
    mc_p2p_fini(t);
    mc_fast_fini(t);
    mc_flags_fini(t);
    mc_scratch_fini(t);
    *t = (mc_team_t){0};
}
