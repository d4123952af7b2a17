/*
 * Contention (cost.h model "cal"): the resources a line waits for, as
 * slot calendars reserved when the line happens, first come first served.
 * An MPB serves one line per mpb_service at its port, a memory controller
 * one per mc_service, and a data packet occupies every link of its XY
 * route for link_time. With no waiting a line costs exactly the
 * contention-free formula (cost.c). Composed when any of the three is on
 * (c->c_mpb, c_link, c_mc); each is reserved only if it is on (the
 * inline wrappers of cost.h).
 */
#include <stdlib.h>
#include <sys/mman.h>

#include "sim/cost.h"
#include "util/error.h"

/* Calendar sizes (slots, powers of two). Lines reserve as they happen, so
 * a calendar only has to reach as far as one line can wait: an MPB port
 * 256 x 13 ns = 3.3 us (47 cores reading one MPB wait about 0.6 us), a
 * controller 4096 x 5 ns = 20 us, a link 512 x 4 ns = 2 us (on the SCC's
 * parameters). A longer wait is capped at the horizon (docs/simulator.md).
 * Small port calendars matter: one per core, touched on every line, they
 * must stay in cache (2048 slots made a 4096-core run 40% slower). */
#define PORT_SLOTS 256u
#define MC_SLOTS 4096u
#define LINK_SLOTS 512u

struct mc_cal {
    uint16_t *port_tags;  /* the MPB ports' calendars, one mapping */
    size_t port_len;
    cal_t *mcs;           /* per memory controller */
    cal_t *links;         /* per directed link of every chip */
    size_t nlinks;
};

static int cal_wanted(const mc_cost_t *c)
{
    return c->c_mpb || c->c_link || c->c_mc;
}

static int cal_init(mc_cost_t *c)
{
    const mc_platform_t *p = c->p;
    int nchips = p->host.nchips > 1 ? p->host.nchips : 1;
    struct mc_cal *k = calloc(1, sizeof *k);
    if (!k)
        return mc_cost_nomem(c, "the contention calendars", sizeof *k);
    k->nlinks = (size_t)p->mesh_x * (size_t)p->mesh_y * 4 * (size_t)nchips;
    k->mcs = calloc((size_t)p->nmc, sizeof(cal_t));
    k->links = calloc(k->nlinks, sizeof(cal_t));
    c->cal = k;
    if (!k->mcs)
        return mc_cost_nomem(c, "the memory controllers' calendars",
                             (size_t)p->nmc * sizeof(cal_t));
    if (!k->links)
        return mc_cost_nomem(c, "the links' calendars",
                             k->nlinks * sizeof(cal_t));
    return MC_OK;
}

static void cal_fini(mc_cost_t *c)
{
    struct mc_cal *k = c->cal;
    if (!k)
        return;
    if (k->port_tags)
        munmap(k->port_tags, k->port_len);
    for (int i = 0; k->mcs && i < c->p->nmc; i++)
        free(k->mcs[i].tag);
    for (size_t i = 0; k->links && i < k->nlinks; i++)
        free(k->links[i].tag);
    free(k->mcs);
    free(k->links);
    free(k);
    c->cal = NULL;
}

const mc_sim_model_t mc_model_cal = {
    .name = "contention",
    .wanted = cal_wanted,
    .init = cal_init,
    .fini = cal_fini,
};

/* t / slot without a 64-bit division (this runs for every hop of every
 * line): a multiplication by the reciprocal, then an exact correction */
static inline uint64_t slot_of(mc_ps_t t, mc_ps_t slot, double inv)
{
    uint64_t k = (uint64_t)((double)t * inv);
    if ((mc_ps_t)(k + 1) * slot <= t)
        k++;
    else if ((mc_ps_t)k * slot > t)
        k--;
    return k;
}

/* Slot j lives at index j % nslots with tag (j / nslots) + 1, so stale
 * reservations of earlier laps read as free without any cleanup. */
/* the ring of calendar k, on its first use: 0, or -1 without memory for
 * it (the run fails: not a run without this contention); out of the way
 * of every line's reservation */
