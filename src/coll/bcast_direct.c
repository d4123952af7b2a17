/*
 * Single-copy broadcast for large messages: every rank copies the root's
 * buffer straight from the root's process (coll/direct.h):
 *
 *   root:    publish {buf}                         end: wait for all reads
 *   rank q:  publish {-}   buf = read(root.buf)    end (returns at once)
 *
 * One copy per byte and one handshake per call, where the staged
 * broadcasts pay a handshake per MPB slot; when a handshake costs a slow
 * cross-core line transfer, a 64 KiB flat broadcast spends most of its
 * time in them.
 *
 * Fallback, run by the selection without single copy (the simulator,
 * MC_SINGLE_COPY=0) or on one rank: flat.
 */
#include "coll/coll.h"
#include "coll/direct.h"

int mc_bcast_direct(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    (void)p;
    MC_CHECK(mc_direct_require(c));
    mc_direct_t d;
    MC_CHECK(mc_direct_begin(c, a, &d));
    if (c->rank != a->root) {
        MC_CHECK(mc_direct_get(c, &d, a->root, 0, 0, a->rbuf, a->bytes));
    }
    if (c->rank != a->root) /* no one reads mine */
        return mc_direct_end_for(c, d.f, MC_DIRECT_NOBODY);
    return mc_direct_end(c, d.f);
}

const mc_algo_impl_t mc_bcast_direct_algo = {
    .fn = mc_bcast_direct,
    .needs = MC_ALGO_SINGLE_COPY, .usable = mc_direct_usable,
    .fallback = "flat",
};
