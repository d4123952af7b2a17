/*
 * The cost model of the simulator: the LogP-based put/get model of the
 * OC-Bcast paper (Petrovic et al., SPAA'12, section 3, Figure 2), with
 * optional contention.
 *
 * Contention-free (formulas 1-6), for one cache line at distance d
 * (routers traversed, 1 for the local MPB):
 *
 *   MPB write:  latency  o_mpb + d L_hop         completion  o_mpb + 2d L_hop
 *   MPB read:   latency = completion = o_mpb + 2d L_hop
 *   memory:     the same with o_mem_w / o_mem_r and d = distance to the
 *               core's memory controller
 *
 * An operation of m lines is its fixed overhead plus m times the sum of
 * its per-line accesses, e.g. a put from private memory (formula 8):
 *   C_put^mem(m) = o_put^mem + m C_r^mem(d_src) + m C_w^mpb(d_dst)
 * because a P54C core has one memory transaction in flight. A platform
 * with k > 1 outstanding transactions overlaps the round trips of k lines
 * (closed form only; line-stepped runs keep one in flight).
 *
 * Two optional refinements (docs/simulator.md): a platform's local_mpb_us
 * prices an access to the own tile's MPB without the router (the SCC's
 * local-MPB bug fixed; by default it goes through the router at d = 1,
 * the bug's workaround); a platform's "cache" puts L1 and L2 caches in
 * front of private memory (cache.c): a line that hits costs the cache's
 * hit cost instead of o_mem + 2 d L_hop, and the closed form then adds
 * the operation up line by line (one transaction in flight).
 *
 * Contention (each switchable): a line's request reaches its target after
 * d L_hop, waits for the target's port (an MPB serves one line per
 * mpb_service, a memory controller one per mc_service), and data packets
 * occupy every link of their XY route for link_time. Resources are slot
 * calendars (engine_impl.h), reserved when the line happens, first come
 * first served. With no waiting the line costs exactly the formula.
 */
#include <stdlib.h>
#include <sys/mman.h>

#include "sim/engine_impl.h"

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

static int acc_dist(const mc_platform_t *p, int core, int kind, int target)
{ /* on one chip (several chips: cost_host.c) */
    return kind == MC_ACC_MEM ? p->d_mem[core] : mc_plat_dist(p, core, target);
}

static mc_ps_t acc_overhead(const mc_platform_t *p, int kind, int write)
{
    if (kind == MC_ACC_MPB)
        return p->c.o_mpb;
    return write ? p->c.o_mem_w : p->c.o_mem_r;
}

/* an access to the own tile's MPB that skips the router (local_mpb_us) */
static int local_mpb(const mc_platform_t *p, int core, int kind, int target)
{
    return p->c.local_mpb >= 0 && kind == MC_ACC_MPB &&
           !mc_plat_remote(p, core, target) &&
           mc_plat_dist(p, core, target) == 1;
}

/* an MPB on another chip: through the host (cost_host.c) */
static int remote(const mc_platform_t *p, int core, int kind, int target)
{
    return kind == MC_ACC_MPB && mc_plat_remote(p, core, target);
}

mc_ps_t mc_sim_access_cost(const mc_sim_t *s, int core, int kind, int write,
                           int target, int latency_only)
{
    const mc_platform_t *p = s->p;
    if (local_mpb(p, core, kind, target))
        return p->c.local_mpb;
    mc_ps_t o = acc_overhead(p, kind, write);
    if (remote(p, core, kind, target))
        return o + mc_host_line(p, core, target, write, latency_only);
    mc_ps_t d = acc_dist(p, core, kind, target);
    return o + (latency_only && write ? 1 : 2) * d * p->c.L_hop;
}

/* RCCE's private copy of a flag: one line that stays in the L1 */
static mc_ps_t flag_mem_cost(const mc_sim_t *s, int core, int write)
{
    if (s->p->cache.on)
        return s->p->cache.l1_hit;
    return mc_sim_access_cost(s, core, MC_ACC_MEM, write, core, 0);
}

