/*
 * Single-copy gather for large blocks: every other rank writes its block
 * straight into the root's receive buffer (coll/direct.h,
 * tp_put_direct: process_vm_writev), all at once:
 *
 *   root (1):  publish {r}   r1 = s1        end: wait until all wrote
 *   rank 0:    publish {-}   write s0 -> root.r[0]   end (leave at once)
 *   rank 2:    publish {-}   write s2 -> root.r[2]   end (leave at once)
 *
 * One copy per byte and one handshake per call, where the linear gather
 * stages every block through two MPB copies and pays a handshake per MPB
 * slot of every block. The P - 1 copies run in parallel on the senders'
 * cores: the root reading every block in turn made it copy them one
 * after another (at 4 ranks on 2 CPUs, OSU through Open MPI 4.1, 64 KiB:
 * 10.5 us against Open MPI's 8.0, docs/selection.md), and a sender
 * waited until the root had come to its block. In place the root's own
 * block is already there.
 *
 * Fallback, run by the selection without single copy (the simulator,
 * MC_SINGLE_COPY=0) or on one rank: linear.
 */
#include "coll/coll.h"
#include "coll/direct.h"

int mc_gather_direct(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    (void)p;
    int me = c->rank;
    MC_CHECK(mc_direct_require(c));
    size_t n = a->bytes;
    mc_direct_t d;
    MC_CHECK(mc_direct_begin(c, a, &d));
    if (me != a->root) {
        MC_CHECK(mc_direct_put(c, &d, a->root, (size_t)me * n, a->sbuf, n));
        return mc_direct_end_for(c, d.f, MC_DIRECT_NOBODY);
    }
    if (!a->in_place)
        MC_CHECK(tp_copy(c->tp, (char *)a->rbuf + (size_t)me * n, a->sbuf,
                         n));
    /* every sender's end comes after its write */
    return mc_direct_end(c, d.f);
}

const mc_algo_impl_t mc_gather_direct_algo = {
    .fn = mc_gather_direct,
    .needs = MC_ALGO_SINGLE_COPY, .usable = mc_direct_usable,
    .fallback = "linear",
};
