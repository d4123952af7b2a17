/*
 * What a simulated core does (operations, flag writes and waits) and the
 * event loop that drives the cores (see engine.h).
 */
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

#include "sim/engine_impl.h"
#include "util/config.h"
#include "util/error.h"

static int suspend(mc_sim_t *s)
{
    int me = s->running;
    mc_coro_yield_all(); /* the core, with a collective running in it */
    return s->cores[me].status;
}

/* the traffic matrix: an MPB access of another core's MPB moves the
 * operation's lines between the two */
static void count_traffic(mc_sim_t *s, int me, const mc_sim_op_t *op)
{
    uint64_t bytes = (uint64_t)op->lines * (uint64_t)s->p->line;
    for (int i = 0; i < op->nacc; i++) {
        const mc_sim_acc_t *a = &op->acc[i];
        if (a->kind != MC_ACC_MPB || a->core == me)
            continue;
        int from = a->write ? me : a->core, to = a->write ? a->core : me;
        s->traffic[(size_t)from * (size_t)s->n + (size_t)to] += bytes;
    }
}

void mc_sim_count_traffic(mc_sim_t *s, int on)
{
    s->cores[s->running].quiet = !on;
}

const uint64_t *mc_sim_traffic(const mc_sim_t *s, int *n)
{
    *n = s->n;
    return s->traffic;
}

int mc_sim_do(mc_sim_t *s, const mc_sim_op_t *op)
{
    int me = s->running;
    if (s->traffic && !s->cores[me].quiet)
        count_traffic(s, me, op);
    core_t *c = &s->cores[me];
    s->st.ops++;
    s->st.lines += (uint64_t)op->lines;
    c->op = *op;
    c->op_start = s->now;
    c->status = MC_OK;
    /* the cost model says: done after d, or stepped line by line */
    int64_t step;
    mc_ps_t d = s->cost.chip->op(&s->cost, me, op, s->now, &step);
    if (step >= 0) {
        c->line = step;
        mc_sim_push(s, s->now + d, EV_LINE, (uint32_t)me);
    } else {
        mc_sim_push(s, s->now + d + mc_sim_jitter(s, d), EV_RESUME,
                    (uint32_t)me);
    }
    int rc = suspend(s);
    mc_sim_trace_add(s, op->name, me, c->op_start, s->now);
    return rc;
}

static void on_line(mc_sim_t *s, int me)
{
    core_t *c = &s->cores[me];
    mc_ps_t t = s->cost.chip->line(&s->cost, me, &c->op, c->line, s->now);
    if (++c->line < c->op.lines) {
        mc_sim_replace_top(s, t, EV_LINE, (uint32_t)me);
        return;
    }
    t = mc_ps_cap((__int128)t + (__int128)c->op.elems * s->p->c.o_reduce);
    mc_sim_replace_top(s, t + mc_sim_jitter(s, t - c->op_start), EV_RESUME,
                       (uint32_t)me);
}

/* ---- flags ---- */

/* The waiters of a flag word: a chain through the core records
 * (next_waiter) from the bucket of its address. Not the map of
 * util/map.h: many cores wait on one word, a wait must not fail for want
 * of memory, and the chains allocate nothing. */
static uint32_t hash_addr(const mc_sim_t *s, const uint64_t *addr)
{
    uint64_t x = (uint64_t)(uintptr_t)addr >> 3;
    x *= 0x9e3779b97f4a7c15ULL;
    return (uint32_t)(x >> 32) & s->bucket_mask;
}

static int new_land(mc_sim_t *s)
{
    if (s->free_land >= 0) {
        int i = s->free_land;
        s->free_land = s->lands[i].next_free;
        return i;
    }
    if (s->nlands == s->caplands) {
        size_t cap = s->caplands ? 2 * (size_t)s->caplands : 1024;
        land_t *l = cap <= INT32_MAX ? realloc(s->lands, cap * sizeof *l)
                                     : NULL;
        if (l)
            s->lands = l;
        void *pay = l ? realloc(s->land_pay, cap * LAND_PAYLOAD) : NULL;
        if (!pay) {
            mc_sim_fail(s, MC_ERR_NOMEM, "simulator: out of memory for %zu "
                        "flag writes in flight (%zu bytes)", cap,
                        cap * (sizeof *l + LAND_PAYLOAD));
            return -1;
        }
        s->land_pay = pay;
        s->caplands = (int)cap;
    }
    return s->nlands++;
}

