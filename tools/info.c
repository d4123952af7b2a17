/* manycoll info: the collectives, the registry and the environment
 * table. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "select/registry.h"
#include "tools.h"
#include "tp/hwtopo.h"
#include "util/config.h"

/* what an algorithm needs, as "a commutative op, single copy" */
static void needs_text(const mc_algo_impl_t *im, char *buf, size_t len)
{
    static const struct { unsigned flag; const char *text; } names[] = {
        {MC_ALGO_COMMUTATIVE, "a commutative op"},
        {MC_ALGO_SINGLE_COPY, "single copy"},
        {MC_ALGO_GRID, "ranks filling a grid"},
        {MC_ALGO_HIER, "known places (MC_BIND)"},
    };
    size_t used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if ((im->needs & names[i].flag) && used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s",
                                     used ? ", " : "", names[i].text);
}

static void print_algo(const mc_algo_t *a)
{
    const mc_algo_impl_t *im = a->impl;
    char needs[160];
    needs_text(im, needs, sizeof needs);
    printf("  %-22s %-18s %s%s\n", mc_coll_name(a->coll), a->name, a->desc,
           (im->needs & MC_ALGO_COMMUTATIVE) ? " [commutative ops only]" : "");
    if (*needs)
        printf("  %-22s %-18s   without %s: %s\n", "", "", needs,
               im->fallback);
    else if (im->usable) /* a condition of its own (room in the MPB) */
        printf("  %-22s %-18s   where it cannot serve: %s\n", "", "",
               im->fallback);
    if (im->declines)
        printf("  %-22s %-18s   if %s: %s\n", "", "", im->declines,
               im->fallback);
    const mc_param_desc_t *ps = mc_algo_params(a);
    for (int i = 0; ps[i].name; i++) {
        const mc_param_desc_t *p = &ps[i];
        printf("  %-22s %-18s   %s=%lld (%lld..%lld): %s\n", "", "", p->name,
               (long long)p->def, (long long)p->min, (long long)p->max,
               p->help);
    }
}

static const char *const in_place_names[] = {"-", "sbuf", "root's sbuf",
                                             "root's rbuf"};

/* the collectives' table (mc_coll_info): one line or object each */
static void print_colls(int json)
{
    if (!json)
        printf("collectives (name, variable that forces its algorithm, "
               "shape, where MC_IN_PLACE goes):\n");
    for (int k = 0; k < MC_COLL_COUNT; k++) {
        const mc_coll_info_t *c = mc_coll_info((mc_coll_t)k);
        unsigned p = c->props;
        char shape[64];
        snprintf(shape, sizeof shape, "%s%s%s%s",
                 p & MC_COLL_ROOTED ? "rooted " : "",
                 p & MC_COLL_REDUCES ? "reduces " : "",
                 p & MC_COLL_BLOCKS ? "blocks " : "",
                 p & MC_COLL_VECTOR ? "counts-per-rank " : "");
        if (!json) {
            printf("  %-22s %-30s %-24s %s\n", c->name, c->var,
                   *shape ? shape : "-", in_place_names[c->in_place]);
            continue;
        }
        json_t *o = json_pack(
            "{s:s,s:s,s:s,s:b,s:b,s:b,s:b,s:s}", "collective", c->name,
            "var", c->var, "mpi", c->mpi, "rooted", (p & MC_COLL_ROOTED) != 0,
            "reduces", (p & MC_COLL_REDUCES) != 0, "blocks",
            (p & MC_COLL_BLOCKS) != 0, "vector", (p & MC_COLL_VECTOR) != 0,
            "in_place", in_place_names[c->in_place]);
        char *txt = json_dumps(o, JSON_COMPACT);
        puts(txt);
        free(txt);
        json_decref(o);
    }
}

/* --json: one object per collective, per algorithm, then per
 * environment variable */
static int print_json(void)
{
    print_colls(1);
    for (const mc_algo_t *a = mc_algos; a->name; a++) {
        json_t *ps = json_array();
        const mc_param_desc_t *pd = mc_algo_params(a);
        for (int i = 0; pd[i].name; i++) {
            const mc_param_desc_t *p = &pd[i];
            json_array_append_new(ps, json_pack("{s:s,s:I,s:I,s:I,s:s}",
                "name", p->name, "default", (json_int_t)p->def,
                "min", (json_int_t)p->min, "max", (json_int_t)p->max,
                "help", p->help));
        }
        /* the parameter settings the generated tests also run */
        json_t *vs = json_array();
        for (int i = 0; i < 5 && a->variants[i]; i++)
            json_array_append_new(vs, json_string(a->variants[i]));
        json_t *o = json_pack("{s:s,s:s,s:s,s:b,s:b,s:o,s:o,s:s?,s:s?}",
            "coll", mc_coll_name(a->coll), "algo", a->name, "desc", a->desc,
            "commutative_only", (a->impl->needs & MC_ALGO_COMMUTATIVE) != 0,
            "single_copy", (a->impl->needs & MC_ALGO_SINGLE_COPY) != 0,
            "params", ps, "variants", vs, "fallback", a->impl->fallback,
            "declines", a->impl->declines);
        char *txt = json_dumps(o, JSON_COMPACT);
        puts(txt);
        free(txt);
        json_decref(o);
    }
    for (const mc_envvar_t *e = mc_envvars; e->name; e++) {
        json_t *o = json_pack("{s:s,s:s,s:s}", "env", e->name, "default",
                              e->def, "help", e->help);
        char *txt = json_dumps(o, JSON_COMPACT);
        puts(txt);
        free(txt);
        json_decref(o);
    }
    /* where MC_BIND's places come from: hwloc, or sysfs without it */
    json_t *o = json_pack("{s:s,s:b}", "topology", mc_hwtopo_source(),
                          "hwloc", !strncmp(mc_hwtopo_source(), "hwloc", 5));
    char *txt = json_dumps(o, JSON_COMPACT);
    puts(txt);
    free(txt);
    json_decref(o);
    return 0;
}

int cmd_info(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--tuning"))
            return info_tuning(argc, argv);
        else if (!strcmp(argv[i], "--comm-bytes") ||
                 !strcmp(argv[i], "--shm") || !strcmp(argv[i], "--sim") ||
                 !strcmp(argv[i], "--bound") || !strcmp(argv[i], "--lenient"))
            return info_comm(argc, argv); /* its options imply it */
    int json = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json"))
            return mc_usage_error("info", "unknown option '%s'", argv[i]);
        json = 1;
    }
    if (json)
        return print_json();
    print_colls(0);
    printf("\nalgorithms (collective, name, description; parameters "
           "below):\n");
    for (const mc_algo_t *a = mc_algos; a->name; a++)
        print_algo(a);
    printf("\nenvironment variables (name, default, help):\n");
    for (const mc_envvar_t *e = mc_envvars; e->name; e++) {
        char range[96] = "";
        if (e->kind != MC_ENV_TEXT)
            mc_env_describe_range(e, range, sizeof range);
        printf("  %-16s %-6s %s%s%s%s\n", e->name, *e->def ? e->def : "-",
               e->help, *range ? " (" : "", range, *range ? ")" : "");
    }
    printf("\ntopology: %s\n", mc_hwtopo_source());
    info_mpi();
    return 0;
}
