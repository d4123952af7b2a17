/*
 * NoCMsg's reduction (Yagna, Patil, Mueller, section 2.4, Fig. 5): two
 * steps whatever the grid size. Step 1: every column reduces onto the
 * root's row (the root's column onto the root); step 2: the root's row
 * onto the root. Messages run straight along a column or the row, one
 * round per distance, the farthest first, the two sides of a receiver
 * together (opposite links), so no two messages of a round share a link:
 *
 *   4x4, root 5:   0   1   2   3      round 0: 12 -> 4, 13 -> 5, 14 -> 6,
 *                  4  [5]  6   7               15 -> 7
 *                  8   9  10  11      round 1: 0, 8 -> 4; 1, 9 -> 5; ...
 *                 12  13  14  15      round 2: 7 -> 5
 *                                     round 3: 4, 6 -> 5
 *
 * A receiver starts a round by sending "go" to the round's senders (the
 * credit that its slots are free: coll/mesh.h); a sender waits for its
 * go, then pushes its partial result into the receiver's slot, or into
 * its flag line if it fits one:
 *
 *   receiver: for each round: go -> senders; wait data; combine
 *   sender:   receive (if a receiver), wait go, put partial -> receiver
 *
 * Large messages go in chunks through two slots per side, go k+2 after
 * chunk k is combined. With two cores per tile the tiles' cores first
 * combine onto the tile's leader (coll/mesh.h). The combine order follows
 * the tree, so a non-commutative op, or a communicator that is not a
 * full grid, gets the binomial reduce (rank order).
 */
#include "coll/mesh.h"

enum { P_CHUNK = 0 };

typedef struct red {
    mc_comm_t *c;
    const mc_args_t *a;
    mc_mview_t v;
    int rx, ry, root_tile; /* the root's tile */
    size_t chunk, stride;
    int nch, inl;          /* chunks; 1 if the data fits a flag line */
    uint32_t step0;
} red_t;

static uint64_t fv(const red_t *r, int k)
{
    return mc_flagval(r->c, r->step0 + 1 + (uint32_t)k);
}

static int lead(const red_t *r, int tile)
{
    return tile == r->root_tile ? r->a->root : tile * r->v.cpt + r->v.cpt - 1;
}

/* receive from up to two senders at once (sides 0 and 1) and combine */
static int receive(red_t *r, const int from[2], void *acc)
{
    mc_comm_t *c = r->c;
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
static int send(red_t *r, int parent, int side, const void *acc)
{
    mc_comm_t *c = r->c;
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

/* the tile leader's receptions: its tile's cores, then the mesh rounds */
static int leader_receive(red_t *r, int x, int y, void *acc)
{
    const mc_mview_t *v = &r->v;
    int tile = y * v->W + x, me = r->c->rank;
    for (int s = 0; s < v->cpt; s++) {
        int from[2] = {tile * v->cpt + s, -1};
        if (from[0] != me)
            MC_CHECK(receive(r, from, acc));
    }
    int rounds = mc_mesh_reduce_nrounds(v->W, v->H, r->rx, r->ry);
    for (int j = 0; j < rounds; j++) {
        int from[2];
        if (!mc_mesh_reduce_from(v->W, v->H, r->rx, r->ry, x, y, j, from))
            continue;
        for (int s = 0; s < 2; s++)
            from[s] = from[s] < 0 ? -1 : lead(r, from[s]);
        MC_CHECK(receive(r, from, acc));
    }
    return MC_OK;
}

static int has_children(const red_t *r, int x, int y)
{
    if (r->v.cpt > 1)
        return 1; /* a leader: its tile's other cores at least */
    return y == r->ry; /* the root's row receives */
}

int mc_reduce_mesh_run(mc_comm_t *c, const mc_args_t *a, const mc_params_t *p,
                       uint32_t step0)
{
    red_t r = {.c = c, .a = a, .step0 = step0};
    mc_mview(c, &r.v);
    if (a->bytes == 0)
        return MC_OK;
    const mc_mview_t *v = &r.v;
    r.root_tile = a->root / v->cpt;
    r.rx = r.root_tile % v->W, r.ry = r.root_tile / v->W;
    r.inl = a->bytes <= tp_line_payload(c->tp);
    r.chunk = mc_mesh_slots(c, 4, (size_t)p->v[P_CHUNK], &r.stride);
    r.chunk = r.inl ? a->bytes : r.chunk;
    r.nch = (int)((a->bytes + r.chunk - 1) / r.chunk);
    int me = c->rank, tile = me / v->cpt, x = tile % v->W, y = tile / v->W;
    int leader = me == lead(&r, tile);
    const void *acc = a->sbuf;
    if (leader && has_children(&r, x, y)) {
        void *work = a->rbuf;
        if (me != a->root)
            MC_CHECK(mc_scratch(c, a->bytes, &work));
        MC_CHECK(tp_copy(c->tp, work, a->sbuf, a->bytes));
        MC_CHECK(leader_receive(&r, x, y, work));
        acc = work;
    }
    if (me == a->root) {
        if (acc != a->rbuf) /* the root is a leaf only on a 1x1 grid */
            MC_CHECK(tp_copy(c->tp, a->rbuf, acc, a->bytes));
        return MC_OK;
    }
    if (!leader) /* to my tile's leader, side 0 */
        return send(&r, lead(&r, tile), 0, acc);
    int pt = mc_mesh_reduce_parent(v->W, v->H, r.rx, r.ry, x, y);
    int px = pt % v->W, py = pt / v->W;
    int side = (x != px ? x > px : y > py);
    return send(&r, lead(&r, pt), side, acc);
}

uint32_t mc_reduce_mesh_steps(const mc_comm_t *c, size_t bytes,
                              const mc_params_t *p)
{
    size_t stride;
    size_t chunk = mc_mesh_slots(c, 4, (size_t)p->v[P_CHUNK], &stride);
    return (uint32_t)((bytes + chunk - 1) / chunk) + 2;
}

int mc_reduce_mesh_2step(mc_comm_t *c, const mc_args_t *a,
                         const mc_params_t *p)
{
    mc_mview_t v;
    if (!mc_mview(c, &v) || !mc_op_commutative(a->op))
        return mc_reduce_binomial(c, a, p);
    return mc_reduce_mesh_run(c, a, p, 0);
}
