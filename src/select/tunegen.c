/* Tuning rules from a profile's models (tunegen.h). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "model/ccauto.h"
#include "select/select.h"
#include "select/tunegen.h"
#include "select/tuning.h"
#include "util/error.h"

typedef struct tctx {
    mc_tune_plan_t *plan;
    size_t max_bytes;
    mc_ccm_t m;
    size_t payload, line;
    int no_tc, no_ml;
    int unmodelled, no_gain; /* candidates that left a built-in rule */
} tctx_t;

/* A rule replaces the built-in one only where its best case is this much
 * lower than the built-in algorithm's under the same models. */
#define BEAT_MARGIN 0.95

/* adds a rule for n ranks, extending the one for n - 1 if it is equal */
static int add(mc_tune_plan_t *rs, mc_tune_row_t *x)
{
    for (int i = rs->n - 1; i >= 0; i--) {
        mc_tune_row_t *y = &rs->r[i];
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
        mc_tune_row_t *r = realloc(rs->r, (size_t)cap * sizeof *r);
        if (!r)
            return mc_error(MC_ERR_NOMEM, "out of memory");
        rs->r = r;
        rs->cap = cap;
    }
    rs->r[rs->n++] = *x;
    return MC_OK;
}

/* The built-in algorithm at n ranks and `bytes` (src/select/select.c)
 * and its predicted time where the models cover it: the flat fast paths
 * up to a line's payload follow the one-level trees of Eqs. 4.7 and 4.13
 * (the root's line read by P - 1 ranks; P - 1 lines read by the root),
 * cc-tree with automatic fan-outs is the built-in model's optimal tree
 * evaluated on this profile; the flat barrier is one dissemination round
 * to all P - 1 peers and dissemination is m = 1 (Eq. 4.11). 1: modelled,
 * 0: not, < 0: error. */
static int builtin_model(tctx_t *x, mc_coll_t coll, int n, size_t bytes,
                         const char **name, mc_ccm_range_t *t)
{
    const char *s = mc_select_builtin(coll, 1, n, bytes);
    *name = s ? s : "none";
    if (!s)
        return 0;
    int flat = !strcmp(s, "flat");
    if (coll == MC_COLL_BARRIER && (flat || !strcmp(s, "dissemination"))) {
        int m = flat ? n - 1 : 1;
        MC_CHECK(mc_ccm_barrier(&x->m, m, mc_ccm_barrier_rounds(n, m, 0), t));
        return 1;
    }
    int tree = !strcmp(s, "cc-tree");
    if ((coll == MC_COLL_BCAST || coll == MC_COLL_REDUCE) && (flat || tree) &&
        bytes <= x->payload) {
        mc_ccopt_coll_t cc = coll == MC_COLL_REDUCE ? MC_CCOPT_REDUCE_SMALL
                                                    : MC_CCOPT_BCAST_SMALL;
        int d = 1, k[MC_CCM_MAX_LEVELS] = {n - 1};
        if (tree) /* its automatic fan-outs: the built-in model's optimum */
            MC_CHECK(mc_ccauto_tree(NULL, cc, n, 4, &d, k));
        MC_CHECK(mc_ccopt_tree_eval(&x->m, cc, d, k, t));
        return 1;
    }
    return 0;
}

/* whether rule r beats the built-in algorithm at `bytes` (1, 0, or an
 * error); if `say`, r's model names what it beat */
static int beats_builtin(tctx_t *x, mc_tune_row_t *r, int n, size_t bytes,
                         int say)
{
    const char *name;
    mc_ccm_range_t d;
    int rc = builtin_model(x, r->coll, n, bytes, &name, &d);
    if (rc <= 0) {
        x->unmodelled += rc == 0;
        return rc;
    }
    if (!(r->t.min < BEAT_MARGIN * d.min)) {
        x->no_gain++;
        return 0;
    }
    size_t len = strlen(r->model);
    if (say)
        snprintf(r->model + len, sizeof r->model - len,
                 "; built-in %s: %.1f ns", name, d.min);
    return 1;
}

