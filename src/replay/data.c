/*
 * The whole replay from a spec (data.h): read the archive, place the
 * ranks (--map), replay, and the rows. The command (tools/replay.c)
 * prints the rows; Python (manycoll.replay) returns them.
 */
#include <stdlib.h>
#include <string.h>

#include "replay/replay.h"
#include "util/error.h"

/* the spec as the run's options (the algos' strings are the spec's) */
static int opts_of(const mc_rp_spec_t *s, const mc_platform_t *p,
                   mc_rp_opts_t *o)
{
    mc_rp_defaults(o);
    if (s->nalgos < 0 || s->nalgos > MC_RP_MAX_ALGOS)
        return mc_error(MC_ERR_ARG, "replay: %d --algo options, at most %d",
                        s->nalgos, MC_RP_MAX_ALGOS);
    o->platform = s->platform, o->plat = p;
    o->ranks = s->ranks, o->compute_scale = s->compute_scale;
    o->best = s->best, o->nalgos = s->nalgos;
    for (int a = 0; a < s->nalgos; a++)
        o->algos[a] = s->algos[a];
    return MC_OK;
}

int mc_rp_replay(const mc_rp_spec_t *s, const mc_platform_t *p, int trace,
                 mc_rp_result_t *r, mc_rp_row_t **rows, int *nrows)
{
    mc_rp_opts_t o;
    mc_rp_trace_t *t = NULL;
    int *cores = NULL, rc = opts_of(s, p, &o);
    *rows = NULL, *nrows = 0;
    memset(r, 0, sizeof *r);
    if (rc == MC_OK)
        rc = mc_rp_read(s->archive, &t);
    int n = t ? (s->ranks ? s->ranks : t->ranks) : 0;
    if (rc == MC_OK && s->map)
        rc = mc_plat_map(p, s->map, &n, &cores);
    o.cores = cores, o.trace = trace;
    if (rc == MC_OK)
        rc = mc_rp_run(t, &o, r);
    if (rc == MC_OK)
        rc = mc_rp_rows(t, r, rows, nrows);
    free(cores);
    mc_rp_trace_free(t);
    return rc;
}

int mc_rp_data(const mc_rp_spec_t *s, mc_rp_row_t **rows, int *nrows)
{
    mc_platform_t *p = NULL;
    mc_rp_result_t r;
    *rows = NULL, *nrows = 0;
    if (!s || !s->archive || !s->platform)
        return mc_error(MC_ERR_ARG, "replay: argument '%s' is missing",
                        !s ? "spec" : !s->archive ? "archive" : "platform");
    MC_CHECK(mc_platform_load(s->platform, &p));
    int rc = mc_rp_replay(s, p, 0, &r, rows, nrows);
    mc_rp_result_free(&r);
    mc_platform_free(p);
    if (rc != MC_OK) {
        free(*rows);
        *rows = NULL, *nrows = 0;
    }
    return rc;
}
