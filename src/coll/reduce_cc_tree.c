/*
 * Small reduction on an optimised tree (Ramos & Hoefler 2013, Section
 * 4.3, Eq. 4.13; Table B.3): each parent combines its children's partial
 * results, read straight from the children (receiver-driven, as the
 * broadcast), level by level up to the root.
 *
 * Tree: fan-outs k_1..k_d (src/sched/ktree.h; by default the optimiser's
 * reduction tree), vranks in preorder so every subtree is a contiguous
 * range. k = (3, 2), 10 ranks, the tree rooted at rank 0:
 *
 *                  0 <- [1..3] [4..6] [7..9]     0 op (1 op 2 op 3) op ...
 *         1        4        7
 *       2   3    5   6    8   9                  1 <- 2, 3
 *
 * A parent combines "me, then my children in order", each child's
 * range lying just above what it has, so with vrank = rank the result is
 * in rank order: a non-commutative op runs on the tree rooted at rank 0,
 * which then sends the result to the root (two-sided) if that is another
 * rank. A commutative op roots the tree at the root itself.
 *
 * A message that fits in a flag line (tp_line_payload), v =
 * mc_flagval(c, 1):
 *
 *   parent   acc = my input
 *            for each child j in order:  line_wait(child's line 0, v) ->
 *                                        tmp;  acc = acc op tmp
 *            own line 1 = v                  "release": children may go
 *   child    line_set(own line 0, v, acc)    ready + data in ONE line
 *            wait parent's line 1 >= v       (its read is done: rule 1)
 *
 * Larger messages: chunks of the MPB (parameter chunk, by default the
 * whole MPB), v_i = mc_flagval(c, i + 1) for chunk i:
 *
 *   parent   for each child: wait its line 0 >= v_i; get_reduce(acc
 *            chunk, child's MPB); then own line 1 = v_i
 *   child    [i >= 1: wait parent's line 1 >= v_{i-1}]  put acc chunk ->
 *            own MPB;  own line 0 = v_i
 *   end      a child waits for its parent's line 1 >= v_last
 *
 * All flags are the writer's own lines in its own flags (bank 0 and 1,
 * writer = me): one writer per line, as rule 4 has it.
 * Parameters: k1..k4 (0 = automatic), inline, chunk.
 */
#include "coll/cc.h"
#include "coll/p2p.h"
#include "ops/ops.h"
#include "sched/sched.h"

#define LINE_MAX_PAYLOAD 248

typedef struct ccr {
    mc_team_t *c;
    const mc_args_t *a;
    mc_ktree_t t;
    mc_ktree_node_t nd;
    int troot;  /* root of the tree: the root, or 0 (rank order) */
    int parent; /* rank, -1 at the tree root */
    mc_cc_fl_t fl;
    int ready, release, up; /* my lines 0 and 1, my parent's line 1 */
} ccr_t;

static int child_rank(const ccr_t *x, int j)
{
    return mc_unvrank(mc_ktree_child(&x->t, &x->nd, j), x->troot,
                      x->c->size);
}

static int reduce_line(const ccr_t *x, void *acc)
{
    mc_team_t *c = x->c;
    const mc_args_t *a = x->a;
    uint64_t v = mc_flagval(c, 1);
    _Alignas(16) unsigned char tmp[LINE_MAX_PAYLOAD];
    for (int j = 0; j < x->nd.nchildren; j++) {
        int ch = child_rank(x, j);
        MC_CHECK(tp_line_wait(c->tp, ch, mc_cc_line(&x->fl, 0, ch), v, tmp,
                              a->bytes));
        MC_CHECK(tp_reduce(c->tp, acc, tmp, a->count, a->dt, a->op, 0));
    }
    if (x->nd.nchildren > 0) /* release: I have read my children's lines */
        tp_flag_set(c->tp, c->rank, x->release, v);
    if (x->parent < 0)
        return MC_OK;
    tp_line_set(c->tp, c->rank, x->ready, v, acc, a->bytes);
    return tp_flag_wait(c->tp, x->parent, x->up, v);
}

static int chunk_mpb(const ccr_t *x, char *acc, size_t i, size_t off,
                     size_t cnt)
{
    mc_team_t *c = x->c;
    const mc_args_t *a = x->a;
    uint64_t v = mc_flagval(c, (uint32_t)(i + 1));
    size_t boff = off * a->dsize;
    for (int j = 0; j < x->nd.nchildren; j++) {
        int ch = child_rank(x, j);
        MC_CHECK(tp_flag_wait(c->tp, ch, mc_cc_line(&x->fl, 0, ch), v));
        MC_CHECK(tp_get_reduce(c->tp, acc + boff, ch, 0, cnt, a->dt, a->op,
                               0));
    }
    if (x->nd.nchildren > 0)
        tp_flag_set(c->tp, c->rank, x->release, v);
    if (x->parent < 0)
        return MC_OK;
    if (i >= 1) /* my parent has combined chunk i-1 from my MPB */
        MC_CHECK(tp_flag_wait(c->tp, x->parent, x->up,
                              mc_flagval(c, (uint32_t)i)));
    MC_CHECK(tp_put(c->tp, c->rank, 0, acc + boff, cnt * a->dsize));
    tp_flag_set(c->tp, c->rank, x->ready, v);
    return MC_OK;
}

