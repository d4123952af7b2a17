/* manycoll sim: its options (the output is in sim_main.c, the simulation
 * in sim.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "select/registry.h"
#include "sim/grid.h"
#include "sim_cmd.h"
#include "tools.h"

/* "all", "none", or a comma-separated list of mpb, link, mc (each once) */
int mc_sim_contention(const char *v, sim_opts_t *o)
{
    int all = !strcmp(v, "all"), none = !strcmp(v, "none");
    o->cont_mpb = o->cont_link = o->cont_mc = all;
    if (all || none)
        return 0;
    char buf[64];
    if (!*v || strlen(v) >= sizeof buf)
        return -1;
    strcpy(buf, v);
    char *save = NULL;
    int n = 0;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int *slot = !strcmp(t, "mpb") ? &o->cont_mpb
                    : !strcmp(t, "link") ? &o->cont_link
                    : !strcmp(t, "mc") ? &o->cont_mc : NULL;
        if (!slot || *slot)
            return -1;
        *slot = 1;
        n++;
    }
    /* strtok_r skips empty fields: "mpb,,link" and "mpb," are refused */
    return n && !strstr(v, ",,") && v[0] != ',' && v[strlen(v) - 1] != ','
               ? 0 : -1;
}

/* the options of placement, several chips and the pingpong: 0, a usage
 * error's status, or -1 if `a` is none of them */
static int parse_chips(sim_opts_t *o, const char *a, const char *v)
{
    long long x;
    char tail;
    if (!strcmp(a, "--map"))
        o->map = v;
    else if (!strcmp(a, "--traffic"))
        o->traffic = v;
    else if (!strcmp(a, "--hier-ml")) {
        if (mc_opt_int("sim", a, v, 0, 1LL << 50, &x))
            return 2;
        o->hier_ml = x;
        o->hier = 1;
    } else if (!strcmp(a, "--coll") && !strcmp(v, "pingpong")) {
        o->pingpong = 1; /* sim_pingpong.c */
        o->k.coll = MC_COLL_BCAST;
    } else if (!strcmp(a, "--scheme")) { /* read by coll/team_init.c */
        if (strcmp(v, "lp_rg") && strcmp(v, "rp_lg") && strcmp(v, "lp_lg") &&
            strcmp(v, "auto"))
            return mc_usage_error("sim", "--scheme: '%s' is not one of "
                                         "lp_rg, rp_lg, lp_lg, auto", v);
        setenv("MC_P2P_SCHEME", v, 1);
    } else if (!strcmp(a, "--pipe")) {
        if (mc_opt_int("sim", a, v, 0, 1LL << 30, &x))
            return 2;
        setenv("MC_P2P_PIPE", v, 1);
    } else if (!strcmp(a, "--pair")) {
        if (sscanf(v, "%d,%d%c", &o->pair[0], &o->pair[1], &tail) != 2 ||
            o->pair[0] < 0 || o->pair[1] < 0)
            return mc_usage_error("sim", "--pair: '%s' is not two cores A,B",
                                  v);
    } else
        return -1;
    return 0;
}

static int parse_value(sim_opts_t *o, const char *a, const char *v)
{
    long long x;
    int rc = parse_chips(o, a, v);
    if (rc >= 0)
        return rc;
    if (!strcmp(a, "--platform")) o->platform = v;
    else if (!strcmp(a, "--algo")) {
        int max = (int)(sizeof o->algos / sizeof o->algos[0]);
        if (o->nalgos == max)
            return mc_usage_error("sim", "at most %d --algo", max);
        o->algos[o->nalgos++] = v;
        o->algo = o->algos[0];
    } else if (!strcmp(a, "--plot")) o->plot = v;
    else if (!strcmp(a, "--ranks")) {
        if (mc_opt_int("sim", a, v, 1, MC_MAX_RANKS, &x))
            return 2;
        o->ranks = (int)x;
    } else if (!strcmp(a, "--runs")) {
        if (mc_opt_int("sim", a, v, 1, 100000, &x))
            return 2;
        o->runs = (int)x;
    } else if (!strcmp(a, "--iters")) {
        if (mc_opt_int("sim", a, v, 1, 1000000, &x))
            return 2;
        o->iters = (int)x;
    } else if (!strcmp(a, "--warmup")) {
        if (mc_opt_int("sim", a, v, 0, 1000000, &x))
            return 2;
        o->warmup = (int)x;
    } else if (!strcmp(a, "--compute")) {
        char *end;
        o->compute_us = strtod(v, &end);
        if (end == v || *end || !(o->compute_us >= 0 && o->compute_us < 1e9))
            return mc_usage_error("sim", "--compute: '%s' is not a number "
                                         "of microseconds >= 0", v);
        o->nb = 1;
    } else if (!strcmp(a, "--app")) {
        o->app = v;
    } else if (!strcmp(a, "--grid")) {
        if (mc_plat_grid_parse(v, &o->g))
            return mc_usage_error("sim", "--grid: '%s' is not WxH or WxH@X,Y "
                                         "(tiles, e.g. 7x7 or 4x4@2,2)", v);
        o->grid = 1;
    } else if (!strcmp(a, "--root")) {
        if (mc_opt_int("sim", a, v, 0, MC_MAX_RANKS - 1, &x))
            return 2;
        o->k.root = (int)x;
    } else if (!strcmp(a, "--trace")) o->trace = v;
    else if (!strcmp(a, "--jitter")) {
        if (mc_opt_int("sim", a, v, 0, 1LL << 31, &x))
            return 2;
        o->jitter = (uint64_t)x | 1u << 31;
    } else if (!strcmp(a, "--stack-size")) {
        if (mc_opt_int("sim", a, v, 4096, 1LL << 30, &x))
            return 2;
        o->stack_size = (size_t)x;
    } else if (!strcmp(a, "--coll")) {
        o->pingpong = 0;
        if (mc_coll_from_name(v, &o->k.coll) != MC_OK)
            return mc_usage_error("sim", "%s", mc_last_error());
    } else if (!strcmp(a, "--dtype")) {
        if (mc_dtype_from_name(v, &o->k.dt))
            return mc_usage_error("sim", "--dtype: unknown datatype '%s'", v);
    } else if (!strcmp(a, "--op")) {
        if (mc_op_from_name(v, &o->k.op))
            return mc_usage_error("sim", "--op: unknown op '%s'", v);
    } else if (!strcmp(a, "--sizes")) {
        o->nsizes = mc_parse_size_list(v, o->sizes, 64);
        if (o->nsizes <= 0)
            return mc_usage_error("sim", "--sizes: cannot parse '%s'", v);
    } else if (!strcmp(a, "--contention")) {
        if (mc_sim_contention(v, o))
            return mc_usage_error("sim", "--contention: '%s' is not all, "
                                         "none or a list of mpb, link, mc "
                                         "(each once, comma-separated)", v);
    } else
        return mc_usage_error("sim", "unknown option '%s'", a);
    return 0;
}