/* the write's landing event; returns when the writer may go on (its
 * acknowledgement is back) */
static mc_ps_t write_flag(mc_sim_t *s, int me, uint64_t *addr, int owner,
                          uint64_t v, const void *payload, size_t n)
{
    mc_ps_t start = s->now;
    mc_flag_cost_t fc;
    s->cost.chip->flag(&s->cost, me, owner, addr, n, start, &fc);
    mc_ps_t lat = fc.lat, done = fc.done;
    mc_ps_t extra = mc_sim_jitter(s, lat) + fc.queue;
    int i = n <= LAND_PAYLOAD ? new_land(s) : -1;
    if (i < 0) { /* the run fails (mc_sim_fail); no core waits for it */
        if (n > LAND_PAYLOAD)
            mc_sim_fail(s, MC_ERR_INTERNAL, "simulator: a flag line's "
                        "payload of %zu bytes (at most %d)", n, LAND_PAYLOAD);
        *addr = v;
    } else {
        land_t *l = &s->lands[i];
        l->addr = addr;
        l->v = v;
        l->n = (uint32_t)n;
        if (n)
            memcpy(s->land_pay[i], payload, n);
        mc_sim_push(s, start + lat + extra, EV_LAND, (uint32_t)i);
    }
    s->cores[me].status = MC_OK;
    return start + done + extra;
}

void mc_sim_flag_write(mc_sim_t *s, uint64_t *addr, int owner, uint64_t v,
                       const void *payload, size_t n)
{
    int me = s->running;
    mc_ps_t start = s->now;
    mc_sim_push(s, write_flag(s, me, addr, owner, v, payload, n), EV_RESUME,
                (uint32_t)me);
    suspend(s);
    mc_sim_trace_add(s, "flag", me, start, s->now);
}

/* core me starts to wait, now, until *addr >= v: it sleeps in the
 * address's bucket, or it is there and the core reads it */
static void wait_begin(mc_sim_t *s, int me, uint64_t *addr, int owner,
                       uint64_t v)
{
    core_t *c = &s->cores[me];
    c->status = MC_OK;
    c->wait_start = s->now;
    if (*addr < v) {
        uint32_t b = hash_addr(s, addr);
        c->waiting = 1;
        c->wait_addr = addr;
        c->wait_v = v;
        c->wait_owner = owner;
        c->next_waiter = s->bucket[b];
        s->bucket[b] = me;
    } else {
        mc_ps_t d = s->cost.chip->poll(&s->cost, me, owner, addr, s->now);
        mc_sim_push(s, s->now + d + mc_sim_jitter(s, d), EV_RESUME,
                    (uint32_t)me);
    }
}

int mc_sim_flag_wait(mc_sim_t *s, uint64_t *addr, int owner, uint64_t v,
                     void *payload, size_t n)
{
    int me = s->running;
    wait_begin(s, me, addr, owner, v);
    int rc = suspend(s);
    if (rc == MC_OK && n)
        memcpy(payload, addr + 1, n);
    mc_sim_trace_add(s, "wait", me, s->cores[me].wait_start, s->now);
    return rc;
}

int mc_sim_flag_write_wait(mc_sim_t *s, uint64_t *addr, int owner,
                           uint64_t v, uint64_t *waddr, int wowner,
                           uint64_t wv)
{
    int me = s->running;
    core_t *c = &s->cores[me];
    c->op_start = s->now;
    c->wait_addr = waddr;
    c->wait_owner = wowner;
    c->wait_v = wv;
    mc_sim_push(s, write_flag(s, me, addr, owner, v, NULL, 0), EV_WAIT,
                (uint32_t)me);
    int rc = suspend(s);
    mc_sim_trace_add(s, "wait", me, c->wait_start, s->now);
    return rc;
}

/* begins round c->round of core me's mc_sim_flag_rounds */
static void begin_round(mc_sim_t *s, int me, core_t *c)
{
    mc_sim_round_t rd;
    c->round_fn(c->round_ctx, c->round, &rd);
    c->op_start = s->now;
    c->wait_addr = rd.waddr;
    c->wait_owner = rd.wowner;
    c->wait_v = rd.wv;
    mc_sim_push(s, write_flag(s, me, rd.addr, rd.owner, rd.v, NULL, 0),
                EV_WAIT, (uint32_t)me);
}

