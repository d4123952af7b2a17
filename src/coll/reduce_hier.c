/*
 * Reduction up the machine's hierarchy (the tree of bcast_hier.c, run
 * backwards): the cores of an L3 combine onto their leader, the L3
 * leaders of a NUMA node onto its leader, and so on to the root, so each
 * partial result crosses a socket or NUMA boundary once:
 *
 *   2 sockets x 2 L3 x 2 cores, root 0:
 *
 *     1 -> 0    3 -> 2    5 -> 4    7 -> 6       (the L3s, at once)
 *          2 -> 0              6 -> 4             (the NUMA nodes)
 *                    4 -> 0                       (the sockets)
 *
 * A parent takes its children two at a time (one slot pair each side)
 * and says "go" to them first, so nothing is pushed into it before it is
 * ready (coll/tree_push.h). The combine order follows the tree, so a
 * non-commutative op, a machine whose hierarchy is not known (MC_BIND
 * unset) or ranks all in one L3 get the binomial reduce (rank order),
 * which the selection runs instead (mc_hier_usable, bcast_hier.c).
 */
#include "coll/mesh.h"
#include "coll/tree_push.h"
#include "sched/hier.h"

#define MAX_CHILDREN 512

enum { P_CHUNK = MC_MESH_CHUNK };

/* my side at my parent: my place among its children, two at a time */
static int side_at(const mc_topo_t *t, int n, int root, int parent, int me)
{
    int pp, child[MAX_CHILDREN];
    int nc = mc_hier_node(n, t->levels, t->ids, t->low, root, parent, &pp,
                          child, MAX_CHILDREN);
    for (int i = 0; i < nc && i < MAX_CHILDREN; i++)
        if (child[i] == me)
            return i % 2;
    return 0;
}

int mc_reduce_hier(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    const mc_topo_t *t = tp_hier(c->tp);
    if (!t)
        return mc_error(MC_ERR_INTERNAL, "reduce:hier: the places are not "
                        "known (the selection runs its fallback then)");
    int parent, child[MAX_CHILDREN], me = c->rank;
    int nc = mc_hier_node(c->size, t->levels, t->ids, t->low, a->root, me,
                          &parent, child, MAX_CHILDREN);
    if (nc > MAX_CHILDREN)
        return mc_error(MC_ERR_UNSUPPORTED, "reduce:hier: rank %d would have "
                        "%d children, at most %d", me, nc, MAX_CHILDREN);
    if (a->bytes == 0)
        return MC_OK;
    mc_push_red_t r;
    mc_push_red_init(&r, c, a, (size_t)p->v[P_CHUNK], 0);
    const void *acc = a->sbuf;
    if (nc > 0) {
        void *work = a->rbuf;
        if (me != a->root)
            MC_CHECK(mc_scratch(c, a->bytes, &work));
        MC_CHECK(tp_copy(c->tp, work, a->sbuf, a->bytes));
        for (int i = 0; i < nc; i += 2) {
            int from[2] = {child[i], i + 1 < nc ? child[i + 1] : -1};
            MC_CHECK(mc_push_red_receive(&r, from, work));
        }
        acc = work;
    }
    if (parent < 0)
        return acc == a->rbuf ? MC_OK : tp_copy(c->tp, a->rbuf, acc, a->bytes);
    return mc_push_red_send(&r, parent,
                            side_at(t, c->size, a->root, parent, me), acc);
}

const mc_algo_impl_t mc_reduce_hier_algo = {
    .fn = mc_reduce_hier, .params = mc_mesh_params_chunk,
    .needs = MC_ALGO_HIER | MC_ALGO_COMMUTATIVE, .usable = mc_hier_usable,
    .fallback = "binomial",
};
