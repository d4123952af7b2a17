/*
 * Whole-broadcast models on the put/get model of ocbmodel.c: the library's
 * three broadcasts, step by step, with every data movement, flag write and
 * poll priced by formulas 1-12.
 *
 * Each rank has a clock. An operation advances its rank's clock by its
 * completion time; a flag write also records when the flag lands (its
 * latency); a wait is max(clock, landed) + one poll (a waiter sees a flag
 * one poll after it lands; a poll of a flag already set costs one poll).
 * Ranks are visited in an order that respects every dependency (parents
 * before children; within a ring step, the transfers that are both ends'
 * first operation, then the others), so one pass gives every rank's
 * return time. This
 * is the critical-path (max-plus) evaluation of the LogP model, without
 * contention: in layout mode it reproduces `manycoll sim --contention none`.
 *
 *   binomial            mc_sched_bisect tree; an edge = mc_p2p_send/recv
 *   scatter-allgather   scatter of balanced slices on the same tree, then
 *                       P-1 ring steps of mc_p2p_exchange (RCCE_comm's
 *                       blocking send and receive, by parity)
 *   ocbcast             k-ary tree, binary notification trees, chunks
 *                       through two MPB buffers (bcast_ocbcast.c)
 */
#include <math.h>
#include <stdlib.h>

#include "model/ocbmodel.h"
#include "sched/sched.h"
#include "util/error.h"

typedef struct ev {
    const mc_platform_t *p;
    const mc_ocb_cfg_t *c;
    int n;
    mc_ps_t *t;    /* clock of each vrank */
    mc_ps_t *note; /* OC-Bcast: when the notify flag of the chunk lands */
    mc_ps_t *done; /* OC-Bcast: done flags of chunks i, i-1: [2 v + i % 2] */
    mc_ps_t *x, *y; /* ring: sent / ready of the current sub-step */
} ev_t;

static int core(const ev_t *e, int v)
{
    return mc_unvrank(v, e->c->root, e->n);
}

/* routers from vrank a to the MPB of vrank b */
static int dist(const ev_t *e, int a, int b)
{
    if (e->c->mode == MC_OCB_PAPER)
        return 1;
    return mc_plat_dist(e->p, core(e, a), core(e, b));
}

/* routers from vrank a to its memory controller */
static int dmem(const ev_t *e, int a)
{
    return e->c->mode == MC_OCB_PAPER ? 1 : e->p->d_mem[core(e, a)];
}

static long lines(const ev_t *e, size_t n)
{
    return (long)((n + (size_t)e->p->line - 1) / (size_t)e->p->line);
}

/* v raises a flag in the area of `owner`; returns when it lands there */
static mc_ps_t flag(ev_t *e, int v, int owner)
{
    int d = dist(e, v, owner), dm = dmem(e, v);
    mc_ps_t land = e->t[v] + mc_ocb_flag_lat(e->p, d, dm);
    e->t[v] += mc_ocb_flag_cost(e->p, d, dm);
    return land;
}

/* v waits for a flag of its own area that lands at `land` */
static void wait(ev_t *e, int v, mc_ps_t land)
{
    if (land > e->t[v])
        e->t[v] = land;
    e->t[v] += mc_ocb_poll_cost(e->p, dist(e, v, v), dmem(e, v));
}

/* ---- two-sided send/receive (src/coll/p2p.c) ---- */

/* the sender puts a chunk into its own MPB (8) and raises "sent" */
static mc_ps_t post(ev_t *e, int s, int r, size_t len)
{
    e->t[s] += mc_ocb_cput_mem(e->p, lines(e, len), dmem(e, s), dist(e, s, s));
    return flag(e, s, r);
}

/* the receiver waits for "sent", gets the chunk (12), raises "ready" */
static mc_ps_t recv(ev_t *e, int r, int s, size_t len, mc_ps_t sent)
{
    wait(e, r, sent);
    e->t[r] += mc_ocb_cget_mem(e->p, lines(e, len), dist(e, r, s), dmem(e, r));
    return flag(e, r, s);
}

/* mc_p2p_send(s -> r) with its matching mc_p2p_recv: chunk by chunk,
 * each synchronous */
static void send(ev_t *e, int s, int r, size_t n)
{
    size_t ch = e->c->p2p_chunk;
    for (size_t off = 0; off < n; off += ch) {
        size_t len = n - off < ch ? n - off : ch;
        mc_ps_t sent = post(e, s, r, len);
        wait(e, s, recv(e, r, s, len, sent));
    }
}

