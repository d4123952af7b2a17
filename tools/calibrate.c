/*
 * manycoll calibrate [-o PROFILE.json] [--quick] [--name NAME] [--reps R]
 *
 * Runs the benchmarks of Ramos & Hoefler (2013), chapters 1-3, on this
 * machine with threads pinned to CPUs, and writes a profile
 * (docs/profiles.md): line latency by state and location, single-line and
 * multi-line ping-pong (fitted to T_N = o*N + q - p/N), contention of n
 * readers of one line (fitted to b + c*n, and b + c*n - a/n for the
 * I state), copy bandwidth. What this machine cannot measure (too few
 * cores, one socket, no SMT) is skipped and listed in the profile with
 * the reason. Progress goes to stderr; the profile to -o FILE (then a
 * summary to stdout) or to stdout.
 *
 * Noise: on a shared VM the vCPUs move between host placements whose
 * core-to-core latency differs several-fold (here ~28 vs ~125 ns), for
 * seconds at a time. So every configuration takes many samples (1500),
 * all measurements are interleaved in rounds spread over a minute (see
 * rounds() below) and the profile reports medians; means, standard
 * deviations and the raw samples, in time order, are kept.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "calib.h"
#include "model/fit.h"
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

static void cpu_model(char *buf, size_t len)
{
    snprintf(buf, len, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
            char *s = strchr(line, ':') + 2;
            s[strcspn(s, "\n")] = '\0';
            snprintf(buf, len, "%s", s);
            break;
        }
    fclose(f);
}

static void describe(calib_t *c, const opts_t *o, int argc, char **argv)
{
    mc_profile_t *p = c->prof;
    char host[64] = "localhost", cpu[160];
    gethostname(host, sizeof host - 1);
    host[sizeof host - 1] = '\0';
    cpu_model(cpu, sizeof cpu);
    snprintf(p->name, sizeof p->name, "%s", o->name ? o->name : host);
    snprintf(p->description, sizeof p->description,
             "%s: %d CPUs available, %d package%s, %d L3 domain%s%s", cpu,
             c->topo.ncpu, c->topo.packages, c->topo.packages > 1 ? "s" : "",
             c->topo.l3domains, c->topo.l3domains > 1 ? "s" : "",
             c->topo.smt >= 0 ? ", SMT" : ", one thread per core");
    snprintf(p->source, sizeof p->source, "measured by `manycoll calibrate` "
             "on %s", host);
    time_t now = time(NULL);
    strftime(p->created, sizeof p->created, "%Y-%m-%dT%H:%M:%SZ",
             gmtime(&now));
    size_t len = 0;
    for (int i = 0; i < argc && len < sizeof p->command - 1; i++)
        len += (size_t)snprintf(p->command + len, sizeof p->command - len,
                                "%s%s", i ? " " : "manycoll ", argv[i]);
    snprintf(p->notes, sizeof p->notes,
             "Times in ns: the median of %d samples per measurement (%s), "
             "configurations interleaved; on a shared VM whose vCPUs change "
             "host placement the mean and stdev are dominated by placement "
             "changes, the median is not. Clock: %s, step %.1f ns. T0 = cpu "
             "%d, T1 = cpu %d.", c->reps, o->quick ? "--quick" : "full run",
             calib_clock_name(), calib_clock_step_ns(), c->topo.cpu[c->topo.a],
             c->topo.b >= 0 ? c->topo.cpu[c->topo.b] : -1);
    long ls = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
    p->line_bytes = ls > 0 ? (int)ls : CALIB_LINE;
    p->cores = c->topo.ncpu;
}

/* ---- copy bandwidth ---- */

typedef struct bwjob {
    char *buf;
    size_t bytes;
} bwjob_t;

static void job_fill(void *arg)
{
    bwjob_t *j = arg;
    memset(j->buf, 1, j->bytes);
}