/*
 * Flags. As a raw MPB line: write latency L_w^mpb(d), completion
 * C_w^mpb(d); a poll C_r^mpb(d). With RCCE flags (platform "flags":
 * "rcce"), as RCCE implements them, a flag write is a one-line put from
 * private memory, C_put^mem(1) (formula 8), landing at L_put^mem(1)
 * (formula 10), and a poll is a one-line get into private memory,
 * C_get^mem(1) (formula 12).
 */
void mc_sim_flag_costs(mc_sim_t *s, int core, int owner, uint64_t *addr,
                       mc_ps_t *lat, mc_ps_t *done)
{
    const mc_platform_t *p = s->p;
    mc_cc_line_t *ln = p->cc ? mc_cc_flag_line(s, addr) : NULL;
    if (ln) {
        /* coherent: the write takes the line; readers see it at once */
        *lat = *done = mc_cc_access(s, ln, core, 1, s->now);
        return;
    }
    mc_ps_t fixed = 0;
    if (p->flags_rcce)
        fixed = p->c.o_put_mem + flag_mem_cost(s, core, 0);
    *lat = fixed + mc_sim_access_cost(s, core, MC_ACC_MPB, 1, owner, 1);
    *done = fixed + mc_sim_access_cost(s, core, MC_ACC_MPB, 1, owner, 0);
    if (mc_sim_stepped(s) && mc_plat_remote(p, core, owner))
        mc_host_flag(s, core, owner, lat, done);
}

mc_ps_t mc_sim_poll_cost(mc_sim_t *s, int core, int owner, uint64_t *addr)
{
    const mc_platform_t *p = s->p;
    if (s->msg)
        return mc_msg_poll(s, core, owner);
    mc_cc_line_t *ln = p->cc ? mc_cc_flag_line(s, addr) : NULL;
    if (ln) {
        /* concurrent readers of one core's lines queue (Table 3.2's c) */
        mc_ps_t q = s->c_mpb && owner != core
                        ? mc_sim_port_delay(s, owner, s->now)
                        : 0;
        return q + mc_cc_access(s, ln, core, 0, s->now + q);
    }
    mc_ps_t c = mc_sim_access_cost(s, core, MC_ACC_MPB, 0, owner, 0);
    if (p->flags_rcce)
        c += p->c.o_get_mem + flag_mem_cost(s, core, 1);
    return c;
}

/* line by line, each private-memory line through the caches */
static mc_ps_t cached_closed_form(mc_sim_t *s, int core, const mc_sim_op_t *op)
{
    mc_ps_t t = op->fixed;
    for (int64_t j = 0; j < op->lines; j++)
        for (int i = 0; i < op->nacc; i++) {
            const mc_sim_acc_t *a = &op->acc[i];
            mc_ps_t h = a->kind == MC_ACC_MEM
                            ? mc_sim_cache_line(s, core, a, j)
                            : -1;
            t += h >= 0 ? h
                        : mc_sim_access_cost(s, core, a->kind, a->write,
                                             a->core, 0);
        }
    return t + op->elems * s->p->c.o_reduce;
}

/* every line of a read from the host's copy (sim/host_task.c): the one
 * way to the host, and *ready = when its last line is there; else -1 */
static mc_ps_t host_copy(const mc_sim_t *s, int core, const mc_sim_acc_t *a,
                         int64_t lines, mc_ps_t *ready)
{
    mc_ps_t r0, r1, w = mc_host_cached(s, core, a, 0, &r0);
    if (w < 0 || mc_host_cached(s, core, a, lines - 1, &r1) < 0)
        return -1;
    *ready = r1 > *ready ? r1 : *ready;
    return w;
}

