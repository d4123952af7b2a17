/*
 * manycoll tune --profile P [-o FILE] [--ranks LO-HI] [--max-bytes B]
 *
 * Writes the tuning file the library reads at start (docs/tuning.md):
 * for each rank count, the model-tuned algorithms of Ramos & Hoefler
 * (2013) with the parameters that minimise their best-case models on
 * the profile, and the predicted best and worst case:
 *
 *   barrier   dissemination-m, m from the optimiser (Eq. 4.11, with the
 *             rounds ceil(log_{m+1} P) the schedule runs)
 *   bcast     up to a line's payload: cc-tree, optimal tree (Eq. 4.7);
 *             above: cc-flat, or cc-pipeline where its model (Eq. 4.8) is
 *             more than 5 % below the flat tree's (Eq. 4.10), judged at
 *             the top of each power-of-two size range; the choice at
 *             --max-bytes holds above it
 *   reduce    up to a line's payload: cc-tree, optimal tree (Eq. 4.13);
 *             above: no rule (the built-in defaults)
 *
 * Consecutive rank counts with the same choice share one rule. Without
 * -o the file goes to the default location ($XDG_CONFIG_HOME/manycoll/
 * tuning.json, else ~/.config/manycoll/tuning.json); -o - is stdout.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <jansson.h>

#include "internal.h"
#include "model/ccauto.h"
#include "select/tuning.h"
#include "tools.h"
#include "util/config.h"

typedef struct topts {
    const char *profile, *out;
    int lo, hi;
    size_t max_bytes;
} topts_t;

typedef struct row {
    mc_coll_t coll;
    int rlo, rhi;
    size_t blo, bhi; /* SIZE_MAX: open */
    char spec[128];
    char model[128];
    mc_ccm_range_t t;
} row_t;

typedef struct rows {
    row_t *r;
    int n, cap;
} rows_t;

typedef struct tctx {
    const topts_t *o;
    mc_ccm_t m;
    size_t payload, line;
    int no_tc, no_ml;
    rows_t rows;
} tctx_t;

static int usage(const char *msg, const char *arg)
{
    return mc_usage_error("tune", "%s%s (usage: manycoll tune --profile P "
                          "[-o FILE] [--ranks LO-HI] [--max-bytes B])", msg,
                          arg);
}

static int parse(int argc, char **argv, topts_t *o)
{
    memset(o, 0, sizeof *o);
    o->max_bytes = 1 << 20;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v)
            return usage("option needs a value: ", a);
        i++;
        if (!strcmp(a, "--profile"))
            o->profile = v;
        else if (!strcmp(a, "-o"))
            o->out = v;
        else if (!strcmp(a, "--ranks")) {
            char *end;
            long lo = strtol(v, &end, 10), hi = lo;
            if (*end == '-')
                hi = strtol(end + 1, &end, 10);
            o->lo = lo < 2 || lo > 1 << 16 ? -1 : (int)lo;
            o->hi = hi < 2 || hi > 1 << 16 ? -1 : (int)hi;
            if (*end || o->lo < 2 || o->hi < o->lo)
                return usage("--ranks: expected LO-HI with 2 <= LO <= HI, "
                             "got ", v);
        } else if (!strcmp(a, "--max-bytes")) {
            long long b = mc_parse_size(v);
            if (b < 1)
                return usage("--max-bytes: not a size: ", v);
            o->max_bytes = (size_t)b;
        } else
            return usage("unknown option ", a);
    }
    if (!o->profile)
        return usage("missing --profile P", "");
    return 0;
}

/* adds a rule for n ranks, extending the one for n - 1 if it is equal */
static int add(rows_t *rs, row_t *x)
{
    for (int i = rs->n - 1; i >= 0; i--) {
        row_t *y = &rs->r[i];
        if (y->coll == x->coll && y->blo == x->blo && y->bhi == x->bhi &&
            y->rhi == x->rlo - 1 && !strcmp(y->spec, x->spec)) {
            y->rhi = x->rhi;
            y->t = x->t; /* predicted at the top of the range */
            memcpy(y->model, x->model, sizeof y->model);
            return MC_OK;
        }
    }
    if (rs->n == rs->cap) {
        int cap = rs->cap ? 2 * rs->cap : 64;
        row_t *r = realloc(rs->r, (size_t)cap * sizeof *r);
        if (!r)
            return mc_error(MC_ERR_NOMEM, "out of memory");
        rs->r = r;
        rs->cap = cap;
    }
    rs->r[rs->n++] = *x;
    return MC_OK;
}

