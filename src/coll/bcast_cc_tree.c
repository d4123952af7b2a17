/*
 * Small broadcast on an optimised tree (Ramos & Hoefler 2013, Section
 * 4.1.2, Eq. 4.7; Table B.1): receiver-driven, notification forwards
 * with the payload in the same cache line, one shared line per parent
 * for the notification backwards.
 *
 * Tree: fan-outs k_1..k_d per level (src/sched/ktree.h; by default the
 * optimiser's tree for this rank count), vranks relative to the root.
 * k = (3, 2), 10 ranks:
 *
 *                  0                  level 1 reads 0's line together:
 *         1        4        7         T_C(3)
 *       2   3    5   6    8   9       level 2 reads its parent's: T_C(2)
 *
 * A message that fits in a flag line (tp_line_payload: 56 bytes on shm,
 * 24 on the simulated SCC), value v = mc_flagval(c, 1):
 *
 *   parent   line_set(own line, v, data)          flag + data, ONE line
 *   child    line_wait(parent's line, v) -> data into rbuf
 *            line_set(own line, v, data)          forward to its children
 *            own word of the parent's ack line = v
 *            wait until its children's ack words are >= v
 *   parent   waits until every child's ack word is >= v, returns
 *
 * The ack words are one shared line per parent, a word per child (cc.h,
 * which also says why one writer per word keeps rule 4's guarantee).
 * Every rank returns only when its children have acknowledged, so its
 * line (and MPB) are free for the next call (rules 1, 2).
 *
 * Larger messages go through the MPBs in chunks (parameter chunk, by
 * default half the MPB), double buffered, chunk i in half i % 2 with
 * v_i = mc_flagval(c, i + 1):
 *
 *   root     [i >= 2: wait acks >= v_{i-1}]  put chunk -> own MPB
 *            own line = v_i
 *   inner    wait parent's line >= v_i;  [i >= 2: wait acks >= v_{i-1}]
 *            get_mpb parent's MPB -> own MPB;  ack v_i;  own line = v_i;
 *            get own MPB -> rbuf
 *   leaf     wait parent's line >= v_i;  get parent's MPB -> rbuf;  ack v_i
 *   end      every parent waits for acks >= v_last
 *
 * Parameters: k1..k4 (0 = automatic), inline (0: always through the
 * MPB, to test that path with small messages), chunk.
 */
#include "coll/cc.h"
#include "sched/sched.h"

typedef struct cct {
    mc_team_t *c;
    const mc_args_t *a;
    mc_ktree_t t;
    mc_ktree_node_t nd;
    int parent; /* rank, -1 at the root */
    size_t chunk;
    mc_cc_fl_t fl;
    int own, up, myack; /* my line, my parent's line, my ack word there */
} cct_t;

static int child_rank(const cct_t *x, int j)
{
    return mc_unvrank(mc_ktree_child(&x->t, &x->nd, j), x->a->root,
                      x->c->size);
}

/* waits until every child's ack word is >= v */
static int wait_acks(const cct_t *x, uint64_t v)
{
    for (int j = 0; j < x->nd.nchildren; j++) {
        int i = mc_cc_ack_shared(&x->fl, j);
        if (i < 0)
            i = mc_cc_line(&x->fl, 1, child_rank(x, j));
        MC_CHECK(tp_flag_wait(x->c->tp, x->c->rank, i, v));
    }
    return MC_OK;
}

/* my word of my parent's ack line */
static void ack(const cct_t *x, uint64_t v)
{
    tp_flag_set(x->c->tp, x->parent, x->myack, v);
}

static int bcast_line(const cct_t *x)
{
    mc_team_t *c = x->c;
    uint64_t v = mc_flagval(c, 1);
    if (x->parent >= 0)
        MC_CHECK(tp_line_wait(c->tp, x->parent, x->up, v, x->a->rbuf,
                              x->a->bytes));
    if (x->nd.nchildren > 0)
        tp_line_set(c->tp, c->rank, x->own, v, x->a->rbuf, x->a->bytes);
    if (x->parent >= 0)
        ack(x, v);
    return wait_acks(x, v);
}

static int chunk_mpb(const cct_t *x, size_t i, size_t off, size_t len)
{
    mc_team_t *c = x->c;
    size_t b = (i % 2) * x->chunk;
    uint64_t v = mc_flagval(c, (uint32_t)(i + 1));
    char *dst = (char *)x->a->rbuf + off;
    int inner = x->nd.nchildren > 0;
    if (x->parent >= 0)
        MC_CHECK(tp_flag_wait(c->tp, x->parent, x->up, v));
    if (inner && i >= 2) /* chunk i-2 has left my buffer b */
        MC_CHECK(wait_acks(x, mc_flagval(c, (uint32_t)(i - 1))));
    if (x->parent < 0)
        MC_CHECK(tp_put(c->tp, c->rank, b, dst, len));
    else if (inner)
        MC_CHECK(tp_get_mpb(c->tp, b, x->parent, b, len));
    else
        MC_CHECK(tp_get(c->tp, dst, x->parent, b, len));
    if (x->parent >= 0)
        ack(x, v);
    if (!inner)
        return MC_OK;
    tp_flag_set(c->tp, c->rank, x->own, v);
    return x->parent >= 0 ? tp_get(c->tp, dst, c->rank, b, len) : MC_OK;
}

static int bcast_mpb(cct_t *x, const mc_params_t *p)
{
    x->chunk = mc_cc_half_chunk(x->c, p->v[MC_CC_CHUNK]);
    size_t bytes = x->a->bytes, n = (bytes + x->chunk - 1) / x->chunk;
    for (size_t i = 0; i < n; i++) {
        size_t off = i * x->chunk;
        MC_CHECK(chunk_mpb(x, i, off,
                           bytes - off < x->chunk ? bytes - off : x->chunk));
    }
    return wait_acks(x, mc_flagval(x->c, (uint32_t)n));
}

int mc_bcast_cc_tree(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    int n = c->size;
    if (n == 1)
        return MC_OK;
    cct_t x = {.c = c, .a = a};
    MC_CHECK(mc_cc_tree(p, n, &x.t));
    mc_ktree_node(&x.t, mc_vrank(c->rank, a->root, n), &x.nd);
    x.parent = x.nd.parent < 0 ? -1 : mc_unvrank(x.nd.parent, a->root, n);
    mc_cc_fl_init(&x.fl, c);
    x.own = mc_cc_line(&x.fl, 0, c->rank);
    if (x.parent >= 0) {
        x.up = mc_cc_line(&x.fl, 0, x.parent);
        x.myack = mc_cc_ack(&x.fl, x.nd.pos, c->rank);
    }
    if (p->v[MC_CC_INLINE] && a->bytes <= tp_line_payload(c->tp))
        return bcast_line(&x);
    return bcast_mpb(&x, p);
}

static const mc_param_desc_t params[MC_CC_NPARAMS + 1] = {
    MC_CC_TREE_PARAMS,
    [MC_CC_CHUNK] = {"chunk", 0, 0, 1LL << 30,
                     "bytes per MPB chunk for larger messages; 0 = half the "
                     "MPB"},
};

static int resolve(const mc_team_t *t, mc_params_t *p)
{
    p->v[MC_CC_CHUNK] = (int64_t)mc_cc_half_chunk(t, p->v[MC_CC_CHUNK]);
    return MC_OK;
}

const mc_algo_impl_t mc_bcast_cc_tree_algo = {
    .fn = mc_bcast_cc_tree, .params = params, .resolve = resolve,
    .model = MC_MODEL_BCAST_TREE,
};
