/*
 * The algorithm registry: one table row per algorithm (registry.c), naming
 * the implementation its file exports (coll/coll.h: entry point,
 * parameters, needs, fallback). The tests, `manycoll info`, the selection
 * and the simulator all walk this table, so adding an algorithm is one
 * file in src/coll/ and one row here.
 */
#ifndef MC_REGISTRY_H
#define MC_REGISTRY_H

#include "coll/args.h"
#include "coll/coll.h"

typedef struct mc_algo {
    mc_coll_t coll;
    const char *name;
    const char *desc;
    const mc_algo_impl_t *impl;
    /* parameter settings the generated tests also run ("k=2,chunk=64"),
     * beyond the defaults; NULL-terminated */
    const char *variants[5];
} mc_algo_t;

/* The table, closed by an entry with name == NULL. */
extern const mc_algo_t mc_algos[];

/* An algorithm and its parameter values, as selected for a call; fn is
 * algo->impl->fn, kept here so a call loads one pointer less. The rest
 * is the selection's (select/settle.c; NULL in a parsed one), pointing
 * at selections kept for the life of the process, so a selection may be
 * copied anywhere (a persistent request, shared rules). */
typedef struct mc_sel mc_sel_t;
struct mc_sel {
    const mc_algo_t *algo;
    mc_algo_fn fn;
    mc_params_t params;
    /* what runs a call that fn declines (MC_NOT_APPLICABLE) */
    const mc_sel_t *next;
    /* the selection this one is the fallback of, and why that one could
     * not serve: the chain back to the one asked for, for the reports */
    const mc_sel_t *replaces;
    const char *because;
};

/* The parameter table of an algorithm (an empty one if it has none). */
const mc_param_desc_t *mc_algo_params(const mc_algo_t *algo);

/* MC_OK, or MC_ERR_INTERNAL with a message naming the row, if a table
 * (closed by a NULL name) breaks the rules: names unique per collective,
 * an implementation with an entry point, at most MC_MAX_PARAMS
 * parameters with unique names and defaults in range, a `usable` hook
 * with every need a team decides, and for an algorithm that may not
 * serve (needs, usable, declines) a fallback of the same collective whose
 * chain of fallbacks reaches one that always serves. The selection
 * checks mc_algos once per process, before its first use. MC_MAX_FALLBACKS
 * bounds the chain. */
#define MC_MAX_FALLBACKS 4
int mc_registry_check(const mc_algo_t *table);

const mc_algo_t *mc_algo_find(mc_coll_t coll, const char *name);
/* Parses "name[:k=v,...]" for coll into *out. On error the message lists
 * the valid names or parameters; `who` prefixes it (e.g. "MC_ALGO_BCAST"). */
int mc_algo_parse(mc_coll_t coll, const char *spec, const char *who,
                  mc_sel_t *out);
/* Index of parameter `name` in the algorithm's table, or -1. */
int mc_algo_param_index(const mc_algo_t *algo, const char *name);
/* Writes "name:k=v,..." of a selection (all parameters) to buf. */
void mc_sel_format(const mc_sel_t *s, char *buf, size_t len);

#endif
