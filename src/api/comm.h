/*
 * The communicator of the public API: the team the algorithms see
 * (coll/team.h), first so that a communicator and its team share an
 * address, and what only the API keeps: the selection rules, the state
 * of a failed call, the list of live communicators.
 */
#ifndef MC_API_COMM_H
#define MC_API_COMM_H

#include "coll/team.h"
#include "select/select.h"
#include "tp/tp.h"

struct mc_comm {
    mc_team_t team;      /* first: &c->team == (void *)c */
    int broken;          /* status of a failed collective, or 0 */
    uint64_t nsplit;     /* splits made from this communicator */
    mc_ruleset_t rules[MC_COLL_COUNT];
    int owns_world;      /* created by mc_init */
    struct mc_comm *next_live; /* list of communicators for finalize */
};

/* A communicator over transport tp (which it then owns, also on
 * failure): the team, then the selection. */
int mc_comm_wrap(mc_tp_t *tp, mc_comm_t **out);

#endif
