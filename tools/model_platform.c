/*
 * manycoll model --platform P: the OC-Bcast paper's LogP put/get model
 * (src/model/ocbmodel.h) on a simulated platform.
 *
 *   manycoll model --platform scc48 --coll bcast --algo A[:k=..,chunk=..,
 *                  leafdirect=..] [--sizes LIST] [--unit bytes|lines]
 *                  [--ranks N] [--root R] [--mode paper|layout] [--json]
 *       predicted latency and throughput of the library's broadcast A
 *       (ocbcast, binomial, scatter-allgather), with the JSON fields of
 *       `manycoll sim --json` plus "source":"model" and "mode";
 *       scatter-allgather:overlap=1 models a ring of mc_p2p_sendrecv
 *       instead of the library's (model only, see ocbmodel.h)
 *   manycoll model --platform scc48 --table2 [--ranks N] [--json]
 *       the paper's Table 2 next to formulas (15), (16) and our models
 *   manycoll model --platform scc48 --figure7 [--sizes LIST] [--json]
 *       formulas (13), (14) of Figure 7 for k = 2, 7, 47 and binomial
 *
 * Sizes: a list of items, each a number with an optional unit suffix (K,
 * M, G: bytes x 2^10.., L: cache lines of the platform) or a range A-B
 * (step 1) or A-B/S (step S) in the unit of B; bare numbers are bytes, or
 * lines with --unit lines. E.g. "1L-192L", "32,1K,1M", "--unit lines
 * 1-192". Mode paper (the default) puts every access at distance 1, as
 * the paper's analysis; layout uses the platform's distances.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data.h"
#include "model_cmd.h"
#include "tools.h"
#include "util/config.h"
#include "util/error.h"

#define MAX_SIZES 4096

typedef struct plat_opts {
    const char *platform, *coll, *algo, *sizes_arg;
    int ranks, root, json, lines_unit, report; /* report: 2 or 7 */
    int lenient; /* --lenient: unknown keys of the platform file ignored */
    mc_ocb_mode_t mode;
    size_t sizes[MAX_SIZES];
    int nsizes;
} plat_opts_t;

static int usage_err(const char *fmt, const char *arg)
{
    char msg[512];
    snprintf(msg, sizeof msg, fmt, arg);
    return mc_usage_error("model", "%s", msg);
}

/* the same as MC_ERR_ARG with mc_last_error(), nothing printed */
static int arg_err(const char *fmt, const char *arg)
{
    char msg[512];
    snprintf(msg, sizeof msg, fmt, arg);
    return mc_error(MC_ERR_ARG, "%s", msg);
}

/* one size "12", "3K", "96L"; lines_unit makes bare numbers lines */
static long long one_size(const char *s, int line, int lines_unit)
{
    char buf[64];
    size_t n = strlen(s);
    if (n == 0 || n >= sizeof buf)
        return -1;
    strcpy(buf, s);
    int lines = lines_unit;
    if (toupper((unsigned char)buf[n - 1]) == 'L') {
        buf[n - 1] = 0;
        lines = 1;
    } else if (isalpha((unsigned char)buf[n - 1]))
        lines = 0;
    long long v = mc_parse_size(buf);
    return v < 0 ? -1 : lines ? v * line : v;
}

/* the unit suffix of s ("L", "K", ...) or "" */
static const char *suffix(const char *s)
{
    const char *e = s + strlen(s);
    while (e > s && isalpha((unsigned char)e[-1]))
        e--;
    return e;
}

/* "A-B" or "A-B/S": A, A + S, ... B in the unit of B (A without a unit
 * takes B's) */
static int add_range(plat_opts_t *o, char *t, int line)
{
    char *dash = strchr(t + 1, '-'), *slash = strchr(t, '/');
    long long step = 1;
    if (slash) {
        *slash = 0;
        step = atoll(slash + 1);
    }
    if (!dash || step < 1)
        return -1;
    *dash = 0;
    const char *unit = suffix(dash + 1);
    char lo[80], one[16];
    snprintf(lo, sizeof lo, "%s%s", t, *suffix(t) ? "" : unit);
    snprintf(one, sizeof one, "1%s", unit);
    long long a = one_size(lo, line, o->lines_unit);
    long long b = one_size(dash + 1, line, o->lines_unit);
    long long u = one_size(one, line, o->lines_unit);
    if (a < 0 || b < a || u < 1)
        return -1;
    for (long long v = a; v <= b; v += step * u) {
        if (o->nsizes == MAX_SIZES)
            return -1;
        o->sizes[o->nsizes++] = (size_t)v;
    }
    return 0;
}

