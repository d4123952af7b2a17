/*
 * Scatter-allgather broadcast of RCCE_comm (van de Geijn), two-sided.
 * The message is cut into P balanced slices, slice j for vrank j.
 *
 * 1. scatter along the binary recursive tree of the binomial broadcast:
 *    an edge to the holder of vranks [m, hi) carries slices m..hi-1.
 *
 *        P = 4:   0 --[2,3]--> 2        0 --[1]--> 1     2 --[3]--> 3
 *
 * 2. ring allgather over vranks, as the paper's section 5 describes it:
 *    in step s = 0..P-2, vrank v sends slice v+s to v-1 and receives slice
 *    v+s+1 from v+1, with RCCE's blocking send and receive (even vranks
 *    send first, odd ones receive first: two send/receive operations per
 *    step).
 *
 *        step 0:  0:s0->3  1:s1->0  2:s2->1  3:s3->2
 *        step 1:  0:s1->3  1:s2->0  2:s3->1  3:s0->2
 *        step 2:  0:s2->3  1:s3->0  2:s0->1  3:s1->2
 *
 * Parameters (coll/p2p.h): sync (0: the blocking exchange above; 1
 * iRCCE, 2 lightweight: both of a step posted at once; 3, the default,
 * automatic: lightweight on cache-coherent machines, blocking on MPB
 * chips, where RCCE_comm is the papers' baseline), balance
 * (slices of the byte message: 1 balanced, 0 RCCE_comm's split, the first
 * slice taking the remainder), tail (RCCE's padded last line).
 */
#include "coll/coll.h"
#include "coll/p2p.h"
#include "sched/sched.h"

/* mc_p2p_params_sbt */
enum { P_SYNC = MC_P2P_SYNC, P_BALANCE, P_TAIL };

typedef struct sag {
    const mc_args_t *a;
    int n, balance;
    mc_p2p_mode_t mode;
} sag_t;

static unsigned char *slice(const sag_t *g, int j)
{
    return (unsigned char *)g->a->rbuf +
           mc_block_start_b(g->a->bytes, g->n, j, g->balance);
}

/* bytes of slices [lo, hi) */
static size_t span(const sag_t *g, int lo, int hi)
{
    return mc_block_start_b(g->a->bytes, g->n, hi, g->balance) -
           mc_block_start_b(g->a->bytes, g->n, lo, g->balance);
}

int mc_bcast_scatter_allgather(mc_team_t *c, const mc_args_t *a,
                               const mc_params_t *p)
{
    int n = c->size, root = a->root, v = mc_vrank(c->rank, root, n);
    sag_t g = {a, n, (int)p->v[P_BALANCE], mc_p2p_mode_of(c, p, P_SYNC, P_TAIL)};
    mc_bisect_t t;
    mc_sched_bisect(v, n, &t);
    if (t.parent >= 0)
        MC_CHECK(mc_p2p_recv_m(c, &g.mode, mc_unvrank(t.parent, root, n),
                               slice(&g, v), span(&g, v, t.hi), NULL));
    for (int i = 0; i < t.nchildren; i++) {
        int ch = t.child[i];
        MC_CHECK(mc_p2p_send_m(c, &g.mode, mc_unvrank(ch, root, n),
                               slice(&g, ch), span(&g, ch, t.child_hi[i])));
    }
    int right = mc_unvrank((v + 1) % n, root, n);
    int left = mc_unvrank((v + n - 1) % n, root, n);
    for (int s = 0; s < n - 1; s++) {
        int out = (v + s) % n, in = (v + s + 1) % n;
        MC_CHECK(mc_p2p_round(c, &g.mode, v, left, slice(&g, out),
                              span(&g, out, out + 1), right, slice(&g, in),
                              span(&g, in, in + 1), NULL));
    }
    return MC_OK;
}

const mc_algo_impl_t mc_bcast_scatter_allgather_algo = {
    .fn = mc_bcast_scatter_allgather, .params = mc_p2p_params_sbt,
    .resolve = mc_p2p_resolve,
};