static void binomial(ev_t *e, size_t bytes)
{
    /* a parent has a smaller vrank than its children, and a rank receives
     * before it sends: increasing vranks is a valid order */
    for (int v = 0; v < e->n; v++) {
        mc_bisect_t b;
        mc_sched_bisect(v, e->n, &b);
        for (int i = 0; i < b.nchildren; i++)
            send(e, v, b.child[i], bytes);
    }
}

/* bytes of slices [lo, hi) */
static size_t span(size_t bytes, int n, int lo, int hi)
{
    return mc_block_start(bytes, n, hi) - mc_block_start(bytes, n, lo);
}

/* ring step s of the library (mc_p2p_exchange): T_v = vrank v sends
 * slice v+s to v-1 with RCCE's blocking send and receive; even vranks
 * send first, then receive from v+1; odd vranks the other way round.
 * T_v is the first operation of both its ends when v is even, except T_0
 * on an odd ring (its receiver n-1 is even and sends first), and the
 * second one of both ends otherwise. */
static void ring_step(ev_t *e, size_t bytes, int s)
{
    int n = e->n;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1 && n % 2)
            send(e, 0, n - 1, span(bytes, n, s % n, s % n + 1));
        for (int v = pass; v < n; v += 2) {
            int out = (v + s) % n;
            if (v > 0 || n % 2 == 0)
                send(e, v, (v + n - 1) % n, span(bytes, n, out, out + 1));
        }
    }
}

/* model only (cfg.sag_overlap): the library's earlier ring of
 * mc_p2p_sendrecv, vrank v sending slice v-s to v+1 while receiving from
 * v-1. One sub-step (chunk offset off) of step s: every rank posts, then
 * receives from the left, then waits for the right's acknowledgement. */
static void ring_substep(ev_t *e, size_t bytes, int s, size_t off)
{
    int n = e->n;
    size_t ch = e->c->p2p_chunk;
    for (int v = 0; v < n; v++) {
        size_t sn = span(bytes, n, (v - s + n) % n, (v - s + n) % n + 1);
        if (off < sn)
            e->x[v] = post(e, v, (v + 1) % n, sn - off < ch ? sn - off : ch);
    }
    for (int v = 0; v < n; v++) {
        int in = (v - s - 1 + 2 * n) % n, left = (v + n - 1) % n;
        size_t rn = span(bytes, n, in, in + 1);
        if (off < rn)
            e->y[v] = recv(e, v, left, rn - off < ch ? rn - off : ch,
                           e->x[left]);
    }
    for (int v = 0; v < n; v++) {
        size_t sn = span(bytes, n, (v - s + n) % n, (v - s + n) % n + 1);
        if (off < sn)
            wait(e, v, e->y[(v + 1) % n]);
    }
}

static void scatter_allgather(ev_t *e, size_t bytes)
{
    int n = e->n;
    for (int v = 0; v < n; v++) {
        mc_bisect_t b;
        mc_sched_bisect(v, n, &b);
        for (int i = 0; i < b.nchildren; i++)
            send(e, v, b.child[i],
                 span(bytes, n, b.child[i], b.child_hi[i]));
    }
    size_t biggest = mc_block_len(bytes, n, 0);
    for (int s = 0; s < n - 1; s++) {
        if (!e->c->sag_overlap) {
            ring_step(e, bytes, s);
            continue;
        }
        for (size_t off = 0; off < biggest; off += e->c->p2p_chunk)
            ring_substep(e, bytes, s, off);
    }
}

/* ---- OC-Bcast (src/coll/bcast_ocbcast.c) ---- */

typedef struct node {
    int v, first, nch;     /* children first .. first + nch - 1 */
    int parent, pos;       /* -1 at the root */
    int sib_first, nsib;
} node_t;

static node_t node_of(const ev_t *e, int v)
{
    node_t d = {.v = v, .parent = -1, .pos = -1};
    d.nch = mc_sched_kary_children(v, e->n, e->c->k, &d.first);
    if (v > 0) {
        d.parent = mc_sched_kary_parent(v, e->c->k);
        d.nsib = mc_sched_kary_children(d.parent, e->n, e->c->k,
                                        &d.sib_first);
        d.pos = v - d.sib_first;
    }
    return d;
}

/* d.v raises the notify flags of positions below `pos` among the `count`
 * children starting at `first` (binary notification tree) */
