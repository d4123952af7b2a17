/*
 * Cost model of a cache-coherent chip (platform "cc", e.g. xeonphi60;
 * cost.h model "cc"),
 * after Ramos & Hoefler, "Modelling Communications in Cache Coherent
 * Systems": what a line costs depends on where it is.
 *
 *   read by core A:   A holds it (M, E or S)            R_L
 *                     another core holds it              R_R   -> shared
 *                     nobody (memory, state I)           R_I   -> shared
 *   write by core A:  A owns it (M or E)                 R_L
 *                     another core holds it              R_R   -> A owns it
 *                     nobody, or A alone has it shared   R_I / R_L
 *
 * The MPBs and flags of a coherent chip are ordinary cache lines; each has
 * a state (owner, sharers) per communicator domain. Private memory
 * (program buffers) is taken as cached: R_L a line. Contention: n cores
 * reading one core's lines queue at that core's tag directory, one line
 * per c (the contention slope of T_C(n) = b + c n, Table 3.2), modelled
 * with the MPB port calendars (cal.c) when MPB contention is on. The
 * states live with the communicators' domains, made and freed here.
 * Writes to one line serialise: a line has one owner at a time, so a core
 * writing it waits until the previous write (ownership transfer) is done
 * (several children acknowledging on one shared line pay R_R each, one
 * after the other, as the report's notification-backward model has it);
 * a read waits for a write in flight too. A core with more than one
 * transaction in flight (`outstanding`) overlaps a copy's lines, in the
 * closed form (closed_form) and line by line (cc_line) alike.
 * Platforms with more than 64
 * cores are not supported here (sharer sets are 64-bit masks).
 */
#include <stdlib.h>

#include "sim/cost.h"
#include "util/error.h"

static mc_ps_t cc_access(const mc_cost_t *c, mc_cc_line_t *ln, int core,
                         int write, mc_ps_t t)
{
    const mc_platform_t *p = c->p;
    mc_ps_t wait = ln->busy > t ? ln->busy - t : 0;
    uint64_t me = 1ULL << core;
    int mine = ln->owner == core || (ln->sharers & me);
    int others = (ln->owner >= 0 && ln->owner != core) || (ln->sharers & ~me);
    mc_ps_t cost = others ? p->R_R : mine ? p->R_L : p->R_I;
    if (write) {
        if (ln->owner == core)
            cost = p->R_L;
        ln->owner = core;
        ln->sharers = me;
        ln->busy = t + wait + cost;
    } else {
        if (mine)
            cost = p->R_L;
        if (ln->owner >= 0 && ln->owner != core) {
            ln->sharers |= 1ULL << ln->owner;
            ln->owner = -1;
        }
        ln->sharers |= me;
    }
    return wait + cost;
}

/* one line j of an operation, starting at t; with contention, the reads
 * and writes of another core's lines queue at that core */
static mc_ps_t line(mc_cost_t *c, int core, const mc_sim_op_t *op, int64_t j,
                    mc_ps_t t, int contend)
{
    for (int i = 0; i < op->nacc; i++) {
        const mc_sim_acc_t *a = &op->acc[i];
        if (a->kind == MC_ACC_MEM || !a->st) {
            t += c->p->R_L;
            continue;
        }
        if (contend && a->core != core)
            t += mc_cal_port(c, a->core, t);
        t += cc_access(c, a->st + j, core, a->write, t);
    }
    return t;
}

/* All lines at once, from now: the lines' states (cc_access) hold
 * absolute times (when a write in flight ends), so the walk runs on the
 * clock, not from 0, and the op's cost is where it ends less now. (From
 * 0, a line's end of write was compared with times that never advanced:
 * every op on a line waited for all earlier ones, and a loop of 8-byte
 * allreduces cost 2.6 us a call over 10 calls, 157 us over 1,000.)
 *
 * A core with k > 1 transactions in flight (the platform's `outstanding`)
 * issues line j+1 a k-th of line j's cost after line j, so m lines of
 * cost R end at R + (m - 1) R / k, not m R: the multi-line copy's
 * asymptotic cost per line (a profile's multi-line fit `o`) where k is
 * R_R / o. k = 1: one line after the other, the report's model.
 *
 *   k = 1   |--line 0--|--line 1--|--line 2--|
 *   k = 4   |--line 0--|
 *              |--line 1--|
 *                 |--line 2--|         ends at R + 2 R / 4
 */
static mc_ps_t closed_form(mc_cost_t *c, int core, const mc_sim_op_t *op,
                           mc_ps_t now)
{
    mc_ps_t t = mc_ps_cap((__int128)now + op->fixed), end = t;
    int64_t k = c->p->outstanding;
    for (int64_t j = 0; j < op->lines; j++) {
        mc_ps_t e = mc_ps_cap(line(c, core, op, j, t, 0));
        end = e > end ? e : end;
        t = k > 1 ? t + (e - t) / k : e;
    }
    return mc_ps_cap((__int128)(end - now) +
                     (__int128)op->elems * c->p->c.o_reduce);
}

/* with contention, line by line (cc_line); else all lines at once */
static mc_ps_t cc_op(mc_cost_t *c, int core, const mc_sim_op_t *op,
                     mc_ps_t now, int64_t *step)
{
    if (!c->cal || op->lines == 0) {
        *step = -1;
        return closed_form(c, core, op, now);
    }
    *step = 0;
    return op->fixed;
}

/* line-stepped with k > 1 in flight: each core's latest line end of
 * its operation (one operation at a time per core) */
