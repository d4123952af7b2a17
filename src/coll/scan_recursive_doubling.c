/*
 * Recursive-doubling scan, inclusive and exclusive (MPICH's): in round k
 * every rank exchanges its partial reduction with rank ^ 2^k. The partial
 * then covers a block of 2^(k+1) ranks (or up to the last); a rank keeps
 * what came from below it in its result. Operands stay in rank order, so
 * any op works. ceil(log2 P) rounds, each a full-size exchange (two-sided,
 * chunked by the p2p layer) and one or two local reductions.
 *
 *   P = 6      round 0 (xor 1)   round 1 (xor 2)   round 2 (xor 4)
 *   rank 0 <->1   [0,1]  0<->2   [0..3]   0<->4    [0..5]
 *   rank 5 <->4   [4,5]  5<->7 (none)     5<->1    [0..5], result += [0..3]
 *
 *   scan:   result = own, then result = tmp op result for every tmp from
 *           a lower rank;  exscan: result = the first such tmp, then the
 *           same; rank 0 gets none and is left unwritten
 */
#include <string.h>

#include "coll/coll.h"
#include "coll/p2p.h"

int mc_scan_recursive_doubling(mc_team_t *c, const mc_args_t *a,
                               const mc_params_t *p)
{
    (void)p;
    int me = c->rank, n = c->size, scan = a->coll == MC_COLL_SCAN;
    unsigned char *partial, *tmp;
    MC_CHECK(mc_scratch(c, 2 * a->bytes, (void **)&partial));
    tmp = partial + a->bytes;
    memcpy(partial, a->sbuf, a->bytes); /* before rbuf (in place) moves */
    if (scan && a->rbuf != a->sbuf)
        MC_CHECK(tp_copy(c->tp, a->rbuf, a->sbuf, a->bytes));
    int have = scan; /* rbuf holds a result yet */
    for (int mask = 1; mask < n; mask <<= 1) {
        int peer = me ^ mask;
        if (peer >= n)
            continue;
        MC_CHECK(mc_p2p_sendrecv(c, peer, partial, a->bytes, peer, tmp,
                                 a->bytes, NULL));
        if (peer < me) { /* tmp covers the ranks just below mine */
            MC_CHECK(tp_reduce(c->tp, partial, tmp, a->count, a->dt, a->op,
                               1));
            if (have)
                MC_CHECK(tp_reduce(c->tp, a->rbuf, tmp, a->count, a->dt,
                                   a->op, 1));
            else
                MC_CHECK(tp_copy(c->tp, a->rbuf, tmp, a->bytes));
            have = 1;
        } else {
            MC_CHECK(tp_reduce(c->tp, partial, tmp, a->count, a->dt, a->op,
                               0));
        }
    }
    return MC_OK;
}

const mc_algo_impl_t mc_scan_recursive_doubling_algo = {
    .fn = mc_scan_recursive_doubling};
