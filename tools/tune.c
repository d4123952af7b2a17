/*
 * manycoll tune --profile P (-o FILE | --install) [--ranks LO-HI]
 *               [--max-bytes B]
 *
 * Writes the tuning file the library reads at start (docs/tuning.md):
 * the rules the library's policy makes from the profile's models
 * (src/select/tunegen.h). -o - is stdout. Only --install writes the
 * default location ($XDG_CONFIG_HOME/manycoll/tuning.json, else
 * ~/.config/manycoll/tuning.json), which every program of the user then
 * reads: never without being asked.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "select/tunegen.h"
#include "select/tuning.h"
#include "tools.h"
#include "util/config.h"
#include "util/error.h"

typedef struct topts {
    const char *profile, *out;
    int lo, hi, install;
    size_t max_bytes;
} topts_t;

static int usage(const char *msg, const char *arg)
{
    return mc_usage_error("tune", "%s%s", msg, arg);
}

static int parse(int argc, char **argv, topts_t *o)
{
    memset(o, 0, sizeof *o);
    o->max_bytes = 1 << 20;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--install")) {
            o->install = 1;
            continue;
        }
        static const char *const valued[] = {"--profile", "-o", "--ranks",
                                             "--max-bytes", NULL};
        if (!v)
            return mc_opt_no_value("tune", a, valued);
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
            return mc_usage_error("tune", "unknown option '%s'", a);
    }
    if (!o->profile)
        return usage("missing --profile P", "");
    if (!o->out == !o->install)
        return usage(o->out ? "-o and --install: choose one" :
                     "say where: -o FILE, -o - (stdout), or --install (the "
                     "default location every program reads)", "");
    return 0;
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

static int output(const mc_tune_plan_t *t, const char *path, const char *cmd)
{
    if (!strcmp(path, "-"))
        return mc_tune_write(t, stdout, cmd);
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    MC_CHECK(make_dirs(path));
    FILE *f = fopen(tmp, "w");
    if (!f)
        return mc_error(MC_ERR_SYS, "-o: cannot write '%s'", tmp);
    int rc = mc_tune_write(t, f, cmd);
    if (fclose(f) != 0 && rc == MC_OK)
        rc = mc_error(MC_ERR_SYS, "-o: cannot write '%s'", tmp);
    if (rc == MC_OK && rename(tmp, path) != 0)
        rc = mc_error(MC_ERR_SYS, "-o: cannot rename '%s' to '%s'", tmp,
                      path);
    if (rc != MC_OK)
        remove(tmp);
    return rc;
}

static int tune(const topts_t *o, mc_profile_t *p, const char *cmd)
{
    char path[512];
    mc_tune_plan_t t = {0};
    MC_CHECK(mc_profile_load(o->profile, p));
    int rc = mc_tune_plan(p, o->lo, o->hi, o->max_bytes, &t);
    if (rc == MC_OK && o->install)
        rc = mc_tuning_default_path(path, sizeof path);
    if (rc == MC_OK)
        rc = output(&t, o->out ? o->out : path, cmd);
    if (rc == MC_OK && (!o->out || strcmp(o->out, "-")))
        fprintf(stderr, "tune: %d rules for %d-%d ranks written to %s\n",
                t.n, t.lo, t.hi, o->out ? o->out : path);
    mc_tune_plan_free(&t);
    mc_profile_free(p);
    return rc;
}

int cmd_tune(int argc, char **argv)
{
    topts_t o;
    int rc = parse(argc, argv, &o);
    if (rc || mc_parse_only())
        return rc;
    char cmd[256] = "manycoll";
    for (int i = 0, len = 8; i < argc && len < (int)sizeof cmd; i++)
        len += snprintf(cmd + len, sizeof cmd - (size_t)len, " %s", argv[i]);
    mc_profile_t *p = malloc(sizeof *p);
    if (!p)
        return mc_usage_error("tune", "out of memory");
    rc = tune(&o, p, cmd);
    free(p);
    if (rc != MC_OK)
        fprintf(stderr, "manycoll tune: %s\n", mc_last_error());
    return rc == MC_OK ? 0 : 1;
}
