/*
 * Event loop, cores, flags and domains of the simulator (see engine.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "sim/engine_impl.h"
#include "util/error.h"

static _Thread_local mc_sim_t *self_sim;

/* Stacks are reserved, not committed (MAP_NORESERVE): a core uses a few
 * pages of its stack. AddressSanitizer needs much more stack. */
#if defined(__SANITIZE_ADDRESS__)
#define MC_SIM_STACK (1024 * 1024)
#else
#define MC_SIM_STACK (256 * 1024)
#endif

/* ---- jitter: a random extra delay of up to the duration itself ---- */

mc_ps_t mc_sim_jitter(mc_sim_t *s, mc_ps_t d)
{
    if (!s->rng || d <= 0)
        return 0;
    uint64_t x = (s->rng += 0x9e3779b97f4a7c15ULL);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return (mc_ps_t)(x % (uint64_t)(d + 1));
}

/* ---- creation ---- */

/* zeroed, 64-byte aligned; from 4 MiB in transparent huge pages, where
 * the kernel gives them on request: a core's record is then found without
 * a page walk (the cores are visited in no order the TLB could follow) */
void *mc_sim_big_zalloc(size_t n)
{
    size_t huge = (size_t)2 << 20, align = n >= 2 * huge ? huge : 64;
    size_t len = (n + align - 1) / align * align;
    void *p = aligned_alloc(align, len);
    if (!p)
        return NULL;
    if (align == huge)
        (void)madvise(p, len, MADV_HUGEPAGE);
    memset(p, 0, len);
    return p;
}

static int pick(int opt, int platform)
{
    return opt < 0 ? platform : opt;
}

int mc_sim_create(const mc_platform_t *p, int ncores, const mc_sim_opts_t *o,
                  mc_sim_t **out)
{
    if (ncores < 1 || ncores > p->ncores)
        return mc_error(MC_ERR_ARG,
                        "simulator: %d ranks requested, platform %s has %d "
                        "cores",
                        ncores, p->name, p->ncores);
    mc_sim_t *s = calloc(1, sizeof *s);
    if (!s)
        return mc_error(MC_ERR_NOMEM, "simulator: out of memory for the "
                        "engine (%zu bytes)", sizeof *s);
    s->p = p;
    s->n = ncores;
    s->running = -1;
    s->free_land = -1;
    mc_sim_evq_init(s, ncores);
    _Static_assert(offsetof(core_t, co) + offsetof(mc_coro_t, sp) +
                       sizeof(void *) <= 64,
                   "a core's saved stack pointer in its first cache line");
    s->cores = mc_sim_big_zalloc((size_t)ncores * sizeof(core_t));
    uint32_t nb = 1;
    while (nb < 2u * (uint32_t)ncores)
        nb <<= 1;
    s->bucket = malloc(nb * sizeof(int));
    s->bucket_mask = nb - 1;
    if (!s->cores || !s->bucket) {
        mc_sim_destroy(s);
        return mc_error(MC_ERR_NOMEM, "simulator: out of memory for %d "
                        "cores (%zu bytes)", ncores,
                        (size_t)ncores * sizeof(core_t) + nb * sizeof(int));
    }
    memset(s->bucket, 0xff, nb * sizeof(int));
    s->cost = (mc_cost_t){.p = p, .ncores = ncores,
                          .c_mpb = pick(o->contention_mpb, p->cont.mpb),
                          .c_link = pick(o->contention_link, p->cont.link),
                          .c_mc = pick(o->contention_mc, p->cont.mc),
                          .st = &s->st, .domains = &s->domains, .sim = s};
    int rc = mc_cost_init(&s->cost);
    if (rc != MC_OK) {
        mc_sim_destroy(s);
        return rc; /* the model said what it could not allocate */
    }
    s->rng = o->jitter_seed;
    s->stacks.size = o->stack_size ? o->stack_size : MC_SIM_STACK;
    s->trace.on = o->trace;
    if (o->traffic && ncores > MC_SIM_TRAFFIC_MAX) {
        mc_sim_destroy(s);
        return mc_error(MC_ERR_ARG, "simulator: a traffic matrix of %d "
                        "cores (at most %d)", ncores, MC_SIM_TRAFFIC_MAX);
    }
    size_t tbytes = (size_t)ncores * (size_t)ncores * sizeof(uint64_t);
    if (o->traffic && !(s->traffic = calloc(1, tbytes))) {
        mc_sim_destroy(s);
        return mc_error(MC_ERR_NOMEM, "simulator: out of memory for the "
                        "traffic matrix of %d cores (%zu bytes)", ncores,
                        tbytes);
    }
    s->progress = o->progress;
    s->progress_arg = o->progress_arg;
    *out = s;
    return MC_OK;
}

