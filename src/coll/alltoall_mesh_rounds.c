/*
 * NoCMsg's alltoall (Yagna, Patil, Mueller, section 2.1, Algorithm 1):
 * rounds of exchanges in which no two messages share a link, a barrier
 * after each. Straight rounds first (along X, then along Y), then the
 * diagonal ones (left: X then Y counter-clockwise, right: clockwise);
 * within a distance, the cores of a round are one class modulo the
 * distance (sched/mesh.h draws it). 3x3, rounds=0 (compact):
 *
 *   DR1 a=1     0 <-> 1 <-> 2         every core with both neighbours
 *   DR1 a=2     0 <-> 2               at distance 2: classes 0 (then 1,
 *   DR2 b=1, 2  the same along Y       empty on 3 columns)
 *   LR (1,1)    1 <-> 3, 2 <-> 4, ... (x-1, y+1) and (x+1, y-1)
 *   RR (1,1)    0 <-> 4, 1 <-> 5, ... (x+1, y+1) and (x-1, y-1)
 *   ... 12 rounds for 3x3, 312 for 7x7 (sched/mesh.h counts the modes)
 *
 * An exchange pushes my block into each partner's MPB (put, then its
 * data flag: a UDN send) before waiting for theirs, so the active cores
 * of a row, a chain c, c+a, c+2a, ..., do not wait on each other. Each
 * core has two receive slots per partner (double buffering): a block
 * larger than a slot goes in chunks, chunk k+2 after the receiver
 * acknowledged chunk k.
 *
 *   me                                  partner (both do both sides)
 *   put block chunk k -> its slot    \
 *   flag data k  ------------------->  wait data k, copy out of my slot
 *   wait ack k-2 (before k, k >= 2) <- ack k (if chunk k+2 will come)
 *
 * The barrier ending a round is what makes the slots free for the next
 * round's partners, and one at the start makes them free of the previous
 * call (coll/mesh.h). With two cores per tile (the SCC), a tile round runs
 * once per (sender core, receiver core) pair of slots, one core of each
 * tile sending, so the tile's link still carries one message; a round
 * inside each tile comes first. Parameters: barrier=0 the mesh tree,
 * 1 dissemination; rounds=0 compact, 1 every class modulo the distance,
 * 2 Algorithm 1 as printed (one round per distance, not contention-free);
 * maxtiles: the largest grid that runs in rounds. The rounds grow as
 * P^2 / 8 on a square grid (7x7: 312, 16x16: 8,320, 32x32: 131,584), each
 * with a barrier, so on larger grids -- and communicators that are not a
 * full grid -- the selection runs pairwise exchange, with its own
 * parameters.
 */
#include "coll/mesh.h"

enum { P_BARRIER = 0, P_ROUNDS = 1, P_CHUNK = 2, P_MAXTILES = 3 };

typedef struct a2a {
    mc_team_t *c;
    const uint8_t *in;
    uint8_t *out;
    size_t b, chunk, stride;
    int nch;
    uint32_t base; /* flag step of the round's chunk 0 */
} a2a_t;

/* One exchange: to[i] gets my block in its slot for partner 1 - i, I
 * receive from from[j] into my slot for partner j (-1: nobody). */
static int exchange(a2a_t *x, const int to[2], const int from[2])
{
    mc_team_t *c = x->c;
    int me = c->rank;
    for (int k = 0; k < x->nch; k++) {
        size_t off = (size_t)k * x->chunk;
        size_t len = x->b - off < x->chunk ? x->b - off : x->chunk;
        uint64_t v = mc_flagval(c, x->base + (uint32_t)k);
        for (int i = 0; i < 2; i++) {
            if (to[i] < 0)
                continue;
            if (k >= 2) /* the slot's previous chunk is out */
                MC_CHECK(tp_flag_wait(c->tp, me, mc_flag_from(c, 1, to[i]),
                                      mc_flagval(c, x->base + (uint32_t)k - 2)));
            size_t slot = (size_t)(2 * (1 - i) + k % 2) * x->stride;
            MC_CHECK(tp_put(c->tp, to[i], slot,
                            x->in + (size_t)to[i] * x->b + off, len));
            tp_flag_set(c->tp, to[i], mc_flag_from(c, 0, me), v);
        }
        for (int j = 0; j < 2; j++) {
            if (from[j] < 0)
                continue;
            MC_CHECK(tp_flag_wait(c->tp, me, mc_flag_from(c, 0, from[j]), v));
            size_t slot = (size_t)(2 * j + k % 2) * x->stride;
            MC_CHECK(tp_get(c->tp, x->out + (size_t)from[j] * x->b + off, me,
                            slot, len));
            if (k + 2 < x->nch)
                tp_flag_set(c->tp, from[j], mc_flag_from(c, 1, me), v);
        }
    }
    return MC_OK;
}

