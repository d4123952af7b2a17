/*
 * The host link of a multi-chip platform (platform.h, mc_hostlink_t;
 * cost.h model "host", a part of the chip model of cost.c): how
 * long a line takes from a core of one chip to the MPB of a core of
 * another, the vSCC of Reble et al. (PMAM'15, section 3: "~100 core
 * cycles" on a chip, "~10^4" between devices).
 *
 *   chip A                         host                      chip B
 *   core c --mesh A, XY--> port --PCIe A--> thread of A --PCIe B--> port
 *                                  (one request at a time,     --mesh B-->
 *                                   in order: host_service)     MPB of d
 *
 * One way, without waiting: (dA + dB) L_hop + 2 pcie + host_service, where
 * dA counts the routers from c to its chip's port and dB from the port to
 * d (both with the local router, as mc_plat_dist counts). A read sends its
 * request this way and the data back the same way through the host thread
 * of B: a round trip of 2 x one way. A write completes when its
 * acknowledgement is back, from the target (transparent routing, the
 * first prototype: a round trip), from the host (the communication task
 * acknowledges at once: 2 dA L_hop + 2 pcie + host_service) or from the
 * device's port (the FPGA's fast write acknowledge: 2 dA L_hop); it lands
 * at the target after one way.
 *
 * Data written to another chip where the host runs the communication
 * task (write_ack "host") goes into the task's write-combining buffer:
 * the host acknowledges each line when it is there (2 dA L_hop + 2 pcie,
 * no host thread), and the task drains the buffer to the target MPB with
 * one service of its thread per operation (the granule: what the core
 * wrote in one put), the lines following down the target chip's link.
 * Flags bypass the buffer (Reble et al., section 3.1): their writes are
 * acknowledged by the thread as above.
 *
 * With contention on (any of mpb/link/mc), the line is stepped through its
 * resources: the XY links of both meshes and the MPB port of the target
 * as on one chip (cal.c), each device's PCIe link in each direction (a
 * data line occupies it for link_line) and each device's host thread (one
 * request per host_service, first come first served). Acknowledgements
 * and read requests carry no data: they wait for the host thread but
 * occupy no link, as request packets on one chip occupy none.
 */
#include <stdlib.h>

#include "sim/cost.h"
#include "util/error.h"

/* calendars of the host link, per device: a host thread serves a request
 * in microseconds, so 4096 slots reach tens of milliseconds */
#define HOST_SLOTS 4096u
#define PCIE_SLOTS 4096u

struct mc_host {
    cal_t *cal;       /* per chip: host thread, PCIe up, PCIe down */
    mc_ps_t *drain;   /* per core: when the host began to drain its last
                         remote put (write-combining) */
    hcopy_t *copies;  /* per core: MC_HCOPIES copies of ranges of its MPB
                         in the host (host_task.c), NULL until a prefetch */
};

mc_ps_t mc_host_way(const mc_platform_t *p, int a, int b)
{
    const mc_hostlink_t *h = &p->host;
    int d = mc_plat_port_dist(p, a) + mc_plat_port_dist(p, b);
    return d * p->c.L_hop + 2 * h->pcie + h->host_service;
}

/* the acknowledgement of a write from core a, after it left (ps) */
static mc_ps_t ack_time(const mc_platform_t *p, int a, int b)
{
    const mc_hostlink_t *h = &p->host;
    mc_ps_t port = 2 * mc_plat_port_dist(p, a) * p->c.L_hop;
    switch (h->write_ack) {
    case MC_ACK_PORT:
        return port;
    case MC_ACK_HOST:
        return port + 2 * h->pcie + h->host_service;
    default:
        return 2 * mc_host_way(p, a, b);
    }
}

mc_ps_t mc_host_line(const mc_platform_t *p, int core, int target, int write,
                     int latency_only)
{
    if (write)
        return latency_only ? mc_host_way(p, core, target)
                            : ack_time(p, core, target);
    return 2 * mc_host_way(p, core, target);
}

static int host_wanted(const mc_cost_t *c)
{
    return c->p->host.nchips > 1;
}

