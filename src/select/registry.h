/*
 * The algorithm registry: one table row per algorithm (registry.c). The
 * tests, `manycoll info`, the selection and the simulator all walk this
 * table, so adding an algorithm is one file in src/coll/ and one row here.
 */
#ifndef MC_REGISTRY_H
#define MC_REGISTRY_H

#include "internal.h"

typedef int (*mc_algo_fn)(mc_comm_t *c, const mc_args_t *a,
                          const mc_params_t *p);

typedef struct mc_param_desc {
    const char *name; /* NULL closes the list */
    int64_t def;      /* default; 0 often means "automatic" (see help) */
    int64_t min;
    int64_t max;
    const char *help;
} mc_param_desc_t;

enum {
    MC_ALGO_COMMUTATIVE = 1u << 0, /* needs a commutative op */
    MC_ALGO_SINGLE_COPY = 1u << 1, /* single copy (coll/direct.h); without
                                      it runs another registered algorithm */
    MC_ALGO_GRID = 1u << 2,        /* for a grid of a mesh chip (tp->topo);
                                      elsewhere runs another registered
                                      algorithm */
    MC_ALGO_HIER = 1u << 3,        /* for ranks whose places in the machine
                                      are known (MC_BIND); elsewhere runs
                                      another registered algorithm */
};

/* Replaces automatic (0) parameters by the values the algorithm would use
 * on this communicator, for reports such as `manycoll sim` (optional). */
typedef void (*mc_algo_report_fn)(const mc_comm_t *c, mc_params_t *p);

typedef struct mc_algo {
    mc_coll_t coll;
    const char *name;
    const char *desc;
    mc_algo_fn fn;
    mc_algo_report_fn report;
    unsigned flags;
    mc_param_desc_t params[MC_MAX_PARAMS + 1];
    /* parameter settings the generated tests also run ("k=2,chunk=64"),
     * beyond the defaults; NULL-terminated */
    const char *variants[5];
} mc_algo_t;

/* The table, closed by an entry with name == NULL. */
extern const mc_algo_t mc_algos[];

const mc_algo_t *mc_algo_find(mc_coll_t coll, const char *name);
/* Parses "name[:k=v,...]" for coll into *out. On error the message lists
 * the valid names or parameters; `who` prefixes it (e.g. "MC_ALGO_BCAST"). */
int mc_algo_parse(mc_coll_t coll, const char *spec, const char *who,
                  mc_sel_t *out);
/* Index of parameter `name` in algo->params, or -1. */
int mc_algo_param_index(const mc_algo_t *algo, const char *name);
/* Writes "name:k=v,..." of a selection (all parameters) to buf. */
void mc_sel_format(const mc_sel_t *s, char *buf, size_t len);

#endif
