/*
 * Cached private memory (platform "cache", docs/platforms.md): each core
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
#include <stdlib.h>

#include "util/error.h"
#include "util/map.h"
#include "sim/engine_impl.h"

typedef struct level {
    int sets, ways;
    uint64_t *tag; /* sets x ways, most recently used first; 0 = empty */
} level_t;

typedef struct ccache {
    level_t l1, l2;
    mc_map_t frames; /* host line -> its simulated line (a uint64_t) */
} ccache_t;

struct mc_sim_cache {
    ccache_t *core;    /* per core, allocated on its first access */
    int line_shift;
};

static int log2i(size_t x)
{
    int s = 0;
    while ((size_t)1 << (s + 1) <= x)
        s++;
    return s;
}

static int level_init(level_t *l, size_t bytes, int ways, int line)
{
    l->ways = ways > 0 ? ways : 1;
    l->sets = (int)(bytes / (size_t)line / (size_t)l->ways);
    if (l->sets < 1)
        l->sets = 1;
    l->tag = calloc((size_t)l->sets * (size_t)l->ways, sizeof *l->tag);
    return l->tag ? MC_OK : MC_ERR_NOMEM;
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

static ccache_t *core_cache(mc_sim_t *s, int core)
{
    const mc_cache_cfg_t *cfg = &s->p->cache;
    if (!s->cache) {
        s->cache = calloc(1, sizeof *s->cache);
        if (!s->cache)
            return NULL;
        s->cache->core = calloc((size_t)s->p->ncores, sizeof(ccache_t));
        s->cache->line_shift = log2i((size_t)s->p->line);
        if (!s->cache->core)
            return NULL;
    }
    ccache_t *cc = &s->cache->core[core];
    if (cc->l2.tag)
        return cc;
    /* one level at a time: a level made before an allocation failed is
     * kept, not made again */
    if (!cc->frames.vsize)
        mc_map_init(&cc->frames, sizeof(uint64_t));
    if ((!cc->l1.tag &&
         level_init(&cc->l1, cfg->l1_bytes, cfg->l1_ways, s->p->line)) ||
        level_init(&cc->l2, cfg->l2_bytes, cfg->l2_ways, s->p->line))
        return NULL;
    return cc;
}

mc_ps_t mc_sim_cache_line(mc_sim_t *s, int core, const mc_sim_acc_t *a,
                          int64_t i)
{
    ccache_t *cc = core_cache(s, core);
    if (!cc)
        return -1; /* out of memory: uncached rather than a crash */
    uintptr_t addr = a->addr + (uintptr_t)(i << s->cache->line_shift);
    int64_t l = sim_line(cc, (uint64_t)addr >> s->cache->line_shift);
    if (l < 0)
        return -1;
    uint64_t ln = (uint64_t)l + 1;
    const mc_cache_cfg_t *cfg = &s->p->cache;
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

void mc_sim_cache_free(mc_sim_t *s)
{
    if (!s->cache)
        return;
    for (int i = 0; s->cache->core && i < s->p->ncores; i++) {
        free(s->cache->core[i].l1.tag);
        free(s->cache->core[i].l2.tag);
        mc_map_fini(&s->cache->core[i].frames);
    }
    free(s->cache->core);
    free(s->cache);
    s->cache = NULL;
}
