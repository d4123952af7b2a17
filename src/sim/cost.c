/*
 * The cost model of a chip with MPBs (cost.h model "mpb"): the LogP-based
 * put/get model of the OC-Bcast paper (Petrovic et al., SPAA'12, section
 * 3, Figure 2), with optional contention (cal.c), caches (cache.c) and
 * several chips (cost_host.c).
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
 * Contention (each switchable; cal.c): a line's request reaches its
 * target after d L_hop, waits for the target's port (an MPB serves one
 * line per mpb_service, a memory controller one per mc_service), and data
 * packets occupy every link of their XY route for link_time. With any of
 * them on, operations are stepped line by line; with no waiting the line
 * costs exactly the formula.
 */
#include <stdlib.h>

#include "sim/cost.h"

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

mc_ps_t mc_mpb_access(const mc_cost_t *c, int core, int kind, int write,
                      int target, int latency_only)
{
    const mc_platform_t *p = c->p;
    if (local_mpb(p, core, kind, target))
        return p->c.local_mpb;
    mc_ps_t o = acc_overhead(p, kind, write);
    if (remote(p, core, kind, target))
        return o + mc_host_line(p, core, target, write, latency_only);
    mc_ps_t d = acc_dist(p, core, kind, target);
    return o + (latency_only && write ? 1 : 2) * d * p->c.L_hop;
}

/* RCCE's private copy of a flag: one line that stays in the L1 */
static mc_ps_t flag_mem_cost(const mc_cost_t *c, int core, int write)
{
    if (c->cache)
        return c->p->cache.l1_hit;
    return mc_mpb_access(c, core, MC_ACC_MEM, write, core, 0);
}

/*
 * Flags. As a raw MPB line: write latency L_w^mpb(d), completion
 * C_w^mpb(d); a poll C_r^mpb(d). With RCCE flags (platform "flags":
 * "rcce"), as RCCE implements them, a flag write is a one-line put from
 * private memory, C_put^mem(1) (formula 8), landing at L_put^mem(1)
 * (formula 10), and a poll is a one-line get into private memory,
 * C_get^mem(1) (formula 12). With contention the line then queues at the
 * owner's port (cal.c), and a line to another chip waits for the host
 * link (cost_host.c).
 */
static void mpb_flag(mc_cost_t *c, int core, int owner, uint64_t *addr,
                     size_t n, mc_ps_t now, mc_flag_cost_t *fc)
{
    const mc_platform_t *p = c->p;
    (void)addr, (void)n;
    mc_ps_t fixed = 0;
    if (p->flags_rcce)
        fixed = p->c.o_put_mem + flag_mem_cost(c, core, 0);
    fc->lat = fixed + mc_mpb_access(c, core, MC_ACC_MPB, 1, owner, 1);
    fc->done = fixed + mc_mpb_access(c, core, MC_ACC_MPB, 1, owner, 0);
    if (c->cal && mc_plat_remote(p, core, owner))
        mc_host_flag(c, core, owner, now, &fc->lat, &fc->done);
    fc->queue = mc_cal_port(c, owner, now + fc->lat);
}

static mc_ps_t mpb_poll(mc_cost_t *c, int core, int owner, uint64_t *addr,
                        mc_ps_t now)
{
    (void)addr, (void)now;
    mc_ps_t t = mc_mpb_access(c, core, MC_ACC_MPB, 0, owner, 0);
    if (c->p->flags_rcce)
        t += c->p->c.o_get_mem + flag_mem_cost(c, core, 1);
    return t;
}

/* line by line, each private-memory line through the caches */
static mc_ps_t cached_closed_form(mc_cost_t *c, int core,
                                  const mc_sim_op_t *op)
{
    mc_ps_t t = op->fixed;
    for (int64_t j = 0; j < op->lines; j++)
        for (int i = 0; i < op->nacc; i++) {
            const mc_sim_acc_t *a = &op->acc[i];
            mc_ps_t h = a->kind == MC_ACC_MEM ? mc_cache_line(c, core, a, j)
                                              : -1;
            t += h >= 0 ? h
                        : mc_mpb_access(c, core, a->kind, a->write, a->core,
                                        0);
        }
    return t + op->elems * c->p->c.o_reduce;
}

