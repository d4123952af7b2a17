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

#include "data.h"
#include "model_cmd.h"
#include "tools.h"
#include "util/error.h"

_Static_assert(MC_CC_MAX_LEVELS == MC_CCM_MAX_LEVELS, "the tree of data.h");

static int usage(const char *fmt, const char *arg)
{
    char msg[256];
    snprintf(msg, sizeof msg, fmt, arg);
    return mc_usage_error("model", "%s", msg);
}

/* MC_ERR_ARG with mc_last_error(), nothing printed */
static int bad(const char *fmt, const char *arg)
{
    char msg[256];
    snprintf(msg, sizeof msg, fmt, arg);
    return mc_error(MC_ERR_ARG, "%s", msg);
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

/* one option with its value; returns 0, or MC_ERR_ARG */
static int option(model_opts_t *o, const char *a, const char *v)
{
    if (!strcmp(a, "--profile"))
        o->profile = v;
    else if (!strcmp(a, "--coll"))
        o->coll = v;
    else if (!strcmp(a, "--ranks")) {
        if (parse_ranks(v, o))
            return bad("--ranks: cannot parse '%s' (e.g. 2-60 or "
                         "2,4,8; each >= 2)", v);
    } else if (!strcmp(a, "--k")) {
        if (parse_k(v, o))
            return bad("--k: cannot parse '%s' (e.g. 4,4,3)", v);
    } else if (!strcmp(a, "--m")) {
        if ((o->m = atoi(v)) < 1)
            return bad("--m: '%s' is not >= 1", v);
    } else if (!strcmp(a, "--lines")) {
        if (!((o->lines = atof(v)) >= 1))
            return bad("--lines: '%s' is not >= 1", v);
    } else if (!strcmp(a, "--state")) {
        if (strcmp(v, "E") && strcmp(v, "I"))
            return bad("--state: '%s' is not E or I", v);
        o->state[0] = v[0];
    } else if (!strcmp(a, "--contention")) {
        if (strcmp(v, "anchored") && strcmp(v, "fit"))
            return bad("--contention: '%s' is not anchored or fit", v);
        o->tc = !strcmp(v, "fit") ? MC_CCM_TC_FIT : MC_CCM_TC_ANCHORED;
    } else if (!strcmp(a, "--reduce-copy")) {
        if (strcmp(v, "slope") && strcmp(v, "full"))
            return bad("--reduce-copy: '%s' is not slope or full", v);
        o->tk = !strcmp(v, "full") ? MC_CCM_TK_FULL : MC_CCM_TK_SLOPE;
    } else if (!strcmp(a, "--rounds")) {
        if (strcmp(v, "paper") && strcmp(v, "schedule"))
            return bad("--rounds: '%s' is not paper or schedule", v);
        o->opt.rounds_paper = !strcmp(v, "paper");
    } else if (!strcmp(a, "--order")) {
        if (strcmp(v, "nonincreasing") && strcmp(v, "any"))
            return bad("--order: '%s' is not nonincreasing or any", v);
        o->opt.any_order = !strcmp(v, "any");
    } else if (!strcmp(a, "--c")) {
        char *end;
        o->tc_c = strtod(v, &end);
        if (*end || !(o->tc_c >= 0))
            return bad("--c: '%s' is not a slope >= 0 (ns)", v);
        o->tc_c_set = 1;
    } else if (!strcmp(a, "--dmax")) {
        o->opt.dmax = atoi(v);
        if (o->opt.dmax < 1 || o->opt.dmax > MC_CCM_MAX_LEVELS)
            return bad("--dmax: '%s' is outside 1..16", v);
    } else
        return bad("unknown option '%s'", a);
    return 0;
}

static void defaults(model_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->state[0] = 'E';
    mc_ccopt_opts_default(&o->opt);
}

static int parse(int argc, char **argv, model_opts_t *o)
{
    defaults(o);
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
        if (option(o, argv[i], argv[i + 1]))
            return mc_usage_error("model", "%s", mc_last_error());
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

/* predict: one Table 4.1 model at given parameters for n ranks, into w
 * (its parameters and range) */
static int predict_one(const model_opts_t *o, const mc_ccm_t *m, int n,
                       mc_cc_row_t *w)
{
    const char *c = o->coll ? o->coll : "";
    mc_ccm_range_t t = {0};
    int rc;
    memset(w, 0, sizeof *w);
    snprintf(w->coll, sizeof w->coll, "%s", c);
    w->ranks = n;
    w->ties = -1;
    if (!strcmp(c, "barrier")) {
        w->kind = MC_CC_MROUNDS;
        w->m = o->m ? o->m : 2;
        w->rounds = mc_ccm_barrier_rounds(n, w->m, o->opt.rounds_paper);
        if (w->rounds < 0)
            return mc_error(MC_ERR_ARG, "--m: %d peers per round never "
                            "reach %d ranks", w->m, n);
        rc = mc_ccm_barrier(m, w->m, w->rounds, &t);
    } else if (!strcmp(c, "bcast-pipelined") || !strcmp(c, "bcast-flat")) {
        w->kind = MC_CC_LINES;
        w->lines = o->lines > 0 ? o->lines : 128;
        rc = c[6] == 'p' ? mc_ccm_bcast_pipelined(m, n, w->lines / (n - 1), &t)
                         : mc_ccm_bcast_flat(m, n, w->lines, &t);
    } else if (!strcmp(c, "notify-bw")) {
        w->kind = MC_CC_CHILDREN;
        w->children = n - 1;
        rc = mc_ccm_notify_bw(m, n, &t);
    } else {
        mc_ccopt_coll_t coll;
        MC_CHECK(mc_ccopt_coll_from_name(c, &coll));
        if (!o->d)
            return mc_error(MC_ERR_ARG, "--k: a tree (e.g. --k 4,4,3) is "
                            "needed for %s", c);
        if (mc_ccm_tree_size(o->d, o->k) < n)
            return mc_error(MC_ERR_ARG, "--k: the tree reaches %ld ranks, "
                            "fewer than %d", mc_ccm_tree_size(o->d, o->k), n);
        w->kind = MC_CC_TREE;
        w->d = o->d;
        memcpy(w->k, o->k, sizeof(int) * (size_t)o->d);
        rc = mc_ccopt_tree_eval(m, coll, o->d, o->k, &t);
    }
    w->min_ns = t.min;
    w->max_ns = t.max;
    return rc;
}

/* a row's parameters as --json writes them ("m": 2, "rounds": 3) */
static void params_text(const mc_cc_row_t *w, char *buf, size_t len)
{
    if (w->kind == MC_CC_MROUNDS)
        snprintf(buf, len, "\"m\": %d, \"rounds\": %d", w->m, w->rounds);
    else if (w->kind == MC_CC_LINES)
        snprintf(buf, len, "\"lines\": %g", w->lines);
    else if (w->kind == MC_CC_CHILDREN)
        snprintf(buf, len, "\"children\": %d", w->children);
    else {
        int n = snprintf(buf, len, "\"d\": %d, \"k\": [", w->d);
        for (int i = 0; i < w->d; i++)
            n += snprintf(buf + n, len - (size_t)n, "%s%d", i ? ", " : "",
                          w->k[i]);
        snprintf(buf + n, len - (size_t)n, "]");
    }
}

/* the rows of predict or optimize for o's rank counts */
static int cc_rows(const model_opts_t *o, const mc_ccm_t *m, int opt,
                   mc_cc_row_t *rows)
{
    mc_ccopt_coll_t coll = 0;
    if (opt)
        MC_CHECK(mc_ccopt_coll_from_name(o->coll, &coll));
    for (int i = 0; i < o->nranks; i++) {
        mc_ccopt_result_t r;
        mc_cc_row_t *w = &rows[i];
        if (!opt) {
            MC_CHECK(predict_one(o, m, o->ranks[i], w));
            continue;
        }
        MC_CHECK(mc_ccopt_solve(m, coll, o->ranks[i], &o->opt, &r));
        *w = (mc_cc_row_t){.ranks = r.ranks, .ties = r.ties, .m = r.m,
                           .rounds = r.rounds, .d = r.d, .min_ns = r.min_ns,
                           .max_ns = r.max_ns,
                           .kind = coll == MC_CCOPT_BARRIER ? MC_CC_MROUNDS
                                                            : MC_CC_TREE};
        memcpy(w->k, r.k, sizeof(int) * (size_t)r.d);
        snprintf(w->coll, sizeof w->coll, "%s", mc_ccopt_coll_name(coll));
    }
    return MC_OK;
}

static int predict(const model_opts_t *o, const mc_ccm_t *m)
{
    if (!o->nranks)
        return usage("missing --ranks LIST%s", "");
    mc_cc_row_t *rows = calloc((size_t)o->nranks, sizeof *rows);
    if (!rows || cc_rows(o, m, 0, rows) != MC_OK) {
        fprintf(stderr, "manycoll model: %s (valid --coll: bcast-small, "
                "reduce-small, barrier, bcast-pipelined, bcast-flat, "
                "notify-bw)\n", rows ? mc_last_error() : "out of memory");
        free(rows);
        return 1;
    }
    if (!o->json)
        printf("%6s %10s %10s  %s\n", "ranks", "min_ns", "max_ns", "params");
    for (int i = 0; i < o->nranks; i++) {
        char params[256];
        params_text(&rows[i], params, sizeof params);
        if (o->json)
            printf("{\"coll\": \"%s\", \"ranks\": %d, %s, \"min_ns\": "
                   "%.3f, \"max_ns\": %.3f}\n", o->coll, o->ranks[i],
                   params, rows[i].min_ns, rows[i].max_ns);
        else
            printf("%6d %10.1f %10.1f  %s\n", o->ranks[i], rows[i].min_ns,
                   rows[i].max_ns, params);
    }
    free(rows);
    return 0;
}

/* the spec's options as the command's (model_opts_t) */
static int cc_options(const mc_cc_spec_t *s, model_opts_t *o)
{
    static const char *const names[] = {"--k", "--m", "--lines", "--state",
        "--contention", "--reduce-copy", "--rounds", "--order", "--c",
        "--dmax"};
    const char *const vals[] = {s->k, s->m, s->lines, s->state,
        s->contention, s->reduce_copy, s->rounds, s->order, s->c, s->dmax};
    defaults(o);
    if (!s->profile)
        return bad("missing profile (a name in platforms/profiles or a "
                   ".json path)%s", "");
    o->profile = s->profile;
    o->coll = s->coll;
    if (!s->ranks)
        return bad("missing ranks (e.g. 2-60)%s", "");
    MC_CHECK(option(o, "--ranks", s->ranks));
    for (int i = 0; i < (int)(sizeof names / sizeof *names); i++)
        if (vals[i])
            MC_CHECK(option(o, names[i], vals[i]));
    return MC_OK;
}

/* the model of profile p (load() of the command, nothing printed) */
static int cc_model(const model_opts_t *o, const mc_profile_t *p,
                    mc_ccm_t *m)
{
    MC_CHECK(mc_ccm_from_profile(p, o->state, m));
    m->tc_mode = o->tc;
    m->tk_mode = o->tk;
    if (o->tc_c_set && !m->has_tc) {
        m->has_tc = 1;
        m->tc_c = o->tc_c;
        m->tc_mode = MC_CCM_TC_ANCHORED;
    }
    return MC_OK;
}

int mc_cc_data(const mc_cc_spec_t *s, mc_cc_row_t **rows, int *nrows)
{
    model_opts_t *o = malloc(sizeof *o);
    mc_profile_t *p = malloc(sizeof *p);
    mc_ccm_t m;
    *rows = NULL;
    *nrows = -1;
    int rc = o && p ? cc_options(s, o)
                    : mc_error(MC_ERR_NOMEM, "out of memory");
    int loaded = rc == MC_OK && mc_profile_load(o->profile, p) == MC_OK;
    if (rc == MC_OK && !loaded)
        rc = MC_ERR_ARG; /* mc_last_error() says why */
    if (rc == MC_OK && (rc = cc_model(o, p, &m)) == MC_OK) {
        *nrows = 0;
        *rows = calloc((size_t)o->nranks, sizeof **rows);
        rc = *rows ? cc_rows(o, &m, s->optimize, *rows)
                   : mc_error(MC_ERR_NOMEM, "out of memory");
    }
    if (rc == MC_OK)
        *nrows = o->nranks;
    else {
        free(*rows);
        *rows = NULL;
    }
    if (loaded)
        mc_profile_free(p);
    free(o);
    free(p);
    return rc;
}

static int cc_models(int argc, char **argv)
{
    model_opts_t *o = malloc(sizeof *o);
    mc_profile_t *p = malloc(sizeof *p);
    int rc = !o || !p ? mc_usage_error("model", "out of memory")
                      : parse(argc, argv, o);
    mc_ccm_t m;
    if (rc == 0 && mc_parse_only()) {
        free(o);
        free(p);
        return 0;
    }
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
