/*
 * Selection: which algorithm runs a call. Precedence:
 *   1. mc_comm_set_algo() on the communicator,
 *   2. MC_ALGO_<COLL> in the environment,
 *   3. the tuning file (MC_TUNING), when present,
 *   4. the built-in default rules (select.c): per collective, a list of
 *      (largest message in bytes, algorithm spec), first match wins.
 * Rules are resolved once per communicator, automatic parameters
 * included (the registry's resolve hooks); a call does one short scan.
 */
#ifndef MC_SELECT_H
#define MC_SELECT_H

#include "coll/args.h"
#include "coll/team.h"
#include "select/registry.h"

/* Selection rules of one collective: the first rule whose max_bytes is >=
 * the call's message size wins. A rule's selection is settled for the
 * team: an algorithm whose needs the team cannot meet (single copy) has
 * been replaced by its fallback, and automatic parameters are resolved.
 * An algorithm that needs a commutative op has its fallback for the
 * other ops ready in `alt`. */
#define MC_MAX_RULES 8
#define MC_MAX_ALTS 2
typedef struct mc_rule {
    size_t max_bytes;
    mc_sel_t sel;
    int alt;         /* index in mc_ruleset_t.alt for a non-commutative
                      * op, or -1: sel takes any op */
    const char *why; /* where the rule comes from, for reports */
} mc_rule_t;
typedef struct mc_ruleset {
    int n;
    mc_rule_t r[MC_MAX_RULES];
    int nalt;
    mc_sel_t alt[MC_MAX_ALTS];
} mc_ruleset_t;

/* Fills the rules of every collective for team t (its size, transport,
 * kind of machine and MPB layout; a tuning file applies to the transport
 * it names): environment, tuning file, defaults, with their automatic
 * parameters resolved. Fails if the tuning file is unreadable or
 * malformed, or a model cannot resolve a parameter. */
/* The algorithm spec the built-in rules give coll at `size` ranks and
 * `bytes` on a cache-coherent machine (coherent != 0) or an MPB chip,
 * before fallbacks and tuning; NULL if none. What `manycoll tune` has to
 * beat. */
const char *mc_select_builtin(mc_coll_t coll, int coherent, int size,
                              size_t bytes);

int mc_select_init(mc_ruleset_t rules[MC_COLL_COUNT], const mc_team_t *t);

/* One algorithm for every call of coll ("name:k=v,..."; `who` names the
 * caller in messages), resolved for team t, or (spec NULL) the rules
 * mc_select_init gives. */
int mc_select_set(mc_ruleset_t rules[MC_COLL_COUNT], const mc_team_t *t,
                  mc_coll_t coll, const char *spec, const char *who);

/* The selection for a call. Falls back to the rule's rank-order
 * algorithm when its algorithm needs a commutative op and op is not. */
const mc_sel_t *mc_select(const mc_ruleset_t rules[MC_COLL_COUNT],
                          const mc_args_t *a);

/* "name:k=v,..." of what a call of coll with `bytes` and op would run
 * under `rules`, and why: the rule's origin (mc_comm_set_algo,
 * MC_ALGO_<COLL>, the tuning file and its entry, a built-in default) */
void mc_select_explain(const mc_ruleset_t rules[MC_COLL_COUNT],
                       mc_coll_t coll, size_t bytes, mc_op_t op, char *buf,
                       size_t len, const char **why);

#endif
