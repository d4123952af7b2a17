/*
 * Reading tuning files (tuning.h, docs/tuning.md) with jansson. Strict,
 * like the profiles: an unknown key, a value of the wrong type, an
 * unknown algorithm or parameter, or two rules that claim the same
 * collective, rank count and size is an error naming the file and the
 * entry, so a hand-edited file never silently falls back to a default.
 */
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "util/jsonrd.h"

#include "select/tuning.h"
#include "util/config.h"
#include "util/error.h"

typedef mc_jrd_t rd_t;

static int get_str(const rd_t *r, json_t *o, const char *key, int required,
                   char *dst, size_t size)
{
    json_t *v = json_object_get(o, key);
    if (!v)
        return required ? mc_jrd_bad(r, key, "missing (a string is required)")
                        : MC_OK;
    if (!json_is_string(v) || strlen(json_string_value(v)) >= size)
        return mc_jrd_bad(r, key, "expected a string (not too long)");
    snprintf(dst, size, "%s", json_string_value(v));
    return MC_OK;
}

/* [lo, hi] of non-negative integers, lo <= hi; hi may be null (no upper
 * limit) when open_ok */
static int get_range(const rd_t *r, json_t *o, const char *key, int open_ok,
                     long long *lo, long long *hi)
{
    json_t *v = json_object_get(o, key);
    json_t *a = json_array_get(v, 0), *b = json_array_get(v, 1);
    const char *want = open_ok ? "expected [lo, hi] (integers, hi may be "
                                 "null: no limit)"
                               : "expected [lo, hi] (integers)";
    if (!v)
        return mc_jrd_bad(r, key, "missing");
    if (!json_is_array(v) || json_array_size(v) != 2 || !json_is_integer(a) ||
        !(json_is_integer(b) || (open_ok && json_is_null(b))))
        return mc_jrd_bad(r, key, want);
    *lo = json_integer_value(a);
    *hi = json_is_null(b) ? LLONG_MAX : json_integer_value(b);
    if (*lo < 0 || *hi < *lo)
        return mc_jrd_bad(r, key, "needs 0 <= lo <= hi");
    return MC_OK;
}

static int get_predicted(const rd_t *r, json_t *o, mc_tune_rule_t *t)
{
    static const char *const keys[] = {"min", "max", NULL};
    json_t *p = json_object_get(o, "predicted_ns");
    t->min_ns = t->max_ns = NAN;
    if (!p)
        return MC_OK;
    json_t *mn = json_object_get(p, "min"), *mx = json_object_get(p, "max");
    if (!json_is_object(p) || mc_jrd_check_keys(r, p, keys) != MC_OK ||
        (mn && !json_is_number(mn)) || (mx && !json_is_number(mx)))
        return mc_jrd_bad(r, "predicted_ns", "expected {\"min\": ns, \"max\": ns}");
    t->min_ns = mn ? json_number_value(mn) : NAN;
    t->max_ns = mx ? json_number_value(mx) : NAN;
    return MC_OK;
}

/* "FILE: rules[i] (ranks 2-8, bytes 0-56, model 1330.5-2011.0 ns)" */
static void describe(const rd_t *r, mc_tune_rule_t *t)
{
    char hi[32] = "max";
    if (t->bytes_hi != SIZE_MAX)
        snprintf(hi, sizeof hi, "%zu", t->bytes_hi);
    int n = snprintf(t->why, sizeof t->why, "tuning file %s: %s (ranks "
                     "%d-%d, bytes %zu-%s", r->file, r->where, t->ranks_lo,
                     t->ranks_hi, t->bytes_lo, hi);
    if (n > 0 && (size_t)n < sizeof t->why && !isnan(t->min_ns))
        n += snprintf(t->why + n, sizeof t->why - (size_t)n,
                      ", predicted %.1f-%.1f ns", t->min_ns, t->max_ns);
    if (n > 0 && (size_t)n < sizeof t->why)
        snprintf(t->why + n, sizeof t->why - (size_t)n, ")");
}

static int parse_rule(rd_t *r, json_t *o, mc_tune_rule_t *t)
{
    static const char *const keys[] = {"coll", "ranks", "bytes", "algo",
                                       "predicted_ns", "model", "note",
                                       NULL};
    char coll[32], spec[256], who[96];
    long long lo, hi;
    if (!json_is_object(o))
        return mc_jrd_bad(r, "", "expected an object");
    MC_CHECK(mc_jrd_check_keys(r, o, keys));
    MC_CHECK(get_str(r, o, "coll", 1, coll, sizeof coll));
    if (mc_coll_from_name(coll, &t->coll) != MC_OK) {
        char msg[256]; /* mc_error would overwrite mc_last_error() */
        snprintf(msg, sizeof msg, "%s", mc_last_error());
        return mc_jrd_bad(r, "coll", msg);
    }
    MC_CHECK(get_range(r, o, "ranks", 0, &lo, &hi));
    if (lo < 1 || hi > INT32_MAX)
        return mc_jrd_bad(r, "ranks", "rank counts must be in [1, 2^31)");
    t->ranks_lo = (int)lo;
    t->ranks_hi = (int)hi;
    MC_CHECK(get_range(r, o, "bytes", 1, &lo, &hi));
    t->bytes_lo = (size_t)lo;
    t->bytes_hi = hi == LLONG_MAX ? SIZE_MAX : (size_t)hi;
    MC_CHECK(get_str(r, o, "algo", 1, spec, sizeof spec));
    snprintf(who, sizeof who, "tuning file %s: %s.algo", r->file, r->where);
    MC_CHECK(mc_algo_parse(t->coll, spec, who, &t->sel));
    MC_CHECK(get_predicted(r, o, t));
    json_t *m = json_object_get(o, "model"), *nt = json_object_get(o, "note");
    if ((m && !json_is_string(m)) || (nt && !json_is_string(nt)))
        return mc_jrd_bad(r, m && !json_is_string(m) ? "model" : "note",
                   "expected a string");
    describe(r, t);
    return MC_OK;
}

