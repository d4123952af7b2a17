/*
 * The message-network cost model (platform key "network", the TilePro64's
 * User Dynamic Network as the NoCMsg paper uses it; cost.h model "msg"):
 * cores exchange
 * messages of 128-byte packets over a wormhole-routed mesh with XY
 * routing, instead of reading and writing message-passing buffers line
 * by line (cost.c). Every operation is one event.
 *
 * A put of m packets to another core is one packet train: after the
 * software overhead o_send its head leaves, and the whole train holds
 * every link of its XY path, the head reaching link k (k = 1..h) at
 * start + k L_hop and the tail leaving it m packet_link later. A link
 * serves trains first come first served: a train starts when every link
 * of its path is free for it (start >= busy_k - k L_hop), and waits
 * otherwise -- the wormhole contention NoCMsg schedules away. The train
 * is injected at link rate and posted: the sender goes on after
 * o_send + wait + m packet_link; the data are complete at the receiver
 * (h+1) L_hop later. Software costs: o_send and o_recv for a data
 * message (a put, a flag line with payload, a get), o_flag for a bare
 * notification at either end (the "synchronization packet" of the
 * paper's barrier, one UDN word).
 *
 *   operation               core busy                   arrives
 *   put to another core     o_send + wait + m pkt       tail +(h+1) L
 *   flag to another core    o_flag (o_send with a       +(h+1) L + w,
 *                           payload) + wait + w         after the writer's
 *                           (w: 8 bytes + payload)      earlier trains
 *   get from another core   o_send + request + data train back + o_recv
 *   get from my own MPB     o_recv + m copy_line (reading a message
 *                           pushed to me)
 *   other local work        m copy_line (copies, puts into my own MPB)
 *   poll finding a flag     o_flag (+ o_recv if it carries a payload,
 *                           tp/sim.c); a peer's flag: request + answer
 *   reductions              + o_reduce_elem per element
 *
 * A flag lands no earlier than the tail of every train its writer sent
 * before it (they left first on the same injection port), so a receiver
 * that sees the flag sees the data. Link waits are counted in the engine
 * stats (--json: link_waits, link_wait_us).
 *
 * The trains book links only with link contention on. MPB contention,
 * when asked for (--contention mpb or all), still makes a flag line queue
 * at its owner's port (cal.c) as on a chip with MPBs: the engine always
 * did so, the golden numbers have it, and a network without MPBs would
 * rather not; left as it is, said here.
 */
#include <stdlib.h>

#include "sim/cost.h"
#include "util/error.h"

struct mc_msg {
    mc_ps_t *busy; /* per directed link: free from this time on */
    mc_ps_t *tail; /* per core: when its last posted train arrives */
    int *links;    /* scratch: the links of one route */
};

static int msg_wanted(const mc_cost_t *c)
{
    return c->p->net.on;
}

static int msg_init(mc_cost_t *c)
{
    const mc_platform_t *p = c->p;
    size_t nlinks = (size_t)p->mesh_x * (size_t)p->mesh_y * 4;
    struct mc_msg *m = c->msg = calloc(1, sizeof *m);
    if (!m)
        return mc_cost_nomem(c, "the message network", sizeof *m);
    m->busy = calloc(nlinks, sizeof(mc_ps_t));
    if (!m->busy)
        return mc_cost_nomem(c, "the message network's links",
                             nlinks * sizeof(mc_ps_t));
    m->tail = calloc((size_t)c->ncores, sizeof(mc_ps_t));
    if (!m->tail)
        return mc_cost_nomem(c, "the message network's injection ports",
                             (size_t)c->ncores * sizeof(mc_ps_t));
    m->links = calloc((size_t)(p->mesh_x + p->mesh_y), sizeof(int));
    if (!m->links)
        return mc_cost_nomem(c, "a route of the message network",
                             (size_t)(p->mesh_x + p->mesh_y) * sizeof(int));
    return MC_OK;
}

static void msg_fini(mc_cost_t *c)
{
    struct mc_msg *m = c->msg;
    if (!m)
        return;
    free(m->busy);
    free(m->tail);
    free(m->links);
    free(m);
    c->msg = NULL;
}

static int hops(const mc_platform_t *p, int a, int b)
{
    return abs(p->tile_x[a] - p->tile_x[b]) + abs(p->tile_y[a] - p->tile_y[b]);
}

/* the link ids of the XY route from core a to core b, in order */
static int route_links(const mc_platform_t *p, int a, int b, int *out)
{
    int x = p->tile_x[a], y = p->tile_y[a], n = 0;
    int x1 = p->tile_x[b], y1 = p->tile_y[b];
    while (x != x1 || y != y1) {
        int dir = x != x1 ? (x1 > x ? 0 : 1) : (y1 > y ? 2 : 3);
        out[n++] = (y * p->mesh_x + x) * 4 + dir;
        if (dir < 2)
            x += dir == 0 ? 1 : -1;
        else
            y += dir == 2 ? 1 : -1;
    }
    return n;
}

/* A train of `dur` from core a to core b whose head is ready to leave at
 * t0: reserves its path and returns when it really leaves. pkts = 0: a
 * bare notification (counted apart: NoCMsg keeps data trains apart, its
 * barrier's words may still meet them). */
