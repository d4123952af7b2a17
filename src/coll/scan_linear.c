/*
 * Linear scan, inclusive (scan) and exclusive (exscan): a chain in rank
 * order. Each rank receives the prefix of the ranks before it, combines
 * its own input on the right (so any op, commutative or not, gives
 * x0 op x1 op ... in rank order), keeps what it must and passes the
 * prefix on. Two-sided; P - 1 steps, each pipelined through the MPB in
 * chunks by the p2p layer.
 *
 *   scan:    0 --x0--> 1 --x0.x1--> 2 --x0.x1.x2--> 3 ...
 *            rbuf[r] = x0 . ... . xr
 *   exscan:  the same messages; rbuf[r] = x0 . ... . x(r-1) (what r
 *            received), rbuf[0] untouched (MPI: undefined)
 */
#include <string.h>

#include "coll/coll.h"
#include "coll/p2p.h"

int mc_scan_linear(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    (void)p;
    int r = c->rank, last = c->size - 1;
    mc_red_t red = mc_red_of(a, 1); /* dst = prefix op dst */
    if (a->coll == MC_COLL_SCAN) {
        if (a->rbuf != a->sbuf)
            MC_CHECK(tp_copy(c->tp, a->rbuf, a->sbuf, a->bytes));
        if (r > 0)
            MC_CHECK(mc_p2p_recv(c, r - 1, a->rbuf, a->bytes, &red));
        return r < last ? mc_p2p_send(c, r + 1, a->rbuf, a->bytes) : MC_OK;
    }
    if (r == 0) /* exscan: rank 0 sends its input and keeps nothing */
        return last > 0 ? mc_p2p_send(c, 1, a->sbuf, a->bytes) : MC_OK;
    void *own = NULL;
    if (r < last) { /* its input, before the prefix may overwrite it */
        MC_CHECK(mc_scratch(c, a->bytes, &own));
        memcpy(own, a->sbuf, a->bytes);
    }
    MC_CHECK(mc_p2p_recv(c, r - 1, a->rbuf, a->bytes, NULL));
    if (r == last)
        return MC_OK;
    MC_CHECK(tp_reduce(c->tp, own, a->rbuf, a->count, a->dt, a->op, 1));
    return mc_p2p_send(c, r + 1, own, a->bytes);
}

const mc_algo_impl_t mc_scan_linear_algo = {.fn = mc_scan_linear};