static int host_init(mc_cost_t *c)
{
    size_t ncal = (size_t)c->p->host.nchips * 3;
    struct mc_host *h = c->host = calloc(1, sizeof *h);
    if (!h)
        return mc_cost_nomem(c, "the host link", sizeof *h);
    h->cal = calloc(ncal, sizeof(cal_t));
    if (!h->cal)
        return mc_cost_nomem(c, "the host link's calendars",
                             ncal * sizeof(cal_t));
    h->drain = calloc((size_t)c->ncores, sizeof *h->drain);
    if (!h->drain)
        return mc_cost_nomem(c, "the host's write-combining buffers",
                             (size_t)c->ncores * sizeof *h->drain);
    return MC_OK;
}

static void host_fini(mc_cost_t *c)
{
    struct mc_host *h = c->host;
    if (!h)
        return;
    for (int i = 0; h->cal && i < c->p->host.nchips * 3; i++)
        free(h->cal[i].tag);
    free(h->cal);
    free(h->drain);
    free(h->copies);
    free(h);
    c->host = NULL;
}

const mc_sim_model_t mc_model_host = {
    .name = "host link",
    .wanted = host_wanted,
    .init = host_init,
    .fini = host_fini,
};

hcopy_t *mc_host_copies(mc_cost_t *c, int core)
{
    struct mc_host *h = c->host;
    size_t n = (size_t)c->ncores * MC_HCOPIES;
    if (!h->copies && !(h->copies = calloc(n, sizeof *h->copies))) {
        mc_cost_nomem(c, "the host's copies of MPBs", n * sizeof *h->copies);
        return NULL;
    }
    return &h->copies[(size_t)core * MC_HCOPIES];
}

/* the thread of `chip` takes a request arriving at t: when it is done */
mc_ps_t mc_host_thread(mc_cost_t *c, int chip, mc_ps_t t)
{
    mc_ps_t svc = c->p->host.host_service;
    mc_ps_t w = mc_cal_reserve(c, &c->host->cal[3 * chip], HOST_SLOTS, svc,
                               t);
    c->st->host_wait_ps += w;
    return t + w + svc;
}

/* a data line on the PCIe link of `chip` (dir 0: up, 1: down) at t */
mc_ps_t mc_host_pcie(mc_cost_t *c, int chip, int dir, mc_ps_t t)
{
    const mc_hostlink_t *h = &c->p->host;
    mc_ps_t w = mc_cal_reserve(c, &c->host->cal[3 * chip + 1 + dir],
                               PCIE_SLOTS, h->link_line, t);
    c->st->host_wait_ps += w;
    return t + w + h->pcie;
}

/* a data line from core a (at t) to the router of core b: when it is
 * there; *host: when the host thread of a's chip was done with it */
static mc_ps_t data_way(mc_cost_t *c, int a, int b, mc_ps_t t,
                        mc_ps_t *host)
{
    const mc_platform_t *p = c->p;
    const mc_hostlink_t *h = &p->host;
    int ca = mc_plat_chip(p, a), cb = mc_plat_chip(p, b);
    t = mc_cal_route(c, ca, p->tile_x[a], p->tile_y[a], h->port_x, h->port_y,
                     t);
    t = mc_host_thread(c, ca, mc_host_pcie(c, ca, 0, t));
    *host = t;
    t = mc_host_pcie(c, cb, 1, t);
    return mc_cal_route(c, cb, h->port_x, h->port_y, p->tile_x[b],
                        p->tile_y[b], t);
}

mc_ps_t mc_host_put_line(const mc_platform_t *p, int core, int target)
{
    if (p->host.write_ack != MC_ACK_HOST)
        return mc_host_line(p, core, target, 1, 0);
    return 2 * mc_plat_port_dist(p, core) * p->c.L_hop + 2 * p->host.pcie;
}

/* a data line into the task's write-combining buffer at t: when the
 * host's acknowledgement is back; the first line of an operation makes
 * the host thread drain the buffer (one service), and every line then
 * goes down the target chip's link when the drain has begun */