static mc_ps_t train(mc_cost_t *c, int a, int b, mc_ps_t t0, mc_ps_t dur,
                     int64_t pkts)
{
    const mc_platform_t *p = c->p;
    struct mc_msg *m = c->msg;
    if (!c->c_link)
        return t0;
    int *links = m->links;
    int h = route_links(p, a, b, links);
    mc_ps_t start = t0, L = p->c.L_hop;
    for (int k = 0; k < h; k++) {
        mc_ps_t free_at = m->busy[links[k]] - (k + 1) * L;
        start = free_at > start ? free_at : start;
    }
    for (int k = 0; k < h; k++)
        m->busy[links[k]] = start + (k + 1) * L + dur;
    if (start > t0 && pkts) {
        c->st->link_waits += (uint64_t)pkts;
        c->st->link_wait_ps += start - t0;
    } else if (start > t0) {
        c->st->flag_waits++;
        c->st->flag_wait_ps += start - t0;
    }
    return start;
}

/* the other core an operation moves data to or from (its MPB), or -1;
 * *own_read: it reads my own MPB */
static int peer_of(const mc_sim_op_t *op, int core, int *write, int *own_read)
{
    *own_read = 0;
    for (int i = 0; i < op->nacc; i++) {
        const mc_sim_acc_t *a = &op->acc[i];
        if (a->kind == MC_ACC_MPB && a->core != core) {
            *write = a->write;
            return a->core;
        }
        *own_read |= a->kind == MC_ACC_MPB && !a->write;
    }
    return -1;
}

/* local work and charges: one event; a message to or from another core:
 * its software overhead, then its train as one step (msg_line) */
static mc_ps_t msg_op(mc_cost_t *c, int core, const mc_sim_op_t *op,
                      mc_ps_t now, int64_t *step)
{
    const mc_platform_t *p = c->p;
    const mc_msgnet_t *m = &p->net;
    mc_ps_t red = op->elems * p->c.o_reduce;
    int write = 0, own_read = 0;
    int peer = op->nacc ? peer_of(op, core, &write, &own_read) : -1;
    (void)now;
    *step = -1;
    if (op->nacc == 0) /* a charge of its fixed time (mc_sim_busy) */
        return op->fixed;
    if (peer < 0) /* within my memory; from my MPB: a message received */
        return (own_read ? m->o_recv : 0) + op->lines * m->copy_line + red;
    /* the network part (msg_line) starts when the software is done, so
     * links are booked in the order trains really start */
    *step = op->lines - 1;
    return m->o_send;
}

static mc_ps_t msg_line(mc_cost_t *c, int core, const mc_sim_op_t *op,
                        int64_t line, mc_ps_t t)
{
    const mc_platform_t *p = c->p;
    const mc_msgnet_t *m = &p->net;
    int write = 0, own_read;
    (void)line;
    int peer = peer_of(op, core, &write, &own_read);
    mc_ps_t dur = op->lines * m->pkt_link, lat = (hops(p, core, peer) + 1) * p->c.L_hop;
    if (write) { /* a put: a posted train */
        mc_ps_t start = train(c, core, peer, t, dur, op->lines);
        mc_ps_t tail = start + lat + dur;
        if (tail > c->msg->tail[core])
            c->msg->tail[core] = tail;
        return start + dur;
    }
    /* a get: a one-word request, then the data train back (booked when
     * the request leaves: a few ns ahead) */
    mc_ps_t word = (m->pkt_link * 8 + p->line - 1) / p->line;
    mc_ps_t req = train(c, core, peer, t, word, 1);
    mc_ps_t back = train(c, peer, core, req + word + lat, dur, op->lines);
    return back + dur + lat + m->o_recv;
}

static void msg_flag(mc_cost_t *c, int core, int owner, uint64_t *addr,
                     size_t n, mc_ps_t now, mc_flag_cost_t *fc)
{
    const mc_platform_t *p = c->p;
    const mc_msgnet_t *m = &p->net;
    (void)addr;
    if (owner == core) { /* my own flag: a store */
        fc->lat = fc->done = p->c.L_hop;
        fc->queue = mc_cal_port(c, owner, now + fc->lat);
        return;
    }
    mc_ps_t w = (m->pkt_link * (mc_ps_t)(8 + n) + p->line - 1) / p->line;
    mc_ps_t o = n ? m->o_send : m->o_flag;
    mc_ps_t start = train(c, core, owner, now + o, w, n ? 1 : 0);
    mc_ps_t arrive = start + (hops(p, core, owner) + 1) * p->c.L_hop + w;
    if (arrive < c->msg->tail[core]) /* behind my earlier trains */
        arrive = c->msg->tail[core];
    fc->lat = arrive - now;
    fc->done = start + w - now;
    fc->queue = mc_cal_port(c, owner, now + fc->lat); /* see above */
}

static mc_ps_t msg_poll(mc_cost_t *c, int core, int owner, uint64_t *addr,
                        mc_ps_t now)
{
    const mc_platform_t *p = c->p;
    const mc_msgnet_t *m = &p->net;
    (void)addr, (void)now;
    if (owner == core)
        return m->o_flag;
    /* reading a peer's flag: a request and a one-word answer */
    mc_ps_t w = (m->pkt_link * 8 + p->line - 1) / p->line;
    return 2 * m->o_flag + 2 * ((hops(p, core, owner) + 1) * p->c.L_hop + w);
}

const mc_sim_model_t mc_model_msg = {
    .name = "message network",
    .wanted = msg_wanted, .init = msg_init, .fini = msg_fini, .op = msg_op,
    .line = msg_line, .flag = msg_flag, .poll = msg_poll,
};