struct mc_cc {
    mc_ps_t *end;
};

static int cc_init(mc_cost_t *c)
{
    if (c->p->outstanding < 2)
        return MC_OK;
    c->cc = calloc(1, sizeof *c->cc);
    if (c->cc)
        c->cc->end = calloc((size_t)c->ncores, sizeof *c->cc->end);
    if (c->cc && c->cc->end)
        return MC_OK;
    free(c->cc);
    c->cc = NULL;
    return mc_cost_nomem(c, "the cores' lines in flight",
                         (size_t)c->ncores * sizeof(mc_ps_t));
}

static void cc_fini(mc_cost_t *c)
{
    if (c->cc)
        free(c->cc->end);
    free(c->cc);
    c->cc = NULL;
}

/* line j from t: with k > 1 in flight (c->cc) the next line issues a
 * k-th of this one's cost later, as in closed_form, and the last returns
 * the latest end of all of them */
static mc_ps_t cc_line(mc_cost_t *c, int core, const mc_sim_op_t *op,
                       int64_t j, mc_ps_t t)
{
    mc_ps_t e = line(c, core, op, j, t, 1);
    if (!c->cc)
        return e;
    mc_ps_t *end = &c->cc->end[core];
    *end = j == 0 || e > *end ? e : *end;
    return j + 1 < op->lines ? t + (e - t) / c->p->outstanding : *end;
}

/* the state of the flag line holding *addr, from the domain it is in */
mc_cc_line_t *mc_cc_flag_line(const mc_cost_t *c, const uint64_t *addr)
{
    size_t per = (size_t)c->p->line / 8;
    for (mc_sim_domain_t *d = *c->domains; d; d = d->next) {
        size_t words = (size_t)d->n * (size_t)d->nflags;
        if (addr >= d->flags && addr < d->flags + words && d->flag_st) {
            size_t w = (size_t)(addr - d->flags);
            size_t lines_per_rank = (size_t)d->nflags / per;
            return &d->flag_st[(w / (size_t)d->nflags) * lines_per_rank +
                               (w % (size_t)d->nflags) / per];
        }
    }
    return NULL;
}

/* a flag line with a state: the write takes the line, readers see it at
 * once; one without (a word outside the domains' flag areas): priced as
 * an MPB line (cost.c) */
static void cc_flag(mc_cost_t *c, int core, int owner, uint64_t *addr,
                    size_t n, mc_ps_t now, mc_flag_cost_t *fc)
{
    mc_cc_line_t *ln = mc_cc_flag_line(c, addr);
    if (!ln) {
        mc_model_mpb.flag(c, core, owner, addr, n, now, fc);
        return;
    }
    fc->lat = fc->done = cc_access(c, ln, core, 1, now);
    fc->queue = mc_cal_port(c, owner, now + fc->lat);
}

/* concurrent readers of one core's lines queue (Table 3.2's c) */
static mc_ps_t cc_poll(mc_cost_t *c, int core, int owner, uint64_t *addr,
                       mc_ps_t now)
{
    mc_cc_line_t *ln = mc_cc_flag_line(c, addr);
    if (!ln)
        return mc_model_mpb.poll(c, core, owner, addr, now);
    mc_ps_t q = owner != core ? mc_cal_port(c, owner, now) : 0;
    return q + cc_access(c, ln, core, 0, now + q);
}

mc_cc_line_t *mc_sim_cc_mpb(const mc_sim_t *s, mc_sim_domain_t *d, int rank,
                            size_t off)
{
    if (!d->mpb_st) /* not a coherent chip */
        return NULL;
    size_t line = (size_t)mc_sim_platform(s)->line;
    return &d->mpb_st[(size_t)rank * (d->mpb_bytes / line) + off / line];
}

/* coherence states of a new domain: every line in memory (state I) */
static int cc_domain_init(mc_cost_t *c, mc_sim_domain_t *d)
{
    const mc_platform_t *p = c->p;
    size_t per = (size_t)p->line / 8;
    size_t nm = (size_t)d->n * (p->mpb_bytes / (size_t)p->line);
    size_t nf = (size_t)d->n * ((size_t)d->nflags / per);
    d->mpb_st = malloc(nm * sizeof *d->mpb_st);
    if (!d->mpb_st)
        return mc_cost_nomem(c, "the coherence states of MPB lines",
                             nm * sizeof *d->mpb_st);
    d->flag_st = malloc(nf * sizeof *d->flag_st);
    if (!d->flag_st)
        return mc_cost_nomem(c, "the coherence states of flag lines",
                             nf * sizeof *d->flag_st);
    for (size_t i = 0; i < nm; i++)
        d->mpb_st[i] = (mc_cc_line_t){-1, 0, 0};
    for (size_t i = 0; i < nf; i++)
        d->flag_st[i] = (mc_cc_line_t){-1, 0, 0};
    return MC_OK;
}

static void cc_domain_fini(mc_cost_t *c, mc_sim_domain_t *d)
{
    (void)c;
    free(d->mpb_st);
    free(d->flag_st);
    d->mpb_st = d->flag_st = NULL;
}

static int cc_wanted(const mc_cost_t *c)
{
    return c->p->cc;
}

const mc_sim_model_t mc_model_cc = {
    .name = "coherence",
    .wanted = cc_wanted, .init = cc_init, .fini = cc_fini,
    .op = cc_op, .line = cc_line, .flag = cc_flag,
    .poll = cc_poll, .domain_init = cc_domain_init,
    .domain_fini = cc_domain_fini,
};