static void notify(ev_t *e, const node_t *d, int first, int count, int pos)
{
    int to[2], k = mc_sched_notify_children(pos, count, to);
    for (int j = 0; j < k; j++)
        e->note[first + to[j]] = flag(e, d->v, first + to[j]);
}

/* d.v waits until each child has taken the chunk of parity `par` */
static void wait_children(ev_t *e, const node_t *d, int par)
{
    for (int j = 0; j < d->nch; j++)
        wait(e, d->v, e->done[2 * (d->first + j) + par]);
}

static void ocb_chunk(ev_t *e, const node_t *d, long i, size_t len)
{
    int v = d->v, par = (int)(i % 2);
    long m = lines(e, len);
    if (v == 0) {
        if (i >= 2)
            wait_children(e, d, par);
        e->t[v] += mc_ocb_cput_mem(e->p, m, dmem(e, v), dist(e, v, v));
        notify(e, d, d->first, d->nch, -1);
        return;
    }
    wait(e, v, e->note[v]);
    notify(e, d, d->sib_first, d->nsib, d->pos);
    if (d->nch == 0 && e->c->leafdirect) {
        e->t[v] += mc_ocb_cget_mem(e->p, m, dist(e, v, d->parent), dmem(e, v));
        e->done[2 * v + par] = flag(e, v, d->parent);
        return;
    }
    if (d->nch > 0 && i >= 2)
        wait_children(e, d, par);
    e->t[v] += mc_ocb_cget_mpb(e->p, m, dist(e, v, d->parent));
    e->done[2 * v + par] = flag(e, v, d->parent);
    notify(e, d, d->first, d->nch, -1);
    e->t[v] += mc_ocb_cget_mem(e->p, m, dist(e, v, v), dmem(e, v));
}

static void ocbcast(ev_t *e, size_t bytes)
{
    size_t ch = e->c->chunk;
    long nchunks = (long)((bytes + ch - 1) / ch);
    if (e->n == 1)
        return;
    /* within a chunk, notifiers (parents, lower positions) and the
     * children a parent waits for (chunk i-2) come first in vrank order */
    for (long i = 0; i < nchunks; i++) {
        size_t off = (size_t)i * ch;
        size_t len = bytes - off < ch ? bytes - off : ch;
        for (int v = 0; v < e->n; v++) {
            node_t d = node_of(e, v);
            ocb_chunk(e, &d, i, len);
        }
    }
    for (int v = 0; v < e->n; v++) {
        node_t d = node_of(e, v);
        wait_children(e, &d, (int)((nchunks - 1) % 2));
    }
}

/* ---- configuration and results ---- */

int mc_ocb_resolve(const mc_platform_t *p, mc_ocb_cfg_t *c)
{
    if (c->ranks == 0)
        c->ranks = p->ncores;
    if (c->ranks < 1 || c->ranks > p->ncores)
        return mc_error(MC_ERR_ARG, "ranks: %d, platform %s has %d cores",
                        c->ranks, p->name, p->ncores);
    if (c->root < 0 || c->root >= c->ranks)
        return mc_error(MC_ERR_ARG, "root: %d is not a rank of %d", c->root,
                        c->ranks);
    if (c->k < 0 || c->leafdirect < 0 || c->leafdirect > 2)
        return mc_error(MC_ERR_ARG, "k: %d / leafdirect: %d out of range "
                        "(k >= 0, leafdirect 0-2)", c->k, c->leafdirect);
    size_t line = (size_t)p->line, mpb = p->mpb_bytes;
    int k = c->k ? c->k : 7; /* the library's choice on a chip with MPBs */
    c->k = c->ranks < 2 ? 1 : (k > c->ranks - 1 ? c->ranks - 1 : k);
    size_t ch = c->chunk ? c->chunk : 96 * line;
    ch = ch > mpb / 2 ? mpb / 2 : ch;
    ch = ch / line * line;
    c->chunk = ch < line ? line : ch;
    c->leafdirect = c->leafdirect == 2 ? 0 : c->leafdirect; /* not coherent */
    size_t p2p = c->p2p_chunk ? c->p2p_chunk : p->p2p_chunk / 8 * 8;
    c->p2p_chunk = (p2p == 0 || p2p > mpb / 8 * 8) ? mpb / 8 * 8 : p2p;
    if (c->p2p_chunk == 0)
        return mc_error(MC_ERR_ARG, "p2p_chunk: platform %s has no MPB",
                        p->name);
    return MC_OK;
}

