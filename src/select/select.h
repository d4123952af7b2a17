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
 * team (mc_sel_settle): an algorithm that cannot serve the team has been
 * replaced by its fallback, and that by its own, with their own
 * parameters, automatic ones resolved. Where the chain differs for ops
 * that do not commute (an algorithm needs a commutative op), `noncomm`
 * is that chain's end. The selections are kept ones (mc_sel_keep), so a
 * rule is four words and a call's scan of the rules is short. */
#define MC_MAX_RULES 12
typedef struct mc_rule {
    size_t max_bytes;
    const mc_sel_t *sel;     /* as parsed until settled */
    const mc_sel_t *noncomm; /* for an op that does not commute; NULL:
                              * sel takes any op */
    const char *why;         /* where the rule comes from, for reports */
} mc_rule_t;
typedef struct mc_ruleset {
    int n;
    mc_rule_t r[MC_MAX_RULES];
} mc_ruleset_t;

/* s (as parsed: the algorithm asked for) as it runs on team t, for ops
 * that commute (noncomm = 0) or do not: resolved; while it cannot serve
 * (a need, its usable hook), replaced by its fallback, each with its own
 * parameters and `replaces`/`because` saying why; the end's `next`
 * settled the same way if its algorithm may decline a call
 * (select/settle.c). */
int mc_sel_settle(const mc_team_t *t, mc_sel_t *s, int noncomm);
/* *out: a copy of s kept for the life of the process (one per distinct
 * selection), for a selection to point at */
int mc_sel_keep(const mc_sel_t *s, const mc_sel_t **out);
/* the selection s was settled from: the start of its `replaces` chain */
const mc_sel_t *mc_sel_asked(const mc_sel_t *s);
/* appends to buf (len bytes, `used` of them used) why s runs: each
 * fallback from the one asked for, and why, and what runs a call it
 * declines; "; " between the parts */
void mc_sel_why(const mc_sel_t *s, char *buf, size_t len, size_t used);

/* The algorithm spec the built-in rules give coll at `size` ranks and
 * `bytes` on a cache-coherent machine (coherent != 0) or an MPB chip,
 * before fallbacks and tuning; NULL if none. What `manycoll tune` has to
 * beat. */
const char *mc_select_builtin(mc_coll_t coll, int coherent, int size,
                              size_t bytes);

/* The built-in rules as written in select.c, in their order (first
 * match wins): *out is the i-th and the result 1, or 0 past the last.
 * docs/selection.md's rule table is generated from them (tests/
 * rules_doc.c; the test select_rules_doc compares). */
typedef struct mc_builtin_rule {
    mc_coll_t coll;
    const char *machine; /* "any", "coherent", "MPB", "oversubscribed" */
    int max_ranks;       /* 0: any number */
    size_t max_bytes;    /* SIZE_MAX: any size */
    const char *spec;    /* the algorithm, "name[:k=v,...]" */
} mc_builtin_rule_t;
int mc_select_builtin_rule(size_t i, mc_builtin_rule_t *out);

/* Fills the rules of every collective for team t (its size, transport,
 * kind of machine and MPB layout; a tuning file applies to the transport
 * it names): environment, tuning file, defaults, with their automatic
 * parameters resolved. Fails if the tuning file is unreadable or
 * malformed, or a model cannot resolve a parameter. */
int mc_select_init(mc_ruleset_t rules[MC_COLL_COUNT], const mc_team_t *t);

/* One algorithm for every call of coll ("name:k=v,..."; `who` names the
 * caller in messages), resolved for team t, or (spec NULL) the rules
 * mc_select_init gives. */
int mc_select_set(mc_ruleset_t rules[MC_COLL_COUNT], const mc_team_t *t,
                  mc_coll_t coll, const char *spec, const char *who);

/* The selection for a call: its rule's, or the rule's for ops that do
 * not commute. */
const mc_sel_t *mc_select_rule(const mc_ruleset_t rules[MC_COLL_COUNT],
                               const mc_args_t *a);
/* inline for the commonest case, a call within the first rule of its
 * collective, whose selection serves every op (a call to mc_select_rule
 * cost the 8-byte allreduce 28 instructions) */
static inline const mc_sel_t *
mc_select(const mc_ruleset_t rules[MC_COLL_COUNT], const mc_args_t *a)
{
    const mc_rule_t *r = &rules[a->coll].r[0];
    size_t bytes = a->sel_bytes ? a->sel_bytes : a->bytes;
    if (__builtin_expect(bytes <= r->max_bytes && !r->noncomm, 1))
        return r->sel;
    return mc_select_rule(rules, a);
}

/* What a call of coll with `bytes` and op would run under `rules`, and
 * why, each "name:k=v,..." with every parameter's value */
typedef struct mc_explain {
    char asked[160]; /* the rule's algorithm (resolved for the team) */
    char ran[160];   /* what runs: asked, or the fallback that serves */
    /* the rule's origin (mc_comm_set_algo, MC_ALGO_<COLL>, the tuning
     * file and its entry, a built-in default), then each fallback and
     * why (mc_sel_why) */
    char why[400];
    const char *origin; /* the rule's origin alone */
    size_t max_bytes;   /* the largest message of the rule */
    int fallback;     /* 1 if ran is a fallback of asked */
} mc_explain_t;
void mc_select_explain(const mc_ruleset_t rules[MC_COLL_COUNT],
                       mc_coll_t coll, size_t bytes, mc_op_t op,
                       mc_explain_t *out);

#endif
