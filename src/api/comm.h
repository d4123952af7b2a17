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
    int check_args;      /* MC_CHECK_ARGS: compare every call's arguments */
    size_t max_count;       /* largest count of a call (check_count) ... */
    size_t max_block_count; /* ... of a call with one block per rank */
    struct mc_comm *next_live; /* list of communicators for finalize */
    struct mc_comm *prev_live; /* (doubly linked: a free is O(1), which a
                                  simulation of many cores needs) */
};

/* A call touches at most count * 8 * (ranks, for calls with a block per
 * rank) bytes: keeping that below 2^62 keeps every byte count and offset
 * of the algorithms far from overflowing a size_t. */
#define MC_MAX_COUNT ((size_t)1 << 59)

/* ---- MC_CHECK_ARGS (api/check_args.c) ---- */
/* points the selection of c at the checking entry if c->check_args */
int mc_check_args_arm(mc_comm_t *c);
/* the check itself: MC_OK if every rank passed the same arguments */
int mc_check_args_exchange(mc_comm_t *c, const mc_args_t *a);

/* A communicator over transport tp (which it then owns, also on
 * failure): the team, then the selection. */
int mc_comm_wrap(mc_tp_t *tp, mc_comm_t **out);

#endif