static int tree_rule(tctx_t *x, mc_coll_t coll, int n)
{
    int reduce = coll == MC_COLL_REDUCE, d, k[MC_CCM_MAX_LEVELS];
    mc_ccopt_coll_t cc = reduce ? MC_CCOPT_REDUCE_SMALL : MC_CCOPT_BCAST_SMALL;
    row_t r = {.coll = coll, .rlo = n, .rhi = n, .blo = 0,
               .bhi = x->payload};
    MC_CHECK(mc_ccauto_tree(&x->m, cc, n, 4, &d, k));
    MC_CHECK(mc_ccopt_tree_eval(&x->m, cc, d, k, &r.t));
    int len = snprintf(r.spec, sizeof r.spec, "cc-tree");
    for (int i = 0; i < d; i++)
        len += snprintf(r.spec + len, sizeof r.spec - (size_t)len, "%ck%d=%d",
                        i ? ',' : ':', i + 1, k[i]);
    snprintf(r.model, sizeof r.model, "Eq. %s at %d ranks",
             reduce ? "4.13" : "4.7", n);
    return add(&x->rows, &r);
}

static int barrier_rule(tctx_t *x, int n)
{
    int mp;
    MC_CHECK(mc_ccauto_barrier(&x->m, n, &mp));
    int rounds = mc_ccm_barrier_rounds(n, mp, 0);
    row_t r = {.coll = MC_COLL_BARRIER, .rlo = n, .rhi = n, .blo = 0,
               .bhi = SIZE_MAX};
    MC_CHECK(mc_ccm_barrier(&x->m, mp, rounds, &r.t));
    snprintf(r.spec, sizeof r.spec, "dissemination-m:m=%d", mp);
    snprintf(r.model, sizeof r.model, "Eq. 4.11 at %d ranks, %d round%s",
             n, rounds, rounds == 1 ? "" : "s");
    return add(&x->rows, &r);
}

/* Pipelined only when its best case is this much lower than the flat
 * tree's: the two models differ by a few constant terms, and a 0.02 %
 * difference (this machine at 2 ranks) is not a reason to leave the
 * report's recommendation for large messages (Section 4.1.3). */
#define PIPE_MARGIN 0.95

/* flat or pipelined for a message of `bytes` (see PIPE_MARGIN) */
static int large_choice(tctx_t *x, int n, size_t bytes, row_t *r)
{
    double lines = ceil((double)bytes / (double)x->line);
    mc_ccm_range_t flat, pipe;
    MC_CHECK(mc_ccm_bcast_flat(&x->m, n, lines, &flat));
    int can_pipe = lines >= n - 1; /* the model needs a line per slice */
    if (can_pipe)
        MC_CHECK(mc_ccm_bcast_pipelined(&x->m, n, lines / (n - 1), &pipe));
    int p = can_pipe && pipe.min < PIPE_MARGIN * flat.min;
    char pn[32] = "n/a";
    if (can_pipe)
        snprintf(pn, sizeof pn, "%.1f", pipe.min);
    r->t = p ? pipe : flat;
    snprintf(r->spec, sizeof r->spec, "%s", p ? "cc-pipeline" : "cc-flat");
    snprintf(r->model, sizeof r->model, "Eq. %s at %d ranks, %.0f lines "
             "(best cases: flat %.1f, pipelined %s ns)", p ? "4.8" : "4.10",
             n, lines, flat.min, pn);
    return MC_OK;
}

