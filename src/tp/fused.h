/*
 * Fused flag operations: a flag set followed by a wait, and rounds of
 * them, as one call. A transport that saves by knowing both ends may
 * offer them: the simulator (tp/sim.c) runs them without switching back
 * to the core between the set and the wait, which is most of a
 * barrier's cost at a million cores. It is an extension owned by
 * tp/sim.c, not part of the interface every transport implements (tp.h):
 * an algorithm that wants the saving includes this header and says so
 * (coll/barrier_dissemination.c, coll/mesh.c's barrier); everywhere else,
 * and on every other transport, these are the plain flag calls, with the
 * same result.
 */
#ifndef MC_TP_FUSED_H
#define MC_TP_FUSED_H

#include "tp/tp.h"

/* one round of tp_flag_rounds: flag idx of rank := v, then wait until
 * flag widx of wrank >= wv */
typedef struct mc_tp_round {
    int rank, idx, wrank, widx;
    uint64_t v, wv;
} mc_tp_round_t;
typedef void (*mc_tp_round_fn)(const void *ctx, int r, mc_tp_round_t *rd);
/* the most bytes of a tp_flag_rounds context */
#define MC_TP_ROUND_CTX 32

typedef struct mc_tp_fused {
    /* flag_set(rank, idx, v), then flag_wait(wrank, widx, wv) */
    int (*set_wait)(mc_tp_t *tp, int rank, int idx, uint64_t v, int wrank,
                    int widx, uint64_t wv);
    /* n rounds of set_wait, round r given by fn when it begins */
    int (*rounds)(mc_tp_t *tp, int n, mc_tp_round_fn fn, const void *ctx,
                  size_t size);
} mc_tp_fused_t;

/* the fused operations of t's transport, or NULL (tp/sim.c: the
 * simulator's; no other transport has them) */
const mc_tp_fused_t *mc_tp_fused(const mc_tp_t *t);

static inline int tp_flag_set_wait(mc_tp_t *t, int rank, int idx,
                                   uint64_t v, int wrank, int widx,
                                   uint64_t wv)
{
    TP_ASSERT_WRITER(t, rank, idx);
    const mc_tp_fused_t *f = mc_tp_fused(t);
    if (f)
        return f->set_wait(t, rank, idx, v, wrank, widx, wv);
    tp_flag_set(t, rank, idx, v);
    return tp_flag_wait(t, wrank, widx, wv);
}

/* the rounds one after the other: the transports without them */
static inline int tp_flag_rounds_each(mc_tp_t *t, int n, mc_tp_round_fn fn,
                                      const void *ctx)
{
    for (int r = 0; r < n; r++) {
        mc_tp_round_t rd;
        fn(ctx, r, &rd);
        int rc = tp_flag_set_wait(t, rd.rank, rd.idx, rd.v, rd.wrank,
                                  rd.widx, rd.wv);
        if (rc != MC_OK)
            return rc;
    }
    return MC_OK;
}

/* Rounds of flag set and wait whose flags follow from the round number
 * (the dissemination barrier's): fn(ctx, r, &rd) gives round r when it
 * begins, from the `size` bytes at ctx alone (at most MC_TP_ROUND_CTX;
 * the transport may keep a copy). The same as calling tp_flag_set_wait
 * for each, and stops at the first error. */
static inline int tp_flag_rounds(mc_tp_t *t, int n, mc_tp_round_fn fn,
                                 const void *ctx, size_t size)
{
    const mc_tp_fused_t *f = mc_tp_fused(t);
    if (f)
        return f->rounds(t, n, fn, ctx, size);
    return tp_flag_rounds_each(t, n, fn, ctx);
}

#endif
