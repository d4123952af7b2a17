/*
 * Cached private memory (platform "cache", docs/platforms.md; cost.h
 * model "cache", a part of the chip model of cost.c): each core
 * has an L1 and an L2 data cache in front of its private memory, as the
 * SCC's P54C cores have (Kohler et al., section II: 16 KB L1 data, 256 KB
 * L2, pseudo-LRU, write-back, non-write-allocate). Only private memory is
 * cached: MPB lines are not (RCCE invalidates them before every read).
 *
 *   read   L1 hit: l1_hit     L2 hit: l2_hit, fills L1
 *          miss: the memory access of the cost model, fills L2 and L1
 *   write  L1 hit: l1_hit     L2 hit: l2_hit
 *          miss: the memory access (no allocation on a write miss)
 *
 * Set-associative, least recently used within a set (LRU for the L2's
 * pseudo-LRU). Not modelled: write-backs of dirty lines on eviction, the
 * instruction cache, the write-combining buffer.
 *
 * Addresses. Which set a line falls in depends on its address, and the
 * host addresses of a simulation's buffers, even their offsets in a page,
 * change from run to run (address-space randomisation, the allocator's
 * history). So every host line gets a simulated line number in the order
 * lines are first touched by that core, deterministic in a simulation: consecutive
 * lines of a buffer land in consecutive sets (interleaved with whatever
 * else the same operations first touched), and only capacity and
 * recency, not the host's layout, decide hits. Buffers that start at a
 * line boundary (the test cases', scratch) cut into the same lines in
 * every run.
 */
#include <stdio.h>
#include <stdlib.h>

#include "sim/cost.h"
#include "util/error.h"
#include "util/map.h"

typedef struct level {
    int sets, ways;
    uint64_t *tag; /* sets x ways, most recently used first; 0 = empty */
} level_t;

typedef struct ccache {
    level_t l1, l2;
    mc_map_t frames; /* host line -> its simulated line (a uint64_t) */
} ccache_t;

struct mc_cache {
    ccache_t *core;    /* per core, its levels allocated on its first
                          access */
    int line_shift;
};

static int log2i(size_t x)
{
    int s = 0;
    while ((size_t)1 << (s + 1) <= x)
        s++;
    return s;
}

/* 0, or the bytes it could not allocate */
static size_t level_init(level_t *l, size_t bytes, int ways, int line)
{
    l->ways = ways > 0 ? ways : 1;
    l->sets = (int)(bytes / (size_t)line / (size_t)l->ways);
    if (l->sets < 1)
        l->sets = 1;
    size_t n = (size_t)l->sets * (size_t)l->ways;
    l->tag = calloc(n, sizeof *l->tag);
    return l->tag ? 0 : n * sizeof *l->tag;
}

/* the simulated line of a host line, given in first-touch order; -1: no
 * memory */
static int64_t sim_line(ccache_t *c, uint64_t host)
{
    uint64_t *frame;
    int rc = mc_map_put(&c->frames, host, (void **)&frame);
    if (rc < 0)
        return -1;
    if (rc == 1) /* first touched now: the next line */
        *frame = c->frames.used - 1;
    return (int64_t)*frame;
}

/* looks `ln` (line number + 1) up in a level; on a hit it becomes the
 * most recently used of its set */
static int lookup(level_t *l, uint64_t ln)
{
    uint64_t *set = l->tag + (size_t)((ln - 1) % (uint64_t)l->sets) * l->ways;
    for (int w = 0; w < l->ways; w++) {
        if (set[w] != ln)
            continue;
        for (; w > 0; w--)
            set[w] = set[w - 1];
        set[0] = ln;
        return 1;
    }
    return 0;
}

/* puts `ln` in its set as the most recently used, evicting the least */
static void fill(level_t *l, uint64_t ln)
{
    uint64_t *set = l->tag + (size_t)((ln - 1) % (uint64_t)l->sets) * l->ways;
    for (int w = l->ways - 1; w > 0; w--)
        set[w] = set[w - 1];
    set[0] = ln;
}

static int cache_wanted(const mc_cost_t *c)
{
    return c->p->cache.on && c->chip == &mc_model_mpb;
}

static int cache_init(mc_cost_t *c)
{
    struct mc_cache *k = c->cache = calloc(1, sizeof *k);
    if (!k)
        return mc_cost_nomem(c, "the caches", sizeof *k);
    k->core = calloc((size_t)c->ncores, sizeof(ccache_t));
    if (!k->core)
        return mc_cost_nomem(c, "the caches of every core",
                             (size_t)c->ncores * sizeof(ccache_t));
    k->line_shift = log2i((size_t)c->p->line);
    return MC_OK;
}

static void cache_fini(mc_cost_t *c)
{
    struct mc_cache *k = c->cache;
    if (!k)
        return;
    for (int i = 0; k->core && i < c->ncores; i++) {
        free(k->core[i].l1.tag);
        free(k->core[i].l2.tag);
        mc_map_fini(&k->core[i].frames);
    }
    free(k->core);
    free(k);
    c->cache = NULL;
}

const mc_sim_model_t mc_model_cache = {
    .name = "caches",
    .wanted = cache_wanted,
    .init = cache_init,
    .fini = cache_fini,
};

/* the caches of core, made on its first access; NULL without memory
 * for them (the run fails, mc_cost_nomem) */
static ccache_t *core_cache(mc_cost_t *c, int core)
{
    const mc_cache_cfg_t *cfg = &c->p->cache;
    ccache_t *cc = &c->cache->core[core];
    if (cc->l1.tag)
        return cc;
    if (!cc->frames.vsize)
        mc_map_init(&cc->frames, sizeof(uint64_t));
    char what[64];
    snprintf(what, sizeof what, "the L1 tags of core %d", core);
    size_t bytes = level_init(&cc->l1, cfg->l1_bytes, cfg->l1_ways, c->p->line);
    if (!bytes) {
        snprintf(what, sizeof what, "the L2 tags of core %d", core);
        bytes = level_init(&cc->l2, cfg->l2_bytes, cfg->l2_ways, c->p->line);
    }
    if (bytes) {
        free(cc->l1.tag); /* made again, whole, on the next access */
        cc->l1.tag = NULL;
        mc_cost_nomem(c, what, bytes);
        return NULL;
    }
    return cc;
}

mc_ps_t mc_cache_line(mc_cost_t *c, int core, const mc_sim_acc_t *a,
                      int64_t i)
{
    ccache_t *cc = core_cache(c, core);
    if (!cc)
        return -1; /* the run has failed (core_cache) */
    int shift = c->cache->line_shift;
    uintptr_t addr = a->addr + (uintptr_t)(i << shift);
    int64_t l = sim_line(cc, (uint64_t)addr >> shift);
    if (l < 0) {
        mc_cost_nomem(c, "the caches' line numbers",
                      2 * mc_map_bytes(&cc->frames));
        return -1;
    }
    uint64_t ln = (uint64_t)l + 1;
    const mc_cache_cfg_t *cfg = &c->p->cache;
    if (lookup(&cc->l1, ln))
        return cfg->l1_hit;
    if (lookup(&cc->l2, ln)) {
        if (!a->write)
            fill(&cc->l1, ln);
        return cfg->l2_hit;
    }
    if (!a->write) {
        fill(&cc->l2, ln);
        fill(&cc->l1, ln);
    }
    return -1;
}
