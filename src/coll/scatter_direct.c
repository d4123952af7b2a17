/*
 * Single-copy scatter for large blocks: every rank copies its block
 * straight from the root's send buffer (coll/direct.h):
 *
 *   root (1):  publish {s = [ b0 | b1 | b2 ]}   r1 = b1   end: wait for
 *                                                          all reads
 *   rank 0:    publish {-}   r0 = read(root.s, block 0)    end (at once:
 *   rank 2:    publish {-}   r2 = read(root.s, block 2)    end  no one
 *                                                          reads them)
 *
 * One copy per byte and one handshake per call (the linear scatter: two
 * MPB copies and a handshake per MPB slot of every block, sent one rank
 * after another); the ranks read at the same time. In place the root's
 * block stays where it is.
 *
 * Fallback, run by the selection without single copy (the simulator,
 * MC_SINGLE_COPY=0) or on one rank: linear.
 */
#include "coll/coll.h"
#include "coll/direct.h"

int mc_scatter_direct(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    (void)p;
    int me = c->rank;
    MC_CHECK(mc_direct_require(c));
    size_t n = a->bytes;
    mc_direct_t d;
    MC_CHECK(mc_direct_begin(c, a, &d));
    if (me != a->root)
        MC_CHECK(mc_direct_get(c, &d, a->root, 0, (size_t)me * n, a->rbuf,
                               n));
    else if (!a->in_place)
        MC_CHECK(tp_copy(c->tp, a->rbuf, (const char *)a->sbuf +
                                             (size_t)me * n, n));
    /* the root waits for every read; no one reads the others */
    return mc_direct_end_for(c, d.f, me == a->root ? MC_DIRECT_ALL
                                                   : MC_DIRECT_NOBODY);
}

const mc_algo_impl_t mc_scatter_direct_algo = {
    .fn = mc_scatter_direct,
    .needs = MC_ALGO_SINGLE_COPY, .usable = mc_direct_usable,
    .fallback = "linear",
};
