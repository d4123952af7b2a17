/*
 * Flat allgather for small blocks: every rank publishes its block in its
 * own slot (coll/fast.h) and copies every other rank's from there:
 *
 *   rank 0: b0 --.--> b0 b1 b2        one fast call: each rank reads P-1
 *   rank 1: b1 --+--> b0 b1 b2        slots, all at once; no handshake,
 *   rank 2: b2 --'--> b0 b1 b2        so no P-1 dependent steps either
 *
 * Larger blocks go slot by slot (a fast call each).
 */
#include "coll/coll.h"
#include "coll/fast.h"

int mc_allgather_flat(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    (void)p;
    size_t per = mc_fast_max(c), b = a->bytes;
    char *out = a->rbuf;
    for (size_t done = 0; done < b; done += per) {
        size_t n = b - done < per ? b - done : per;
        uint64_t f;
        MC_CHECK(mc_fast_begin(c, 1, &f));
        MC_CHECK(mc_fast_publish(c, f, (const char *)a->sbuf + done, n));
        for (int r = 0; r < c->size; r++) {
            char *dst = out + (size_t)r * b + done;
            if (r == c->rank)
                MC_CHECK(tp_copy(c->tp, dst, (const char *)a->sbuf + done, n));
            else
                MC_CHECK(mc_fast_fetch(c, f, r, dst, n));
        }
        mc_fast_end(c, f);
    }
    return MC_OK;
}

const mc_algo_impl_t mc_allgather_flat_algo = {.fn = mc_allgather_flat};
