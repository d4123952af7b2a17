/*
 * What the hierarchical algorithms share: where a rank lives, scratch
 * memory, and the checks that turn a failed phase into a message naming it.
 */
#ifndef MC_HIER_IMPL_H
#define MC_HIER_IMPL_H

#include <stdint.h>
#include <string.h>

#include "hier/hier.h"

/* node and local index of comm rank r */
static inline int hier_node_of(const mc_hier_t *h, int r)
{
    return h->node_of ? h->node_of[r] : r / h->ppn;
}

static inline int hier_local_of(const mc_hier_t *h, int r)
{
    return h->local_of ? h->local_of[r] : r % h->ppn;
}

/* A 16-bit float SUM or PROD (hier_half.c): hier_wide runs reduce,
 * allreduce or reduce_scatter_block in float32 and rounds once. */
int hier_is_wide(mc_dtype_t dt, mc_op_t op);
int hier_wide(mc_hier_t *h, mc_coll_t coll, const void *sbuf, void *rbuf,
              size_t count, mc_dtype_t dt, mc_op_t op, int root);

/* Private scratch of at least n bytes (grown, never shrunk). */
int hier_scratch(mc_hier_t *h, size_t n, void **out);

/* An intra-node phase (manycoll) that failed: the message names the phase
 * and keeps manycoll's own. */
int hier_intra_failed(int rc, const char *phase);
/* An inter-node phase (provider) that failed: the provider has recorded
 * its message, or this records a generic one. */
int hier_inter_failed(const mc_hier_t *h, int rc, const char *phase);

/* returns a failed status at once (the message is already recorded) */
#define TRY(expr)                                                            \
    do {                                                                     \
        int hier_rc_ = (expr);                                               \
        if (hier_rc_ < 0)                                                    \
            return hier_rc_;                                                 \
    } while (0)

#define INTRA(expr, phase)                                                   \
    do {                                                                     \
        int hier_rc_ = (expr);                                               \
        if (hier_rc_ < 0)                                                    \
            return hier_intra_failed(hier_rc_, phase);                       \
    } while (0)

#define INTER(h, expr, phase)                                                \
    do {                                                                     \
        int hier_rc_ = (expr);                                               \
        if (hier_rc_ < 0)                                                    \
            return hier_inter_failed(h, hier_rc_, phase);                    \
    } while (0)

static inline char *hier_at(const void *base, size_t off)
{
    return (char *)base + off;
}

#endif /* MC_HIER_IMPL_H */
