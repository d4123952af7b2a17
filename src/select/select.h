/*
 * Selection: which algorithm runs a call. Precedence:
 *   1. mc_comm_set_algo() on the communicator,
 *   2. MC_ALGO_<COLL> in the environment,
 *   3. the tuning file (MC_TUNING), when present,
 *   4. the built-in default rules (select.c): per collective, a list of
 *      (largest message in bytes, algorithm spec), first match wins.
 * Rules are resolved once per communicator; a call does one short scan.
 */
#ifndef MC_SELECT_H
#define MC_SELECT_H

#include "select/registry.h"

/* Fills the rules of every collective for a communicator of `size` ranks
 * on a cache-coherent machine or not, over `transport` (tp->ops->name:
 * a tuning file applies to the transport it names): environment, tuning
 * file, defaults. Fails if the tuning file is unreadable or malformed. */
int mc_select_init(mc_ruleset_t rules[MC_COLL_COUNT], int size,
                   int coherent, const char *transport);

/* The selection for a call. Falls back to a rank-order algorithm when the
 * chosen one needs a commutative op and op is not. */
const mc_sel_t *mc_select(const mc_comm_t *c, const mc_args_t *a);

/* "name:k=v,..." of what a call of coll with `bytes` would run under
 * `rules` (parameters as the rule gives them: 0 = automatic), and why:
 * the rule's origin (mc_comm_set_algo, MC_ALGO_<COLL>, the tuning file
 * and its entry, a built-in default) */
void mc_select_explain(const mc_ruleset_t rules[MC_COLL_COUNT],
                       mc_coll_t coll, size_t bytes, mc_op_t op, char *buf,
                       size_t len, const char **why);

/* "name:k=v,..." of what a call of coll with `bytes` would run */
void mc_select_describe(const mc_comm_t *c, mc_coll_t coll, size_t bytes,
                        mc_op_t op, char *buf, size_t len);

#endif
