/*
 * Flag words of a large domain, stored sparsely. Every rank of a
 * communicator has a flag word per peer and direction (the two-sided
 * layer's "sent" and "ready" flags, coll/flags.h), so a dense flag area
 * grows with the square of the ranks: 320 GiB at 65,536 cores, of which a
 * binomial broadcast touches a few words per core. Above
 * MC_SIM_DENSE_FLAGS bytes a domain keeps only the lines used (a flag
 * line carries a payload in the words after its flag, tp.h line_set):
 *
 *   key (flag line: (rank * nflags + idx) / words per line)
 *       --the map of util/map.h--> the address of the line's words
 *   lines: in slabs of 4096 words, never moved (waiters hold addresses)
 *
 * A word not yet used reads as 0, as in the dense area. Without memory
 * for a line the simulation fails (mc_sim_fail: the transport's flag
 * calls return nothing, the cores' next operations fail) and the
 * domain's sink line stands in for it until the run ends.
 */
#include <stdlib.h>

#include "sim/engine_impl.h"
#include "util/error.h"
#include "util/map.h"

#define SLAB 4096

struct mc_sim_flagmap {
    mc_map_t lines; /* flag line -> its words (a uint64_t *) */
    uint64_t **slabs;
    size_t nslabs, capslabs, slab_used;
};

/* the sink, after failing the simulation with what was asked for */
static uint64_t *oom(mc_sim_domain_t *d, const char *what, size_t bytes)
{
    mc_sim_fail(d->sim, MC_ERR_NOMEM, "simulator: out of memory for %s of "
                "a communicator of %d ranks (%zu bytes)", what, d->n, bytes);
    return d->sink;
}

/* words for a new line, or NULL with *bytes what it asked for */
static uint64_t *new_slot(mc_sim_flagmap_t *m, int words, size_t *bytes)
{
    if (!m->nslabs || m->slab_used + (size_t)words > SLAB) {
        if (m->nslabs == m->capslabs) {
            size_t c = m->capslabs ? 2 * m->capslabs : 64;
            uint64_t **s = realloc(m->slabs, sizeof *s * c);
            *bytes = sizeof *s * c;
            if (!s)
                return NULL;
            m->slabs = s;
            m->capslabs = c;
        }
        *bytes = SLAB * sizeof(uint64_t);
        if (!(m->slabs[m->nslabs] = calloc(SLAB, sizeof(uint64_t))))
            return NULL;
        m->nslabs++;
        m->slab_used = 0;
    }
    uint64_t *w = &m->slabs[m->nslabs - 1][m->slab_used];
    m->slab_used += (size_t)words;
    return w;
}

uint64_t *mc_sim_flagmap_slot(mc_sim_domain_t *d, uint64_t key)
{
    mc_sim_flagmap_t *m = d->fmap;
    size_t bytes = sizeof *m;
    if (!m) {
        if (!(m = d->fmap = calloc(1, sizeof *m)))
            return oom(d, "the flag words", bytes);
        mc_map_init(&m->lines, sizeof(uint64_t *));
    }
    uint64_t **slot;
    int rc = mc_map_put(&m->lines, key, (void **)&slot);
    if (rc < 0)
        return oom(d, "the table of flag lines", mc_map_bytes(&m->lines));
    if (rc == 1) { /* first use of the line */
        uint64_t *w = new_slot(m, d->line_words, &bytes);
        if (!w) {
            mc_map_remove(&m->lines, key);
            return oom(d, "the flag words", bytes);
        }
        *slot = w;
    }
    return *slot;
}

size_t mc_sim_flagmap_bytes(const mc_sim_flagmap_t *m)
{
    if (!m)
        return 0;
    return sizeof *m + mc_map_bytes(&m->lines) +
           m->capslabs * sizeof *m->slabs + m->nslabs * SLAB * 8;
}

void mc_sim_flagmap_free(mc_sim_flagmap_t *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->nslabs; i++)
        free(m->slabs[i]);
    free(m->slabs);
    mc_map_fini(&m->lines);
    free(m);
}
