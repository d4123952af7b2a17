/*
 * Single-copy gather for large blocks: the root copies every rank's block
 * straight from that rank's send buffer (coll/direct.h) into place:
 *
 *   root (1):  publish {-, r}   r = [ read(s0) | s1 | read(s2) ]   end
 *   rank 0:    publish {s0}     end: wait until the root read s0
 *   rank 2:    publish {s2}     end: wait until the root read s2
 *   (the root ends at once: no one reads its buffers; the others wait
 *   for the root alone, not for each other)
 *
 * One copy per byte and one handshake per call, where the linear gather
 * stages every block through two MPB copies and pays a handshake per MPB
 * slot of every block. The root reads the blocks in rank order starting
 * after itself; in place its own block is already there.
 *
 * Fallback, run by the selection without single copy (the simulator,
 * MC_SINGLE_COPY=0) or on one rank: linear.
 */
#include "coll/coll.h"
#include "coll/direct.h"

int mc_gather_direct(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    (void)p;
    int np = c->size, me = c->rank;
    MC_CHECK(mc_direct_usable(c));
    size_t n = a->bytes;
    mc_direct_t d;
    MC_CHECK(mc_direct_begin(c, a, &d));
    if (me == a->root) {
        char *out = a->rbuf;
        if (!a->in_place)
            MC_CHECK(tp_copy(c->tp, out + (size_t)me * n, a->sbuf, n));
        for (int i = 1; i < np; i++) {
            int q = (me + i) % np;
            MC_CHECK(mc_direct_get(c, &d, q, 0, 0, out + (size_t)q * n, n));
        }
    }
    return mc_direct_end_for(c, d.f, me == a->root ? MC_DIRECT_NOBODY
                                                   : a->root);
}

const mc_algo_impl_t mc_gather_direct_algo = {
    .fn = mc_gather_direct,
    .needs = MC_ALGO_SINGLE_COPY,
    .fallback = "linear",
};