static int large_rules(tctx_t *x, int n)
{
    size_t lo = x->payload + 1, top = 64;
    row_t cur = {.coll = MC_COLL_BCAST, .rlo = n, .rhi = n, .blo = lo};
    int have = 0;
    while (top < lo)
        top *= 2;
    for (;; top *= 2) {
        size_t at = top < x->o->max_bytes ? top : x->o->max_bytes;
        row_t r = cur;
        MC_CHECK(large_choice(x, n, at, &r));
        if (have && strcmp(r.spec, cur.spec)) { /* a new range starts */
            cur.bhi = lo - 1;
            MC_CHECK(add(&x->rows, &cur));
            r.blo = lo;
        }
        cur = r;
        have = 1;
        lo = at + 1;
        if (at >= x->o->max_bytes)
            break;
    }
    cur.bhi = SIZE_MAX;
    return add(&x->rows, &cur);
}

static int build(tctx_t *x)
{
    for (int n = x->o->lo; n <= x->o->hi; n++) {
        MC_CHECK(barrier_rule(x, n));
        MC_CHECK(tree_rule(x, MC_COLL_BCAST, n));
        if (!x->no_ml)
            MC_CHECK(large_rules(x, n));
        if (!x->no_ml)
            MC_CHECK(tree_rule(x, MC_COLL_REDUCE, n));
    }
    return MC_OK;
}

/* ---- writing ---- */

static char *jstr(const char *s)
{
    json_t *j = json_string(s);
    char *t = json_dumps(j, JSON_ENCODE_ANY);
    json_decref(j);
    return t;
}

static void put_str(FILE *f, const char *key, const char *val, int comma)
{
    char *v = jstr(val);
    fprintf(f, "  \"%s\": %s%s\n", key, v ? v : "\"\"", comma ? "," : "");
    free(v);
}

static void put_rule(FILE *f, const row_t *r, int last)
{
    char hi[32] = "null", *spec = jstr(r->spec), *model = jstr(r->model);
    if (r->bhi != SIZE_MAX)
        snprintf(hi, sizeof hi, "%zu", r->bhi);
    fprintf(f, "    {\"coll\": \"%s\", \"ranks\": [%d, %d], \"bytes\": [%zu, "
            "%s], \"algo\": %s, \"predicted_ns\": {\"min\": %.1f, \"max\": "
            "%.1f}, \"model\": %s}%s\n", mc_coll_name(r->coll), r->rlo,
            r->rhi, r->blo, hi, spec, r->t.min, r->t.max, model,
            last ? "" : ",");
    free(spec);
    free(model);
}

/* by collective, then rank count, then size */
static int row_cmp(const void *a, const void *b)
{
    const row_t *x = a, *y = b;
    if (x->coll != y->coll)
        return x->coll < y->coll ? -1 : 1;
    if (x->rlo != y->rlo)
        return x->rlo < y->rlo ? -1 : 1;
    return x->blo < y->blo ? -1 : x->blo > y->blo;
}

static int write_file(const tctx_t *x, FILE *f, const mc_profile_t *p,
                      const char *cmd, const char *notes)
{
    char created[40];
    time_t now = time(NULL);
    strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    fprintf(f, "{\n");
    put_str(f, "format", MC_TUNING_FORMAT, 1);
    put_str(f, "transport", "shm", 1);
    put_str(f, "profile", p->name, 1);
    put_str(f, "created", created, 1);
    put_str(f, "command", cmd, 1);
    put_str(f, "notes", notes, 1);
    fprintf(f, "  \"rules\": [\n");
    for (int i = 0; i < x->rows.n; i++)
        put_rule(f, &x->rows.r[i], i == x->rows.n - 1);
    fprintf(f, "  ]\n}\n");
    return ferror(f) ? mc_error(MC_ERR_SYS, "write error") : MC_OK;
}

/* mkdir -p of the directory part of path */
static int make_dirs(const char *path)
{
    char d[512];
    snprintf(d, sizeof d, "%s", path);
    for (char *s = d + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = 0;
        if (mkdir(d, 0755) != 0 && errno != EEXIST)
            return mc_error(MC_ERR_SYS, "-o: cannot create directory '%s'",
                            d);
        *s = '/';
    }
    return MC_OK;
}

