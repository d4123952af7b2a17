/*
 * NoCMsg's broadcast (Yagna, Patil, Mueller, section 2.3, Fig. 4): a
 * column-first tree rooted at the broadcaster, every edge one mesh link.
 * The root's column receives along Y and relays East, West and on; every
 * other core receives along its row and relays away from the root's
 * column. No two messages of the broadcast share a link.
 *
 *   4x4, root 5:      0 <--  1  --> 2 --> 3
 *                            ^
 *                     4 <-- [5] --> 6 --> 7      depth of a core = its
 *                            v                   hops to the root
 *                     8 <--  9  --> 10 --> 11
 *                            v
 *                    12 <-- 13  --> 14 --> 15
 *
 * sn=1, where the chip has a static network (tp->mcast: the simulated
 * tilepro64), is the paper's version: each core configures its route and
 * the routers forward with no software (transport op mcast). Otherwise
 * (sn=0, or no static network) the cores forward, pushing into their
 * children as a UDN send would:
 *
 *   child                              parent
 *   credit (its line at the parent) -> wait credit      (ready: see mesh.h)
 *                                      put chunk k -> child's slot k % 2
 *   wait data flag k  <--------------  flag k (its line at the child)
 *   forward chunk k to own children, copy it out,
 *   ack k (frees slot k % 2) -------> wait ack k before chunk k+2
 *
 * A message that fits a flag line rides in the line (one packet).
 * With two cores per tile the tree runs over tiles (coll/mesh.h). Not a
 * full grid: the binomial broadcast.
 */
#include "coll/mesh.h"

enum { P_CHUNK = 0, P_SN = 1 };

/* data in the flag line: credit up, one line down */
static int bcast_inline(mc_comm_t *c, const mc_mtree_t *nd, void *buf,
                        size_t n, uint32_t step0)
{
    uint64_t v = mc_flagval(c, step0 + 1);
    int me = c->rank;
    if (nd->parent >= 0) {
        tp_flag_set(c->tp, nd->parent, mc_flag_from(c, 1, me), v);
        MC_CHECK(tp_line_wait(c->tp, me, mc_flag_from(c, 0, nd->parent), v,
                              buf, n));
    }
    for (int i = 0; i < nd->nchildren; i++) {
        int ch = nd->child[i];
        MC_CHECK(tp_flag_wait(c->tp, me, mc_flag_from(c, 1, ch), v));
        tp_line_set(c->tp, ch, mc_flag_from(c, 0, me), v, buf, n);
    }
    return MC_OK;
}

/* chunk k of the message to every child (the root from its buffer, the
 * others from their own slot) */
static int forward(mc_comm_t *c, const mc_mtree_t *nd, const uint8_t *src,
                   size_t slot, size_t len, uint32_t step0, int k)
{
    int me = c->rank;
    uint64_t v = mc_flagval(c, step0 + 1 + (uint32_t)k);
    for (int i = 0; i < nd->nchildren; i++) {
        int ch = nd->child[i];
        /* slot k % 2 of the child is free: credit (k < 2) or ack k-2 */
        MC_CHECK(tp_flag_wait(c->tp, me, mc_flag_from(c, 1, ch), v));
        if (nd->parent < 0)
            MC_CHECK(tp_put(c->tp, ch, slot, src, len));
        else
            MC_CHECK(tp_put_mpb(c->tp, ch, slot, slot, len));
        tp_flag_set(c->tp, ch, mc_flag_from(c, 0, me), v);
    }
    return MC_OK;
}

int mc_bcast_mesh_run(mc_comm_t *c, const mc_args_t *a, const mc_params_t *p,
                      uint32_t step0)
{
    mc_mview_t mv;
    mc_mview(c, &mv);
    size_t n = a->bytes;
    uint8_t *buf = a->rbuf;
    if (n == 0)
        return MC_OK;
    if (p->v[P_SN] && c->tp->mcast)
        return tp_mcast(c->tp, a->root, buf, n);
    mc_mtree_t nd;
    mc_mview_tree(&mv, MC_MTREE_COLFIRST, a->root, c->rank, &nd);
    if (n <= tp_line_payload(c->tp))
        return bcast_inline(c, &nd, buf, n, step0);
    size_t stride, chunk = mc_mesh_slots(c, 2, (size_t)p->v[P_CHUNK], &stride);
    int nch = (int)((n + chunk - 1) / chunk), me = c->rank;
    if (nd.parent >= 0) /* both slots free: credit for chunks 0 and 1 */
        tp_flag_set(c->tp, nd.parent, mc_flag_from(c, 1, me),
                    mc_flagval(c, step0 + 2));
    for (int k = 0; k < nch; k++) {
        size_t off = (size_t)k * chunk, slot = (size_t)(k % 2) * stride;
        size_t len = n - off < chunk ? n - off : chunk;
        if (nd.parent >= 0)
            MC_CHECK(tp_flag_wait(c->tp, me, mc_flag_from(c, 0, nd.parent),
                                  mc_flagval(c, step0 + 1 + (uint32_t)k)));
        MC_CHECK(forward(c, &nd, buf + off, slot, len, step0, k));
        if (nd.parent < 0)
            continue;
        MC_CHECK(tp_get(c->tp, buf + off, me, slot, len));
        if (k + 2 < nch) /* slot k % 2 is free again */
            tp_flag_set(c->tp, nd.parent, mc_flag_from(c, 1, me),
                        mc_flagval(c, step0 + 3 + (uint32_t)k));
    }
    return MC_OK;
}

int mc_bcast_mesh_tree(mc_comm_t *c, const mc_args_t *a, const mc_params_t *p)
{
    mc_mview_t mv;
    if (!mc_mview(c, &mv))
        return mc_bcast_binomial(c, a, p);
    return mc_bcast_mesh_run(c, a, p, 0);
}
