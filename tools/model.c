/*
 * manycoll model: analytic models.
 *
 *   model optimize --profile P --coll bcast-small|reduce-small|barrier
 *                  --ranks 2-60 [--json] [variant options]
 *       the parameters that minimise the collective's best-case model for
 *       each rank count (Ramos & Hoefler 2013, Section 4.4, Appendix B)
 *   model predict  --profile P --coll C --ranks LIST [--k 4,4,3 | --m M |
 *                  --lines N] [--json]
 *       a min-max model of Table 4.1 at given parameters
 *   model profile  --profile P      what a profile holds
 *   model pingpong --profile P      Eq. 2.1 / 3.1 against the profile's
 *                                   measured ping-pongs
 *
 * Variant options (defaults reproduce Appendix B; see ccmodel.c and
 * docs/papers/cachecoh.md): --state E|I, --contention anchored|fit,
 * --reduce-copy slope|full, --rounds paper|schedule,
 * --order nonincreasing|any, --dmax D; --c NS: the contention slope to
 * use when the profile has no contention fit (a 2-core machine cannot
 * measure one), in the anchored form T_C(n) = R_L + R_R + c (n - 1) --
 * at 2 ranks (T_C(1)) any c gives the same, so `--c 0` is exact there.
 *
 * Two forms live here: the cache-coherence models above (first argument a
 * subcommand) and `model --platform P ...` for the platform (LogP put/get)
 * models of the OC-Bcast paper (model_platform.c, model_paper.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_cmd.h"
#include "tools.h"
#include "util/error.h"

static int usage(const char *fmt, const char *arg)
{
    char msg[256];
    snprintf(msg, sizeof msg, fmt, arg);
    return mc_usage_error("model", "%s", msg);
}

/* "2-60", "30", "2,4,8-16" */
static int parse_ranks(const char *s, model_opts_t *o)
{
    char buf[512];
    if (strlen(s) >= sizeof buf)
        return -1;
    strcpy(buf, s);
    char *save = NULL;
    o->nranks = 0;
    for (char *t = strtok_r(buf, ",", &save); t;
         t = strtok_r(NULL, ",", &save)) {
        char *end;
        long lo = strtol(t, &end, 10), hi = lo;
        if (*end == '-')
            hi = strtol(end + 1, &end, 10);
        if (*end || lo < 2 || hi < lo || hi > 1 << 16 ||
            o->nranks + (hi - lo + 1) > MODEL_MAX_RANKS)
            return -1;
        for (long n = lo; n <= hi; n++)
            o->ranks[o->nranks++] = (int)n;
    }
    return o->nranks > 0 ? 0 : -1;
}

static int parse_k(const char *s, model_opts_t *o)
{
    char buf[256];
    if (strlen(s) >= sizeof buf)
        return -1;
    strcpy(buf, s);
    char *save = NULL;
    o->d = 0;
    for (char *t = strtok_r(buf, ",", &save); t;
         t = strtok_r(NULL, ",", &save)) {
        char *end;
        long v = strtol(t, &end, 10);
        if (*end || v < 1 || v > 1 << 16 || o->d == MC_CCM_MAX_LEVELS)
            return -1;
        o->k[o->d++] = (int)v;
    }
    return o->d > 0 ? 0 : -1;
}

