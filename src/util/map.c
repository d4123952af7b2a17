/* The hash map (see map.h): growth, removal, the walk. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util/assert.h"
#include "util/error.h"
#include "util/map.h"

/* Tables this big go in transparent huge pages: the simulator's sparse
 * flag words at 65,536 cores probe a table of tens of MiB at random, a
 * TLB miss a probe in 4 KiB pages. */
#define HUGE_PAGE ((size_t)2 << 20)

static void *table_alloc(size_t n)
{
    if (n < 2 * HUGE_PAGE)
        return calloc(1, n);
    size_t len = (n + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    void *p = aligned_alloc(HUGE_PAGE, len);
    if (!p)
        return NULL;
    (void)madvise(p, len, MADV_HUGEPAGE); /* a hint: fine if refused */
    memset(p, 0, len);
    return p;
}

/* the place of k (stored: key + 1) in m, or of the empty one it would
 * take */
static size_t place(const mc_map_t *m, uint64_t k)
{
    size_t mask = m->cap - 1, i = mc_map_hash(k - 1, m->shift);
    while (m->keys[i] && m->keys[i] != k)
        i = (i + 1) & mask;
    return i;
}

/* one value from place i of `from` to place j of `to` (8-byte values,
 * the common ones, without a call to memcpy) */
static void move_val(unsigned char *to, size_t j, const unsigned char *from,
                     size_t i, size_t vsize)
{
    if (vsize == sizeof(uint64_t))
        ((uint64_t *)(void *)to)[j] = ((const uint64_t *)(const void *)from)[i];
    else
        memcpy(to + j * vsize, from + i * vsize, vsize);
}

/* doubles the table (or makes the first); the old one stays on failure */
static int grow(mc_map_t *m)
{
    size_t cap = m->cap ? 2 * m->cap : MC_MAP_MIN;
    int shift = 64;
    for (size_t c = cap; c > 1; c >>= 1)
        shift--;
    int fits = m->vsize <= SIZE_MAX / 2 / cap; /* cap * vsize, no wrap */
    uint64_t *keys = fits ? table_alloc(cap * sizeof *keys) : NULL;
    unsigned char *vals = fits ? table_alloc(cap * m->vsize) : NULL;
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return mc_error(MC_ERR_NOMEM, "out of memory: a table of %zu "
                        "entries of %zu bytes", cap, m->vsize + 8);
    }
    mc_map_t n = {.keys = keys, .vals = vals, .vsize = m->vsize,
                  .cap = cap, .used = m->used, .shift = shift};
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->keys[i])
            continue;
        size_t j = place(&n, m->keys[i]);
        n.keys[j] = m->keys[i];
        move_val(n.vals, j, m->vals, i, m->vsize);
    }
    free(m->keys);
    free(m->vals);
    *m = n;
    return MC_OK;
}

int mc_map_add(mc_map_t *m, uint64_t key, void **val)
{
    MC_ASSERT(m->vsize > 0, "a map without a value size (mc_map_init)");
    MC_ASSERT(key != UINT64_MAX, "key UINT64_MAX is the one not stored");
    uint64_t k = key + 1;
    size_t i = m->cap ? place(m, k) : 0;
    if (m->cap && m->keys[i]) {
        *val = m->vals + i * m->vsize;
        return 0;
    }
    /* at most half full: probes stay short, and an empty place ends
     * every search */
    if (2 * (m->used + 1) > m->cap) {
        MC_CHECK(grow(m));
        i = place(m, k);
    }
    m->keys[i] = k;
    m->used++;
    *val = m->vals + i * m->vsize;
    return 1;
}

/* whether place h lies cyclically in (i, j] */
static int between(size_t i, size_t h, size_t j)
{
    return i <= j ? i < h && h <= j : i < h || h <= j;
}

int mc_map_remove(mc_map_t *m, uint64_t key)
{
    if (!m->cap)
        return 0;
    size_t mask = m->cap - 1, i = place(m, key + 1);
    if (!m->keys[i])
        return 0;
    /* backward shift: an entry after the hole that could live in it moves
     * there, so no search stops early at the hole (no tombstones) */
    for (size_t j = (i + 1) & mask; m->keys[j]; j = (j + 1) & mask) {
        size_t h = mc_map_hash(m->keys[j] - 1, m->shift);
        if (between(i, h, j))
            continue; /* its search starts after the hole */
        m->keys[i] = m->keys[j];
        move_val(m->vals, i, m->vals, j, m->vsize);
        i = j;
    }
    m->keys[i] = 0;
    memset(m->vals + i * m->vsize, 0, m->vsize);
    m->used--;
    return 1;
}

int mc_map_next(const mc_map_t *m, size_t *pos, uint64_t *key, void **val)
{
    for (size_t i = *pos; i < m->cap; i++)
        if (m->keys[i]) {
            *key = m->keys[i] - 1;
            *val = m->vals + i * m->vsize;
            *pos = i + 1;
            return 1;
        }
    *pos = m->cap;
    return 0;
}

size_t mc_map_bytes(const mc_map_t *m)
{
    return m->cap * (sizeof *m->keys + m->vsize);
}

void mc_map_fini(mc_map_t *m)
{
    free(m->keys);
    free(m->vals);
    mc_map_init(m, m->vsize);
}
