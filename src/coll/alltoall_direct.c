/*
 * Single-copy alltoall for large blocks: rank r copies block r of every
 * other rank's send buffer straight into block q of its receive buffer
 * (coll/direct.h):
 *
 *   rank 0:  publish {s0}   r0 = [ s0[0] | read(s1[0]) | read(s2[0]) ]
 *   rank 1:  publish {s1}   r1 = [ read(s0[1]) | s1[1] | read(s2[1]) ]
 *   rank 2:  publish {s2}   r2 = [ read(s0[2]) | read(s1[2]) | s2[2] ]
 *            end: wait until nobody reads my send buffer any more
 *
 * One copy per byte, in parallel everywhere (pairwise exchange stages
 * each block through an MPB, P-1 dependent steps). In place, the API
 * already sends from a copy of the buffer.
 *
 * Fallback, run by the selection without single copy (the simulator,
 * MC_SINGLE_COPY=0) or on one rank: pairwise.
 */
#include "coll/coll.h"
#include "coll/direct.h"

int mc_alltoall_direct(mc_team_t *c, const mc_args_t *a,
                       const mc_params_t *p)
{
    (void)p;
    int np = c->size, me = c->rank;
    MC_CHECK(mc_direct_require(c));
    size_t n = a->bytes, mine = (size_t)me * n;
    char *out = a->rbuf;
    mc_direct_t d;
    MC_CHECK(mc_direct_begin(c, a, &d));
    MC_CHECK(tp_copy(c->tp, out + mine, (const char *)a->sbuf + mine, n));
    for (int i = 1; i < np; i++) {
        int q = (me + i) % np;
        MC_CHECK(mc_direct_get(c, &d, q, 0, mine, out + (size_t)q * n, n));
    }
    return mc_direct_end(c, d.f);
}

const mc_algo_impl_t mc_alltoall_direct_algo = {
    .fn = mc_alltoall_direct,
    .needs = MC_ALGO_SINGLE_COPY, .usable = mc_direct_usable,
    .fallback = "pairwise",
};
