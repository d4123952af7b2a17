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
 * credit that its slots are free); a sender waits for its go, then
 * pushes its partial result into the receiver's slot, or into its flag
 * line if it fits one (coll/tree_push.h):
 *
 *   receiver: for each round: go -> senders; wait data; combine
 *   sender:   receive (if a receiver), wait go, put partial -> receiver
 *
 * Large messages go in chunks through two slots per side. With two cores per tile the tiles' cores first
 * combine onto the tile's leader (coll/mesh.h). The combine order follows
 * the tree, so a non-commutative op, or a communicator that is not a
 * full grid, gets the binomial reduce (rank order): the selection runs it.
 */
#include "coll/mesh.h"
#include "coll/tree_push.h"

enum { P_CHUNK = MC_MESH_CHUNK };

typedef struct red {
    mc_push_red_t push;
    const mc_args_t *a;
    mc_mview_t v;
    int rx, ry, root_tile; /* the root's tile */
} red_t;

static int lead(const red_t *r, int tile)
{
    return tile == r->root_tile ? r->a->root : tile * r->v.cpt + r->v.cpt - 1;
}

/* the tile leader's receptions: its tile's cores, then the mesh rounds */
static int leader_receive(red_t *r, int x, int y, void *acc)
{
    const mc_mview_t *v = &r->v;
    int tile = y * v->W + x, me = r->push.c->rank;
    for (int s = 0; s < v->cpt; s++) {
        int from[2] = {tile * v->cpt + s, -1};
        if (from[0] != me)
            MC_CHECK(mc_push_red_receive(&r->push, from, acc));
    }
    int rounds = mc_mesh_reduce_nrounds(v->W, v->H, r->rx, r->ry);
    for (int j = 0; j < rounds; j++) {
        int from[2];
        if (!mc_mesh_reduce_from(v->W, v->H, r->rx, r->ry, x, y, j, from))
            continue;
        for (int s = 0; s < 2; s++)
            from[s] = from[s] < 0 ? -1 : lead(r, from[s]);
        MC_CHECK(mc_push_red_receive(&r->push, from, acc));
    }
    return MC_OK;
}

static int has_children(const red_t *r, int x, int y)
{
    if (r->v.cpt > 1)
        return 1; /* a leader: its tile's other cores at least */
    return y == r->ry; /* the root's row receives */
}

int mc_reduce_mesh_run(mc_team_t *c, const mc_args_t *a, const mc_params_t *p,
                       uint32_t step0)
{
    red_t r = {.a = a};
    if (!mc_mview(c, &r.v))
        return mc_error(MC_ERR_INTERNAL, "mesh reduction: not a full grid "
                        "(the selection runs a fallback there)");
    if (a->bytes == 0)
        return MC_OK;
    mc_push_red_init(&r.push, c, a, (size_t)p->v[P_CHUNK], step0);
    const mc_mview_t *v = &r.v;
    r.root_tile = a->root / v->cpt;
    r.rx = r.root_tile % v->W, r.ry = r.root_tile / v->W;
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
        return mc_push_red_send(&r.push, lead(&r, tile), 0, acc);
    int pt = mc_mesh_reduce_parent(v->W, v->H, r.rx, r.ry, x, y);
    int px = pt % v->W, py = pt / v->W;
    int side = (x != px ? x > px : y > py);
    return mc_push_red_send(&r.push, lead(&r, pt), side, acc);
}

uint32_t mc_reduce_mesh_steps(const mc_team_t *c, size_t bytes,
                              const mc_params_t *p)
{
    return mc_push_red_steps(c, bytes, (size_t)p->v[P_CHUNK]);
}

int mc_reduce_mesh_2step(mc_team_t *c, const mc_args_t *a,
                         const mc_params_t *p)
{
    return mc_reduce_mesh_run(c, a, p, 0);
}

const mc_algo_impl_t mc_reduce_mesh_2step_algo = {
    .fn = mc_reduce_mesh_2step, .params = mc_mesh_params_chunk,
    .needs = MC_ALGO_GRID | MC_ALGO_COMMUTATIVE, .usable = mc_mesh_usable,
    .fallback = "binomial",
};