static __attribute__((noinline, cold)) int first_use(const mc_cost_t *c,
                                                     cal_t *k,
                                                     uint32_t nslots)
{
    k->tag = calloc(nslots, sizeof *k->tag);
    if (k->tag)
        return 0;
    mc_cost_nomem(c, "a calendar of a link, controller or host thread",
                  nslots * sizeof *k->tag);
    return -1;
}

mc_ps_t mc_cal_reserve(const mc_cost_t *c, cal_t *k, uint32_t nslots,
                       mc_ps_t slot, mc_ps_t t)
{
    if (slot <= 0 || (!k->tag && first_use(c, k, nslots) < 0))
        return 0;
    int shift = __builtin_ctz(nslots);
    uint64_t i = slot_of(t, slot, 1.0 / (double)slot);
    for (uint64_t j = i; j < i + nslots; j++) {
        uint16_t *tag = &k->tag[j & (nslots - 1)];
        uint16_t want = (uint16_t)((j >> shift) + 1);
        if (*tag != want) {
            *tag = want;
            return j == i ? 0 : (mc_ps_t)j * slot - t;
        }
    }
    return (mc_ps_t)nslots * slot; /* saturated beyond the horizon */
}

/* The MPB ports' calendars: one mapping for all cores, its pages given
 * by the kernel as they are first touched, so that a reservation finds
 * its ring at once (no pointer to follow, no allocation of its own: at a
 * million cores each is a cache miss). In transparent huge pages, where
 * the kernel gives them: a reservation lands on the ring of whichever
 * core is written to, in no order the TLB could follow (8% of a
 * 262,144- or million-core broadcast's time with 4 KiB pages; the rings
 * are small, 512 bytes, and every core's is used by a collective of all
 * of them, so the larger pages commit no more) */
static uint16_t *port_ring(mc_cost_t *c, int owner)
{
    struct mc_cal *k = c->cal;
    if (!k->port_tags) {
        size_t len = (size_t)c->p->ncores * PORT_SLOTS * sizeof(uint16_t);
        void *m = mmap(NULL, len, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED) { /* the run fails (not one without it) */
            mc_cost_nomem(c, "the MPB ports' calendars", len);
            return NULL;
        }
        (void)madvise(m, len, MADV_HUGEPAGE);
        k->port_tags = m;
        k->port_len = len;
    }
    return k->port_tags + (size_t)owner * PORT_SLOTS;
}

mc_ps_t mc_cal_port_wait(mc_cost_t *c, int owner, mc_ps_t t)
{
    cal_t k = {port_ring(c, owner)};
    if (!k.tag)
        return 0;
    mc_ps_t d = mc_cal_reserve(c, &k, PORT_SLOTS, c->p->cont.mpb_service, t);
    c->st->port_wait_ps += d;
    return d;
}

mc_ps_t mc_cal_mc_wait(mc_cost_t *c, int core, mc_ps_t t)
{
    return mc_cal_reserve(c, &c->cal->mcs[c->p->mc_of[core]], MC_SLOTS,
                          c->p->cont.mc_service, t);
}

mc_ps_t mc_cal_links(mc_cost_t *c, int chip, int x0, int y0, int x1, int y1,
                     mc_ps_t t)
{
    const mc_platform_t *p = c->p;
    mc_ps_t hop = p->c.L_hop;
    t += hop; /* the local router */
    int x = x0, y = y0;
    while (x != x1 || y != y1) {
        int dir = x != x1 ? (x1 > x ? 0 : 1) : (y1 > y ? 2 : 3);
        cal_t *k = &c->cal->links[((chip * p->mesh_y + y) * p->mesh_x + x) *
                                      4 +
                                  dir];
        mc_ps_t w = mc_cal_reserve(c, k, LINK_SLOTS, p->cont.link_time, t);
        if (w) { /* contention accounting (--json) */
            c->st->link_waits++;
            c->st->link_wait_ps += w;
        }
        t += w + hop;
        if (dir < 2)
            x += dir == 0 ? 1 : -1;
        else
            y += dir == 2 ? 1 : -1;
    }
    return t;
}