int mc_sim_flag_rounds(mc_sim_t *s, int n,
                       void (*fn)(const void *ctx, int r, mc_sim_round_t *rd),
                       const void *ctx, size_t size)
{
    int me = s->running;
    core_t *c = &s->cores[me];
    if (size > sizeof c->round_ctx)
        return mc_error(MC_ERR_ARG, "simulator: a context of %zu bytes for "
                        "flag rounds (at most %d)", size, MC_SIM_ROUND_CTX);
    if (n <= 0)
        return MC_OK;
    c->round_fn = fn;
    memcpy(c->round_ctx, ctx, size);
    c->round = 0;
    c->nrounds = n;
    begin_round(s, me, c);
    int rc = suspend(s);
    c->round_fn = NULL;
    mc_sim_trace_add(s, "wait", me, c->wait_start, s->now);
    return rc;
}

/* the wait of a round of mc_sim_flag_rounds is over: the next round, where
 * the core would begin it on being switched back (1), or 0: the core's */
static int next_round(mc_sim_t *s, int i, core_t *c)
{
    if (c->status != MC_OK || c->round + 1 >= c->nrounds)
        return 0;
    mc_sim_trace_add(s, "wait", i, c->wait_start, s->now);
    c->round++;
    s->running = i;
    begin_round(s, i, c);
    s->running = -1;
    return 1;
}

/* the write of mc_sim_flag_write_wait is acknowledged: what the core
 * would do on being switched back, done here */
static void on_wait(mc_sim_t *s, int me)
{
    core_t *c = &s->cores[me];
    if (s->trace.on)
        mc_sim_trace_add(s, "flag", me, c->op_start, s->now);
    wait_begin(s, me, c->wait_addr, c->wait_owner, c->wait_v);
}

uint64_t mc_sim_flag_read(mc_sim_t *s, uint64_t *addr, int owner)
{
    int me = s->running;
    mc_ps_t d = s->cost.chip->poll(&s->cost, me, owner, addr, s->now);
    s->cores[me].status = MC_OK;
    mc_sim_push(s, s->now + d, EV_RESUME, (uint32_t)me);
    suspend(s);
    return *addr;
}

int mc_sim_busy(mc_sim_t *s, const char *name, mc_ps_t d)
{
    mc_sim_op_t op = {.name = name, .fixed = d};
    return mc_sim_do(s, &op);
}

void mc_sim_post(mc_sim_t *s, uint64_t *addr, uint64_t v, mc_ps_t at)
{
    int i = new_land(s);
    if (i < 0) {
        *addr = v; /* the run fails (mc_sim_fail); no core waits for it */
        return;
    }
    s->lands[i] = (land_t){.addr = addr, .v = v, .next_free = -1};
    mc_sim_push(s, at + mc_sim_jitter(s, at - s->now), EV_LAND, (uint32_t)i);
}

/* removes waiters on addr that are satisfied (or all, if force) */
static void wake(mc_sim_t *s, uint64_t *addr, int force)
{
    int *prev = &s->bucket[hash_addr(s, addr)];
    while (*prev >= 0) {
        int i = *prev;
        core_t *c = &s->cores[i];
        if (c->wait_addr == addr && (force || *addr >= c->wait_v)) {
            *prev = c->next_waiter;
            c->waiting = 0;
            c->next_waiter = -1;
            mc_ps_t d = s->cost.chip->poll(&s->cost, i, c->wait_owner,
                                           c->wait_addr, s->now);
            mc_sim_push(s, s->now + d + mc_sim_jitter(s, d), EV_RESUME,
                        (uint32_t)i);
        } else {
            prev = &c->next_waiter;
        }
    }
}

static void on_land(mc_sim_t *s, int i)
{
    land_t *l = &s->lands[i];
    /* the payload first, then the flag word, as the writer ordered them */
    if (l->n)
        memcpy(l->addr + 1, s->land_pay[i], l->n);
    *l->addr = l->v;
    wake(s, l->addr, 0);
    l->next_free = s->free_land;
    s->free_land = i;
}

/* ---- the loop ---- */

/* the last spawned core to run for the first time: the simulation has
 * started (mc_sim_stats_t.start_events, start_wall_s) */