static int tree_rule(tctx_t *x, mc_coll_t coll, int n)
{
    int reduce = coll == MC_COLL_REDUCE, d, k[MC_CCM_MAX_LEVELS];
    mc_ccopt_coll_t cc = reduce ? MC_CCOPT_REDUCE_SMALL : MC_CCOPT_BCAST_SMALL;
    mc_tune_row_t r = {.coll = coll, .rlo = n, .rhi = n, .blo = 0,
               .bhi = x->payload};
    MC_CHECK(mc_ccauto_tree(&x->m, cc, n, 4, &d, k));
    MC_CHECK(mc_ccopt_tree_eval(&x->m, cc, d, k, &r.t));
    int len = snprintf(r.spec, sizeof r.spec, "cc-tree");
    for (int i = 0; i < d; i++)
        len += snprintf(r.spec + len, sizeof r.spec - (size_t)len, "%ck%d=%d",
                        i ? ',' : ':', i + 1, k[i]);
    snprintf(r.model, sizeof r.model, "Eq. %s at %d ranks",
             reduce ? "4.13" : "4.7", n);
    int keep = beats_builtin(x, &r, n, x->payload, 1);
    MC_CHECK(keep);
    return keep ? add(x->plan, &r) : MC_OK;
}

static int barrier_rule(tctx_t *x, int n)
{
    int mp;
    MC_CHECK(mc_ccauto_barrier(&x->m, n, &mp));
    int rounds = mc_ccm_barrier_rounds(n, mp, 0);
    mc_tune_row_t r = {.coll = MC_COLL_BARRIER, .rlo = n, .rhi = n, .blo = 0,
               .bhi = SIZE_MAX};
    MC_CHECK(mc_ccm_barrier(&x->m, mp, rounds, &r.t));
    snprintf(r.spec, sizeof r.spec, "dissemination-m:m=%d", mp);
    snprintf(r.model, sizeof r.model, "Eq. 4.11 at %d ranks, %d round%s",
             n, rounds, rounds == 1 ? "" : "s");
    int keep = beats_builtin(x, &r, n, 0, 1);
    MC_CHECK(keep);
    return keep ? add(x->plan, &r) : MC_OK;
}

/* Pipelined only when its best case is this much lower than the flat
 * tree's: the two models differ by a few constant terms, and a 0.02 %
 * difference (this machine at 2 ranks) is not a reason to leave the
 * report's recommendation for large messages (Section 4.1.3). */
#define PIPE_MARGIN 0.95

/* flat or pipelined for a message of `bytes` (see PIPE_MARGIN) */
static int large_choice(tctx_t *x, int n, size_t bytes, mc_tune_row_t *r)
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

/* whether bcast rule r beats the built-in algorithm at both ends of its
 * size range */
static int large_keep(tctx_t *x, mc_tune_row_t *r, int n)
{
    int keep = beats_builtin(x, r, n, r->blo, 0);
    if (keep == 1)
        keep = beats_builtin(x, r, n, r->bhi, 1);
    return keep;
}

/* one rule per run of power-of-two size ranges with the same choice,
 * where it beats the built-in rules; nothing above max_bytes */
static int large_rules(tctx_t *x, int n)
{
    size_t lo = x->payload + 1, top = 64;
    mc_tune_row_t cur = {0};
    int have = 0;
    while (top < lo)
        top *= 2;
    for (;; top *= 2) {
        size_t at = top < x->max_bytes ? top : x->max_bytes;
        mc_tune_row_t r = {.coll = MC_COLL_BCAST, .rlo = n, .rhi = n,
                           .blo = lo, .bhi = at};
        MC_CHECK(large_choice(x, n, at, &r));
        int keep = large_keep(x, &r, n);
        MC_CHECK(keep);
        if (have && (!keep || strcmp(r.spec, cur.spec))) {
            MC_CHECK(add(x->plan, &cur));
            have = 0;
        }
        if (keep && have) { /* the run goes on: predicted at its top */
            cur.bhi = at;
            cur.t = r.t;
            memcpy(cur.model, r.model, sizeof cur.model);
        } else if (keep) {
            cur = r;
            have = 1;
        }
        lo = at + 1;
        if (at >= x->max_bytes)
            break;
    }
    return have ? add(x->plan, &cur) : MC_OK;
}

