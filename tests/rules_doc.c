/*
 * The built-in selection rules as docs/selection.md shows them.
 *
 *   rules_doc          the rule table (markdown), from default_rules[] in
 *                      src/select/select.c through mc_select_builtin_rule:
 *                      the rules in their order, consecutive ones of one
 *                      collective, machine and rank limit in one row,
 *                      with each algorithm's fallback from the registry
 *   rules_doc --grid   "coll coherent ranks bytes algo" per line: what
 *                      mc_select_builtin answers over a grid around every
 *                      rule's limits, for checking a reading of the table
 *
 * tests/rules_doc.py puts the table between the markers in
 * docs/selection.md (`make docs`) and, as the test select_rules_doc,
 * fails when the committed table differs or reads differently.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "select/select.h"
#include "util/colls.h"

static void size_text(size_t bytes, char *buf, size_t len)
{
    if (bytes >= 1048576 && bytes % 1048576 == 0)
        snprintf(buf, len, "≤ %zu MiB", bytes / 1048576);
    else if (bytes >= 1024 && bytes % 1024 == 0)
        snprintf(buf, len, "≤ %zu KiB", bytes / 1024);
    else
        snprintf(buf, len, "≤ %zu bytes", bytes);
}

/* `spec`, and " (falls back to `f`)" where the registry names one */
static void algo_text(mc_coll_t coll, const char *spec, char *buf,
                      size_t len)
{
    char name[64];
    size_t n = strcspn(spec, ":");
    snprintf(name, sizeof name, "%.*s", (int)n, spec);
    const mc_algo_t *a = mc_algo_find(coll, name);
    if (a && a->impl->fallback)
        snprintf(buf, len, "`%s` (falls back to `%s`)", spec,
                 a->impl->fallback);
    else
        snprintf(buf, len, "`%s`%s", spec, a ? "" : " (NOT IN REGISTRY)");
}

static int same_row(const mc_builtin_rule_t *a, const mc_builtin_rule_t *b)
{
    return a->coll == b->coll && !strcmp(a->machine, b->machine) &&
           a->max_ranks == b->max_ranks;
}

static void print_row(const mc_builtin_rule_t *r, size_t n)
{
    char ranks[32], sizes[256] = "", algos[512] = "", t[128];
    if (r[0].max_ranks)
        snprintf(ranks, sizeof ranks, "≤ %d", r[0].max_ranks);
    else
        snprintf(ranks, sizeof ranks, "any");
    for (size_t i = 0; i < n; i++) {
        const char *sep = i ? " / " : "";
        if (r[i].max_bytes != SIZE_MAX)
            size_text(r[i].max_bytes, t, sizeof t);
        else
            snprintf(t, sizeof t, "%s", i ? "larger" : "any");
        snprintf(sizes + strlen(sizes), sizeof sizes - strlen(sizes),
                 "%s%s", sep, t);
        algo_text(r[i].coll, r[i].spec, t, sizeof t);
        snprintf(algos + strlen(algos), sizeof algos - strlen(algos),
                 "%s%s", sep, t);
    }
    printf("| %s | %s | %s | %s | %s |\n", r[0].machine,
           mc_coll_name(r[0].coll), ranks, sizes, algos);
}

static int table(void)
{
    mc_builtin_rule_t group[16];
    size_t n = 0;
    printf("| machine | collective | ranks | size | algorithm |\n"
           "|---|---|---|---|---|\n");
    for (size_t i = 0;; i++) {
        mc_builtin_rule_t r;
        int more = mc_select_builtin_rule(i, &r);
        if (n && (!more || !same_row(&group[0], &r) ||
                  n == sizeof group / sizeof *group)) {
            print_row(group, n);
            n = 0;
        }
        if (!more)
            return 0;
        group[n++] = r;
    }
}

/* v added to the n values of set (at most max), once */
static void add(size_t *set, int *n, int max, size_t v)
{
    for (int i = 0; i < *n; i++)
        if (set[i] == v)
            return;
    if (*n < max)
        set[(*n)++] = v;
}

/* every rank limit and size limit of the rules, and one above each */
static int grid(void)
{
    size_t bytes[128], ranks[32];
    int nb = 0, nr = 0;
    mc_builtin_rule_t r;
    add(bytes, &nb, 128, 0);
    add(bytes, &nb, 128, SIZE_MAX);
    add(ranks, &nr, 32, 1);
    add(ranks, &nr, 32, 1000);
    for (size_t i = 0; mc_select_builtin_rule(i, &r); i++) {
        if (r.max_bytes != SIZE_MAX) {
            add(bytes, &nb, 128, r.max_bytes);
            add(bytes, &nb, 128, r.max_bytes + 1);
        }
        if (r.max_ranks) {
            add(ranks, &nr, 32, (size_t)r.max_ranks);
            add(ranks, &nr, 32, (size_t)r.max_ranks + 1);
        }
    }
    for (int c = 0; c < MC_COLL_COUNT; c++)
        for (int coherent = 0; coherent < 2; coherent++)
            for (int ir = 0; ir < nr; ir++)
                for (int ib = 0; ib < nb; ib++) {
                    const char *s = mc_select_builtin(
                        (mc_coll_t)c, coherent, (int)ranks[ir], bytes[ib]);
                    printf("%s %d %zu %zu %s\n", mc_coll_name((mc_coll_t)c),
                           coherent, ranks[ir], bytes[ib], s ? s : "-");
                }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--grid"))
        return grid();
    if (argc != 1) {
        fprintf(stderr, "usage: rules_doc [--grid]\n");
        return 2;
    }
    return table();
}
