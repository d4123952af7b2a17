/*
 * Ring allreduce: ring reduce-scatter, then ring allgather, on P balanced
 * blocks (sizes differ by at most one element, Kohler et al.). Two-sided.
 *
 *   reduce-scatter, step s = 0..P-2: rank r sends block r-s to r+1 and
 *   combines block r-s-1 from r-1 into its own copy. P = 3:
 *
 *            rank 0      rank 1      rank 2
 *     s=0    b0 -> 1     b1 -> 2     b2 -> 0
 *     s=1    b2 -> 1     b0 -> 2     b1 -> 0
 *     now    owns b1     owns b2     owns b0   (fully reduced)
 *
 *   allgather, step s: rank r sends block r+1-s, receives block r-s.
 *
 * Each block is reduced once, by one rank, so every rank ends with the same
 * bits. Needs a commutative op (the combine order follows the ring). Each
 * step is RCCE_comm's blocking exchange (even ranks send first).
 */
#include "coll/coll.h"
#include "coll/p2p.h"
#include "sched/sched.h"

static unsigned char *blk(const mc_args_t *a, int n, int b)
{
    return (unsigned char *)a->rbuf +
           mc_block_start(a->count, n, (b % n + n) % n) * a->dsize;
}

static size_t blen(const mc_args_t *a, int n, int b)
{
    return mc_block_len(a->count, n, (b % n + n) % n) * a->dsize;
}

int mc_allreduce_ring(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    (void)p;
    int n = c->size, r = c->rank;
    int right = mc_ring_right(r, n), left = mc_ring_left(r, n);
    MC_CHECK(tp_copy(c->tp, a->rbuf, a->sbuf, a->bytes));
    mc_red_t red = mc_red_of(a, 1);
    for (int s = 0; s < n - 1; s++)
        MC_CHECK(mc_p2p_exchange(c, r, right, blk(a, n, r - s),
                                 blen(a, n, r - s), left, blk(a, n, r - s - 1),
                                 blen(a, n, r - s - 1), &red));
    for (int s = 0; s < n - 1; s++)
        MC_CHECK(mc_p2p_exchange(c, r, right, blk(a, n, r + 1 - s),
                                 blen(a, n, r + 1 - s), left, blk(a, n, r - s),
                                 blen(a, n, r - s), NULL));
    return MC_OK;
}

const mc_algo_impl_t mc_allreduce_ring_algo = {
    .fn = mc_allreduce_ring,
    .needs = MC_ALGO_COMMUTATIVE,
    .fallback = "reduce-bcast", /* rank order */
};