static int reduce_mpb(const ccr_t *x, char *acc, const mc_params_t *p)
{
    const mc_args_t *a = x->a;
    size_t mpb = x->c->mpb.avail, chunk = (size_t)p->v[MC_CC_CHUNK];
    if (chunk == 0 || chunk > mpb)
        chunk = mpb;
    size_t per = chunk / a->dsize ? chunk / a->dsize : 1; /* elements */
    size_t n = (a->count + per - 1) / per;
    for (size_t i = 0; i < n; i++) {
        size_t off = i * per;
        MC_CHECK(chunk_mpb(x, acc, i, off,
                           a->count - off < per ? a->count - off : per));
    }
    if (x->parent < 0)
        return MC_OK;
    return tp_flag_wait(x->c->tp, x->parent, x->up,
                        mc_flagval(x->c, (uint32_t)n));
}

/* where my partial result lives: the root's rbuf, my input for a leaf
 * (read only), else scratch (or a line-sized buffer for a small call) */
static int accumulator(const ccr_t *x, int inl, void *small, void **acc)
{
    const mc_args_t *a = x->a;
    if (x->c->rank == a->root && x->troot == a->root)
        *acc = a->rbuf;
    else if (x->nd.nchildren == 0)
        *acc = (void *)a->sbuf;
    else if (inl)
        *acc = small;
    else
        MC_CHECK(mc_scratch(x->c, a->bytes, acc));
    if (*acc != a->sbuf)
        MC_CHECK(tp_copy(x->c->tp, *acc, a->sbuf, a->bytes));
    return MC_OK;
}

int mc_reduce_cc_tree(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    int n = c->size;
    ccr_t x = {.c = c, .a = a};
    x.troot = mc_op_commutative(a->op) ? a->root : 0;
    if (n == 1)
        return tp_copy(c->tp, a->rbuf, a->sbuf, a->bytes);
    MC_CHECK(mc_cc_tree(p, n, &x.t));
    mc_ktree_node(&x.t, mc_vrank(c->rank, x.troot, n), &x.nd);
    x.parent = x.nd.parent < 0 ? -1 : mc_unvrank(x.nd.parent, x.troot, n);
    mc_cc_fl_init(&x.fl, c);
    x.ready = mc_cc_line(&x.fl, 0, c->rank);
    x.release = mc_cc_line(&x.fl, 1, c->rank);
    x.up = x.parent < 0 ? -1 : mc_cc_line(&x.fl, 1, x.parent);
    int inl = p->v[MC_CC_INLINE] && a->bytes <= tp_line_payload(c->tp) &&
              a->bytes <= LINE_MAX_PAYLOAD;
    _Alignas(16) unsigned char small[LINE_MAX_PAYLOAD];
    void *acc;
    MC_CHECK(accumulator(&x, inl, small, &acc));
    MC_CHECK(inl ? reduce_line(&x, acc) : reduce_mpb(&x, acc, p));
    if (x.troot == a->root)
        return MC_OK;
    if (c->rank == x.troot) /* rank order: rank 0 hands the result over */
        return mc_p2p_send(c, a->root, acc, a->bytes);
    if (c->rank == a->root)
        return mc_p2p_recv(c, x.troot, a->rbuf, a->bytes, NULL);
    return MC_OK;
}

static const mc_param_desc_t params[MC_CC_NPARAMS + 1] = {
    MC_CC_TREE_PARAMS,
    [MC_CC_CHUNK] = {"chunk", 0, 0, 1LL << 30,
                     "bytes per MPB chunk for larger messages; 0 = the "
                     "whole MPB"},
};

/* the chunk that runs: 0 or more than the MPB is the whole MPB */
static int resolve(const mc_team_t *t, mc_params_t *p)
{
    int64_t mpb = (int64_t)t->mpb.avail;
    if (p->v[MC_CC_CHUNK] <= 0 || p->v[MC_CC_CHUNK] > mpb)
        p->v[MC_CC_CHUNK] = mpb;
    return MC_OK;
}

const mc_algo_impl_t mc_reduce_cc_tree_algo = {
    .fn = mc_reduce_cc_tree, .params = params, .resolve = resolve,
    .model = MC_MODEL_REDUCE_TREE,
};