static int bandwidth_one(calib_t *c, const char *kind, size_t bytes,
                         int reps)
{
    char *src = calib_alloc(bytes), *dst = calib_alloc(bytes);
    double *v = calloc((size_t)reps, sizeof *v);
    int rc = MC_OK;
    if (!src || !dst || !v)
        rc = mc_error(MC_ERR_NOMEM, "%zu-byte copy buffers", bytes);
    bwjob_t j = {.buf = src, .bytes = bytes};
    memcpy(dst, src, rc == MC_OK ? bytes : 0); /* fault the pages in */
    for (int r = 0; r < reps && rc == MC_OK; r++) {
        /* remote: T1 writes the source, T0 copies it (lines move) */
        if (!strcmp(kind, "remote-copy"))
            calib_call(c->hb, job_fill, &j);
        uint64_t t0 = calib_tick();
        memcpy(dst, src, bytes);
        uint64_t t1 = calib_tick();
        v[r] = (double)bytes / calib_ns(t1 - t0); /* bytes/ns = GB/s */
    }
    if (rc == MC_OK && c->prof->nbw < MC_PROF_MAX_BW) {
        mc_prof_bw_t *b = &c->prof->bw[c->prof->nbw++];
        mc_summary_t s = mc_summarize(v, reps);
        snprintf(b->kind, sizeof b->kind, "%s", kind);
        b->bytes = (double)bytes;
        b->gbps_median = s.median;
        b->gbps_mean = s.mean;
        rc = mc_prof_samples_set(&b->samples, v, reps);
    }
    free(src);
    free(dst);
    free(v);
    return rc;
}

static int bandwidth(calib_t *c)
{
    int q = c->quick;
    calib_progress("copy bandwidth: memcpy of 32 KiB, 1 MiB, %s on one "
                   "core%s", q ? "8 MiB" : "64 MiB",
                   c->hb ? "; 256 KiB written by another core" : "");
    MC_CHECK(bandwidth_one(c, "memcpy", 32 << 10, q ? 50 : 2000));
    MC_CHECK(bandwidth_one(c, "memcpy", 1 << 20, q ? 10 : 200));
    MC_CHECK(bandwidth_one(c, "memcpy", q ? 8 << 20 : 64 << 20, q ? 3 : 20));
    if (!c->hb)
        return mc_profile_skip(c->prof, "copy_bandwidth remote-copy",
                               "needs a second core");
    return bandwidth_one(c, "remote-copy", 256 << 10, q ? 10 : 300);
}

/* ---- the clustered model (Table 1.5b) from the measured lines ---- */

static double line_median(const mc_profile_t *p, const char *st,
                          const char *loc)
{
    for (int i = 0; i < p->nlines; i++)
        if (!strcmp(p->lines[i].states, st) &&
            !strcmp(p->lines[i].location, loc))
            return p->lines[i].median;
    return NAN;
}