static int parse_sizes(plat_opts_t *o, const char *s, int line)
{
    char buf[4096];
    if (strlen(s) >= sizeof buf)
        return -1;
    strcpy(buf, s);
    o->nsizes = 0;
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t;
         t = strtok_r(NULL, ",", &save)) {
        if (strchr(t + 1, '-')) {
            if (add_range(o, t, line))
                return -1;
            continue;
        }
        long long v = one_size(t, line, o->lines_unit);
        if (v < 0 || o->nsizes == MAX_SIZES)
            return -1;
        o->sizes[o->nsizes++] = (size_t)v;
    }
    return o->nsizes > 0 ? 0 : -1;
}

static int option(plat_opts_t *o, const char *a, const char *v)
{
    if (!strcmp(a, "--platform"))
        o->platform = v;
    else if (!strcmp(a, "--coll"))
        o->coll = v;
    else if (!strcmp(a, "--algo"))
        o->algo = v;
    else if (!strcmp(a, "--sizes"))
        o->sizes_arg = v;
    else if (!strcmp(a, "--ranks") || !strcmp(a, "--root")) {
        char *end;
        long n = strtol(v, &end, 10);
        if (*end || n < 0 || n > 1 << 20)
            return usage_err("%s: not a count", a);
        *(!strcmp(a, "--ranks") ? &o->ranks : &o->root) = (int)n;
    } else if (!strcmp(a, "--unit")) {
        if (strcmp(v, "bytes") && strcmp(v, "lines"))
            return usage_err("--unit: '%s' is not bytes or lines", v);
        o->lines_unit = !strcmp(v, "lines");
    } else if (!strcmp(a, "--mode")) {
        if (strcmp(v, "paper") && strcmp(v, "layout"))
            return usage_err("--mode: '%s' is not paper or layout", v);
        o->mode = !strcmp(v, "layout") ? MC_OCB_LAYOUT : MC_OCB_PAPER;
    } else
        return usage_err("unknown option '%s'", a);
    return 0;
}

static int parse(int argc, char **argv, plat_opts_t *o)
{
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--lenient")) {
            o->lenient = 1;
            continue;
        }
        if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "--table2") ||
            !strcmp(argv[i], "--figure7")) {
            o->json |= argv[i][2] == 'j';
            o->report = argv[i][2] == 't' ? 2 : argv[i][2] == 'f' ? 7
                                                                  : o->report;
            continue;
        }
        static const char *const valued[] = {"--platform", "--coll",
            "--algo", "--sizes", "--ranks", "--root", "--unit", "--mode",
            NULL};
        if (i + 1 >= argc)
            return mc_opt_no_value("model", argv[i], valued);
        int rc = option(o, argv[i], argv[i + 1]);
        if (rc)
            return rc;
        i++;
    }
    if (!o->report && (!o->coll || strcmp(o->coll, "bcast")))
        return usage_err("--coll: '%s' is not modelled on platforms (only "
                         "bcast)", o->coll ? o->coll : "(missing)");
    if (!o->report && !o->algo)
        return usage_err("missing --algo (ocbcast, binomial or "
                         "scatter-allgather)%s", "");
    return 0;
}

/* "k=7", "chunk=96L", "leafdirect=1" into c */
static int algo_param(mc_ocb_cfg_t *c, char *kv, int line)
{
    char *eq = strchr(kv, '=');
    if (!eq)
        return arg_err("--algo: parameter '%s' has no value", kv);
    *eq = 0;
    long long v = one_size(eq + 1, line, 0);
    if (v < 0 || v > 1 << 30)
        return arg_err("--algo: bad value for parameter '%s'", kv);
    if (c->alg == MC_OCB_SAG && !strcmp(kv, "overlap") && v <= 1) {
        c->sag_overlap = (int)v;
        return 0;
    }
    if (c->alg != MC_OCB_OCBCAST)
        return arg_err("--algo: parameter '%s' unknown here (binomial "
                         "takes none; scatter-allgather takes overlap=0|1, "
                         "model only)", kv);
    if (!strcmp(kv, "k"))
        c->k = (int)v;
    else if (!strcmp(kv, "chunk"))
        c->chunk = (size_t)v;
    else if (!strcmp(kv, "leafdirect") && v <= 2)
        c->leafdirect = (int)v;
    else
        return arg_err("--algo: unknown or out-of-range parameter '%s' "
                         "(ocbcast takes k, chunk (bytes, K, or lines with "
                         "L), leafdirect 0-2)", kv);
    return 0;
}

