/* Teams: the parts team.c owns (the MPB layout, scratch memory) and what
 * a team holds; their creation is team_init.c. */
#include <stdlib.h>

#include "coll/team.h"
#include "util/error.h"

/* Scratch is made by the first call that needs it (a communicator that
 * never reduces has none: the simulator's million cores), at least this
 * big, then doubled as calls need more. */
#define SCRATCH_MIN 256

int mc_scratch(mc_team_t *t, size_t n, void **out)
{
    mc_scratch_t *s = &t->scratch;
    if (n > s->len) {
        size_t len = n < 2 * s->len ? 2 * s->len : n;
        len = len < SCRATCH_MIN ? SCRATCH_MIN : len;
        len = (len + 63) / 64 * 64;
        void *p = aligned_alloc(64, len);
        if (!p)
            return mc_error(MC_ERR_NOMEM, "out of memory: %zu bytes of "
                                          "scratch", len);
        free(s->p);
        s->p = p;
        s->len = len;
    }
    *out = s->p;
    return MC_OK;
}

void mc_scratch_fini(mc_team_t *t)
{
    free(t->scratch.p);
    t->scratch = (mc_scratch_t){0};
}

size_t mc_team_bytes(const mc_team_t *t)
{
    size_t n = (size_t)t->size, b = 0;
    if (t->p2p.ctr)
        b += 2 * n * sizeof *t->p2p.ctr;
    if (t->fast.seen)
        b += n * sizeof *t->fast.seen;
    b += mc_map_bytes(&t->p2p.ctr_map);
    return b + t->scratch.len;
}

void mc_team_mpb_init(mc_team_t *t)
{
    t->mpb = (mc_mpb_state_t){.avail = t->tp->mpb_size};
}

int mc_team_mpb_tail(mc_team_t *t, size_t bytes, const char *owner,
                     size_t *off)
{
    size_t line = t->tp->line;
    mc_mpb_state_t *m = &t->mpb;
    MC_ASSERT(t->seq == 0, "%s reserves MPB bytes after %llu calls: the "
              "layout is fixed at creation", owner,
              (unsigned long long)t->seq);
    if (bytes > m->avail || m->avail - bytes < line)
        return mc_error(MC_ERR_INTERNAL,
                        "%s: %zu bytes of the MPB leave less than a line of "
                        "the %zu free",
                        owner, bytes, m->avail);
    m->avail -= bytes;
    *off = m->avail;
    return MC_OK;
}
