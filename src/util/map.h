/*
 * The project's one hash map (STYLE.md: one generic map serves every
 * table): 64-bit keys, values of a fixed size per map, open addressing
 * with linear probing, doubled when half full.
 *
 *   keys[cap]          key + 1 of the entry in that place; 0: empty
 *   vals[cap * vsize]  its value (zeroed when the key is added)
 *
 *   place of key k = mc_map_hash(k): the top log2(cap) bits of
 *                    k * 2^64 / golden ratio (Fibonacci hashing), then
 *                    the next places, wrapping, up to an empty one
 *
 * One hash, one empty marker, one failure policy:
 *   - the hash is Fibonacci hashing, not SipHash (util/siphash.h): every
 *     key here comes from manycoll itself (a peer, a line address, a flag
 *     index, an MPI handle's bits), not from someone who could pick keys
 *     that collide, and the probes sit on the simulator's per-access
 *     paths and MPI's per-call one, where SipHash's ~100 instructions a
 *     key would cost more than the table; keys that are bytes (a struct)
 *     are first reduced to 64 bits with mc_siphash by their owner;
 *   - an empty place holds 0: keys are stored plus one, so a table fresh
 *     from calloc is empty without a pass over it, and key UINT64_MAX
 *     cannot be stored;
 *   - adding fails with MC_ERR_NOMEM and a message, leaving the map as it
 *     was; lookups and removals never fail.
 *
 * Pointers to values stay valid until the next add or remove (either
 * may move entries). Not thread-safe: a map is its owner's, or behind
 * its owner's lock; one filled once and then only read may be read by
 * any number of threads (src/mpi/types.c).
 */
#ifndef MC_UTIL_MAP_H
#define MC_UTIL_MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct mc_map {
    uint64_t *keys;      /* [cap]: key + 1; 0 empty */
    unsigned char *vals; /* [cap * vsize] */
    size_t vsize;        /* bytes of a value */
    size_t cap;          /* places: 0 or a power of two >= MC_MAP_MIN */
    size_t used;         /* entries */
    int shift;           /* 64 - log2(cap) */
} mc_map_t;

#define MC_MAP_MIN 16 /* places of a map's first table */

/* An empty map of values of vsize (>= 1) bytes; nothing allocated yet. */
static inline void mc_map_init(mc_map_t *m, size_t vsize)
{
    *m = (mc_map_t){.vsize = vsize};
}

/* the first place to look for key in a table of 2^(64 - shift) places */
static inline size_t mc_map_hash(uint64_t key, int shift)
{
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> shift);
}

/* key's value, or NULL */
static inline void *mc_map_get(const mc_map_t *m, uint64_t key)
{
    if (!m->cap)
        return NULL;
    uint64_t k = key + 1;
    size_t mask = m->cap - 1;
    for (size_t i = mc_map_hash(key, m->shift);; i = (i + 1) & mask) {
        uint64_t s = m->keys[i];
        if (!s) /* first: key UINT64_MAX (k = 0) is never found */
            return NULL;
        if (s == k)
            return m->vals + i * m->vsize;
    }
}

/* Adds key with a zeroed value if it is not there: 1 (added) or 0 (it
 * was there) with *val its value, or MC_ERR_NOMEM (the map unchanged). */
int mc_map_add(mc_map_t *m, uint64_t key, void **val);

/* mc_map_add, with the lookup of a key already there inlined */
static inline int mc_map_put(mc_map_t *m, uint64_t key, void **val)
{
    void *v = mc_map_get(m, key);
    if (v) {
        *val = v;
        return 0;
    }
    return mc_map_add(m, key, val);
}

/* Removes key: 1, or 0 if it was not there. */
int mc_map_remove(mc_map_t *m, uint64_t key);

/* The entries in no particular order: start with *pos = 0; each call
 * gives the next entry and returns 1, then 0 at the end. Adding or
 * removing an entry ends the walk. */
int mc_map_next(const mc_map_t *m, size_t *pos, uint64_t *key, void **val);

/* heap bytes the map holds */
size_t mc_map_bytes(const mc_map_t *m);

/* Frees the tables: an empty map of the same value size. */
void mc_map_fini(mc_map_t *m);

#endif
