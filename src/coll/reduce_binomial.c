/*
 * Binomial reduce: the broadcast's binary recursive tree, run backwards.
 * A holder of vranks [v, hi) receives its children's partial results in
 * reverse send order (nearest range first), combines each into its
 * accumulator, and sends the result for [v, hi) to its parent:
 *
 *   P = 7    0 <- 1   2 <- 3   4 <- 5      step 1
 *            0 <---- 2         4 <- 6      step 2
 *            0 <---------- 4               step 3
 *
 * Every combine is acc = acc op child, where the child's range lies just
 * above the accumulator's, so with vrank = rank (tree rooted at rank 0)
 * the result is reduced in rank order and a non-commutative op is correct;
 * rank 0 then sends the result to the root if that is another rank. With a
 * commutative op the tree is rooted at the root itself (vrank relative to
 * the root) and that extra step disappears. Two-sided, chunked by the
 * two-sided layer; the combine reads straight from the sender's MPB.
 */
#include <string.h>

#include "coll/coll.h"
#include "coll/p2p.h"
#include "ops/ops.h"
#include "sched/sched.h"

int mc_binomial_reduce(mc_team_t *c, const mc_args_t *a)
{
    int n = c->size, me = c->rank;
    int commut = mc_op_commutative(a->op);
    int troot = commut ? a->root : 0; /* root of the tree */
    mc_bisect_t t;
    mc_sched_bisect(mc_vrank(me, troot, n), n, &t);

    /* accumulator: rbuf at the tree root if it is the real root, a leaf
     * sends its input as is, everyone else works in scratch */
    void *acc;
    if (me == a->root && me == troot)
        acc = a->rbuf;
    else if (t.nchildren == 0)
        acc = (void *)a->sbuf;
    else
        MC_CHECK(mc_scratch(c, a->bytes, &acc));
    if (acc != a->sbuf)
        MC_CHECK(tp_copy(c->tp, acc, a->sbuf, a->bytes));

    mc_red_t red = mc_red_of(a, 0); /* acc = acc op child */
    for (int i = t.nchildren - 1; i >= 0; i--)
        MC_CHECK(mc_p2p_recv(c, mc_unvrank(t.child[i], troot, n), acc,
                             a->bytes, &red));
    if (t.parent >= 0)
        MC_CHECK(mc_p2p_send(c, mc_unvrank(t.parent, troot, n), acc,
                             a->bytes));
    if (troot != a->root) {
        if (me == troot)
            MC_CHECK(mc_p2p_send(c, a->root, acc, a->bytes));
        else if (me == a->root)
            MC_CHECK(mc_p2p_recv(c, troot, a->rbuf, a->bytes, NULL));
    }
    return MC_OK;
}

int mc_reduce_binomial(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    (void)p;
    return mc_binomial_reduce(c, a);
}

const mc_algo_impl_t mc_reduce_binomial_algo = {.fn = mc_reduce_binomial};
