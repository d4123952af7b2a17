/* Pushed broadcast and reduction on any tree (tree_push.h). */
#include "coll/mesh.h"
#include "coll/tree_push.h"

/* ---- broadcast ---- */

/* data in the flag line: credit up, one line down */
static int bcast_inline(mc_team_t *c, int parent, int nchild,
                        const int *child, void *buf, size_t n,
                        uint32_t step0)
{
    uint64_t v = mc_flagval(c, step0 + 1);
    int me = c->rank;
    if (parent >= 0) {
        tp_flag_set(c->tp, parent, mc_flag_from(c, 1, me), v);
        MC_CHECK(tp_line_wait(c->tp, me, mc_flag_from(c, 0, parent), v, buf,
                              n));
    }
    for (int i = 0; i < nchild; i++) {
        MC_CHECK(tp_flag_wait(c->tp, me, mc_flag_from(c, 1, child[i]), v));
        tp_line_set(c->tp, child[i], mc_flag_from(c, 0, me), v, buf, n);
    }
    return MC_OK;
}

/* chunk k of the message to every child (the root from its buffer, the
 * others from their own slot) */
static int forward(mc_team_t *c, int parent, int nchild, const int *child,
                   const uint8_t *src, size_t slot, size_t len,
                   uint32_t step0, int k)
{
    int me = c->rank;
    uint64_t v = mc_flagval(c, step0 + 1 + (uint32_t)k);
    for (int i = 0; i < nchild; i++) {
        int ch = child[i];
        /* slot k % 2 of the child is free: credit (k < 2) or ack k-2 */
        MC_CHECK(tp_flag_wait(c->tp, me, mc_flag_from(c, 1, ch), v));
        if (parent < 0)
            MC_CHECK(tp_put(c->tp, ch, slot, src, len));
        else
            MC_CHECK(tp_put_mpb(c->tp, ch, slot, slot, len));
        tp_flag_set(c->tp, ch, mc_flag_from(c, 0, me), v);
    }
    return MC_OK;
}

int mc_push_bcast(mc_team_t *c, const mc_args_t *a, int parent, int nchild,
                  const int *child, size_t chunk_want, uint32_t step0)
{
    size_t n = a->bytes;
    uint8_t *buf = a->rbuf;
    if (n == 0)
        return MC_OK;
    if (n <= tp_line_payload(c->tp))
        return bcast_inline(c, parent, nchild, child, buf, n, step0);
    size_t stride, chunk = mc_mesh_slots(c, 2, chunk_want, &stride);
    int nch = (int)((n + chunk - 1) / chunk), me = c->rank;
    if (parent >= 0) /* both slots free: credit for chunks 0 and 1 */
        tp_flag_set(c->tp, parent, mc_flag_from(c, 1, me),
                    mc_flagval(c, step0 + 2));
    for (int k = 0; k < nch; k++) {
        size_t off = (size_t)k * chunk, slot = (size_t)(k % 2) * stride;
        size_t len = n - off < chunk ? n - off : chunk;
        if (parent >= 0)
            MC_CHECK(tp_flag_wait(c->tp, me, mc_flag_from(c, 0, parent),
                                  mc_flagval(c, step0 + 1 + (uint32_t)k)));
        MC_CHECK(forward(c, parent, nchild, child, buf + off, slot, len,
                         step0, k));
        if (parent < 0)
            continue;
        MC_CHECK(tp_get(c->tp, buf + off, me, slot, len));
        if (k + 2 < nch) /* slot k % 2 is free again */
            tp_flag_set(c->tp, parent, mc_flag_from(c, 1, me),
                        mc_flagval(c, step0 + 3 + (uint32_t)k));
    }
    return MC_OK;
}

/* ---- reduction ---- */

static uint64_t fv(const mc_push_red_t *r, int k)
{
    return mc_flagval(r->c, r->step0 + 1 + (uint32_t)k);
}

void mc_push_red_init(mc_push_red_t *r, mc_team_t *c, const mc_args_t *a,
                      size_t chunk_want, uint32_t step0)
{
    *r = (mc_push_red_t){.c = c, .a = a, .step0 = step0};
    r->inl = a->bytes <= tp_line_payload(c->tp);
    r->chunk = mc_mesh_slots(c, 4, chunk_want, &r->stride);
    r->chunk = r->inl ? a->bytes : r->chunk;
    r->nch = a->bytes ? (int)((a->bytes + r->chunk - 1) / r->chunk) : 0;
}

uint32_t mc_push_red_steps(const mc_team_t *c, size_t bytes,
                           size_t chunk_want)
{
    size_t stride;
    size_t chunk = mc_mesh_slots(c, 4, chunk_want, &stride);
    return (uint32_t)((bytes + chunk - 1) / chunk) + 2;
}

/* receive from up to two senders at once (sides 0 and 1) and combine */
int mc_push_red_receive(mc_push_red_t *r, const int from[2], void *acc)
{
    mc_team_t *c = r->c;
    const mc_args_t *a = r->a;
    int me = c->rank;
    for (int s = 0; s < 2; s++) /* go for chunks 0 and 1 */
        for (int k = 0; k < 2 && k < r->nch && from[s] >= 0; k++)
            tp_flag_set(c->tp, from[s], mc_flag_from(c, 0, me), fv(r, k));
    for (int k = 0; k < r->nch; k++) {
        size_t off = (size_t)k * r->chunk;
        size_t len = a->bytes - off < r->chunk ? a->bytes - off : r->chunk;
        uint8_t *dst = (uint8_t *)acc + off;
        for (int s = 0; s < 2; s++) {
            if (from[s] < 0)
                continue;
            int line = mc_flag_from(c, 1, from[s]);
            if (r->inl) {
                MC_CHECK(tp_line_wait_reduce(c->tp, me, line, fv(r, k), 0,
                                             dst, a->count, a->dt, a->op, 0));
                continue;
            }
            MC_CHECK(tp_flag_wait(c->tp, me, line, fv(r, k)));
            size_t slot = (size_t)(2 * s + k % 2) * r->stride;
            MC_CHECK(tp_get_reduce(c->tp, dst, me, slot, len / a->dsize,
                                   a->dt, a->op, 0));
            if (k + 2 < r->nch)
                tp_flag_set(c->tp, from[s], mc_flag_from(c, 0, me),
                            fv(r, k + 2));
        }
    }
    return MC_OK;
}

/* my partial result to my parent, chunk by chunk as it says go */
int mc_push_red_send(mc_push_red_t *r, int parent, int side, const void *acc)
{
    mc_team_t *c = r->c;
    const mc_args_t *a = r->a;
    int me = c->rank, line = mc_flag_from(c, 1, me);
    for (int k = 0; k < r->nch; k++) {
        size_t off = (size_t)k * r->chunk;
        size_t len = a->bytes - off < r->chunk ? a->bytes - off : r->chunk;
        MC_CHECK(tp_flag_wait(c->tp, me, mc_flag_from(c, 0, parent),
                              fv(r, k)));
        if (r->inl) {
            tp_line_set(c->tp, parent, line, fv(r, k), acc, a->bytes);
            continue;
        }
        size_t slot = (size_t)(2 * side + k % 2) * r->stride;
        MC_CHECK(tp_put(c->tp, parent, slot, (const uint8_t *)acc + off, len));
        tp_flag_set(c->tp, parent, line, fv(r, k));
    }
    return MC_OK;
}

