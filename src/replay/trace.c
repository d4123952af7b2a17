/*
 * The trace in memory (replay.h), whichever way it was read: records
 * appended to a rank's stream, v-counts to the pool, and the trace freed.
 * No OTF2 here: a build without libotf2 has this and read_none.c.
 */
#include <stdlib.h>
#include <string.h>

#include "replay/replay.h"
#include "util/error.h"

static void *grow(void *p, size_t *cap, size_t need, size_t el)
{
    if (need <= *cap)
        return p;
    size_t c = *cap ? *cap : 16;
    while (c < need)
        c *= 2;
    void *q = realloc(p, c * el);
    if (q)
        *cap = c;
    return q;
}

mc_rp_rec_t *mc_rp_push(mc_rp_stream_t *s)
{
    mc_rp_rec_t *r = grow(s->r, &s->cap, s->n + 1, sizeof *r);
    if (!r)
        return NULL;
    s->r = r;
    memset(&r[s->n], 0, sizeof *r);
    r[s->n].vc = UINT32_MAX;
    r[s->n].root = r[s->n].peer = r[s->n].peer2 = -1;
    return &r[s->n++];
}

uint32_t mc_rp_vpush(mc_rp_trace_t *t, const uint64_t *v, int n)
{
    uint64_t *p = grow(t->vpool, &t->capvpool, t->nvpool + (size_t)n,
                       sizeof *p);
    if (!p)
        return UINT32_MAX;
    t->vpool = p;
    memcpy(p + t->nvpool, v, (size_t)n * sizeof *v);
    t->nvpool += (size_t)n;
    return (uint32_t)(t->nvpool - (size_t)n);
}

int mc_rp_done(mc_rp_trace_t *t, int rc, mc_rp_trace_t **out)
{
    if (rc == MC_OK)
        rc = mc_rp_fix(t);
    if (rc != MC_OK) {
        mc_rp_trace_free(t);
        return rc;
    }
    *out = t;
    return MC_OK;
}

void mc_rp_trace_free(mc_rp_trace_t *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->ncomms; i++)
        free(t->comms[i].members);
    free(t->comms);
    for (int i = 0; t->s && i < t->ranks; i++)
        free(t->s[i].r);
    free(t->s);
    free(t->vpool);
    free(t);
}
