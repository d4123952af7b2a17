/*
 * The host communication task of the vSCC (Reble et al., PMAM'15, section
 * 3.2-3.3): what it does besides forwarding lines (cost_host.c). It runs
 * where the host acknowledges remote writes (write_ack "host"); with
 * transparent routing ("target") or the FPGA's acknowledgements ("port")
 * there is no task and the algorithms do not call it (tp/sim.c).
 *
 * A core talks to the task by writing its memory-mapped registers: one
 * posted write (the three registers of a request are 32-byte aligned and
 * fused by the write-combining buffer, V-M9), acknowledged by the host:
 *
 *   core --mesh--> port --PCIe--> host thread of its chip (in order)
 *        <-------- ack ----------/
 *
 * Prefetch: the thread reads the published MPB range of the core into the
 * host, line by line over the chip's PCIe link (up), after a read request
 * down:
 *
 *   served + 2 pcie + 2 d L_hop + (i + 1) link_line   line i in the host
 *
 * and reads of those lines by cores of other chips are served from host
 * memory by the PCIe card, without a host thread and without the owner's
 * chip (cost_host.c mc_host_step, mc_host_cached): d' L_hop + pcie each
 * way, and not
 * before the line is there. Invalidate drops the copy. The simulator moves
 * data from the MPBs themselves: the copy is a cost, its consistency the
 * protocol's (coll/p2p.c publishes a chunk after writing it).
 *
 * Virtual DMA: the thread copies lines of the caller's MPB to another
 * chip's MPB, after dma_setup, at the slower of the DMA engine and the two
 * PCIe links, one line after the other:
 *
 *   chip A MPB --mesh, PCIe A up--> host --PCIe B down, mesh--> chip B MPB
 *   done flag at A: last line read + pcie + d_A L_hop
 *   flag at B: last line landed
 *
 * With contention on, the links' calendars are reserved line by line and
 * the thread's for the request, as for every other line through the host.
 */
#include <stdlib.h>

#include "sim/engine_impl.h"
#include "sim/host_task.h"
#include "util/error.h"

int mc_sim_host_task(const mc_sim_t *s)
{
    return s->p->host.nchips > 1 && s->p->host.write_ack == MC_ACK_HOST;
}

/* the calling core writes the task's registers: when the host thread has
 * taken the request (*served); the core waits for the acknowledgement */
static int reg_write(mc_sim_t *s, const char *name, mc_ps_t *served)
{
    const mc_platform_t *p = s->p;
    int core = s->running, chip = mc_plat_chip(p, core);
    mc_ps_t port = mc_plat_port_dist(p, core) * p->c.L_hop;
    mc_ps_t arrive = s->now + p->c.o_mpb + port + p->host.pcie;
    /* the host thread's calendar with contention (cost_host.c) */
    *served = s->cost.cal ? mc_host_thread(&s->cost, chip, arrive)
                          : arrive + p->host.host_service;
    return mc_sim_busy(s, name, *served - s->now + p->host.pcie + port);
}

/* n lines over the PCIe link of chip (dir) from t on, one every `per`
 * (at least the link's line time): when line 0 is through (*first) and
 * the last (returned); the latency comes on top */
static mc_ps_t stream(mc_sim_t *s, int chip, int dir, int64_t n,
                      mc_ps_t per, mc_ps_t t, mc_ps_t *first)
{
    *first = t + per;
    if (!s->cost.cal)
        return t + n * per;
    mc_ps_t end = t;
    for (int64_t i = 0; i < n; i++) {
        end = mc_host_pcie(&s->cost, chip, dir, end) - s->p->host.pcie + per;
        if (i == 0)
            *first = end;
    }
    return end;
}

/* the host keeps MC_HCOPIES ranges of every core's MPB (iRCCE's
 * pipelining publishes two halves in turn): a new one first drops those
 * it overlaps, then takes a free slot or the oldest */
static hcopy_t *slot_of(mc_sim_t *s, int core, size_t off, size_t n)
{
    hcopy_t *c = mc_host_copies(&s->cost, core), *oldest = c;
    if (!c)
        return NULL;
    for (int i = 0; i < MC_HCOPIES; i++)
        if (c[i].n && off < c[i].off + c[i].n && c[i].off < off + n)
            c[i] = (hcopy_t){0};
    for (int i = 0; i < MC_HCOPIES; i++) {
        if (!c[i].n)
            return &c[i];
        oldest = c[i].first < oldest->first ? &c[i] : oldest;
    }
    return oldest;
}

int mc_sim_host_prefetch(mc_sim_t *s, size_t off, size_t n)
{
    const mc_platform_t *p = s->p;
    int core = s->running;
    hcopy_t *c = slot_of(s, core, off, n);
    if (!c)
        return MC_ERR_NOMEM; /* the run has failed (mc_host_copies) */
    mc_ps_t served;
    *c = (hcopy_t){0}; /* not there until the task has it */
    MC_CHECK(reg_write(s, "prefetch", &served));
    int64_t lines = (int64_t)((n + (size_t)p->line - 1) / (size_t)p->line);
    mc_ps_t t = served + 2 * p->host.pcie +
                2 * mc_plat_port_dist(p, core) * p->c.L_hop, first = t;
    mc_ps_t last = stream(s, mc_plat_chip(p, core), 0, lines,
                          p->host.link_line, t, &first);
    *c = (hcopy_t){.off = off, .n = n, .first = first, .last = last};
    return MC_OK;
}

int mc_sim_host_invalidate(mc_sim_t *s, size_t off, size_t n)
{
    hcopy_t *c = mc_host_copies(&s->cost, s->running);
    mc_ps_t served;
    for (int i = 0; c && i < MC_HCOPIES; i++)
        if (c[i].n && off < c[i].off + c[i].n && c[i].off < off + n)
            c[i] = (hcopy_t){0};
    return reg_write(s, "invalidate", &served);
}

int mc_sim_host_dma(mc_sim_t *s, int dst, int64_t lines, uint64_t *flag,
                    uint64_t v, uint64_t *done, uint64_t done_v)
{
    const mc_platform_t *p = s->p;
    const mc_hostlink_t *h = &p->host;
    int me = s->running, ca = mc_plat_chip(p, me), cb = mc_plat_chip(p, dst);
    mc_ps_t served, first, first_b;
    if (s->traffic && !s->cores[me].quiet)
        s->traffic[(size_t)me * (size_t)s->n + (size_t)dst] +=
            (uint64_t)lines * (uint64_t)p->line;
    MC_CHECK(reg_write(s, "dma", &served));
    mc_ps_t da = mc_plat_port_dist(p, me) * p->c.L_hop;
    mc_ps_t db = mc_plat_port_dist(p, dst) * p->c.L_hop;
    mc_ps_t per = h->dma_line > h->link_line ? h->dma_line : h->link_line;
    /* read from A: request down, lines up; then down to B, a line later */
    mc_ps_t t = served + h->dma_setup + 2 * h->pcie + 2 * da;
    mc_ps_t read = stream(s, ca, 0, lines, per, t, &first);
    mc_ps_t land = stream(s, cb, 1, lines, per, first, &first_b);
    if (land < read)
        land = read;
    land += h->pcie + db;
    mc_sim_post(s, done, done_v, read + h->pcie + da);
    mc_sim_post(s, flag, v, land);
    return MC_OK;
}
