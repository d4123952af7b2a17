/* Teams: scratch memory and the MPB's owners (team.h); their creation
 * is team_init.c. */
#include <stdlib.h>

#include "coll/team.h"
#include "util/error.h"

int mc_scratch(mc_team_t *t, size_t n, void **out)
{
    if (n > t->scratch_len) {
        size_t len = n < 2 * t->scratch_len ? 2 * t->scratch_len : n;
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