static void summarize(const ev_t *e, size_t bytes, mc_ocb_result_t *r)
{
    double lo = 1e300, hi = 0, sum = 0, sq = 0;
    for (int v = 0; v < e->n; v++) {
        double t = mc_ocb_us(e->t[v]);
        lo = t < lo ? t : lo;
        hi = t > hi ? t : hi;
        sum += t;
        sq += t * t;
    }
    double mean = sum / e->n;
    r->lat_us = hi;
    r->bw_MBps = hi > 0 ? (double)bytes / hi : 0;
    r->done_min_us = lo;
    r->done_max_us = hi;
    r->done_stdev_us = sqrt(fmax(0, sq / e->n - mean * mean));
}

int mc_ocb_bcast(const mc_platform_t *p, const mc_ocb_cfg_t *cfg,
                 size_t bytes, mc_ocb_result_t *r)
{
    mc_ocb_cfg_t c = *cfg;
    MC_CHECK(mc_ocb_resolve(p, &c));
    int n = c.ranks;
    mc_ps_t *mem = calloc((size_t)n * 6, sizeof *mem);
    if (!mem)
        return mc_error(MC_ERR_NOMEM, "model: out of memory for %d ranks", n);
    ev_t e = {.p = p, .c = &c, .n = n, .t = mem, .note = mem + n,
              .done = mem + 2 * n, .x = mem + 4 * n, .y = mem + 5 * n};
    if (bytes > 0 && n > 1) {
        if (c.alg == MC_OCB_OCBCAST)
            ocbcast(&e, bytes);
        else if (c.alg == MC_OCB_BINOMIAL)
            binomial(&e, bytes);
        else
            scatter_allgather(&e, bytes);
    }
    summarize(&e, bytes, r);
    free(mem);
    return MC_OK;
}

/* one vrank's loop over a full chunk of m lines, every wait satisfied */
static mc_ps_t ocb_loop(ev_t *e, const node_t *d, long m)
{
    int v = d->v;
    mc_ps_t poll = mc_ocb_poll_cost(e->p, dist(e, v, v), dmem(e, v));
    e->t[v] = 0;
    if (v == 0) {
        e->t[v] = d->nch * poll +
                  mc_ocb_cput_mem(e->p, m, dmem(e, v), dist(e, v, v));
        notify(e, d, d->first, d->nch, -1);
        return e->t[v];
    }
    e->t[v] = poll;
    notify(e, d, d->sib_first, d->nsib, d->pos);
    if (d->nch == 0 && e->c->leafdirect) {
        e->t[v] += mc_ocb_cget_mem(e->p, m, dist(e, v, d->parent), dmem(e, v));
        flag(e, v, d->parent);
        return e->t[v];
    }
    e->t[v] += d->nch * poll + mc_ocb_cget_mpb(e->p, m, dist(e, v, d->parent));
    flag(e, v, d->parent);
    notify(e, d, d->first, d->nch, -1);
    return e->t[v] + mc_ocb_cget_mem(e->p, m, dist(e, v, v), dmem(e, v));
}

int mc_ocb_ocbcast_peak(const mc_platform_t *p, const mc_ocb_cfg_t *cfg,
                        double *MBps, int *who)
{
    mc_ocb_cfg_t c = *cfg;
    MC_CHECK(mc_ocb_resolve(p, &c));
    int n = c.ranks;
    if (n < 2)
        return mc_error(MC_ERR_ARG, "ranks: a broadcast to itself (1 rank) "
                        "has no throughput");
    mc_ps_t *mem = calloc((size_t)n * 4, sizeof *mem);
    if (!mem)
        return mc_error(MC_ERR_NOMEM, "model: out of memory for %d ranks", n);
    ev_t e = {.p = p, .c = &c, .n = n, .t = mem, .note = mem + n,
              .done = mem + 2 * n};
    long m = lines(&e, c.chunk);
    mc_ps_t worst = 0;
    int slow = 0;
    for (int v = 0; v < n; v++) {
        node_t d = node_of(&e, v);
        mc_ps_t loop = ocb_loop(&e, &d, m);
        if (loop > worst)
            worst = loop, slow = v;
    }
    free(mem);
    *MBps = (double)(m * p->line) / mc_ocb_us(worst);
    if (who)
        *who = slow;
    return MC_OK;
}
