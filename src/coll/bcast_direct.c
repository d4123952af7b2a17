/*
 * Single-copy broadcast for large messages: every rank copies the root's
 * buffer straight from the root's process (coll/direct.h):
 *
 *   root:    publish {buf}                         end: wait for all reads
 *   rank q:  publish {-}   buf = read(root.buf)    end
 *
 * One copy per byte and one handshake per call, where the staged
 * broadcasts pay a handshake per MPB slot; when a handshake costs a slow
 * cross-core line transfer, a 64 KiB flat broadcast spends most of its
 * time in them.
 *
 * Without single copy (the simulator, MC_SINGLE_COPY=0): flat.
 */
#include "coll/coll.h"
#include "coll/direct.h"

int mc_bcast_direct(mc_comm_t *c, const mc_args_t *a, const mc_params_t *p)
{
    (void)p;
    if (c->size == 1 || !c->tp->single_copy)
        return mc_bcast_flat(c, a, &(mc_params_t){{0}});
    mc_direct_t d;
    MC_CHECK(mc_direct_begin(c, a, &d));
    if (c->rank != a->root) {
        MC_CHECK(mc_direct_get(c, &d, a->root, 0, 0, a->rbuf, a->bytes));
    }
    return mc_direct_end(c, d.f);
}
