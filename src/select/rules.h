/*
 * The rule sets of teams (select.h), shared by the teams made from the
 * same inputs.
 *
 * A team's rules are the same on every rank: each rank works them out
 * from values that match on all ranks, or the ranks would run different
 * algorithms and hang. A process that holds many ranks of one
 * communicator (the simulator runs every core in one process) so needs
 * one copy, not one per rank: 13.6 KB a rank, 13.6 GB at a million cores.
 * The inputs are a small struct, mc_rules_key_t (text in it, the
 * MC_ALGO_<COLL> values and the changes, reduced to 64 bits with
 * SipHash); rule sets live in a map (util/map.h) under its words folded
 * into one, are found by the whole key, and count the teams that hold
 * them:
 *
 *   core 0: mc_rules_get  -> miss: mc_select_init, kept as R0 (key K)
 *           mc_rules_set bcast=binomial
 *                         -> miss: a copy of R0, changed, kept as R1
 *                            (key K with `sets` = mix(0, bcast, binomial))
 *   core 1: mc_rules_get  -> hit R0; mc_rules_set -> hit R1
 *           (R0 held by no team now, but kept: core 2 will want it)
 *   last communicator freed: mc_rules_flush frees R0 and R1
 *
 * Rule sets no team holds stay for the next team that wants them (were
 * they dropped, every simulated core would compute the rules again: half
 * the instructions of a 4,096-core barrier), up to IDLE of them (rules.c;
 * the oldest goes first), until mc_rules_flush.
 */
#ifndef MC_SELECT_RULES_H
#define MC_SELECT_RULES_H

#include "select/select.h"
#include "select/tuning.h"

/* What a team's rules are made from. Teams with equal keys get one rule
 * set. */
typedef struct mc_rules_key {
    /* the transport's share (tp.h): nonzero, it vouches that its teams
     * with that value are alike in all else the selection reads (the
     * MPB and flag layout, the topology, single copy); 0: the team's
     * rules are its own, never shared */
    uint64_t share;
    const char *transport; /* tp->ops->name */
    int size;
    int coherent;          /* tp->cache_coherent */
    int oversubscribed;    /* tp->oversubscribed */
    mc_algo_fn wrap;       /* the entry of every selection instead of the
                              algorithm's own (MC_CHECK_ARGS), or NULL */
    const mc_tuning_t *tuning; /* the tuning file that applies, or NULL */
    uint64_t env;          /* mix of the MC_ALGO_<COLL> values (0: none) */
    uint64_t sets;         /* mix of the changes made since (mc_rules_set,
                              in order; 0: none) */
} mc_rules_key_t;

typedef struct mc_rules mc_rules_t;

/* Team t's rules: the rule set of t's key, made (mc_select_init, then
 * every entry pointed at wrap if not NULL) if no team has it. The caller
 * holds a reference (mc_rules_put). */
int mc_rules_get(const mc_team_t *t, mc_algo_fn wrap, mc_rules_t **out);

/* *r becomes the rules of *r with coll's set by spec (NULL: coll's rules
 * as mc_select_init makes them; `who` names the caller in messages), the
 * reference of *r passing to them; *r unchanged on failure. */
int mc_rules_set(mc_rules_t **r, const mc_team_t *t, mc_coll_t coll,
                 const char *spec, const char *who);

/* another reference to r */
mc_rules_t *mc_rules_ref(mc_rules_t *r);
/* lets go of a reference */
void mc_rules_put(mc_rules_t *r);

/* the rules of every collective, [MC_COLL_COUNT] */
const mc_ruleset_t *mc_rules_sets(const mc_rules_t *r);
/* bytes of r, and how many references hold it */
size_t mc_rules_bytes(const mc_rules_t *r, int *holders);

/* Frees the rule sets no one holds (api/comm.c, when the last
 * communicator is freed). */
void mc_rules_flush(void);
/* rule sets computed so far in this process (mc_select_init or
 * mc_select_set run): what sharing saves, for tests */
unsigned long mc_rules_made(void);

/* the tuning file that applies to team t (MC_TUNING, for its transport),
 * or NULL */
int mc_select_tuning(const mc_team_t *t, const mc_tuning_t **out);

#endif