mc_ps_t mc_sim_closed_form(mc_sim_t *s, int core, const mc_sim_op_t *op)
{
    const mc_platform_t *p = s->p;
    if (p->cc)
        return mc_cc_closed_form(s, core, op);
    if (p->cache.on)
        return cached_closed_form(s, core, op);
    mc_ps_t per_o = 0, per_rtt = 0, local = 0, ready = 0, back = 0;
    for (int i = 0; i < op->nacc; i++) {
        const mc_sim_acc_t *a = &op->acc[i];
        if (local_mpb(p, core, a->kind, a->core)) {
            local += p->c.local_mpb;
            continue;
        }
        per_o += acc_overhead(p, a->kind, a->write);
        if (!remote(p, core, a->kind, a->core)) {
            per_rtt += 2 * acc_dist(p, core, a->kind, a->core) * p->c.L_hop;
            continue;
        }
        mc_ps_t w = host_copy(s, core, a, op->lines, &ready);
        back = w >= 0 ? w : back;
        per_rtt += w >= 0     ? 2 * w
                   : a->write ? mc_host_put_line(p, core, a->core)
                              : mc_host_line(p, core, a->core, 0, 0);
    }
    int64_t m = op->lines, k = p->outstanding;
    mc_ps_t d = mc_ps_cap((__int128)op->fixed + (__int128)m * (per_o + local) +
                          (__int128)((m + k - 1) / k) * per_rtt +
                          (__int128)op->elems * p->c.o_reduce);
    /* reads from the host's copy: not before its last line is there */
    return ready && s->now + d < ready + back ? ready + back - s->now : d;
}

/* ---- calendars ---- */

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

/* delay until a free slot at or after t (0 if the slot of t is free).
 * Slot j lives at index j % nslots with tag (j / nslots) + 1, so stale
 * reservations of earlier laps read as free without any cleanup. */
