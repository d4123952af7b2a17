/*
 * OC-Bcast (Petrovic, Shahmirzadi, Ropars, Schiper, SPAA'12, section 4):
 * a pipelined k-ary tree broadcast on one-sided gets from the parent's MPB.
 *
 * Propagation tree over vranks (root = 0): the children of v are v*k+1 ..
 * v*k+k. P = 12, k = 7:
 *
 *                    0
 *      1   2   3   4   5   6   7        all get from 0's MPB at once
 *   8 9 10 11                           get from 1's MPB
 *
 * Notification: a parent does not raise k flags itself; its children form
 * a binary tree by position (the parent notifies positions 0 and 1,
 * position j notifies 2j+2 and 2j+3), so k notifications take log2 k
 * steps:            parent
 *                   /    \
 *                 p0      p1
 *                /  \    /  \
 *              p2   p3  p4   p5   p6 <- p2 ...
 *
 * Pipelining: the message goes in chunks (96 cache lines by default on a
 * chip with MPBs, as in the paper) through two chunk buffers per MPB
 * (double buffering). For chunk i, buffer i % 2:
 *
 *   root:   wait done[j] >= i-1 for its children (chunk i-2 left buffer)
 *           put chunk i: private memory -> own MPB
 *           notify positions 0, 1
 *   child:  wait notify >= i; forward to positions 2p+2, 2p+3
 *           if it has children: wait their done >= i-1
 *           get chunk i: parent's MPB -> own MPB      (leafdirect leaf:
 *           raise done[p] in the parent's flags         parent's MPB ->
 *           notify its own children 0, 1                private memory)
 *           get chunk i: own MPB -> private memory
 *   end:    a parent waits for its children's last done before returning
 *
 * Flags: "notify" is the line of my notification parent (the tree parent
 * for positions 0 and 1, else the sibling at position (p-2)/2), "done" the
 * line of each child, in my flags (one writer per line, rule 4 of
 * tp/tp.h). Values are mc_flagval(c, i + 1), so they only grow.
 *
 * Parameters: k (0 = automatic: 7 on a chip with MPBs, as the paper chose;
 * min(P-1, 8) on a cache-coherent machine, where children read the
 * parent's MPB straight from its cache); chunk in bytes (0 = automatic:
 * 96 lines, at most half the MPB); leafdirect (the paper's suggested
 * option: leaves get straight into private memory; 2 = automatic, on for
 * cache-coherent transports).
 */
#include "coll/coll.h"
#include "sched/sched.h"

enum { P_K = 0, P_CHUNK, P_LEAFDIRECT, P_COUNT };

static const mc_param_desc_t params[P_COUNT + 1] = {
    [P_K] = {"k", 0, 0, 1 << 20,
             "tree fan-out; 0 = automatic (7 with MPBs, min(P-1, 8) "
             "cache-coherent)"},
    [P_CHUNK] = {"chunk", 0, 0, 1LL << 30,
                 "bytes per pipelined chunk (K/M suffixes); 0 = automatic "
                 "(96 lines, at most half the MPB)"},
    [P_LEAFDIRECT] = {"leafdirect", 2, 0, 2,
                      "leaves get straight into private memory: 0 no, 1 "
                      "yes, 2 automatic (yes when cache-coherent)"},
};

typedef struct ocb {
    mc_team_t *c;
    int k, v, pos, parent;   /* parent as a rank, -1 at the root */
    int notifier;            /* rank whose line notifies me */
    int first, nch;          /* my children: vranks first .. first+nch-1 */
    int sib_first, nsib;     /* my parent's children (my siblings) */
    int leafdirect;
    size_t chunk;
} ocb_t;

static int rank_of(const ocb_t *o, const mc_args_t *a, int vrank)
{
    return mc_unvrank(vrank, a->root, o->c->size);
}

/* raises the notify flag of the children at positions of a binary
 * notification tree below `pos` (-1: the parent itself) */
static void notify(const ocb_t *o, const mc_args_t *a, int first, int count,
                   int pos, uint64_t val)
{
    int to[2], n = mc_sched_notify_children(pos, count, to);
    for (int j = 0; j < n; j++)
        tp_flag_set(o->c->tp, rank_of(o, a, first + to[j]),
                    mc_flag_from(o->c, 0, o->c->rank), val);
}

/* waits until every child has taken the chunk whose flag value is val */
static int wait_children(const ocb_t *o, const mc_args_t *a, uint64_t val)
{
    for (int j = 0; j < o->nch; j++)
        MC_CHECK(tp_flag_wait(o->c->tp, o->c->rank,
                              mc_flag_from(o->c, 0, rank_of(o, a, o->first + j)),
                              val));
    return MC_OK;
}

