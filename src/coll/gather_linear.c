/*
 * Linear gather: the root receives the block of rank 0, 1, ..., P-1 in
 * turn (its own is a local copy); every other rank sends once. Two-sided.
 *
 *     root <- 0, root <- 1, ..., root <- P-1
 */
#include "coll/coll.h"
#include "coll/p2p.h"

int mc_gather_linear(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    (void)p;
    if (c->rank != a->root)
        return mc_p2p_send(c, a->root, a->sbuf, a->bytes);
    unsigned char *out = a->rbuf;
    for (int r = 0; r < c->size; r++) {
        if (r == a->root)
            MC_CHECK(tp_copy(c->tp, out + (size_t)r * a->bytes, a->sbuf,
                             a->bytes));
        else
            MC_CHECK(mc_p2p_recv(c, r, out + (size_t)r * a->bytes, a->bytes,
                                 NULL));
    }
    return MC_OK;
}

const mc_algo_impl_t mc_gather_linear_algo = {.fn = mc_gather_linear};
