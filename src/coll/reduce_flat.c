/*
 * Flat reduce for small messages: every rank publishes its vector in its
 * own slot (coll/fast.h); the root reads them all and combines them in
 * rank order; the others are done once they have published. The root
 * publishes only in place, where its own vector comes back from its slot
 * (its output has overwritten it): a line nobody reads would only cost it
 * (in a loop of 8-byte MPI_Reduce at 2 ranks, 0.15 us a call against
 * 0.10-0.11 without).
 *
 *   rank 0: x0 ---.
 *   rank 1: x1 ---+---> root: x0 op x1 op x2
 *   rank 2: x2 ---'
 *
 * Larger messages go slot by slot (a fast call each).
 */
#include "coll/coll.h"
#include "coll/fast.h"

static int one(mc_team_t *c, const mc_args_t *a, const char *in, char *out,
               size_t count)
{
    uint64_t f;
    size_t n = count * a->dsize;
    int root = c->rank == a->root, pub = !root || a->in_place;
    MC_CHECK(mc_fast_begin(c, pub, &f));
    if (pub)
        MC_CHECK(mc_fast_publish(c, f, in, n));
    if (root)
        MC_CHECK(mc_fast_combine(c, f, a, in, out, count));
    mc_fast_end(c, f);
    return MC_OK;
}

int mc_reduce_flat(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    (void)p;
    size_t per = mc_fast_max(c) / a->dsize;
    for (size_t done = 0; done < a->count; done += per) {
        size_t m = a->count - done < per ? a->count - done : per;
        char *out = a->rbuf ? (char *)a->rbuf + done * a->dsize : NULL;
        MC_CHECK(one(c, a, (const char *)a->sbuf + done * a->dsize, out, m));
    }
    return MC_OK;
}

const mc_algo_impl_t mc_reduce_flat_algo = {.fn = mc_reduce_flat};