mc_ps_t mc_sim_reserve(cal_t *c, uint32_t nslots, mc_ps_t slot, mc_ps_t t)
{
    if (slot <= 0)
        return 0;
    if (!c->tag) {
        c->tag = calloc(nslots, sizeof *c->tag);
        if (!c->tag)
            return 0; /* out of memory: no contention rather than a crash */
    }
    int shift = __builtin_ctz(nslots);
    uint64_t k = slot_of(t, slot, 1.0 / (double)slot);
    for (uint64_t j = k; j < k + nslots; j++) {
        uint16_t *tag = &c->tag[j & (nslots - 1)];
        uint16_t want = (uint16_t)((j >> shift) + 1);
        if (*tag != want) {
            *tag = want;
            return j == k ? 0 : (mc_ps_t)j * slot - t;
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
static uint16_t *port_ring(mc_sim_t *s, int owner)
{
    if (!s->port_tags) {
        size_t len = (size_t)s->p->ncores * PORT_SLOTS * sizeof(uint16_t);
        void *m = mmap(NULL, len, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED)
            return NULL; /* no contention rather than a crash */
        (void)madvise(m, len, MADV_HUGEPAGE);
        s->port_tags = m;
        s->port_len = len;
    }
    return s->port_tags + (size_t)owner * PORT_SLOTS;
}

mc_ps_t mc_sim_port_delay(mc_sim_t *s, int owner, mc_ps_t t)
{
    cal_t c = {port_ring(s, owner)};
    if (!c.tag)
        return 0;
    mc_ps_t d = mc_sim_reserve(&c, PORT_SLOTS, s->p->cont.mpb_service, t);
    s->st.port_wait_ps += d;
    return d;
}

static mc_ps_t mc_delay(mc_sim_t *s, int core, mc_ps_t t)
{
    return mc_sim_reserve(&s->cal_mc[s->p->mc_of[core]], MC_SLOTS,
                          s->p->cont.mc_service, t);
}

mc_ps_t mc_sim_route(mc_sim_t *s, int chip, int x0, int y0, int x1, int y1,
                     mc_ps_t t)
{
    const mc_platform_t *p = s->p;
    mc_ps_t hop = p->c.L_hop;
    t += hop; /* the local router */
    if (!s->c_link)
        return t + (abs(x1 - x0) + abs(y1 - y0)) * hop;
    int x = x0, y = y0;
    while (x != x1 || y != y1) {
        int dir = x != x1 ? (x1 > x ? 0 : 1) : (y1 > y ? 2 : 3);
        cal_t *c = &s->cal_link[((chip * p->mesh_y + y) * p->mesh_x + x) * 4 +
                                dir];
        mc_ps_t w = mc_sim_reserve(c, LINK_SLOTS, p->cont.link_time, t);
        if (w) { /* contention accounting (--json) */
            s->st.link_waits++;
            s->st.link_wait_ps += w;
        }
        t += w + hop;
        if (dir < 2)
            x += dir == 0 ? 1 : -1;
        else
            y += dir == 2 ? 1 : -1;
    }
    return t;
}

/* one line of the running operation of `core`, starting at t */
mc_ps_t mc_sim_line_step(mc_sim_t *s, int core, mc_ps_t t)
{
    const mc_platform_t *p = s->p;
    if (p->cc)
        return mc_cc_line_step(s, core, t);
    if (s->msg)
        return mc_msg_step(s, core, t);
    const mc_sim_op_t *op = &s->cores[core].op;
    int cx = p->tile_x[core], cy = p->tile_y[core];
    for (int i = 0; i < op->nacc; i++) {
        const mc_sim_acc_t *a = &op->acc[i];
        int mem = a->kind == MC_ACC_MEM;
        mc_ps_t hit = mem && p->cache.on
                          ? mc_sim_cache_line(s, core, a, s->cores[core].line)
                          : local_mpb(p, core, a->kind, a->core)
                                ? p->c.local_mpb
                                : -1;
        if (hit >= 0) { /* no packet leaves the tile */
            t += hit;
            continue;
        }
        if (remote(p, core, a->kind, a->core)) { /* another chip */
            t = mc_host_step(s, core, a, t) + p->c.o_mpb;
            continue;
        }
        int chip = mc_plat_chip(p, core);
        int tx = mem ? p->mc_x[p->mc_of[core]] : p->tile_x[a->core];
        int ty = mem ? p->mc_y[p->mc_of[core]] : p->tile_y[a->core];
        mc_ps_t d = acc_dist(p, core, a->kind, a->core) * p->c.L_hop;
        mc_ps_t o = acc_overhead(p, a->kind, a->write);
        if (a->write) {
            /* data out to the target, served there, acknowledged */
            mc_ps_t arrive = mc_sim_route(s, chip, cx, cy, tx, ty, t);
            if (mem && s->c_mc)
                arrive += mc_delay(s, core, arrive);
            else if (!mem && s->c_mpb)
                arrive += mc_sim_port_delay(s, a->core, arrive);
            t = arrive + d + o;
        } else {
            /* request to the target, served there, data back */
            mc_ps_t at = t + d;
            if (mem && s->c_mc)
                at += mc_delay(s, core, at);
            else if (!mem && s->c_mpb)
                at += mc_sim_port_delay(s, a->core, at);
            t = mc_sim_route(s, chip, tx, ty, cx, cy, at) + o;
        }
    }
    return t;
}

void mc_sim_cal_free(mc_sim_t *s)
{
    mc_sim_cache_free(s);
    const mc_platform_t *p = s->p;
    if (s->port_tags)
        munmap(s->port_tags, s->port_len);
    for (int i = 0; s->cal_mc && i < p->nmc; i++)
        free(s->cal_mc[i].tag);
    mc_host_free(s);
    int nchips = p->host.nchips > 1 ? p->host.nchips : 1;
    for (int i = 0; s->cal_link && i < p->mesh_x * p->mesh_y * 4 * nchips;
         i++)
        free(s->cal_link[i].tag);
    free(s->cal_mc);
    free(s->cal_link);
}