static int overlap(const mc_tune_rule_t *a, const mc_tune_rule_t *b)
{
    return a->coll == b->coll && a->ranks_lo <= b->ranks_hi &&
           b->ranks_lo <= a->ranks_hi && a->bytes_lo <= b->bytes_hi &&
           b->bytes_lo <= a->bytes_hi;
}

static int parse_rules(rd_t *r, json_t *arr, mc_tuning_t *t)
{
    if (!json_is_array(arr))
        return mc_jrd_bad(r, "rules", "missing, or not a list of rules");
    size_t n = json_array_size(arr);
    t->rules = calloc(n ? n : 1, sizeof *t->rules);
    if (!t->rules)
        return mc_error(MC_ERR_NOMEM, "tuning file %s: out of memory",
                        r->file);
    for (size_t i = 0; i < n; i++) {
        snprintf(r->where, sizeof r->where, "rules[%zu]", i);
        MC_CHECK(parse_rule(r, json_array_get(arr, i), &t->rules[i]));
        t->n++;
        for (size_t j = 0; j < i; j++)
            if (overlap(&t->rules[j], &t->rules[i]))
                return mc_error(MC_ERR_ARG, "tuning file %s: rules[%zu] and "
                                "rules[%zu] both cover %s at some rank "
                                "count and size", r->file, j, i,
                                mc_coll_name(t->rules[i].coll));
    }
    return MC_OK;
}

int mc_tuning_parse(const char *text, const char *what, mc_tuning_t *t)
{
    static const char *const keys[] = {"format", "transport", "profile",
                                       "created", "command", "notes",
                                       "rules", NULL};
    memset(t, 0, sizeof *t);
    snprintf(t->path, sizeof t->path, "%s", what);
    rd_t r = {.file = what, .prefix = "tuning file "};
    json_error_t err;
    json_t *root = json_loads(text, 0, &err);
    if (!root)
        return mc_error(MC_ERR_ARG, "tuning file %s: line %d, column %d: "
                        "%s", what, err.line, err.column, err.text);
    char format[64] = "";
    int rc = json_is_object(root) ? MC_OK
                                  : mc_jrd_bad(&r, "(top level)", "expected an "
                                        "object");
    if (rc == MC_OK)
        rc = mc_jrd_check_keys(&r, root, keys);
    if (rc == MC_OK)
        rc = get_str(&r, root, "format", 1, format, sizeof format);
    if (rc == MC_OK && strcmp(format, MC_TUNING_FORMAT))
        rc = mc_jrd_bad(&r, "format", "expected \"" MC_TUNING_FORMAT "\"");
    if (rc == MC_OK)
        rc = get_str(&r, root, "transport", 1, t->transport,
                     sizeof t->transport);
    if (rc == MC_OK)
        rc = get_str(&r, root, "profile", 0, t->profile, sizeof t->profile);
    if (rc == MC_OK)
        rc = parse_rules(&r, json_object_get(root, "rules"), t);
    json_decref(root);
    if (rc != MC_OK)
        mc_tuning_free(t);
    return rc;
}

int mc_tuning_read(const char *path, mc_tuning_t *t)
{
    char *text;
    memset(t, 0, sizeof *t);
    MC_CHECK(mc_read_text_file(path, "tuning file", MC_JSON_FILE_MAX, &text));
    int rc = mc_tuning_parse(text, path, t);
    free(text);
    return rc;
}

void mc_tuning_free(mc_tuning_t *t)
{
    free(t->rules);
    t->rules = NULL;
    t->n = 0;
}

int mc_tuning_default_path(char *buf, size_t len)
{
    const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
    if (xdg && *xdg)
        snprintf(buf, len, "%s/manycoll/tuning.json", xdg);
    else if (home && *home)
        snprintf(buf, len, "%s/.config/manycoll/tuning.json", home);
    else
        return mc_error(MC_ERR_ARG, "no default tuning file: neither "
                        "XDG_CONFIG_HOME nor HOME is set");
    return MC_OK;
}

/* ---- the process's tuning, read once ---- */

static pthread_once_t once = PTHREAD_ONCE_INIT;
static mc_tuning_t the_tuning;
static int the_status, have_tuning;
static char the_error[640];

static void load_once(void)
{
    const char *env = mc_env("MC_TUNING");
    char path[512];
    if (!strcmp(env, "none"))
        return;
    if (*env) {
        snprintf(path, sizeof path, "%s", env);
    } else if (mc_tuning_default_path(path, sizeof path) != MC_OK ||
               access(path, F_OK) != 0) {
        return; /* no default tuning: the built-in rules */
    }
    the_status = mc_tuning_read(path, &the_tuning);
    if (the_status != MC_OK)
        snprintf(the_error, sizeof the_error, "%s%s", mc_last_error(),
                 *env ? " (from MC_TUNING; MC_TUNING=none for no tuning "
                        "file)"
                      : " (the default tuning file; MC_TUNING=none for no "
                        "tuning file)");
    else
        have_tuning = 1;
}

int mc_tuning_get(const mc_tuning_t **out)
{
    pthread_once(&once, load_once);
    *out = have_tuning ? &the_tuning : NULL;
    if (the_status != MC_OK)
        return mc_error(the_status, "%s", the_error);
    return MC_OK;
}
