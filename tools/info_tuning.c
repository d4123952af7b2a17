/*
 * manycoll info --tuning [-n N] [--json]
 *
 * For each collective and a set of message sizes, what a communicator of
 * N ranks on this machine (the shm transport) would run, and why: the
 * rule that decides it -- MC_ALGO_<COLL>, an entry of the tuning file
 * (named with its index and ranges), or a built-in default rule -- and,
 * where the rule's algorithm cannot serve N ranks here, each fallback
 * and why ("fallback of alltoall direct: one rank"). The algorithm is
 * the one that runs, with the parameter values it runs with (automatic
 * ones worked out for the communicator); --json adds "asked", the rule's
 * own algorithm. N defaults to the number of
 * CPUs. A tuning file that cannot be read or parsed is reported, with
 * the file and the problem, and the exit status is 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "select/select.h"
#include "select/tuning.h"
#include "tp/shm.h"
#include "tools.h"
#include "util/config.h"

static const size_t sizes[] = {8, 56, 64, 1024, 16384, 65536, 1 << 20};

static void source_line(const mc_tuning_t *t, int json)
{
    char def[512] = "";
    const char *env = mc_env("MC_TUNING");
    mc_tuning_default_path(def, sizeof def);
    const char *src = !strcmp(env, "none") ? "MC_TUNING=none"
                      : *env              ? "MC_TUNING"
                                          : "default location";
    if (json) {
        json_t *o = json_pack("{s:s?, s:s, s:s, s:s?}", "tuning_file",
                              t ? t->path : NULL, "source", src,
                              "default_path", def, "transport",
                              t ? t->transport : NULL);
        char *s = json_dumps(o, 0);
        printf("%s\n", s ? s : "{}");
        free(s);
        json_decref(o);
        return;
    }
    if (t)
        printf("tuning file: %s (%s; %d rules for transport %s)\n", t->path,
               src, t->n, t->transport);
    else if (*env) /* =none (a path that cannot be read is an error) */
        printf("tuning file: none (MC_TUNING=%s): the built-in rules "
               "apply\n", env);
    else if (*def)
        printf("tuning file: none (MC_TUNING is unset and %s, the default "
               "location, does not exist): the built-in rules apply\n", def);
    else
        printf("tuning file: none (MC_TUNING is unset, and neither "
               "XDG_CONFIG_HOME nor HOME is set to give a default "
               "location): the built-in rules apply\n");
}

static void row(int n, mc_coll_t coll, size_t bytes, const mc_explain_t *x,
                int json)
{
    if (!json) {
        printf("  %-21s %8zu  %-40s %s\n", mc_coll_name(coll), bytes, x->ran,
               x->why);
        return;
    }
    json_t *o = json_pack("{s:i, s:s, s:I, s:s, s:s, s:s}", "ranks", n,
                          "coll", mc_coll_name(coll), "bytes",
                          (json_int_t)bytes, "algo", x->ran, "why", x->why,
                          "asked", x->asked);
    char *s = json_dumps(o, 0);
    printf("%s\n", s ? s : "{}");
    free(s);
    json_decref(o);
}

int info_tuning(int argc, char **argv)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    int n = ncpu > 0 ? (int)ncpu : 1, json = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            json = 1;
        else if (!strcmp(argv[i], "-n") && i + 1 < argc) {
            long long x;
            if (mc_opt_int("info", "-n", argv[++i], 1, MC_MAX_RANKS, &x))
                return 2;
            n = (int)x;
        }
        else if (strcmp(argv[i], "--tuning")) /* -n last: no value */
            return mc_opt_no_value("info", argv[i],
                                   (const char *const[]){"-n", NULL});
    }
    if (n < 1)
        return mc_usage_error("info", "-n: expected a rank count >= 1");
    const mc_tuning_t *t;
    mc_ruleset_t rules[MC_COLL_COUNT];
    mc_tp_t shm; /* what a job of n ranks here would have */
    mc_team_t team;
    if (mc_tuning_get(&t) != MC_OK || mc_shm_describe(n, &shm) != MC_OK ||
        mc_team_layout(&team, &shm) != MC_OK ||
        mc_select_init(rules, &team) != MC_OK) {
        fprintf(stderr, "manycoll info: %s\n", mc_last_error());
        return 1;
    }
    source_line(t, json);
    if (!json)
        printf("selection for %d rank%s (shm): collective, bytes, algorithm, "
               "why\n", n, n == 1 ? "" : "s");
    for (int c = 0; c < MC_COLL_COUNT; c++) {
        size_t ns = c == MC_COLL_BARRIER ? 1 : sizeof sizes / sizeof *sizes;
        for (size_t i = 0; i < ns; i++) {
            size_t b = c == MC_COLL_BARRIER ? 0 : sizes[i];
            mc_explain_t x;
            mc_select_explain(rules, (mc_coll_t)c, b, MC_SUM, &x);
            row(n, (mc_coll_t)c, b, &x, json);
        }
    }
    return 0;
}
