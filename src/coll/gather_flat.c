/*
 * Flat gather for small blocks: every other rank publishes its block in
 * its own slot (coll/fast.h); the root copies each from there:
 *
 *   rank 0: b0 --.
 *   rank 1 (root) '--> b0 b1 b2     one fast call: the root reads P-1
 *   rank 2: b2 --'                  slots; a sender returns once its
 *                                   block is published
 *
 * Against linear's two-sided sends: no handshake per rank, and no rank
 * waits for another to be scheduled before it may leave (a sender is
 * done when it has written its slot; it waits only when it reuses that
 * slot four fast calls later). Larger blocks go slot by slot (a fast
 * call each).
 */
#include "coll/coll.h"
#include "coll/fast.h"

int mc_gather_flat(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    (void)p;
    size_t per = mc_fast_max(c), b = a->bytes;
    int root = c->rank == a->root;
    char *out = a->rbuf;
    if (root && !a->in_place)
        MC_CHECK(tp_copy(c->tp, out + (size_t)c->rank * b, a->sbuf, b));
    for (size_t done = 0; done < b; done += per) {
        size_t n = b - done < per ? b - done : per;
        uint64_t f;
        MC_CHECK(mc_fast_begin(c, !root, &f));
        if (!root)
            MC_CHECK(mc_fast_publish(c, f, (const char *)a->sbuf + done, n));
        else
            for (int r = 0; r < c->size; r++)
                if (r != c->rank)
                    MC_CHECK(mc_fast_fetch(c, f, r, out + (size_t)r * b + done,
                                           n));
        mc_fast_end(c, f);
    }
    return MC_OK;
}

const mc_algo_impl_t mc_gather_flat_algo = {.fn = mc_gather_flat};