static int parse_algo(const char *spec, int line, mc_ocb_cfg_t *c)
{
    char buf[256];
    if (strlen(spec) >= sizeof buf)
        return arg_err("--algo: '%s' is too long", spec);
    strcpy(buf, spec);
    char *colon = strchr(buf, ':');
    if (colon)
        *colon = 0;
    c->leafdirect = 2;
    if (!strcmp(buf, "ocbcast"))
        c->alg = MC_OCB_OCBCAST;
    else if (!strcmp(buf, "binomial"))
        c->alg = MC_OCB_BINOMIAL;
    else if (!strcmp(buf, "scatter-allgather"))
        c->alg = MC_OCB_SAG;
    else
        return arg_err("--algo: unknown algorithm '%s' (the platform "
                         "model knows ocbcast, binomial, scatter-allgather)",
                         buf);
    char *save = NULL;
    for (char *t = colon ? strtok_r(colon + 1, ",", &save) : NULL; t;
         t = strtok_r(NULL, ",", &save)) {
        int rc = algo_param(c, t, line);
        if (rc)
            return rc;
    }
    return 0;
}

static void algo_name(const mc_ocb_cfg_t *c, char *buf, size_t len)
{
    if (c->alg == MC_OCB_OCBCAST)
        snprintf(buf, len, "ocbcast:k=%d,chunk=%zu,leafdirect=%d", c->k,
                 c->chunk, c->leafdirect);
    else if (c->alg == MC_OCB_SAG && c->sag_overlap)
        snprintf(buf, len, "scatter-allgather:overlap=1");
    else
        snprintf(buf, len, "%s",
                 c->alg == MC_OCB_BINOMIAL ? "binomial" : "scatter-allgather");
}

static void print_row(const plat_opts_t *o, const mc_ocb_row_t *w)
{
    if (o->json) {
        char extra[64] = "";
        if (w->peak_MBps > 0)
            snprintf(extra, sizeof extra, ",\"peak_MBps\":%.4f",
                     w->peak_MBps);
        printf("{\"platform\":\"%s\",\"coll\":\"bcast\",\"algo\":\"%s\","
               "\"ranks\":%d,\"root\":%d,\"bytes\":%zu,\"lat_us\":%.4f,"
               "\"bw_MBps\":%.4f,\"done_min_us\":%.4f,\"done_max_us\":%.4f,"
               "\"done_stdev_us\":%.4f,\"events\":0,\"events_per_s\":0,"
               "\"source\":\"model\",\"mode\":\"%s\"%s}\n",
               w->platform, w->algo, w->ranks, w->root, w->bytes, w->lat_us,
               w->bw_MBps, w->done_min_us, w->done_max_us, w->done_stdev_us,
               w->mode, extra);
        return;
    }
    printf("%-10zu %12.3f %12.3f %12.3f %12.3f %10.3f  %s\n", w->bytes,
           w->lat_us, w->bw_MBps, w->done_min_us, w->done_max_us,
           w->done_stdev_us, w->algo);
}

/* the rows of o's sizes into rows[0..o->nsizes): MC_OK, MC_ERR_ARG for
 * a wrong --algo (*spec set), or the model's error; mc_last_error() */
static int model_rows(const plat_opts_t *o, const mc_platform_t *p,
                      mc_ocb_row_t *rows, int *spec)
{
    mc_ocb_cfg_t c = {.ranks = o->ranks, .root = o->root, .mode = o->mode};
    *spec = 1;
    MC_CHECK(parse_algo(o->algo, p->line, &c));
    MC_CHECK(mc_ocb_resolve(p, &c));
    double peak = 0;
    if (c.alg == MC_OCB_OCBCAST && c.ranks > 1)
        MC_CHECK(mc_ocb_ocbcast_peak(p, &c, &peak, NULL));
    *spec = 0;
    for (int i = 0; i < o->nsizes; i++) {
        mc_ocb_result_t r;
        mc_ocb_row_t *w = &rows[i];
        MC_CHECK(mc_ocb_bcast(p, &c, o->sizes[i], &r));
        memset(w, 0, sizeof *w);
        snprintf(w->platform, sizeof w->platform, "%s", p->name);
        algo_name(&c, w->algo, sizeof w->algo);
        snprintf(w->mode, sizeof w->mode, "%s",
                 o->mode == MC_OCB_LAYOUT ? "layout" : "paper");
        w->ranks = c.ranks;
        w->root = c.root;
        w->bytes = o->sizes[i];
        w->lat_us = r.lat_us;
        w->bw_MBps = r.bw_MBps;
        w->done_min_us = r.done_min_us;
        w->done_max_us = r.done_max_us;
        w->done_stdev_us = r.done_stdev_us;
        w->peak_MBps = peak;
    }
    return MC_OK;
}