static int build(tctx_t *x)
{
    for (int n = x->plan->lo; n <= x->plan->hi; n++) {
        MC_CHECK(barrier_rule(x, n));
        MC_CHECK(tree_rule(x, MC_COLL_BCAST, n));
        if (!x->no_ml)
            MC_CHECK(large_rules(x, n));
        if (!x->no_ml)
            MC_CHECK(tree_rule(x, MC_COLL_REDUCE, n));
    }
    size_t len = strlen(x->plan->notes);
    snprintf(x->plan->notes + len, sizeof x->plan->notes - len,
             "; a rule replaces a built-in one only where its best case is "
             "5%% below the built-in algorithm's: %d candidates (per collective, "
             "rank count and size range) left a "
             "built-in rule no model covers (measured: docs/selection.md), "
             "%d predicted no gain", x->unmodelled, x->no_gain);
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

static void put_rule(FILE *f, const mc_tune_row_t *r, int last)
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
    const mc_tune_row_t *x = a, *y = b;
    if (x->coll != y->coll)
        return x->coll < y->coll ? -1 : 1;
    if (x->rlo != y->rlo)
        return x->rlo < y->rlo ? -1 : 1;
    return x->blo < y->blo ? -1 : x->blo > y->blo;
}

int mc_tune_write(const mc_tune_plan_t *t, FILE *f, const char *cmd)
{
    char created[40];
    time_t now = time(NULL);
    strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    fprintf(f, "{\n");
    put_str(f, "format", MC_TUNING_FORMAT, 1);
    put_str(f, "transport", "shm", 1);
    put_str(f, "profile", t->profile, 1);
    put_str(f, "created", created, 1);
    put_str(f, "command", cmd, 1);
    put_str(f, "notes", t->notes, 1);
    fprintf(f, "  \"rules\": [\n");
    for (int i = 0; i < t->n; i++)
        put_rule(f, &t->r[i], i == t->n - 1);
    fprintf(f, "  ]\n}\n");
    return ferror(f) ? mc_error(MC_ERR_SYS, "write error") : MC_OK;
}

/* the model from the profile; what it lacks limits what can be tuned */
static int model_of(tctx_t *x, const mc_profile_t *p)
{
    MC_CHECK(mc_ccm_from_profile(p, "E", &x->m));
    x->line = p->line_bytes > 8 ? (size_t)p->line_bytes : 64;
    x->payload = x->line - 8;
    mc_tune_plan_t *o = x->plan;
    char *notes = o->notes;
    size_t len = sizeof o->notes;
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

int mc_tune_plan(const mc_profile_t *p, int lo, int hi, size_t max_bytes,
                 mc_tune_plan_t *out)
{
    *out = (mc_tune_plan_t){.lo = lo, .hi = hi};
    snprintf(out->profile, sizeof out->profile, "%s", p->name);
    tctx_t x = {.plan = out, .max_bytes = max_bytes};
    int rc = model_of(&x, p);
    if (rc == MC_OK)
        rc = build(&x);
    if (rc == MC_OK && out->n > 0) /* none: r is NULL */
        qsort(out->r, (size_t)out->n, sizeof *out->r, row_cmp);
    if (rc != MC_OK)
        mc_tune_plan_free(out);
    return rc;
}

void mc_tune_plan_free(mc_tune_plan_t *t)
{
    free(t->r);
    t->r = NULL;
    t->n = t->cap = 0;
}
