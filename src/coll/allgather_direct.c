/*
 * Single-copy allgather for large blocks: every rank copies every other
 * rank's block straight from its send buffer (coll/direct.h) into place:
 *
 *   rank 0:  publish {s0}   r0 = [ s0 | read(s1) | read(s2) ]
 *   rank 1:  publish {s1}   r1 = [ read(s0) | s1 | read(s2) ]
 *   rank 2:  publish {s2}   r2 = [ read(s0) | read(s1) | s2 ]
 *            end: wait until nobody reads my block any more
 *
 * One copy per received byte (the ring moves each block through two
 * MPB copies per step, P-1 steps). Readers start at different owners.
 * In place my block is already in rbuf (sbuf points there).
 *
 * Fallback, run by the selection without single copy (the simulator,
 * MC_SINGLE_COPY=0) or on one rank: ring.
 */
#include "coll/coll.h"
#include "coll/direct.h"

int mc_allgather_direct(mc_team_t *c, const mc_args_t *a,
                        const mc_params_t *p)
{
    (void)p;
    int np = c->size, me = c->rank;
    MC_CHECK(mc_direct_require(c));
    size_t n = a->bytes;
    char *out = a->rbuf;
    mc_direct_t d;
    MC_CHECK(mc_direct_begin(c, a, &d));
    MC_CHECK(tp_copy(c->tp, out + (size_t)me * n, a->sbuf, n));
    for (int i = 1; i < np; i++) {
        int q = (me + i) % np;
        MC_CHECK(mc_direct_get(c, &d, q, 0, 0, out + (size_t)q * n, n));
    }
    return mc_direct_end(c, d.f);
}

const mc_algo_impl_t mc_allgather_direct_algo = {
    .fn = mc_allgather_direct,
    .needs = MC_ALGO_SINGLE_COPY, .usable = mc_direct_usable,
    .fallback = "ring",
};
