/*
 * A communicator's selection rules: its reference to the rule set of its
 * team's inputs (select/rules.h, which shares them between the teams
 * with the same inputs, the simulator's million cores among them), and
 * what a communicator takes of memory.
 */
#include "api/comm.h"
#include "select/rules.h"
#include "util/error.h"

static void attach(mc_comm_t *c, mc_rules_t *r)
{
    c->sel = r;
    c->rules = mc_rules_sets(r);
}

int mc_comm_rules_init(mc_comm_t *c)
{
    mc_rules_t *r;
    MC_CHECK(mc_rules_get(&c->team, mc_check_args_wrap(c->check_args), &r));
    attach(c, r);
    return MC_OK;
}

void mc_comm_rules_share(mc_comm_t *to, mc_comm_t *from)
{
    if (to->sel == from->sel)
        return;
    mc_comm_rules_release(to);
    attach(to, mc_rules_ref(from->sel));
}

void mc_comm_rules_release(mc_comm_t *c)
{
    mc_rules_put(c->sel);
    c->sel = NULL;
    c->rules = NULL;
}

void mc_comm_rules_flush(void)
{
    mc_rules_flush();
}

int mc_comm_rules_set(mc_comm_t *c, mc_coll_t coll, const char *spec)
{
    MC_CHECK(mc_rules_set(&c->sel, &c->team, coll, spec, "mc_comm_set_algo"));
    attach(c, c->sel);
    return MC_OK;
}

void mc_comm_footprint(const mc_comm_t *c, mc_comm_footprint_t *f)
{
    const mc_tp_t *tp = c->team.tp;
    *f = (mc_comm_footprint_t){.comm = sizeof *c,
                               .team_heap = mc_team_bytes(&c->team),
                               .mpb = tp->mpb_size};
    size_t rb = mc_rules_bytes(c->sel, &f->rules_sharers);
    f->rules = rb / (size_t)(f->rules_sharers > 0 ? f->rules_sharers : 1);
    f->tp = tp->ops->footprint ? tp->ops->footprint(tp, &f->flags) : 0;
    f->total = f->comm + f->team_heap + f->rules + f->tp;
}
