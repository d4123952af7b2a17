/*
 * The collectives, each described once (colls.c): the table behind
 * mc_coll_info (manycoll.h), and the name lookups the layers share.
 */
#ifndef MC_COLLS_H
#define MC_COLLS_H

#include "manycoll.h"

/* The table, indexed by mc_coll_t. */
extern const mc_coll_info_t mc_colls[MC_COLL_COUNT];

/* "bcast", ...; "?" for a value out of range */
const char *mc_coll_name(mc_coll_t coll);
/* mc_coll_lookup: MC_OK, or MC_ERR_ARG with a message listing the names */
int mc_coll_from_name(const char *name, mc_coll_t *out);
/* the collective whose variable is `var` (len bytes, "MC_ALGO_SCAN"), or
 * -1 */
int mc_coll_from_var(const char *var, size_t len);

static inline int mc_coll_has(mc_coll_t coll, unsigned prop)
{
    return (mc_colls[coll].props & prop) != 0;
}

#endif