static void first_run(mc_sim_t *s, core_t *c)
{
    c->spawned = 2;
    if (++s->nstarted < s->nspawned)
        return;
    struct timespec b;
    clock_gettime(CLOCK_MONOTONIC, &b);
    s->st.start_events = s->st.events;
    s->st.start_wall_s = s->st.wall_s + (double)(b.tv_sec - s->run_t0.tv_sec) +
                         (double)(b.tv_nsec - s->run_t0.tv_nsec) * 1e-9;
}

static void resume(mc_sim_t *s, int i)
{
    core_t *c = &s->cores[i];
    if (c->done || (c->round_fn && next_round(s, i, c)))
        return;
    if (s->failed) /* mc_sim_fail: every operation fails from now on */
        c->status = s->failed;
    if (c->status < 0 && s->failed)
        mc_error(c->status, "%s", s->why);
    else if (c->status < 0)
        mc_error(c->status,
                 "simulated deadlock: core %d waited for a flag of core %d "
                 "to reach %llu (it is %llu) and nothing else can happen",
                 i, c->wait_owner, (unsigned long long)c->wait_v,
                 (unsigned long long)*c->wait_addr);
    s->running = i;
    mc_coro_resume(&c->co);
    s->running = -1;
    if (c->spawned == 1)
        first_run(s, c);
    if (!mc_coro_stack_ok(&c->co)) { /* no guard page caught it */
        fprintf(stderr, "manycoll sim: simulated core %d overflowed its "
                        "%zu-byte stack (give it more: manycoll sim "
                        "--stack-size, mc_sim_opts_t.stack_size)\n", i,
                s->stacks.size);
        abort();
    }
    if (c->co.done)
        c->done = 1;
}

/* every waiting core fails with MC_ERR_TIMEOUT (or the simulation's
 * failure, which left them waiting); returns how many */
static int break_deadlock(mc_sim_t *s)
{
    int stuck = 0;
    for (int i = 0; i < s->n; i++) {
        core_t *c = &s->cores[i];
        if (!c->waiting)
            continue;
        stuck++;
        c->status = s->failed ? s->failed : MC_ERR_TIMEOUT;
        wake(s, c->wait_addr, 1);
    }
    return stuck;
}

/* With many cores, an event's time goes into cache misses on the state
 * of a core that last ran long ago: its stack (the context switch pops
 * from it, the algorithm's frames are on it) and its core_t. The next
 * events are among the few mc_sim_peek shows (in order while the radix
 * heap's current time has events left, else most likely the earliest of
 * them): their core_t lines are fetched now
 * (the address alone, no load), and the next one's stack top (its saved
 * stack pointer is in a core_t line fetched one event earlier), so both
 * overlap this event's work. */
/* (not inlined: inlined, the compiler moved its loads into the loop's
 * critical path, 25% slower on a 1,024-core 1 MiB broadcast) */
static __attribute__((noinline)) void prefetch_next(const mc_sim_t *s)
{
    const ev_t *next[4];
    int ordered;
    size_t n = mc_sim_peek(s, next, 4, &ordered), best = 0;
    if (!n)
        return;
    for (size_t j = 0; j < n; j++) {
        const ev_t *e = next[j];
        if (e->kind == EV_LAND)
            __builtin_prefetch(&s->lands[e->idx]);
        else
            __builtin_prefetch(&s->cores[e->idx]);
        if (!ordered && e->t < next[best]->t)
            best = j;
    }
    const ev_t *e = next[best];
    if (e->kind == EV_LAND || e->kind == EV_WAIT)
        return;
    const char *sp = s->cores[e->idx].co.sp;
    for (int k = 0; sp && k < 8; k++)
        __builtin_prefetch(sp + 64 * k);
}

/* (not inlined: profilers count the event loop as this function's frame,
 * bench/sim_per_event.py --callgrind toggles on it, and the job layer is
 * its only caller, where link-time optimisation would melt it in) */