/* one option with its value; returns 0, or a usage error */
static int option(model_opts_t *o, const char *a, const char *v)
{
    if (!strcmp(a, "--profile"))
        o->profile = v;
    else if (!strcmp(a, "--coll"))
        o->coll = v;
    else if (!strcmp(a, "--ranks")) {
        if (parse_ranks(v, o))
            return usage("--ranks: cannot parse '%s' (e.g. 2-60 or "
                         "2,4,8; each >= 2)", v);
    } else if (!strcmp(a, "--k")) {
        if (parse_k(v, o))
            return usage("--k: cannot parse '%s' (e.g. 4,4,3)", v);
    } else if (!strcmp(a, "--m")) {
        if ((o->m = atoi(v)) < 1)
            return usage("--m: '%s' is not >= 1", v);
    } else if (!strcmp(a, "--lines")) {
        if (!((o->lines = atof(v)) >= 1))
            return usage("--lines: '%s' is not >= 1", v);
    } else if (!strcmp(a, "--state")) {
        if (strcmp(v, "E") && strcmp(v, "I"))
            return usage("--state: '%s' is not E or I", v);
        o->state[0] = v[0];
    } else if (!strcmp(a, "--contention")) {
        if (strcmp(v, "anchored") && strcmp(v, "fit"))
            return usage("--contention: '%s' is not anchored or fit", v);
        o->tc = !strcmp(v, "fit") ? MC_CCM_TC_FIT : MC_CCM_TC_ANCHORED;
    } else if (!strcmp(a, "--reduce-copy")) {
        if (strcmp(v, "slope") && strcmp(v, "full"))
            return usage("--reduce-copy: '%s' is not slope or full", v);
        o->tk = !strcmp(v, "full") ? MC_CCM_TK_FULL : MC_CCM_TK_SLOPE;
    } else if (!strcmp(a, "--rounds")) {
        if (strcmp(v, "paper") && strcmp(v, "schedule"))
            return usage("--rounds: '%s' is not paper or schedule", v);
        o->opt.rounds_paper = !strcmp(v, "paper");
    } else if (!strcmp(a, "--order")) {
        if (strcmp(v, "nonincreasing") && strcmp(v, "any"))
            return usage("--order: '%s' is not nonincreasing or any", v);
        o->opt.any_order = !strcmp(v, "any");
    } else if (!strcmp(a, "--c")) {
        char *end;
        o->tc_c = strtod(v, &end);
        if (*end || !(o->tc_c >= 0))
            return usage("--c: '%s' is not a slope >= 0 (ns)", v);
        o->tc_c_set = 1;
    } else if (!strcmp(a, "--dmax")) {
        o->opt.dmax = atoi(v);
        if (o->opt.dmax < 1 || o->opt.dmax > MC_CCM_MAX_LEVELS)
            return usage("--dmax: '%s' is outside 1..16", v);
    } else
        return usage("unknown option '%s'", a);
    return 0;
}

static int parse(int argc, char **argv, model_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->state[0] = 'E';
    mc_ccopt_opts_default(&o->opt);
    o->sub = argv[1];
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) {
            o->json = 1;
            continue;
        }
        static const char *const valued[] = {"--profile", "--coll",
            "--ranks", "--k", "--m", "--lines", "--state", "--contention",
            "--reduce-copy", "--rounds", "--order", "--c", "--dmax", NULL};
        if (i + 1 >= argc)
            return mc_opt_no_value("model", argv[i], valued);
        int rc = option(o, argv[i], argv[i + 1]);
        if (rc)
            return rc;
        i++;
    }
    if (!o->profile)
        return usage("missing --profile P (a name in platforms/profiles or "
                     "a .json path)%s", "");
    return 0;
}

static void print_k(const int *k, int d)
{
    for (int i = 0; i < d; i++)
        printf("%s%d", i ? ", " : "", k[i]);
}

static void print_row(const model_opts_t *o, mc_ccopt_coll_t coll,
                      const mc_ccopt_result_t *r)
{
    if (o->json) {
        printf("{\"coll\": \"%s\", \"ranks\": %d, ", mc_ccopt_coll_name(coll),
               r->ranks);
        if (coll == MC_CCOPT_BARRIER)
            printf("\"m\": %d, \"rounds\": %d, ", r->m, r->rounds);
        else {
            printf("\"d\": %d, \"k\": [", r->d);
            print_k(r->k, r->d);
            printf("], ");
        }
        printf("\"min_ns\": %.3f, \"max_ns\": %.3f, \"ties\": %d}\n",
               r->min_ns, r->max_ns, r->ties);
        return;
    }
    if (coll == MC_CCOPT_BARRIER)
        printf("%6d %4d %7d", r->ranks, r->m, r->rounds);
    else {
        char ks[64] = "";
        for (int i = 0, len = 0; i < r->d; i++)
            len += snprintf(ks + len, sizeof ks - (size_t)len, "%s%d",
                            i ? "," : "", r->k[i]);
        printf("%6d %2d %-12s", r->ranks, r->d, ks);
    }
    printf(" %10.1f %10.1f %5d\n", r->min_ns, r->max_ns, r->ties);
}

