/*
 * Linear scatter: the root sends block r to rank r for r = 0, 1, ...,
 * P-1 in turn (its own is a local copy); every other rank receives once.
 * Two-sided.
 *
 *     root -> 0, root -> 1, ..., root -> P-1
 */
#include "coll/coll.h"
#include "coll/p2p.h"

int mc_linear_scatter(mc_team_t *c, const mc_args_t *a)
{
    if (c->rank != a->root)
        return mc_p2p_recv(c, a->root, a->rbuf, a->bytes, NULL);
    const unsigned char *in = a->sbuf;
    for (int r = 0; r < c->size; r++) {
        if (r == a->root)
            MC_CHECK(tp_copy(c->tp, a->rbuf, in + (size_t)r * a->bytes,
                             a->bytes));
        else
            MC_CHECK(mc_p2p_send(c, r, in + (size_t)r * a->bytes, a->bytes));
    }
    return MC_OK;
}

int mc_scatter_linear(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    (void)p;
    return mc_linear_scatter(c, a);
}

const mc_algo_impl_t mc_scatter_linear_algo = {.fn = mc_scatter_linear};
