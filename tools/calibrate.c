/*
 * manycoll calibrate [-o PROFILE.json] [--quick] [--name NAME] [--reps R]
 *
 * Runs the calibration of the library (src/model/calibrate.h: the
 * benchmarks of Ramos & Hoefler (2013), chapters 1-3) and writes the
 * profile (docs/profiles.md). Progress goes to stderr; the profile to
 * -o FILE (then a summary to stdout) or to stdout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/calibrate.h"
#include "tools.h"
#include "util/error.h"

typedef struct opts {
    const char *out, *name;
    int quick, reps;
} opts_t;

static int parse(int argc, char **argv, opts_t *o)
{
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--quick")) {
            o->quick = 1;
            continue;
        }
        if (strcmp(a, "-o") && strcmp(a, "--name") && strcmp(a, "--reps"))
            return mc_usage_error("calibrate", "unknown option '%s'", a);
        if (!v)
            return mc_usage_error("calibrate", "option '%s' needs a value",
                                  a);
        i++;
        if (!strcmp(a, "-o"))
            o->out = v;
        else if (!strcmp(a, "--name"))
            o->name = v;
        else if ((o->reps = atoi(v)) < 3 || o->reps > 100000)
            return mc_usage_error("calibrate", "--reps: '%s' is not in "
                                  "3..100000", v);
    }
    if (!o->reps)
        o->reps = o->quick ? 15 : 1500;
    return 0;
}

static void summary(FILE *f, const mc_profile_t *p)
{
    fprintf(f, "profile %s (%s)\n", p->name, p->description);
    fprintf(f, "  R_L %.1f ns  R_R %.1f ns  R_I %.1f ns (medians)\n",
            p->r_l, p->r_r, p->r_i);
    for (int i = 0; i < p->nml; i++)
        fprintf(f, "  multi-line %s: T_N = %.1f*N %+.1f %+.1f/N  (R^2 "
                "%.3f, max rel err %.1f%%)\n", p->ml[i].states,
                p->ml[i].slope, p->ml[i].icept, -p->ml[i].inv, p->ml[i].r2,
                100 * p->ml[i].max_rel_err);
    for (int i = 0; i < p->nskip; i++)
        fprintf(f, "  skipped %s: %s\n", p->skip[i].what, p->skip[i].reason);
}

int cmd_calibrate(int argc, char **argv)
{
    opts_t o;
    int rc = parse(argc, argv, &o);
    if (rc || mc_parse_only())
        return rc;
    mc_profile_t *p = malloc(sizeof *p);
    if (!p)
        return mc_usage_error("calibrate", "out of memory");
    mc_profile_init(p);
    FILE *probe = o.out ? fopen(o.out, "a") : NULL; /* fail before, not after */
    if (o.out && !probe) {
        free(p);
        fprintf(stderr, "manycoll calibrate: -o: cannot write '%s'\n", o.out);
        return 1;
    }
    if (probe)
        fclose(probe);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    char cmd[256] = "manycoll";
    for (int i = 0, len = 8; i < argc && len < (int)sizeof cmd; i++)
        len += snprintf(cmd + len, sizeof cmd - (size_t)len, " %s", argv[i]);
    mc_calib_opts_t co = {.quick = o.quick, .reps = o.reps, .name = o.name,
                          .command = cmd};
    rc = mc_calibrate(&co, p);
    if (rc == MC_OK)
        rc = mc_profile_save(p, o.out ? o.out : "-");
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (rc == MC_OK) {
        fprintf(stderr, "calibrate: done in %.1f s%s%s\n",
                (double)(t1.tv_sec - t0.tv_sec) +
                    1e-9 * (double)(t1.tv_nsec - t0.tv_nsec),
                o.out ? ", profile written to " : "", o.out ? o.out : "");
        if (o.out)
            summary(stdout, p);
    } else {
        fprintf(stderr, "manycoll calibrate: %s\n", mc_last_error());
    }
    mc_profile_free(p);
    free(p);
    return rc == MC_OK ? 0 : 1;
}
