/*
 * Recursive-doubling allreduce, as MPICH and OperaMPI do it (the baseline
 * of the NoCMsg paper's Fig. 16): log2 P steps of pairwise exchange with
 * the rank at distance 2^k, each combining the partner's partial result.
 * With P not a power of two, the first r = P - 2^floor(log2 P) pairs fold
 * in first (even rank to its odd neighbour) and are sent the result last:
 *
 *   P = 6 (r = 2):   0 -> 1   2 -> 3             fold in
 *                    1 <-> 3   4 <-> 5   (new ranks 0..3: 1 3 4 5)
 *                    1 <-> 4   3 <-> 5
 *                    0 <- 1   2 <- 3             fold out
 *
 * Contention-oblivious on a mesh: partners 2^k apart in row-major order
 * share links (tests/test_mesh.c counts them). Two-sided (p2p.h), chunked;
 * the partner's block always lies next to mine in rank order, so
 * combining it on the left (lower partner) or the right keeps rank order
 * and every rank ends with the same bits, for any op.
 */
#include "coll/coll.h"
#include "coll/p2p.h"

int mc_allreduce_recursive_doubling(mc_team_t *c, const mc_args_t *a,
                                    const mc_params_t *p)
{
    (void)p;
    int n = c->size, me = c->rank, pof2 = 1;
    while (2 * pof2 <= n)
        pof2 *= 2;
    int rem = n - pof2, newrank;
    void *acc = a->rbuf;
    size_t b = a->bytes;
    MC_CHECK(tp_copy(c->tp, acc, a->sbuf, b));
    mc_red_t lower = mc_red_of(a, 1), higher = mc_red_of(a, 0);
    if (me < 2 * rem) { /* fold in */
        if (me % 2 == 0) {
            MC_CHECK(mc_p2p_send(c, me + 1, acc, b));
            newrank = -1;
        } else {
            MC_CHECK(mc_p2p_recv(c, me - 1, acc, b, &lower));
            newrank = me / 2;
        }
    } else {
        newrank = me - rem;
    }
    for (int mask = 1; newrank >= 0 && mask < pof2; mask <<= 1) {
        int nd = newrank ^ mask;
        int dst = nd < rem ? 2 * nd + 1 : nd + rem;
        MC_CHECK(mc_p2p_sendrecv(c, dst, acc, b, dst, acc, b,
                                 dst < me ? &lower : &higher));
    }
    if (me < 2 * rem) { /* fold out */
        if (me % 2)
            MC_CHECK(mc_p2p_send(c, me - 1, acc, b));
        else
            MC_CHECK(mc_p2p_recv(c, me + 1, acc, b, NULL));
    }
    return MC_OK;
}

const mc_algo_impl_t mc_allreduce_recursive_doubling_algo = {
    .fn = mc_allreduce_recursive_doubling};