static int load(const model_opts_t *o, mc_profile_t *p, mc_ccm_t *m)
{
    if (mc_profile_load(o->profile, p) != MC_OK ||
        mc_ccm_from_profile(p, o->state, m) != MC_OK) {
        fprintf(stderr, "manycoll model: %s\n", mc_last_error());
        return 1;
    }
    m->tc_mode = o->tc;
    m->tk_mode = o->tk;
    if (o->tc_c_set && !m->has_tc) { /* anchored: b = R_L + R_R - c */
        m->has_tc = 1;
        m->tc_c = o->tc_c;
        m->tc_mode = MC_CCM_TC_ANCHORED;
    }
    return 0;
}

static void print_header(const model_opts_t *o, const mc_profile_t *p,
                         mc_ccopt_coll_t coll)
{
    int bar = coll == MC_CCOPT_BARRIER;
    const char *variant =
        bar ? (o->opt.rounds_paper ? "rounds ceil(log_m n)"
                                   : "rounds ceil(log_{m+1} n)")
        : coll == MC_CCOPT_REDUCE_SMALL
            ? (o->tk == MC_CCM_TK_FULL ? "T_k = o*k+q-p/k" : "T_k = o*k")
            : "tree";
    printf("# %s on profile %s (buffers %s; contention %s; %s%s)\n",
           mc_ccopt_coll_name(coll), p->name, o->state,
           o->tc == MC_CCM_TC_FIT ? "fit" : "anchored", variant,
           bar ? "" : o->opt.any_order ? ", any k order"
                                       : ", k non-increasing");
    printf(bar ? "%6s %4s %7s" : "%6s %2s %-12s", "ranks", bar ? "m" : "d",
           bar ? "rounds" : "k");
    printf(" %10s %10s %5s\n", "min_ns", "max_ns", "ties");
}

static int optimize(const model_opts_t *o, const mc_profile_t *p,
                    const mc_ccm_t *m)
{
    mc_ccopt_coll_t coll;
    if (!o->nranks)
        return usage("missing --ranks LIST (e.g. 2-60)%s", "");
    if (mc_ccopt_coll_from_name(o->coll, &coll) != MC_OK)
        return mc_usage_error("model", "%s", mc_last_error());
    mc_ccopt_result_t *r = calloc((size_t)o->nranks, sizeof *r);
    if (!r)
        return mc_usage_error("model", "out of memory");
    for (int i = 0; i < o->nranks; i++)
        if (mc_ccopt_solve(m, coll, o->ranks[i], &o->opt, &r[i]) != MC_OK) {
            fprintf(stderr, "manycoll model: %s\n", mc_last_error());
            free(r);
            return 1;
        }
    if (!o->json)
        print_header(o, p, coll);
    for (int i = 0; i < o->nranks; i++)
        print_row(o, coll, &r[i]);
    free(r);
    return 0;
}

