/*
 * Hierarchical reduce. Root r lives on node n_r with local index l_r;
 * "lead" is the local index that talks between nodes: l_r when every node
 * has it (uniform), else 0 (the leaders).
 *
 * Two levels, in segments:
 *
 *   uniform, r = 4 (node 1, l1), 3 nodes x 3:
 *     (1) every node: mc_reduce to l1     node partials on 1, 4, 7
 *     (2) slice 1: prov->reduce 1, 7 --> 4
 *   not uniform, r = 4 (node 1, l1): (1) to l0, (2) leaders to 3, then
 *     (3) node 1: mc_bcast from l0 (manycoll has no point-to-point; the
 *         broadcast is the shortest way from 3 to 4 it offers)
 *
 * Multi-leader, uniform and long (>= par.ml_min_bytes), chunks A B C:
 *     (1) every node: mc_reduce_scatter_block   l0:A  l1:B  l2:C (node sums)
 *     (2) slice j: prov->reduce of chunk j to node 1   3:A 4:B 5:C (totals)
 *     (3) node 1: mc_gather to l1                4: A B C
 *   (the tail of count % L elements goes the two-level way)
 *
 * Order: each node reduces in local order, then the nodes in node order.
 * That is rank order when nodes are blocks of consecutive ranks, which is
 * why non-commutative ops need h->block (mc_hier_supports).
 */
#include "hier/hier_impl.h"

typedef struct red {
    const void *sin; /* this rank's input (rbuf at an in-place root) */
    void *rbuf;      /* the root's output; NULL elsewhere */
    mc_dtype_t dt;
    mc_op_t op;
    int n_r, l_r;
} red_t;

static int two_level_seg(mc_hier_t *h, const red_t *a, size_t off, size_t n,
                         void *tmp)
{
    size_t ds = mc_dtype_size(a->dt), b = off * ds;
    int lead = h->uniform ? a->l_r : 0;
    int on_root_node = h->nodeid == a->n_r;
    int root = a->rbuf != NULL;
    const char *in = hier_at(a->sin, b);
    /* (1) the node's partial goes to lead: the root's output if the root
     * leads, else scratch */
    void *part = (root && h->local == lead) ? hier_at(a->rbuf, b) : tmp;
    const void *s1 = (root && h->local == lead && in == part)
                         ? MC_IN_PLACE : in;
    INTRA(mc_reduce(h->node, s1, h->local == lead ? part : NULL, n, a->dt,
                    a->op, lead),
          "reduce");
    if (h->local == lead)
        INTER(h, h->prov->reduce(h->peers, on_root_node ? MC_IN_PLACE : part,
                                 on_root_node ? part : NULL, n, a->dt,
                                 a->op, a->n_r),
              "reduce");
    /* (3) the root's node, when the root does not lead: lead -> root */
    if (on_root_node && lead != a->l_r)
        INTRA(mc_bcast(h->node, root ? hier_at(a->rbuf, b) : tmp, n, a->dt,
                       lead),
              "bcast from the leader to the root");
    return MC_OK;
}

static int two_level(mc_hier_t *h, const red_t *a, size_t off, size_t count)
{
    size_t ds = mc_dtype_size(a->dt);
    size_t seg = h->par.seg_bytes / ds ? h->par.seg_bytes / ds : 1;
    void *tmp;
    TRY(hier_scratch(h, (count < seg ? count : seg) * ds, &tmp));
    for (size_t i = 0; i < count; i += seg)
        TRY(two_level_seg(h, a, off + i,
                               count - i < seg ? count - i : seg, tmp));
    return MC_OK;
}

static int multi_leader(mc_hier_t *h, const red_t *a, size_t count)
{
    size_t ds = mc_dtype_size(a->dt), q = count / (size_t)h->ppn;
    size_t body = q * (size_t)h->ppn;
    int on_root_node = h->nodeid == a->n_r;
    void *chunk;
    TRY(hier_scratch(h, q * ds, &chunk));
    INTRA(mc_reduce_scatter_block(h->node, a->sin, chunk, q, a->dt, a->op),
          "reduce-scatter");
    INTER(h, h->prov->reduce(h->peers, on_root_node ? MC_IN_PLACE : chunk,
                             on_root_node ? chunk : NULL, q, a->dt, a->op,
                             a->n_r),
          "reduce of a chunk");
    if (on_root_node)
        INTRA(mc_gather(h->node, chunk, a->rbuf, q, a->dt, a->l_r),
              "gather of the chunks");
    if (body < count)
        return two_level(h, a, body, count - body);
    return MC_OK;
}

int mc_hier_reduce(mc_hier_t *h, const void *sbuf, void *rbuf, size_t count,
                   mc_dtype_t dt, mc_op_t op, int root)
{
    if (count == 0)
        return MC_OK;
    if (hier_is_wide(dt, op))
        return hier_wide(h, MC_COLL_REDUCE, sbuf, rbuf, count, dt, op, root);
    red_t a = {.dt = dt, .op = op, .n_r = hier_node_of(h, root),
               .l_r = hier_local_of(h, root)};
    a.rbuf = h->rank == root ? rbuf : NULL;
    a.sin = sbuf == MC_IN_PLACE ? rbuf : sbuf;
    size_t bytes = count * mc_dtype_size(dt);
    if (h->uniform && h->ppn > 1 && count >= (size_t)h->ppn &&
        bytes >= h->par.ml_min_bytes)
        return multi_leader(h, &a, count);
    return two_level(h, &a, 0, count);
}