/* every line of a read from the host's copy (sim/host_task.c): the one
 * way to the host, and *ready = when its last line is there; else -1 */
static mc_ps_t host_copy(const mc_cost_t *c, int core, const mc_sim_acc_t *a,
                         int64_t lines, mc_ps_t *ready)
{
    mc_ps_t r0, r1, w = mc_host_cached(c, core, a, 0, &r0);
    if (w < 0 || mc_host_cached(c, core, a, lines - 1, &r1) < 0)
        return -1;
    *ready = r1 > *ready ? r1 : *ready;
    return w;
}

/* the contention-free formula of a whole operation */
static mc_ps_t closed_form(mc_cost_t *c, int core, const mc_sim_op_t *op,
                           mc_ps_t now)
{
    const mc_platform_t *p = c->p;
    if (c->cache)
        return cached_closed_form(c, core, op);
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
        mc_ps_t w = host_copy(c, core, a, op->lines, &ready);
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
    return ready && now + d < ready + back ? ready + back - now : d;
}

/* with contention, line by line (mpb_line); else the formula at once */
static mc_ps_t mpb_op(mc_cost_t *c, int core, const mc_sim_op_t *op,
                      mc_ps_t now, int64_t *step)
{
    if (!c->cal || op->lines == 0) {
        *step = -1;
        return closed_form(c, core, op, now);
    }
    *step = 0;
    return op->fixed;
}

/* one line of core's operation op, starting at t */
static mc_ps_t mpb_line(mc_cost_t *c, int core, const mc_sim_op_t *op,
                        int64_t line, mc_ps_t t)
{
    const mc_platform_t *p = c->p;
    int cx = p->tile_x[core], cy = p->tile_y[core];
    for (int i = 0; i < op->nacc; i++) {
        const mc_sim_acc_t *a = &op->acc[i];
        int mem = a->kind == MC_ACC_MEM;
        mc_ps_t hit = mem && c->cache ? mc_cache_line(c, core, a, line)
                      : local_mpb(p, core, a->kind, a->core) ? p->c.local_mpb
                                                             : -1;
        if (hit >= 0) { /* no packet leaves the tile */
            t += hit;
            continue;
        }
        if (remote(p, core, a->kind, a->core)) { /* another chip */
            t = mc_host_step(c, core, a, line, t) + p->c.o_mpb;
            continue;
        }
        int chip = mc_plat_chip(p, core);
        int tx = mem ? p->mc_x[p->mc_of[core]] : p->tile_x[a->core];
        int ty = mem ? p->mc_y[p->mc_of[core]] : p->tile_y[a->core];
        mc_ps_t d = acc_dist(p, core, a->kind, a->core) * p->c.L_hop;
        mc_ps_t o = acc_overhead(p, a->kind, a->write);
        if (a->write) {
            /* data out to the target, served there, acknowledged */
            mc_ps_t arrive = mc_cal_route(c, chip, cx, cy, tx, ty, t);
            arrive += mem ? mc_cal_mc(c, core, arrive)
                          : mc_cal_port(c, a->core, arrive);
            t = arrive + d + o;
        } else {
            /* request to the target, served there, data back */
            mc_ps_t at = t + d;
            at += mem ? mc_cal_mc(c, core, at) : mc_cal_port(c, a->core, at);
            t = mc_cal_route(c, chip, tx, ty, cx, cy, at) + o;
        }
    }
    return t;
}

const mc_sim_model_t mc_model_mpb = {
    .name = "mpb",
    .wanted = NULL, /* the chip model unless another is (compose.c) */
    .op = mpb_op,
    .line = mpb_line,
    .flag = mpb_flag,
    .poll = mpb_poll,
};