static mc_ps_t wc_line(mc_cost_t *c, int core, const mc_sim_acc_t *a,
                       int64_t line, mc_ps_t t)
{
    const mc_platform_t *p = c->p;
    const mc_hostlink_t *h = &p->host;
    int ca = mc_plat_chip(p, core), cb = mc_plat_chip(p, a->core);
    mc_ps_t *drain = &c->host->drain[core];
    mc_ps_t up = mc_cal_route(c, ca, p->tile_x[core], p->tile_y[core],
                              h->port_x, h->port_y, t);
    up = mc_host_pcie(c, ca, 0, up);
    if (line == 0)
        *drain = mc_host_thread(c, ca, up);
    mc_ps_t down = mc_host_pcie(c, cb, 1, up > *drain ? up : *drain);
    down = mc_cal_route(c, cb, h->port_x, h->port_y, p->tile_x[a->core],
                        p->tile_y[a->core], down);
    (void)mc_cal_port(c, a->core, down);
    return up + h->pcie + mc_plat_port_dist(p, core) * p->c.L_hop;
}

mc_ps_t mc_host_step(mc_cost_t *c, int core, const mc_sim_acc_t *a,
                     int64_t line, mc_ps_t t)
{
    const mc_platform_t *p = c->p;
    const mc_hostlink_t *h = &p->host;
    int ca = mc_plat_chip(p, core), cb = mc_plat_chip(p, a->core);
    mc_ps_t host, at;
    if (a->write && h->write_ack == MC_ACK_HOST)
        return wc_line(c, core, a, line, t);
    if (a->write) {
        at = data_way(c, core, a->core, t, &host);
        at += mc_cal_port(c, a->core, at);
        mc_ps_t back = mc_plat_port_dist(p, core) * p->c.L_hop;
        switch (h->write_ack) {
        case MC_ACK_PORT:
            return t + 2 * back;
        default: /* the target's acknowledgement, the way back */
            return mc_host_thread(c, cb, at + mc_plat_port_dist(p, a->core) *
                                          p->c.L_hop + h->pcie) +
                   h->pcie + back;
        }
    }
    mc_ps_t ready, way = mc_host_cached(c, core, a, line, &ready);
    if (way >= 0) { /* from the host's copy: no thread, no other chip */
        at = t + way; /* the request: no data, no link */
        at = mc_host_pcie(c, ca, 1, at > ready ? at : ready);
        return mc_cal_route(c, ca, h->port_x, h->port_y, p->tile_x[core],
                            p->tile_y[core], at);
    }
    /* a read: the request to the target, the data back */
    at = mc_host_thread(c, ca,
                        t + mc_plat_port_dist(p, core) * p->c.L_hop + h->pcie);
    at += h->pcie + mc_plat_port_dist(p, a->core) * p->c.L_hop;
    at += mc_cal_port(c, a->core, at);
    return data_way(c, a->core, core, at, &host);
}

void mc_host_flag(mc_cost_t *c, int core, int owner, mc_ps_t now,
                  mc_ps_t *lat, mc_ps_t *done)
{
    const mc_platform_t *p = c->p;
    mc_ps_t t = now + *lat - mc_host_way(p, core, owner), host;
    /* the flag line, as a data line from the writer's router on */
    mc_ps_t at = data_way(c, core, owner, t, &host);
    mc_ps_t d = at - t - mc_host_way(p, core, owner); /* waited */
    *lat += d;
    *done += p->host.write_ack == MC_ACK_PORT ? 0 : d;
}

mc_ps_t mc_host_cached(const mc_cost_t *c, int core, const mc_sim_acc_t *a,
                       int64_t line, mc_ps_t *ready)
{
    const mc_platform_t *p = c->p;
    if (!c->host->copies || a->write || a->kind != MC_ACC_MPB)
        return -1;
    const hcopy_t *k = &c->host->copies[(size_t)a->core * MC_HCOPIES];
    size_t at = (size_t)a->addr + (size_t)line * (size_t)p->line;
    int i = 0;
    while (i < MC_HCOPIES && (!k[i].n || at < k[i].off ||
                              at >= k[i].off + k[i].n))
        i++;
    if (i == MC_HCOPIES)
        return -1;
    k += i;
    size_t lines = (k->n + (size_t)p->line - 1) / (size_t)p->line;
    size_t j = (at - k->off) / (size_t)p->line;
    *ready = k->first;
    if (lines > 1)
        *ready += (mc_ps_t)((__int128)(k->last - k->first) * (__int128)j /
                            (__int128)(lines - 1));
    return mc_plat_port_dist(p, core) * p->c.L_hop + p->host.pcie;
}