__attribute__((noinline)) int mc_sim_run(mc_sim_t *s)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    s->run_t0 = a;
    mc_sim_set_self(s);
    mc_sim_guard_begin(s);
    /* the cores read the same variables, each making its communicator:
     * once for all (a fifth of a 4,096-core broadcast's instructions
     * were getenv and parsing) */
    mc_env_hold();
    int deadlocked = 0;
    do {
        while (s->q.count) {
            ev_t e = mc_sim_take(s);
            s->now = e.t;
            if (!(++s->st.events & 0xfffff) && s->progress)
                s->progress(s->progress_arg, s->st.events,
                            (double)s->now * 1e-6);
            prefetch_next(s);
            if (e.kind == EV_RESUME)
                resume(s, (int)e.idx);
            else if (e.kind == EV_LINE)
                on_line(s, (int)e.idx);
            else if (e.kind == EV_WAIT)
                on_wait(s, (int)e.idx);
            else if (e.kind == EV_LAND)
                on_land(s, (int)e.idx);
            mc_sim_taken(s);
        }
    } while (break_deadlock(s) && ++deadlocked);
    mc_env_release();
    mc_sim_guard_end(s);
    mc_sim_set_self(NULL);
    clock_gettime(CLOCK_MONOTONIC, &b);
    s->st.wall_s += (double)(b.tv_sec - a.tv_sec) +
                    (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
    if (s->failed)
        return mc_error(s->failed, "%s", s->why);
    return deadlocked ? MC_ERR_TIMEOUT : MC_OK;
}

/* ---- domains ---- */

int mc_sim_domain(mc_sim_t *s, mc_sim_domain_t *parent, uint64_t key,
                  const int *cores, int n, int nflags,
                  mc_sim_domain_t **out)
{
    for (mc_sim_domain_t *d = s->domains; d; d = d->next)
        if (d->parent == parent && d->key == key) {
            *out = d;
            return MC_OK;
        }
    mc_sim_domain_t *d = calloc(1, sizeof *d);
    if (!d)
        return mc_error(MC_ERR_NOMEM, "simulator: out of memory for a "
                        "communicator's domain (%zu bytes)", sizeof *d);
    static _Atomic uint64_t uids;
    d->n = n;
    d->key = key;
    d->uid = ++uids;
    d->parent = parent;
    d->sim = s;
    d->nflags = nflags;
    /* flags dense while small (and always on coherent chips, whose line
     * states are laid out over the dense area), else only those used */
    size_t flag_bytes = (size_t)n * (size_t)d->nflags * sizeof(uint64_t);
    d->line_words = s->p->line >= 8 ? (int)(s->p->line / 8) : 1;
    int dense = flag_bytes <= MC_SIM_DENSE_FLAGS || s->p->cc;
    /* more than the machine has is refused, not attempted (sparse flags
     * are not counted: they grow with what the algorithm touches) */
    double need = (double)n * (double)s->p->mpb_bytes +
                  (dense ? (double)flag_bytes : 0);
    double have = (double)sysconf(_SC_PHYS_PAGES) *
                  (double)sysconf(_SC_PAGESIZE);
    if (have > 0 && need > have) {
        free(d);
        return mc_error(MC_ERR_NOMEM, "simulator: out of memory: %d cores "
                        "need %.1f GiB of MPBs%s, the machine has %.1f GiB; "
                        "simulate fewer --ranks", n, need / (1 << 30),
                        dense ? " and flags" : "", have / (1 << 30));
    }
    d->cores = malloc(sizeof(int) * (size_t)n);
    size_t blocks = (s->p->mpb_bytes + MC_SIM_MPB_BLOCK - 1) /
                    MC_SIM_MPB_BLOCK;
    d->mpb_bytes = s->p->mpb_bytes;
    d->mpb = calloc((size_t)n * blocks, MC_SIM_MPB_BLOCK);
    d->mpb_scratch = malloc(2 * d->mpb_bytes);
    d->flags = dense ? calloc((size_t)n * (size_t)d->nflags,
                              sizeof(uint64_t))
                     : NULL;
    if (!d->cores || !d->mpb || !d->mpb_scratch || (dense && !d->flags)) {
        free(d->cores), free(d->mpb), free(d->mpb_scratch), free(d->flags);
        free(d);
        return mc_error(MC_ERR_NOMEM, "simulator: out of memory: %d cores "
                        "need %.1f GiB of MPBs%s; simulate fewer --ranks", n,
                        need / (1 << 30), dense ? " and flags" : "");
    }
    memcpy(d->cores, cores, sizeof(int) * (size_t)n);
    int rc = mc_cost_domain_init(&s->cost, d); /* the models' state */
    if (rc != MC_OK) {
        free(d->cores), free(d->mpb), free(d->mpb_scratch), free(d->flags);
        free(d);
        return rc;
    }
    d->next = s->domains;
    s->domains = d;
    *out = d;
    return MC_OK;
}
