/* Teams: scratch memory and the MPB's owners (team.h); their creation
 * is team_init.c. */
#include <stdlib.h>

#include "coll/team.h"
#include "util/error.h"

/* Scratch is made by the first call that needs it (a communicator that
 * never reduces has none: the simulator's million cores), at least this
 * big, then doubled as calls need more. */
#define SCRATCH_MIN 256

int mc_scratch(mc_team_t *t, size_t n, void **out)
{
    if (n > t->scratch_len) {
        size_t len = n < 2 * t->scratch_len ? 2 * t->scratch_len : n;
        len = len < SCRATCH_MIN ? SCRATCH_MIN : len;
        len = (len + 63) / 64 * 64;
        void *p = aligned_alloc(64, len);
        if (!p)
            return mc_error(MC_ERR_NOMEM, "out of memory: %zu bytes of "
                                          "scratch", len);
        free(t->scratch);
        t->scratch = p;
        t->scratch_len = len;
    }
    *out = t->scratch;
    return MC_OK;
}

size_t mc_team_bytes(const mc_team_t *t)
{
    size_t n = (size_t)t->size, b = 0;
    if (t->p2p_ctr)
        b += 2 * n * sizeof *t->p2p_ctr;
    if (t->fast_seen)
        b += n * sizeof *t->fast_seen;
    if (t->ctr_key)
        b += t->ctr_cap * (sizeof *t->ctr_key + sizeof *t->ctr_val);
    return b + t->scratch_len;
}

int mc_team_mpb_tail(mc_team_t *t, size_t bytes, const char *owner,
                     size_t *off)
{
    size_t line = t->tp->line;
    if (bytes > t->mpb_avail || t->mpb_avail - bytes < line)
        return mc_error(MC_ERR_INTERNAL,
                        "%s: %zu bytes of the MPB leave less than a line of "
                        "the %zu free",
                        owner, bytes, t->mpb_avail);
    t->mpb_avail -= bytes;
    *off = t->mpb_avail;
    return MC_OK;
}

/* the map of mc_team_ctr: linear probing, grown at half full */
static int ctr_grow(mc_team_t *t)
{
    uint32_t cap = t->ctr_cap ? 2 * t->ctr_cap : 16;
    int32_t *key = malloc(sizeof(int32_t) * cap);
    uint64_t *val = calloc(cap, sizeof(uint64_t));
    if (!key || !val) {
        free(key);
        free(val);
        return mc_error(MC_ERR_NOMEM, "out of memory for two-sided state");
    }
    for (uint32_t i = 0; i < cap; i++)
        key[i] = -1;
    for (uint32_t i = 0; i < t->ctr_cap; i++) {
        if (t->ctr_key[i] < 0)
            continue;
        uint32_t h = (uint32_t)t->ctr_key[i] * 2654435761u & (cap - 1);
        while (key[h] >= 0)
            h = (h + 1) & (cap - 1);
        key[h] = t->ctr_key[i];
        val[h] = t->ctr_val[i];
    }
    free(t->ctr_key);
    free(t->ctr_val);
    t->ctr_key = key;
    t->ctr_val = val;
    t->ctr_cap = cap;
    return MC_OK;
}

uint64_t *mc_team_ctr_map(mc_team_t *t, int k)
{
    if (2 * (t->ctr_used + 1) > t->ctr_cap && ctr_grow(t) != MC_OK)
        return NULL;
    uint32_t mask = t->ctr_cap - 1;
    uint32_t h = (uint32_t)k * 2654435761u & mask;
    while (t->ctr_key[h] >= 0 && t->ctr_key[h] != k)
        h = (h + 1) & mask;
    if (t->ctr_key[h] < 0) {
        t->ctr_key[h] = k;
        t->ctr_used++;
    }
    return &t->ctr_val[h];
}
