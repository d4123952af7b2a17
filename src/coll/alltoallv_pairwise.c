/*
 * Pairwise-exchange alltoallv: P-1 steps; in step i rank r sends its
 * block for r+i (scounts, sdispls) and receives the block of r-i
 * (rcounts, rdispls), as the alltoall of the same name. Zero counts move
 * nothing. Two-sided.
 *
 *     P = 4    step 1: 0->1 1->2 2->3 3->0
 *              step 2: 0->2 1->3 2->0 3->1
 *              step 3: 0->3 1->0 2->1 3->2
 *
 * In place (MPI_IN_PLACE), the input is rbuf laid out by rcounts and
 * rdispls: it is sent from a copy, since received blocks overwrite it.
 */
#include "coll/coll.h"
#include "coll/p2p.h"

/* one past the last element the layout reaches */
static size_t extent(const size_t *cnt, const size_t *dis, int n)
{
    size_t e = 0;
    for (int i = 0; i < n; i++)
        if (cnt[i] && dis[i] + cnt[i] > e)
            e = dis[i] + cnt[i];
    return e;
}

int mc_alltoallv_pairwise(mc_team_t *c, const mc_args_t *a,
                          const mc_params_t *p)
{
    (void)p;
    int n = c->size, r = c->rank;
    size_t d = a->dsize;
    const unsigned char *in = a->sbuf;
    unsigned char *out = a->rbuf;
    const size_t *sc = a->scounts, *sd = a->sdispls, *rc = a->rcounts,
                 *rd = a->rdispls;
    if (a->in_place) {
        size_t bytes = extent(rc, rd, n) * d;
        void *copy;
        MC_CHECK(mc_scratch(c, bytes, &copy));
        MC_CHECK(tp_copy(c->tp, copy, out, bytes));
        in = copy;
    }
    if (!a->in_place)
        MC_CHECK(tp_copy(c->tp, out + rd[r] * d, in + sd[r] * d, rc[r] * d));
    for (int i = 1; i < n; i++) {
        int dst = (r + i) % n, src = (r - i + n) % n;
        MC_CHECK(mc_p2p_sendrecv(c, dst, in + sd[dst] * d, sc[dst] * d, src,
                                 out + rd[src] * d, rc[src] * d, NULL));
    }
    return MC_OK;
}

const mc_algo_impl_t mc_alltoallv_pairwise_algo = {.fn = mc_alltoallv_pairwise};