static int output(const tctx_t *x, const mc_profile_t *p, const char *path,
                  const char *cmd, const char *notes)
{
    if (!strcmp(path, "-"))
        return write_file(x, stdout, p, cmd, notes);
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    MC_CHECK(make_dirs(path));
    FILE *f = fopen(tmp, "w");
    if (!f)
        return mc_error(MC_ERR_SYS, "-o: cannot write '%s'", tmp);
    int rc = write_file(x, f, p, cmd, notes);
    if (fclose(f) != 0 && rc == MC_OK)
        rc = mc_error(MC_ERR_SYS, "-o: cannot write '%s'", tmp);
    if (rc == MC_OK && rename(tmp, path) != 0)
        rc = mc_error(MC_ERR_SYS, "-o: cannot rename '%s' to '%s'", tmp,
                      path);
    if (rc != MC_OK)
        remove(tmp);
    return rc;
}

/* the model from the profile; what it lacks limits what can be tuned */
static int model_of(tctx_t *x, mc_profile_t *p, topts_t *o, char *notes,
                    size_t len)
{
    MC_CHECK(mc_ccm_from_profile(p, "E", &x->m));
    x->line = p->line_bytes > 8 ? (size_t)p->line_bytes : 64;
    x->payload = x->line - 8;
    if (!o->lo) {
        o->lo = 2;
        o->hi = p->cores > 2 ? p->cores : 2;
    }
    int n = snprintf(notes, len, "models of Ramos & Hoefler (2013) Table "
                     "4.1 on profile %s, buffers in E state; predicted_ns "
                     "at the largest rank count and size of each rule",
                     p->name);
    x->no_tc = !x->m.has_tc;
    x->no_ml = !x->m.has_ml;
    if (x->no_tc && o->hi > 2)
        return mc_error(MC_ERR_ARG, "profile %s has no contention fit (T_C, "
                        "it needs 3 or more cores to measure), so trees for "
                        "more than 2 ranks cannot be modelled: use --ranks "
                        "2, or a profile with a contention fit", p->name);
    if (x->no_tc) { /* T_C(1) = R_L + R_R needs no c (Eq. 3.2) */
        x->m.has_tc = 1;
        x->m.tc_c = 0;
        x->m.tc_mode = MC_CCM_TC_ANCHORED;
        n += snprintf(notes + n, len - (size_t)n, "; no contention fit: "
                      "T_C(1) = R_L + R_R (exact at 2 ranks)");
    }
    if (x->no_ml)
        snprintf(notes + n, len - (size_t)n, "; no multi-line fit: no large "
                 "broadcast or reduction rules");
    return MC_OK;
}

static int tune(topts_t *o, tctx_t *x, mc_profile_t *p, const char *cmd)
{
    char notes[512], path[512];
    MC_CHECK(mc_profile_load(o->profile, p));
    int rc = model_of(x, p, o, notes, sizeof notes);
    if (rc == MC_OK)
        rc = build(x);
    if (rc == MC_OK)
        qsort(x->rows.r, (size_t)x->rows.n, sizeof *x->rows.r, row_cmp);
    if (rc == MC_OK && !o->out)
        rc = mc_tuning_default_path(path, sizeof path);
    if (rc == MC_OK)
        rc = output(x, p, o->out ? o->out : path, cmd, notes);
    if (rc == MC_OK && (!o->out || strcmp(o->out, "-")))
        fprintf(stderr, "tune: %d rules for %d-%d ranks written to %s\n",
                x->rows.n, o->lo, o->hi, o->out ? o->out : path);
    mc_profile_free(p);
    return rc;
}

int cmd_tune(int argc, char **argv)
{
    topts_t o;
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc;
    char cmd[256] = "manycoll";
    for (int i = 0, len = 8; i < argc && len < (int)sizeof cmd; i++)
        len += snprintf(cmd + len, sizeof cmd - (size_t)len, " %s", argv[i]);
    tctx_t x = {.o = &o};
    mc_profile_t *p = malloc(sizeof *p);
    if (!p)
        return mc_usage_error("tune", "out of memory");
    rc = tune(&o, &x, p, cmd);
    free(p);
    free(x.rows.r);
    if (rc != MC_OK)
        fprintf(stderr, "manycoll tune: %s\n", mc_last_error());
    return rc == MC_OK ? 0 : 1;
}
