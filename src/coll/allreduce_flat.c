/*
 * Flat allreduce for small messages: every rank publishes its vector in
 * its own slot (data and flag in one cache line when they fit, coll/fast.h)
 * and every rank reads all the others and combines them in rank order:
 *
 *   rank 0: x0 ----.---> x0 op x1 op x2     (each rank computes the same
 *   rank 1: x1 ----+--->   "                 expression in the same order,
 *   rank 2: x2 ----'--->   "                 so the bits agree, and a
 *                                            non-commutative op is right)
 *
 * One line transfer per peer and no acknowledgement: for P = 2 and 8
 * bytes, a write and a read of one line each. Messages larger than a slot
 * go slot by slot (a fast call each).
 */
#include "coll/coll.h"
#include "coll/fast.h"

static inline __attribute__((always_inline)) int
one(mc_team_t *c, const mc_args_t *a, const char *in, char *out, size_t count)
{
    uint64_t f;
    size_t n = count * a->dsize;
    MC_CHECK(mc_fast_begin(c, 1, &f));
    int line = mc_fast_slot_line(c, f);
    MC_CHECK(mc_fast_publish_at(c, f, line, in, n));
    MC_CHECK(mc_fast_combine_at(c, f, line, a, in, out, count));
    mc_fast_end(c, f);
    return MC_OK;
}

/* a message beyond a slot: slot by slot, a fast call each */
static __attribute__((noinline)) int slots(mc_team_t *c, const mc_args_t *a)
{
    size_t per = mc_fast_max(c) / a->dsize;
    for (size_t done = 0; done < a->count; done += per) {
        size_t m = a->count - done < per ? a->count - done : per;
        MC_CHECK(one(c, a, (const char *)a->sbuf + done * a->dsize,
                     (char *)a->rbuf + done * a->dsize, m));
    }
    return MC_OK;
}

int mc_allreduce_flat(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    (void)p;
    if (a->bytes <= c->fast.line_max) /* the common case: one line */
        return one(c, a, a->sbuf, a->rbuf, a->count);
    return slots(c, a);
}

const mc_algo_impl_t mc_allreduce_flat_algo = {.fn = mc_allreduce_flat};
