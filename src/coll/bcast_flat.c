/*
 * Flat broadcast for small messages: the root publishes the message in
 * its slot (data and flag in one cache line when they fit, coll/fast.h),
 * every other rank reads it from there:
 *
 *   root: publish ---> rank 1 reads, rank 2 reads, ... (all at once)
 *
 * A cache-coherent machine serves the concurrent readers of one line from
 * the root's cache; with many ranks the readers contend (Ramos & Hoefler's
 * c per extra reader), so this is for small rank counts and messages.
 * Larger messages go slot by slot, pipelined (a fast call each).
 */
#include "coll/coll.h"
#include "coll/fast.h"

int mc_bcast_flat(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    (void)p;
    size_t per = mc_fast_max(c);
    int root = c->rank == a->root;
    for (size_t done = 0; done < a->bytes; done += per) {
        size_t n = a->bytes - done < per ? a->bytes - done : per;
        char *buf = (char *)a->rbuf + done;
        uint64_t f;
        MC_CHECK(mc_fast_begin(c, root, &f));
        if (root)
            MC_CHECK(mc_fast_publish(c, f, buf, n));
        else
            MC_CHECK(mc_fast_fetch(c, f, a->root, buf, n));
        mc_fast_end(c, f);
    }
    return MC_OK;
}

const mc_algo_impl_t mc_bcast_flat_algo = {.fn = mc_bcast_flat};
