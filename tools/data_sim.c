/* manycoll.sim.run as a C call (data.h): the options of `manycoll sim`
 * from a struct, one simulation per size, the --json records as structs.
 * Nothing is printed; the calls share no state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data.h"
#include "select/registry.h"
#include "sim_cmd.h"
#include "tools.h"
#include "util/config.h"
#include "util/error.h"

/* an option's whole number in [lo, hi]: MC_OK or MC_ERR_ARG */
static int in_range(const char *opt, long long v, long long lo,
                    long long hi)
{
    if (v < lo || v > hi)
        return mc_error(MC_ERR_ARG, "%s: %lld is not a whole number in "
                        "[%lld, %lld]", opt, v, lo, hi);
    return MC_OK;
}

/* the spec's names into o (what mc_sim_parse does for the command) */
static int names(const mc_sim_spec_t *s, sim_opts_t *o)
{
    if (!s->platform || !s->coll)
        return mc_error(MC_ERR_ARG, "platform and coll are required");
    o->platform = s->platform;
    MC_CHECK(mc_coll_from_name(s->coll, &o->k.coll));
    if (s->dtype && mc_dtype_from_name(s->dtype, &o->k.dt))
        return mc_error(MC_ERR_ARG, "dtype: unknown datatype '%s'",
                        s->dtype);
    if (!s->dtype && (mc_coll_info(o->k.coll)->props & MC_COLL_REDUCES))
        o->k.dt = MC_FLOAT64;
    if (s->op && mc_op_from_name(s->op, &o->k.op))
        return mc_error(MC_ERR_ARG, "op: unknown op '%s'", s->op);
    if (s->contention && mc_sim_contention(s->contention, o))
        return mc_error(MC_ERR_ARG, "contention: '%s' is not all, none or a "
                        "list of mpb, link, mc (each once, comma-separated)",
                        s->contention);
    o->algo = s->algo;
    mc_sel_t sel;
    if (s->algo && mc_algo_parse(o->k.coll, s->algo, "algo", &sel) != MC_OK)
        return MC_ERR_ARG; /* mc_last_error() says why */
    return MC_OK;
}

static int options(const mc_sim_spec_t *s, sim_opts_t *o)
{
    mc_sim_defaults(o);
    o->quiet = 1;
    MC_CHECK(names(s, o));
    if (s->ranks)
        MC_CHECK(in_range("ranks", s->ranks, 1, MC_MAX_RANKS));
    MC_CHECK(in_range("root", s->root, 0, MC_MAX_RANKS - 1));
    MC_CHECK(in_range("iters", s->iters, 1, 1000000));
    if (s->jitter >= 0) {
        MC_CHECK(in_range("jitter", s->jitter, 0, 1LL << 31));
        o->jitter = (uint64_t)s->jitter | 1u << 31;
    }
    if (s->nsizes < 1 || !s->sizes)
        return mc_error(MC_ERR_ARG, "sizes: none given");
    o->ranks = s->ranks;
    o->k.root = s->root;
    o->iters = s->iters;
    o->check = s->check != 0;
    return MC_OK;
}

/* the sizes of o on p into rows; *nrows: how many */
static int run_sizes(const mc_sim_spec_t *s, const sim_opts_t *o,
                     const mc_platform_t *p, mc_sim_row_t *rows, int *nrows)
{
    int n = o->k.coll == MC_COLL_BARRIER ? 1 : s->nsizes;
    for (int i = 0; i < n; i++) {
        sim_result_t r;
        r.fail[0] = 0;
        int rc = mc_sim_run_size(o, p, s->sizes[i], &r, NULL);
        if (rc == MC_ERR_INTERNAL && r.fail[0])
            return mc_error(rc, "%zu bytes: %s", s->sizes[i], r.fail);
        if (rc != MC_OK)
            return rc;
        mc_sim_row_fill(o, p, &r, &rows[i]);
        *nrows = i + 1;
    }
    return MC_OK;
}

int mc_sim_data(const mc_sim_spec_t *s, mc_sim_row_t *rows, int *nrows)
{
    sim_opts_t *o = malloc(sizeof *o);
    *nrows = -1;
    if (!o)
        return mc_error(MC_ERR_NOMEM, "out of memory");
    mc_platform_t *p = NULL;
    int rc = options(s, o);
    if (rc == MC_OK)
        rc = mc_tool_platform("sim", s->platform, 0, &p);
    if (rc == MC_OK)
        rc = mc_sim_place(o, p);
    if (rc == MC_OK) {
        *nrows = 0;
        rc = run_sizes(s, o, p, rows, nrows);
    } else if (rc != MC_ERR_NOMEM) {
        rc = MC_ERR_ARG;
    }
    if (p)
        mc_platform_free(p);
    free(o->cores);
    free(o);
    return rc;
}

long long mc_data_size(const char *s)
{
    return mc_parse_size(s);
}