static int cluster(mc_profile_t *p)
{
    static const struct {
        const char *name, *st, *loc;
    } map[] = {
        {"R_L", "E", "same-core"},     {"R_R", "E", "other-core"},
        {"R_I", "I", "same-core"},     {"R_L,M", "M", "same-core"},
        {"R_L,E", "E", "same-core"},   {"R_L,S", "S", "same-core"},
        {"R_R,M", "M", "other-core"},  {"R_R,E", "E", "other-core"},
        {"R_R,S", "S", "other-core"},  {"R_N,M", "M", "other-socket"},
        {"R_N,E", "E", "other-socket"}, {"R_N,S", "S", "other-socket"},
        {"R_N,I", "I", "other-socket"},
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++) {
        double v = line_median(p, map[i].st, map[i].loc);
        if (!isnan(v))
            MC_CHECK(mc_profile_set_clust(p, map[i].name, v));
        else if (i < 3)
            return mc_error(MC_ERR_SYS, "%s (%s line, %s) was not "
                            "measured", map[i].name, map[i].st, map[i].loc);
    }
    snprintf(p->clust_source, sizeof p->clust_source,
             "medians of the line latencies: R_L = E same-core, R_R = E "
             "other-core, R_I = I same-core (the report's choices, Section "
             "1.3.3); R_N,* = other socket");
    return MC_OK;
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

/*
 * The measurements run in rounds; a round takes one sample of every
 * configuration of every family. A full run spreads its rounds evenly
 * over PACE_S seconds, so all measurements sample the host's placements
 * of our vCPUs in the same proportions (the comparisons of models with
 * measurements rely on that), and stops early at DEADLINE_S whatever the
 * load, keeping the rounds done.
 */
#define PACE_S 60.0
#define DEADLINE_S 95.0

static const calib_family_t *const families[] = {
    &calib_lines_family, &calib_pingpong_family, &calib_multiline_family,
    &calib_contention_family,
};
#define NFAM (int)(sizeof families / sizeof *families)

static int rounds(calib_t *c, void **st, double t0)
{
    int r = 0, rc = MC_OK;
    for (; r < c->reps && rc == MC_OK; r++) {
        for (int f = 0; f < NFAM && rc == MC_OK; f++)
            rc = families[f]->round(st[f], r);
        if ((r + 1) * 10 / c->reps > r * 10 / c->reps) /* every 10 % */
            calib_progress("round %d of %d (%.0f s)", r + 1, c->reps,
                           calib_now_s() - t0);
        if (!c->quick && calib_now_s() - t0 > DEADLINE_S) {
            r++;
            calib_progress("stopping after %d of %d rounds: the machine is "
                           "too busy to finish in time", r, c->reps);
            MC_CHECK(mc_profile_skip(c->prof, "rounds", "stopped after %d of "
                     "%d rounds at the %.0f s deadline", r, c->reps,
                     DEADLINE_S));
            break;
        }
        if (!c->quick)
            calib_sleep_until(t0 + PACE_S * (r + 1) / c->reps);
    }
    return rc < 0 ? rc : r;
}

static int measure(calib_t *c)
{
    void *st[NFAM] = {NULL};
    int f = 0, rc = MC_OK;
    for (; f < NFAM && rc == MC_OK; f++)
        rc = families[f]->begin(c, &st[f]);
    if (rc != MC_OK)
        f--; /* that family cleaned up after itself */
    else {
        calib_progress("%d rounds%s", c->reps, c->quick ? " (--quick)"
                       : ", spread over a minute");
        rc = rounds(c, st, calib_now_s());
    }
    int done = rc > 0 ? rc : 0;
    for (int i = 0; i < f; i++) {
        int e = families[i]->end(st[i], done);
        if (rc >= 0 && e < 0)
            rc = e;
    }
    MC_CHECK(rc);
    MC_CHECK(bandwidth(c));
    return cluster(c->prof);
}

static int setup(calib_t *c, const opts_t *o)
{
    MC_CHECK(calib_topo_init(&c->topo));
    const calib_topo_t *t = &c->topo;
    if (t->b < 0)
        return mc_error(MC_ERR_ARG, "needs at least 2 CPUs on "
                        "different cores (found %d CPU%s)", t->ncpu,
                        t->ncpu == 1 ? "" : "s");
    if (t->b_crosses)
        MC_CHECK(mc_profile_skip(c->prof, "other-core within one L3 domain",
                 "T0's L3 domain has no other core available: other-core "
                 "measurements cross L3 domains"));
    MC_CHECK(calib_pin_self(t->cpu[t->a]));
    MC_CHECK(calib_clock_init(o->quick ? 10 : 100));
    if (t->b >= 0 && !(c->hb = calib_helper_new(t->cpu[t->b])))
        return MC_ERR_SYS;
    if (t->third >= 0 && !(c->h3 = calib_helper_new(t->cpu[t->third])))
        return MC_ERR_SYS;
    if (t->far >= 0 && !(c->hfar = calib_helper_new(t->cpu[t->far])))
        return MC_ERR_SYS;
    return MC_OK;
}

int cmd_calibrate(int argc, char **argv)
{
    opts_t o;
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc;
    mc_profile_t *p = malloc(sizeof *p);
    calib_t c = {.quick = o.quick, .reps = o.reps, .prof = p};
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
    rc = setup(&c, &o);
    if (rc == MC_OK) {
        describe(&c, &o, argc, argv);
        rc = measure(&c);
    }
    calib_helper_free(c.hb);
    calib_helper_free(c.h3);
    calib_helper_free(c.hfar);
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