void mc_sim_defaults(sim_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->k = (mc_case_t){.coll = MC_COLL_COUNT, .dt = MC_UINT8, .op = MC_SUM,
                       .seed = 1};
    o->cont_mpb = o->cont_link = o->cont_mc = -1;
    o->hier_ml = -1;
    o->nsizes = mc_parse_size_list("32,1K,32K,1M", o->sizes, 64);
}

int mc_sim_parse(int argc, char **argv, sim_opts_t *o)
{
    mc_sim_defaults(o);
    int coll_seen = 0, dt_seen = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--check")) { o->check = 1; continue; }
        if (!strcmp(a, "--json")) { o->json = 1; continue; }
        if (!strcmp(a, "--hier")) { o->hier = 1; continue; }
        if (!strcmp(a, "--lenient")) { o->lenient = 1; continue; }
        static const char *const valued[] = {"--platform", "--algo",
            "--ranks", "--runs", "--iters", "--warmup", "--app", "--grid",
            "--root", "--trace", "--jitter", "--coll", "--dtype", "--op",
            "--sizes", "--contention", "--compute", "--pair", "--map",
            "--hier-ml", "--traffic", "--scheme", "--pipe", "--stack-size",
            "--plot", NULL};
        if (i + 1 >= argc)
            return mc_opt_no_value("sim", a, valued);
        coll_seen |= !strcmp(a, "--coll");
        dt_seen |= !strcmp(a, "--dtype");
        int rc = parse_value(o, a, argv[++i]);
        if (rc)
            return rc;
    }
    if (o->app && !coll_seen)
        o->k.coll = MC_COLL_ALLREDUCE; /* --algo names its allreduce */
    if (!o->platform || (!coll_seen && !o->app))
        return mc_usage_error("sim", "--platform and --coll (or --app) are "
                                     "required");
    int red = mc_coll_info(o->k.coll)->props & MC_COLL_REDUCES;
    if (red && !dt_seen)
        o->k.dt = MC_FLOAT64;
    if (o->pingpong && !o->pair[0] && !o->pair[1])
        o->pair[1] = 1; /* cores 0 and 1 by default */
    if (o->hier && (o->algo || o->nb || o->app || o->pingpong))
        return mc_usage_error("sim", "--hier runs the hierarchical "
                                     "collective with the library's choices "
                                     "on each chip and between chips: not "
                                     "with --algo, --compute, --app or a "
                                     "pingpong");
    if (o->pingpong && o->algo)
        return mc_usage_error("sim", "--algo: the pingpong is the two-sided "
                                     "layer's send and receive");
    if (o->nalgos > 1 && (o->app || o->trace || o->traffic))
        return mc_usage_error("sim", "several --algo are compared over "
                                     "--sizes: not with --app, --trace or "
                                     "--traffic (give one --algo)");
    if (o->plot && (o->app || o->pingpong))
        return mc_usage_error("sim", "--plot draws latency against --sizes: "
                                     "not with --app or a pingpong");
    for (int i = 0; i < o->nalgos; i++) {
        mc_sel_t s;
        if (mc_algo_parse(o->k.coll, o->algos[i], "--algo", &s) != MC_OK)
            return mc_usage_error("sim", "%s", mc_last_error());
    }
    return 0;
}