static int predict(const plat_opts_t *o, const mc_platform_t *p)
{
    mc_ocb_row_t *rows = calloc((size_t)o->nsizes, sizeof *rows);
    int spec = 0, rc = rows ? model_rows(o, p, rows, &spec)
                            : mc_error(MC_ERR_NOMEM, "out of memory");
    if (rc != MC_OK) {
        free(rows);
        if (spec)
            return mc_usage_error("model", "%s", mc_last_error());
        fprintf(stderr, "manycoll model: %s\n", mc_last_error());
        return 1;
    }
    if (!o->json)
        printf("# model (%s mode) of bcast on %s, %d ranks, root %d%s\n"
               "%-10s %12s %12s %12s %12s %10s  %s\n",
               o->mode == MC_OCB_LAYOUT ? "layout" : "paper", p->name,
               rows[0].ranks, rows[0].root, "", "bytes", "lat_us", "MB/s",
               "done_min", "done_max", "stdev", "algorithm");
    for (int i = 0; i < o->nsizes; i++)
        print_row(o, &rows[i]);
    if (!o->json && rows[0].peak_MBps > 0)
        printf("# peak (formula 15 with flags and polls): %.3f MB/s\n",
               rows[0].peak_MBps);
    free(rows);
    return 0;
}

int mc_ocb_data(const mc_ocb_spec_t *s, mc_ocb_row_t **rows, int *nrows)
{
    plat_opts_t *o = calloc(1, sizeof *o);
    mc_platform_t *p = NULL;
    *rows = NULL;
    *nrows = -1;
    int rc = o ? MC_OK : mc_error(MC_ERR_NOMEM, "out of memory"), spec = 1;
    if (rc == MC_OK && (!s->coll || strcmp(s->coll, "bcast")))
        rc = arg_err("coll: '%s' is not modelled on platforms (only bcast)",
                     s->coll ? s->coll : "(missing)");
    if (rc == MC_OK && (s->ranks < 0 || s->ranks > 1 << 20 || s->root < 0 ||
                        s->root > 1 << 20))
        rc = arg_err("ranks, root: not a count%s", "");
    if (rc == MC_OK && !s->algo)
        rc = arg_err("missing algo (ocbcast, binomial or "
                     "scatter-allgather)%s", "");
    if (rc == MC_OK)
        rc = mc_tool_platform("model", s->platform ? s->platform : "", 0, &p);
    const char *sz = s->sizes ? s->sizes : "32,1K,32K,1M";
    if (rc == MC_OK && parse_sizes(o, sz, p->line))
        rc = arg_err("sizes: cannot parse '%s' (e.g. 32,1K,1M or 1L-192L)",
                     sz);
    if (rc == MC_OK) {
        o->platform = s->platform;
        o->algo = s->algo;
        o->ranks = s->ranks;
        o->root = s->root;
        o->mode = s->layout ? MC_OCB_LAYOUT : MC_OCB_PAPER;
        *rows = calloc((size_t)o->nsizes, sizeof **rows);
        rc = *rows ? model_rows(o, p, *rows, &spec)
                   : mc_error(MC_ERR_NOMEM, "out of memory");
    }
    if (rc == MC_OK)
        *nrows = o->nsizes;
    else {
        free(*rows);
        *rows = NULL;
        *nrows = spec ? -1 : 0;
    }
    if (p)
        mc_platform_free(p);
    free(o);
    return rc;
}

int model_platform(int argc, char **argv)
{
    plat_opts_t *o = malloc(sizeof *o);
    if (!o)
        return mc_usage_error("model", "out of memory");
    int rc = parse(argc, argv, o);
    mc_platform_t *p = NULL;
    if (rc == 0 && mc_tool_platform("model", o->platform ? o->platform : "",
                                    o->lenient, &p) != MC_OK) {
        fprintf(stderr, "manycoll model: --platform: %s\n", mc_last_error());
        rc = 2;
    }
    const char *sz = o->sizes_arg ? o->sizes_arg
                     : o->report == 7 ? "1L,2L,96L,192L"
                                      : "32,1K,32K,1M";
    if (rc == 0 && parse_sizes(o, sz, p->line))
        rc = usage_err("--sizes: cannot parse '%s' (e.g. 32,1K,1M or "
                       "1L-192L)", sz);
    if (rc == 0 && mc_parse_only()) {
        /* checked: nothing to compute */
    } else if (rc == 0 && o->report == 2)
        rc = model_table2(p, o->ranks ? o->ranks : p->ncores, o->json);
    else if (rc == 0 && o->report == 7)
        rc = model_figure7(p, o->ranks ? o->ranks : p->ncores, o->sizes,
                           o->nsizes, o->json);
    else if (rc == 0)
        rc = predict(o, p);
    if (p)
        mc_platform_free(p);
    free(o);
    return rc;
}
