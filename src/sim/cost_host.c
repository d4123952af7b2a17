/*
 * The host link of a multi-chip platform (platform.h, mc_hostlink_t): how
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
 * as on one chip (cost.c), each device's PCIe link in each direction (a
 * data line occupies it for link_line) and each device's host thread (one
 * request per host_service, first come first served). Acknowledgements
 * and read requests carry no data: they wait for the host thread but
 * occupy no link, as request packets on one chip occupy none.
 */
#include <stdlib.h>

#include "sim/engine_impl.h"
#include "util/error.h"

/* calendars of the host link, per device: a host thread serves a request
 * in microseconds, so 4096 slots reach tens of milliseconds */
#define HOST_SLOTS 4096u
#define PCIE_SLOTS 4096u

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

int mc_host_create(mc_sim_t *s)
{
    int n = s->p->host.nchips;
    if (n < 2)
        return MC_OK;
    s->cal_host = calloc((size_t)n * 3, sizeof(cal_t));
    s->wc_drain = calloc((size_t)s->n, sizeof *s->wc_drain);
    return s->cal_host && s->wc_drain ? MC_OK : MC_ERR_NOMEM;
}

void mc_host_free(mc_sim_t *s)
{
    free(s->hcopy);
    free(s->wc_drain);
    s->hcopy = NULL;
    s->wc_drain = NULL;
    for (int i = 0; s->cal_host && i < s->p->host.nchips * 3; i++)
        free(s->cal_host[i].tag);
    free(s->cal_host);
    s->cal_host = NULL;
}

/* the thread of `chip` takes a request arriving at t: when it is done */
mc_ps_t mc_host_thread(mc_sim_t *s, int chip, mc_ps_t t)
{
    mc_ps_t svc = s->p->host.host_service;
    mc_ps_t w = mc_sim_reserve(&s->cal_host[3 * chip], HOST_SLOTS, svc, t);
    s->st.host_wait_ps += w;
    return t + w + svc;
}

/* a data line on the PCIe link of `chip` (dir 0: up, 1: down) at t */
mc_ps_t mc_host_pcie(mc_sim_t *s, int chip, int dir, mc_ps_t t)
{
    const mc_hostlink_t *h = &s->p->host;
    mc_ps_t w = mc_sim_reserve(&s->cal_host[3 * chip + 1 + dir], PCIE_SLOTS,
                               h->link_line, t);
    s->st.host_wait_ps += w;
    return t + w + h->pcie;
}

/* a data line from core a (at t) to the router of core b: when it is
 * there; *host: when the host thread of a's chip was done with it */
static mc_ps_t data_way(mc_sim_t *s, int a, int b, mc_ps_t t, mc_ps_t *host)
{
    const mc_platform_t *p = s->p;
    const mc_hostlink_t *h = &p->host;
    int ca = mc_plat_chip(p, a), cb = mc_plat_chip(p, b);
    t = mc_sim_route(s, ca, p->tile_x[a], p->tile_y[a], h->port_x, h->port_y,
                     t);
    t = mc_host_thread(s, ca, mc_host_pcie(s, ca, 0, t));
    *host = t;
    t = mc_host_pcie(s, cb, 1, t);
    return mc_sim_route(s, cb, h->port_x, h->port_y, p->tile_x[b],
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
static mc_ps_t wc_line(mc_sim_t *s, int core, const mc_sim_acc_t *a,
                       mc_ps_t t)
{
    const mc_platform_t *p = s->p;
    const mc_hostlink_t *h = &p->host;
    int ca = mc_plat_chip(p, core), cb = mc_plat_chip(p, a->core);
    mc_ps_t *drain = &s->wc_drain[core];
    mc_ps_t up = mc_sim_route(s, ca, p->tile_x[core], p->tile_y[core],
                              h->port_x, h->port_y, t);
    up = mc_host_pcie(s, ca, 0, up);
    if (s->cores[core].line == 0)
        *drain = mc_host_thread(s, ca, up);
    mc_ps_t down = mc_host_pcie(s, cb, 1, up > *drain ? up : *drain);
    down = mc_sim_route(s, cb, h->port_x, h->port_y, p->tile_x[a->core],
                        p->tile_y[a->core], down);
    if (s->c_mpb)
        (void)mc_sim_port_delay(s, a->core, down);
    return up + h->pcie + mc_plat_port_dist(p, core) * p->c.L_hop;
}

mc_ps_t mc_host_step(mc_sim_t *s, int core, const mc_sim_acc_t *a, mc_ps_t t)
{
    const mc_platform_t *p = s->p;
    const mc_hostlink_t *h = &p->host;
    int ca = mc_plat_chip(p, core), cb = mc_plat_chip(p, a->core);
    mc_ps_t host, at;
    if (a->write && h->write_ack == MC_ACK_HOST)
        return wc_line(s, core, a, t);
    if (a->write) {
        at = data_way(s, core, a->core, t, &host);
        if (s->c_mpb)
            at += mc_sim_port_delay(s, a->core, at);
        mc_ps_t back = mc_plat_port_dist(p, core) * p->c.L_hop;
        switch (h->write_ack) {
        case MC_ACK_PORT:
            return t + 2 * back;
        default: /* the target's acknowledgement, the way back */
            return mc_host_thread(s, cb, at + mc_plat_port_dist(p, a->core) *
                                          p->c.L_hop + h->pcie) +
                   h->pcie + back;
        }
    }
    mc_ps_t ready,
        way = mc_host_cached(s, core, a, s->cores[core].line, &ready);
    if (way >= 0) { /* from the host's copy: no thread, no other chip */
        at = t + way; /* the request: no data, no link */
        at = mc_host_pcie(s, ca, 1, at > ready ? at : ready);
        return mc_sim_route(s, ca, h->port_x, h->port_y, p->tile_x[core],
                            p->tile_y[core], at);
    }
    /* a read: the request to the target, the data back */
    at = mc_host_thread(s, ca,
                        t + mc_plat_port_dist(p, core) * p->c.L_hop + h->pcie);
    at += h->pcie + mc_plat_port_dist(p, a->core) * p->c.L_hop;
    if (s->c_mpb)
        at += mc_sim_port_delay(s, a->core, at);
    return data_way(s, a->core, core, at, &host);
}

void mc_host_flag(mc_sim_t *s, int core, int owner, mc_ps_t *lat,
                  mc_ps_t *done)
{
    const mc_platform_t *p = s->p;
    mc_ps_t t = s->now + *lat - mc_host_way(p, core, owner), host;
    /* the flag line, as a data line from the writer's router on */
    mc_ps_t at = data_way(s, core, owner, t, &host);
    mc_ps_t d = at - t - mc_host_way(p, core, owner); /* waited */
    *lat += d;
    *done += s->p->host.write_ack == MC_ACK_PORT ? 0 : d;
}