/* a domain's memory */
static void domain_free(mc_sim_t *s, mc_sim_domain_t *d)
{
    mc_cost_domain_fini(&s->cost, d);
    free(d->cores);
    free(d->mpb);
    free(d->mpb_scratch);
    free(d->flags);
    mc_sim_flagmap_free(d->fmap);
    free(d->mcast_word);
    for (mc_sim_stage_t *g = d->stages, *gn; g; g = gn) {
        gn = g->next;
        free(g);
    }
    free(d);
}

void mc_sim_destroy(mc_sim_t *s)
{
    if (!s)
        return;
    for (int i = 0; s->cores && i < s->n; i++)
        mc_coro_destroy(&s->cores[i].co);
    if (s->stacks.pool)
        munmap(s->stacks.pool, s->stacks.len);
    for (mc_sim_domain_t *d = s->domains, *nx; d; d = nx) {
        nx = d->next;
        domain_free(s, d);
    }
    mc_cost_fini(&s->cost);
    free(s->cores);
    free(s->bucket);
    mc_sim_evq_free(s);
    free(s->lands);
    free(s->land_pay);
    free(s->trace.rec);
    free(s->traffic);
    free(s);
}

const mc_platform_t *mc_sim_platform(const mc_sim_t *s)
{
    return s->p;
}

/* The stacks of all cores: one mapping, reserved lazily (only pages a
 * core touches cost memory). A guard page below each stack costs a
 * mapping per core, of which the kernel allows vm.max_map_count (65530 by
 * default): above half of that, stacks go without guard pages and each
 * resume checks the stack pointer instead (engine_run.c). */
static int stack_pool(mc_sim_t *s)
{
    mc_sim_stacks_t *k = &s->stacks;
    size_t page = 4096, block = (k->size + page - 1) / page * page + page;
    long maps = 65530;
    FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
    if (f) {
        if (fscanf(f, "%ld", &maps) != 1)
            maps = 65530;
        fclose(f);
    }
    k->len = block * (size_t)s->n;
    void *m = mmap(NULL, k->len, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED)
        return mc_error(MC_ERR_NOMEM, "simulator: cannot reserve %.1f GiB "
                        "of stacks for %d cores", k->len / 1073741824.0,
                        s->n);
    k->pool = m;
    k->guard = 2L * s->n + 4096 < maps;
    return MC_OK;
}

int mc_sim_spawn(mc_sim_t *s, int core, void (*fn)(void *), void *arg)
{
    core_t *c = &s->cores[core];
    if (!s->stacks.pool)
        MC_CHECK(stack_pool(s));
    size_t block = s->stacks.len / (size_t)s->n;
    if (mc_coro_init_in(&c->co, s->stacks.pool + block * (size_t)core, block,
                        s->stacks.guard, fn, arg) != 0)
        return mc_error(MC_ERR_NOMEM, "simulator: no stack for core %d",
                        core);
    c->spawned = 1;
    s->nspawned++;
    c->next_waiter = -1;
    return mc_sim_push(s, 0, EV_RESUME, (uint32_t)core);
}

/* ---- tracing ---- */

void mc_sim_trace_add(mc_sim_t *s, const char *name, int core, mc_ps_t start,
                      mc_ps_t end)
{
    mc_sim_tracebuf_t *t = &s->trace;
    if (!t->on)
        return;
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 4096;
        mc_sim_trace_rec_t *r = realloc(t->rec, cap * sizeof *r);
        if (!r) { /* not a trace with holes: the run fails */
            t->on = 0;
            mc_sim_fail(s, MC_ERR_NOMEM, "simulator: out of memory for the "
                        "trace (%zu records, %zu bytes)", cap,
                        cap * sizeof *r);
            return;
        }
        t->rec = r;
        t->cap = cap;
    }
    t->rec[t->n++] = (mc_sim_trace_rec_t){name, core, start, end};
}

const mc_sim_trace_rec_t *mc_sim_trace(const mc_sim_t *s, size_t *n)
{
    *n = s->trace.n;
    return s->trace.rec;
}

void mc_sim_get_stats(const mc_sim_t *s, mc_sim_stats_t *st)
{
    *st = s->st;
}

int mc_sim_fail(mc_sim_t *s, int status, const char *fmt, ...)
{
    if (!s->failed) { /* the first failure is the cause */
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(s->why, sizeof s->why, fmt, ap);
        va_end(ap);
        s->failed = status;
    }
    return mc_error(status, "%s", s->why);
}

void mc_sim_set_self(mc_sim_t *s)
{
    self_sim = s;
}

mc_sim_t *mc_sim_self(void)
{
    return self_sim;
}

int mc_sim_self_core(void)
{
    return self_sim ? self_sim->running : -1;
}

mc_ps_t mc_sim_now(const mc_sim_t *s)
{
    return s->now;
}