static int barrier(a2a_t *x, const mc_mview_t *v, const mc_params_t *p)
{
    uint32_t step = x->base + (uint32_t)x->nch;
    x->base = step + 1;
    return p->v[P_BARRIER] ? mc_mesh_barrier_dissem(x->c, step)
                           : mc_mesh_barrier(x->c, v, MC_MTREE_COLFIRST, step);
}

/* one tile round: for each pair of slots (sa sends, sb receives) */
static int tile_round(a2a_t *x, const mc_mview_t *v, const mc_a2a_round_t *r,
                      const mc_params_t *p)
{
    int pt[2], cpt = v->cpt;
    mc_a2a_partners(v->W, v->H, r, v->x, v->y, pt);
    for (int sa = 0; sa < cpt; sa++)
        for (int sb = 0; sb < cpt; sb++) {
            int to[2] = {-1, -1}, from[2] = {-1, -1};
            for (int i = 0; i < 2; i++) {
                if (pt[i] < 0)
                    continue;
                if (v->slot == sa)
                    to[i] = pt[i] * cpt + sb;
                if (v->slot == sb)
                    from[i] = pt[i] * cpt + sa;
            }
            MC_CHECK(exchange(x, to, from));
            MC_CHECK(barrier(x, v, p));
        }
    return MC_OK;
}

/* the cores of a tile among themselves: shift s, core i -> i + s */
static int local_rounds(a2a_t *x, const mc_mview_t *v, const mc_params_t *p)
{
    int tile0 = x->c->rank - v->slot, cpt = v->cpt;
    for (int s = 1; s < cpt; s++) {
        int to[2] = {-1, tile0 + (v->slot + s) % cpt};
        int from[2] = {tile0 + (v->slot - s + cpt) % cpt, -1};
        MC_CHECK(exchange(x, to, from));
        MC_CHECK(barrier(x, v, p));
    }
    return MC_OK;
}

int mc_alltoall_mesh_rounds(mc_team_t *c, const mc_args_t *a,
                            const mc_params_t *p)
{
    mc_mview_t v;
    if (!mc_mview(c, &v))
        return mc_error(MC_ERR_INTERNAL, "alltoall:mesh-rounds: not a full "
                        "grid (the selection runs its fallback there)");
    a2a_t x = {.c = c, .in = a->sbuf, .out = a->rbuf, .b = a->bytes};
    MC_CHECK(tp_copy(c->tp, x.out + (size_t)c->rank * x.b,
                     x.in + (size_t)c->rank * x.b, x.b));
    if (x.b == 0 || c->size == 1)
        return MC_OK;
    x.chunk = mc_mesh_slots(c, 4, (size_t)p->v[P_CHUNK], &x.stride);
    x.nch = (int)((x.b + x.chunk - 1) / x.chunk);
    MC_CHECK(barrier(&x, &v, p)); /* every slot is free of the last call */
    MC_CHECK(local_rounds(&x, &v, p));
    mc_a2a_iter_t it;
    for (mc_a2a_begin(&it, v.W, v.H, (int)p->v[P_ROUNDS]); mc_a2a_next(&it);)
        MC_CHECK(tile_round(&x, &v, &it.r, p));
    return MC_OK;
}

static const mc_param_desc_t params[] = {
    [P_BARRIER] = {"barrier", 0, 0, 1,
                   "barrier after each round: 0 the mesh tree, 1 "
                   "dissemination"},
    [P_ROUNDS] = {"rounds", 0, 0, 2,
                  "0: classes modulo the distance that have pairs; 1: every "
                  "class; 2: one round per distance (Algorithm 1 as "
                  "printed, not contention-free)"},
    [P_CHUNK] = MC_MESH_CHUNK_PARAM,
    [P_MAXTILES] = {"maxtiles", 64, 0, 1 << 20,
                    "largest grid (tiles) run in rounds, which grow as "
                    "P^2/8; larger ones run pairwise exchange; 0 = any"},
    {NULL, 0, 0, 0, NULL},
};

/* a full grid of at most maxtiles tiles */
static int usable(const mc_team_t *t, const mc_params_t *p, const char **why)
{
    mc_mview_t v;
    if (!mc_mesh_usable(t, p, why))
        return 0;
    mc_mview(t, &v);
    *why = p->v[P_MAXTILES] && v.W * v.H > p->v[P_MAXTILES]
               ? "more tiles than its maxtiles"
               : NULL;
    return *why == NULL;
}

const mc_algo_impl_t mc_alltoall_mesh_rounds_algo = {
    .fn = mc_alltoall_mesh_rounds, .params = params,
    .needs = MC_ALGO_GRID, .usable = usable, .fallback = "pairwise",
};