/* predict: one Table 4.1 model at given parameters, for each rank count */
static int predict_one(const model_opts_t *o, const mc_ccm_t *m, int n,
                       mc_ccm_range_t *t, char *params, size_t len)
{
    const char *c = o->coll ? o->coll : "";
    if (!strcmp(c, "barrier")) {
        int mp = o->m ? o->m : 2;
        int r = mc_ccm_barrier_rounds(n, mp, o->opt.rounds_paper);
        if (r < 0)
            return mc_error(MC_ERR_ARG, "--m: %d peers per round never "
                            "reach %d ranks", mp, n);
        snprintf(params, len, "\"m\": %d, \"rounds\": %d", mp, r);
        return mc_ccm_barrier(m, mp, r, t);
    }
    if (!strcmp(c, "bcast-pipelined") || !strcmp(c, "bcast-flat")) {
        double lines = o->lines > 0 ? o->lines : 128;
        snprintf(params, len, "\"lines\": %g", lines);
        if (c[6] == 'p')
            return mc_ccm_bcast_pipelined(m, n, lines / (n - 1), t);
        return mc_ccm_bcast_flat(m, n, lines, t);
    }
    if (!strcmp(c, "notify-bw")) {
        snprintf(params, len, "\"children\": %d", n - 1);
        return mc_ccm_notify_bw(m, n, t);
    }
    mc_ccopt_coll_t coll;
    MC_CHECK(mc_ccopt_coll_from_name(c, &coll));
    if (!o->d)
        return mc_error(MC_ERR_ARG, "--k: a tree (e.g. --k 4,4,3) is needed "
                        "for %s", c);
    if (mc_ccm_tree_size(o->d, o->k) < n)
        return mc_error(MC_ERR_ARG, "--k: the tree reaches %ld ranks, fewer "
                        "than %d", mc_ccm_tree_size(o->d, o->k), n);
    int len0 = snprintf(params, len, "\"d\": %d, \"k\": [", o->d);
    for (int i = 0; i < o->d; i++)
        len0 += snprintf(params + len0, len - (size_t)len0, "%s%d",
                         i ? ", " : "", o->k[i]);
    snprintf(params + len0, len - (size_t)len0, "]");
    return mc_ccopt_tree_eval(m, coll, o->d, o->k, t);
}

static int predict(const model_opts_t *o, const mc_ccm_t *m)
{
    if (!o->nranks)
        return usage("missing --ranks LIST%s", "");
    for (int pass = 0; pass < 2; pass++) { /* check all, then print */
        if (pass && !o->json)
            printf("%6s %10s %10s  %s\n", "ranks", "min_ns", "max_ns",
                   "params");
        for (int i = 0; i < o->nranks; i++) {
            mc_ccm_range_t t;
            char params[256];
            if (predict_one(o, m, o->ranks[i], &t, params, sizeof params)) {
                fprintf(stderr, "manycoll model: %s (valid --coll: "
                        "bcast-small, reduce-small, barrier, bcast-pipelined,"
                        " bcast-flat, notify-bw)\n", mc_last_error());
                return 1;
            }
            if (pass && o->json)
                printf("{\"coll\": \"%s\", \"ranks\": %d, %s, \"min_ns\": "
                       "%.3f, \"max_ns\": %.3f}\n", o->coll, o->ranks[i],
                       params, t.min, t.max);
            else if (pass)
                printf("%6d %10.1f %10.1f  %s\n", o->ranks[i], t.min, t.max,
                       params);
        }
    }
    return 0;
}

static int cc_models(int argc, char **argv)
{
    model_opts_t *o = malloc(sizeof *o);
    mc_profile_t *p = malloc(sizeof *p);
    int rc = !o || !p ? mc_usage_error("model", "out of memory")
                      : parse(argc, argv, o);
    mc_ccm_t m;
    if (rc == 0)
        rc = load(o, p, &m);
    if (rc == 0) {
        if (!strcmp(o->sub, "optimize"))
            rc = optimize(o, p, &m);
        else if (!strcmp(o->sub, "predict"))
            rc = predict(o, &m);
        else if (!strcmp(o->sub, "profile"))
            rc = model_profile(o, p);
        else
            rc = model_pingpong(o, p);
        mc_profile_free(p);
    }
    free(o);
    free(p);
    return rc;
}

/* `manycoll model --platform P ...`: the OC-Bcast paper's LogP put/get
 * models on a simulated platform, in model_platform.c. */
static int platform_models(int argc, char **argv)
{
    return model_platform(argc, argv);
}

int cmd_model(int argc, char **argv)
{
    static const char *const subs[] = {"optimize", "predict", "profile",
                                       "pingpong"};
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--platform"))
            return platform_models(argc, argv);
    for (size_t i = 0; argc > 1 && i < sizeof subs / sizeof *subs; i++)
        if (!strcmp(argv[1], subs[i]))
            return cc_models(argc, argv);
    return usage("unknown or missing subcommand '%s' (optimize, predict, "
                 "profile, pingpong; or --platform P)",
                 argc > 1 ? argv[1] : "");
}
