/*
 * manycoll — the command. `manycoll help` lists the subcommands.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools.h"
#include "util/config.h"

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *help;
} cmds[] = {
    {"run", cmd_run, "run -n N [--timeout S] PROG [ARGS]: launch N ranks"},
    {"bench", cmd_bench,
     "bench -n N --coll C [--algo A[:k=v]] [--sizes LIST] [--iters I] "
     "[--warmup W] [--cache warm|cold] [--check] [--json]: measure "
     "collectives here"},
    {"sim", cmd_sim,
     "sim --platform P --coll C [--algo A] [--sizes LIST] [--ranks N] "
     "[--root R] [--check] [--json] [--trace FILE] [--jitter SEED] "
     "[--contention all|none|mpb,link,mc]: simulate on a many-core chip"},
    {"calibrate", cmd_calibrate,
     "calibrate [-o PROFILE.json] [--quick] [--name NAME] [--reps R]: "
     "measure this machine's cache-line costs (a profile)"},
    {"model", cmd_model,
     "model optimize --profile P --coll bcast-small|reduce-small|barrier "
     "--ranks 2-60 [--json]; model predict|profile|pingpong ...: "
     "cache-coherence models; model --platform P --coll bcast --algo A "
     "[--sizes LIST] [--mode paper|layout] [--json] | --table2 | "
     "--figure7: the OC-Bcast paper's put/get models"},
    {"tune", cmd_tune,
     "tune --profile P [-o FILE] [--ranks LO-HI] [--max-bytes B]: write the "
     "tuning file the library reads (default "
     "$XDG_CONFIG_HOME/manycoll/tuning.json)"},
    {"info", cmd_info,
     "info [--json] [--tuning [-n N] [--json]]: algorithms, parameters and "
     "environment variables; --tuning: what each collective and size "
     "would run on N ranks, and why"},
    {"gcmc", cmd_gcmc,
     "gcmc [--algo A] [--opts cycles=N,particles=N,...]: the GCMC "
     "application proxy of Kohler et al., as a rank of manycoll run"},
    {"bench-rank", cmd_bench_rank, NULL}, /* internal: one bench rank */
};

int mc_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "manycoll %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 2;
}

int mc_opt_int(const char *cmd, const char *opt, const char *v, long long lo,
               long long hi, long long *out)
{
    if (mc_parse_int(v, lo, hi, out) != 0)
        return mc_usage_error(cmd, "%s: '%s' is not a whole number in [%lld, "
                              "%lld]", opt, v, lo, hi);
    return 0;
}

int mc_opt_num(const char *cmd, const char *opt, const char *v, double lo,
               double hi, double *out)
{
    char *end;
    int ok = *v != 0;
    for (const char *p = v; *p && ok; p++)
        ok = isdigit((unsigned char)*p) || strchr("+-.eE", *p);
    double x = ok ? strtod(v, &end) : 0;
    if (!ok || *end || !isfinite(x) || x < lo || x > hi)
        return mc_usage_error(cmd, "%s: '%s' is not a number in [%g, %g]",
                              opt, v, lo, hi);
    *out = x;
    return 0;
}

int mc_parse_size_list(const char *s, size_t *out, int max)
{
    char buf[1024];
    if (strlen(s) >= sizeof buf)
        return -1;
    strcpy(buf, s);
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        long long v = mc_parse_size(t);
        if (v < 0 || n >= max)
            return -1;
        out[n++] = (size_t)v;
    }
    return n;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: manycoll <command> [options]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++)
        if (cmds[i].help)
            fprintf(f, "  %s\n", cmds[i].help);
}

int mc_cmd_main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "help") == 0 ||
        strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++)
        if (strcmp(argv[1], cmds[i].name) == 0)
            return cmds[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "manycoll: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
