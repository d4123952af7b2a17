/*
 * Pairwise-exchange alltoall: P-1 steps; in step i rank r sends its block
 * for r+i and receives the block of r-i. Two-sided; every step pairs each
 * rank with one sender and one receiver, so no MPB is read by two ranks.
 *
 *     P = 4    step 1: 0->1 1->2 2->3 3->0
 *              step 2: 0->2 1->3 2->0 3->1
 *              step 3: 0->3 1->0 2->1 3->2
 *
 * sync (coll/p2p.h): 2, the default, and 1 post a step's send and receive
 * together (Kohler et al.'s relaxed synchronisation; 1 pays iRCCE's
 * request costs); 0 is RCCE_comm's blocking order: a blocking send and a
 * blocking receive, the rank at an even position of its cycle of x -> x+i
 * sending first (mc_sched_shift_pos; step 2 above: cycles 0->2->0 and
 * 1->3->1, ranks 0 and 1 send first, 2 and 3 receive first). tail: RCCE's
 * padded last line.
 *
 * In-place: the API layer hands a copy of the input as sbuf.
 */
#include "coll/coll.h"
#include "coll/p2p.h"
#include "sched/sched.h"

/* mc_p2p_params_st2 */
enum { P_SYNC = MC_P2P_SYNC, P_TAIL };

int mc_alltoall_pairwise(mc_team_t *c, const mc_args_t *a,
                         const mc_params_t *p)
{
    int n = c->size, r = c->rank;
    const unsigned char *in = a->sbuf;
    unsigned char *out = a->rbuf;
    size_t b = a->bytes;
    mc_p2p_mode_t m = mc_p2p_mode_of(c, p, P_SYNC, P_TAIL);
    MC_CHECK(tp_copy(c->tp, out + (size_t)r * b, in + (size_t)r * b, b));
    for (int i = 1; i < n; i++) {
        int dst = (r + i) % n, src = (r - i + n) % n;
        int pos = m.sync == MC_SYNC_BLOCKING ? mc_sched_shift_pos(r, n, i) : 0;
        MC_CHECK(mc_p2p_round(c, &m, pos, dst, in + (size_t)dst * b, b, src,
                              out + (size_t)src * b, b, NULL));
    }
    return MC_OK;
}

const mc_algo_impl_t mc_alltoall_pairwise_algo = {
    .fn = mc_alltoall_pairwise, .params = mc_p2p_params_st2,
    .resolve = mc_p2p_resolve,
};
