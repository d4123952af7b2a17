/*
 * manycoll — the command. `manycoll help` lists the subcommands.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plat/platform.h"
#include "tools.h"
#include "util/config.h"
#include "util/datapath.h"
#include "manycoll.h"

static const struct {
    const char *name;
    int (*fn)(int, char **);
} cmds[] = {
    {"run", cmd_run},         {"bench", cmd_bench}, {"sim", cmd_sim},
    {"calibrate", cmd_calibrate}, {"model", cmd_model}, {"tune", cmd_tune},
    {"info", cmd_info},       {"gcmc", cmd_gcmc}, {"replay", cmd_replay},
    {"bench-rank", cmd_bench_rank}, /* internal: one bench rank */
};

/* the subcommand whose usage errors are being reported: usage errors
 * point at its --help */
static const char *current_cmd;

int mc_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "manycoll %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    if (current_cmd && !strcmp(current_cmd, cmd))
        fprintf(stderr, "(manycoll %s --help shows the usage)\n", cmd);
    return 2;
}

int mc_parse_only(void)
{
    const char *v = getenv("MC_CMD_PARSE_ONLY");
    return v && !strcmp(v, "1");
}

int mc_opt_no_value(const char *cmd, const char *a,
                    const char *const *valued)
{
    for (; *valued; valued++)
        if (!strcmp(a, *valued))
            return mc_usage_error(cmd, "option '%s' needs a value", a);
    return mc_usage_error(cmd, "unknown option '%s'", a);
}

int mc_tool_platform(const char *cmd, const char *name, int lenient,
                     mc_platform_t **p)
{
    mc_plat_load_opts_t o = {.lenient = lenient};
    int rc = mc_platform_load_opts(name, &o, p);
    if (rc == MC_OK && o.ignored[0])
        fprintf(stderr, "manycoll %s: warning: unknown keys ignored "
                        "(--lenient): %s\n", cmd, o.ignored);
    return rc;
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

/* ,"key":"s" with s escaped as JSON wants */
void mc_json_pair(const char *key, const char *s)
{
    printf(",\"%s\":\"", key);
    for (; *s; s++)
        if (*s == '"' || *s == '\\')
            printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            printf("\\u%04x", (unsigned char)*s);
        else
            putchar(*s);
    putchar('"');
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

static void version(void)
{
    int v = mc_version();
    printf("manycoll %d.%d.%d\n", v / 10000, v / 100 % 100, v % 100);
    const char *dirs[MC_DATA_DIRS];
    mc_data_dirs(dirs);
    printf("data (platforms, profiles), searched in this order:\n");
    for (int i = 0; i < MC_DATA_DIRS; i++) {
        if (!dirs[i])
            continue;
        char p[4096];
        snprintf(p, sizeof p, "%s/platforms/scc48.json", dirs[i]);
        printf("  %s%s\n", dirs[i], access(p, R_OK) ? " (absent)" : "");
    }
}

/* manycoll help [CMD | --man] */
static int help(int argc, char **argv)
{
    if (argc > 2 && !strcmp(argv[2], "--man")) {
        int v = mc_version();
        char ver[32];
        snprintf(ver, sizeof ver, "%d.%d.%d", v / 10000, v / 100 % 100,
                 v % 100);
        mc_help_man(stdout, ver);
        return 0;
    }
    if (argc > 2 && mc_help_print(argv[2], stdout) != 0) {
        fprintf(stderr, "manycoll help: no command '%s'\n", argv[2]);
        mc_help_list(stderr);
        return 2;
    }
    if (argc <= 2)
        mc_help_list(stdout);
    return 0;
}

int mc_cmd_main(int argc, char **argv)
{
    if (argc < 2) {
        mc_help_list(stderr);
        return 2;
    }
    const char *a = argv[1];
    if (!strcmp(a, "help") || !strcmp(a, "--help") || !strcmp(a, "-h"))
        return help(argc, argv);
    if (!strcmp(a, "--version") || !strcmp(a, "version")) {
        version();
        return 0;
    }
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
        if (strcmp(a, cmds[i].name) != 0)
            continue;
        if (mc_help_wanted(a, argc - 1, argv + 1) &&
            mc_help_print(a, stdout) == 0)
            return 0;
        /* ranks of run, bench and gcmc warn from mc_init */
        char unknown[256];
        if (strcmp(a, "run") && strcmp(a, "bench") && strcmp(a, "gcmc") &&
            strcmp(a, "bench-rank") &&
            mc_env_unknown(unknown, sizeof unknown))
            fprintf(stderr, "manycoll: warning: not manycoll variables, "
                            "ignored: %s (`manycoll info` lists them)\n",
                    unknown);
        current_cmd = a;
        int rc = cmds[i].fn(argc - 1, argv + 1);
        current_cmd = NULL;
        return rc;
    }
    fprintf(stderr, "manycoll: unknown command '%s'\n", a);
    mc_help_list(stderr);
    return 2;
}