static int root_chunk(const ocb_t *o, const mc_args_t *a, int i,
                      size_t off, size_t len)
{
    mc_team_t *c = o->c;
    size_t b = (size_t)(i % 2) * o->chunk;
    if (i >= 2)
        MC_CHECK(wait_children(o, a, mc_flagval(c, (uint32_t)(i - 1))));
    MC_CHECK(tp_put(c->tp, c->rank, b, (char *)a->rbuf + off, len));
    notify(o, a, o->first, o->nch, -1, mc_flagval(c, (uint32_t)(i + 1)));
    return MC_OK;
}

static int child_chunk(const ocb_t *o, const mc_args_t *a, int i,
                       size_t off, size_t len)
{
    mc_team_t *c = o->c;
    size_t b = (size_t)(i % 2) * o->chunk;
    uint64_t val = mc_flagval(c, (uint32_t)(i + 1));
    char *dst = (char *)a->rbuf + off;
    MC_CHECK(tp_flag_wait(c->tp, c->rank, mc_flag_from(c, 0, o->notifier),
                          val));
    notify(o, a, o->sib_first, o->nsib, o->pos, val);
    if (o->nch == 0 && o->leafdirect) {
        MC_CHECK(tp_get(c->tp, dst, o->parent, b, len));
        tp_flag_set(c->tp, o->parent, mc_flag_from(c, 0, c->rank), val);
        return MC_OK;
    }
    if (o->nch > 0 && i >= 2)
        MC_CHECK(wait_children(o, a, mc_flagval(c, (uint32_t)(i - 1))));
    MC_CHECK(tp_get_mpb(c->tp, b, o->parent, b, len));
    tp_flag_set(c->tp, o->parent, mc_flag_from(c, 0, c->rank), val);
    notify(o, a, o->first, o->nch, -1, val);
    return tp_get(c->tp, dst, c->rank, b, len);
}

/* the automatic choices (see the comment at the top) */
static void configure(ocb_t *o, const mc_team_t *comm, const mc_params_t *p)
{
    mc_tp_t *tp = comm->tp;
    int n = comm->size, cc = tp->cache_coherent;
    int k = (int)p->v[P_K];
    if (k == 0)
        k = cc ? (n - 1 < 8 ? n - 1 : 8) : 7;
    o->k = k < 1 ? 1 : (k > n - 1 ? n - 1 : k);
    size_t line = tp->line, chunk = (size_t)p->v[P_CHUNK];
    if (chunk == 0)
        chunk = cc ? comm->mpb.avail / 2 : 96 * line;
    if (chunk > comm->mpb.avail / 2)
        chunk = comm->mpb.avail / 2;
    chunk = chunk / line * line;
    o->chunk = chunk < line ? line : chunk;
    o->leafdirect = p->v[P_LEAFDIRECT] == 2 ? cc : (int)p->v[P_LEAFDIRECT];
}

/* the automatic k, chunk and leafdirect on team c */
static int resolve(const mc_team_t *c, mc_params_t *p)
{
    ocb_t o;
    configure(&o, c, p);
    p->v[P_K] = o.k;
    p->v[P_CHUNK] = (int64_t)o.chunk;
    p->v[P_LEAFDIRECT] = o.leafdirect;
    return MC_OK;
}

int mc_bcast_ocbcast(mc_team_t *c, const mc_args_t *a, const mc_params_t *p)
{
    int n = c->size;
    if (n == 1)
        return MC_OK;
    ocb_t o = {.c = c, .v = mc_vrank(c->rank, a->root, n)};
    configure(&o, c, p);
    o.nch = mc_sched_kary_children(o.v, n, o.k, &o.first);
    if (o.v > 0) {
        int pv = mc_sched_kary_parent(o.v, o.k);
        o.parent = mc_unvrank(pv, a->root, n);
        o.nsib = mc_sched_kary_children(pv, n, o.k, &o.sib_first);
        o.pos = o.v - o.sib_first;
        o.notifier = o.pos < 2 ? o.parent
                               : mc_unvrank(o.sib_first + (o.pos - 2) / 2,
                                            a->root, n);
    }
    size_t nchunks = (a->bytes + o.chunk - 1) / o.chunk;
    for (size_t i = 0; i < nchunks; i++) {
        size_t off = i * o.chunk;
        size_t len = a->bytes - off < o.chunk ? a->bytes - off : o.chunk;
        MC_CHECK(o.v == 0 ? root_chunk(&o, a, (int)i, off, len)
                          : child_chunk(&o, a, (int)i, off, len));
    }
    /* my MPB is free once every child has its last chunk */
    return wait_children(&o, a, mc_flagval(c, (uint32_t)nchunks));
}

const mc_algo_impl_t mc_bcast_ocbcast_algo = {
    .fn = mc_bcast_ocbcast, .params = params, .resolve = resolve,
};
