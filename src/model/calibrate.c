/*
 * The calibration (calibrate.h): the benchmarks of Ramos & Hoefler
 * (2013), chapters 1-3, with threads pinned to CPUs -- line latency by
 * state and location, single-line and multi-line ping-pong (fitted to
 * T_N = o*N + q - p/N), contention of n readers of one line (fitted to
 * b + c*n, and b + c*n - a/n for the I state), copy bandwidth. What this
 * machine cannot measure (too few cores, one socket, no SMT) is skipped
 * and listed in the profile with the reason.
 *
 * Noise: on a shared VM the vCPUs move between host placements whose
 * core-to-core latency differs several-fold (here ~28 vs ~125 ns), for
 * seconds at a time. So every configuration takes many samples (1500),
 * all measurements are interleaved in rounds spread over a minute (see
 * rounds() below) and the profile reports medians; means, standard
 * deviations and the raw samples, in time order, are kept.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "model/calib.h"
#include "model/calibrate.h"
#include "model/fit.h"
#include "util/error.h"

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

static void describe(mc_calib_t *c, const mc_calib_opts_t *o)
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
    snprintf(p->command, sizeof p->command, "%s",
             o->command ? o->command : "");
    snprintf(p->notes, sizeof p->notes,
             "Times in ns: the median of %d samples per measurement (%s), "
             "configurations interleaved; on a shared VM whose vCPUs change "
             "host placement the mean and stdev are dominated by placement "
             "changes, the median is not. Clock: %s, step %.1f ns. T0 = cpu "
             "%d, T1 = cpu %d.", c->reps, o->quick ? "--quick" : "full run",
             mc_calib_clock_name(), mc_calib_clock_step_ns(), c->topo.cpu[c->topo.a],
             c->topo.b >= 0 ? c->topo.cpu[c->topo.b] : -1);
    long ls = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
    p->line_bytes = ls > 0 ? (int)ls : MC_CALIB_LINE;
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

static int bandwidth_one(mc_calib_t *c, const char *kind, size_t bytes,
                         int reps)
{
    char *src = mc_calib_alloc(bytes), *dst = mc_calib_alloc(bytes);
    double *v = calloc((size_t)reps, sizeof *v);
    int rc = MC_OK;
    if (!src || !dst || !v)
        rc = mc_error(MC_ERR_NOMEM, "%zu-byte copy buffers", bytes);
    bwjob_t j = {.buf = src, .bytes = bytes};
    memcpy(dst, src, rc == MC_OK ? bytes : 0); /* fault the pages in */
    for (int r = 0; r < reps && rc == MC_OK; r++) {
        /* remote: T1 writes the source, T0 copies it (lines move) */
        if (!strcmp(kind, "remote-copy"))
            mc_calib_call(c->hb, job_fill, &j);
        uint64_t t0 = mc_calib_tick();
        memcpy(dst, src, bytes);
        uint64_t t1 = mc_calib_tick();
        v[r] = (double)bytes / mc_calib_ns(t1 - t0); /* bytes/ns = GB/s */
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

static int bandwidth(mc_calib_t *c)
{
    int q = c->quick;
    mc_calib_progress("copy bandwidth: memcpy of 32 KiB, 1 MiB, %s on one "
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

static const mc_calib_family_t *const families[] = {
    &mc_calib_lines_family, &mc_calib_pingpong_family, &mc_calib_multiline_family,
    &mc_calib_contention_family,
};
#define NFAM (int)(sizeof families / sizeof *families)

static int rounds(mc_calib_t *c, void **st, double t0)
{
    int r = 0, rc = MC_OK;
    for (; r < c->reps && rc == MC_OK; r++) {
        for (int f = 0; f < NFAM && rc == MC_OK; f++)
            rc = families[f]->round(st[f], r);
        if ((r + 1) * 10 / c->reps > r * 10 / c->reps) /* every 10 % */
            mc_calib_progress("round %d of %d (%.0f s)", r + 1, c->reps,
                           mc_calib_now_s() - t0);
        if (!c->quick && mc_calib_now_s() - t0 > DEADLINE_S) {
            r++;
            mc_calib_progress("stopping after %d of %d rounds: the machine is "
                           "too busy to finish in time", r, c->reps);
            MC_CHECK(mc_profile_skip(c->prof, "rounds", "stopped after %d of "
                     "%d rounds at the %.0f s deadline", r, c->reps,
                     DEADLINE_S));
            break;
        }
        if (!c->quick)
            mc_calib_sleep_until(t0 + PACE_S * (r + 1) / c->reps);
    }
    return rc < 0 ? rc : r;
}

static int measure(mc_calib_t *c)
{
    void *st[NFAM] = {NULL};
    int f = 0, rc = MC_OK;
    for (; f < NFAM && rc == MC_OK; f++)
        rc = families[f]->begin(c, &st[f]);
    if (rc != MC_OK)
        f--; /* that family cleaned up after itself */
    else {
        mc_calib_progress("%d rounds%s", c->reps, c->quick ? " (--quick)"
                       : ", spread over a minute");
        rc = rounds(c, st, mc_calib_now_s());
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

static int setup(mc_calib_t *c, const mc_calib_opts_t *o)
{
    MC_CHECK(mc_calib_topo_init(&c->topo));
    const mc_calib_topo_t *t = &c->topo;
    if (t->b < 0)
        return mc_error(MC_ERR_ARG, "needs at least 2 CPUs on "
                        "different cores (found %d CPU%s)", t->ncpu,
                        t->ncpu == 1 ? "" : "s");
    if (t->b_crosses)
        MC_CHECK(mc_profile_skip(c->prof, "other-core within one L3 domain",
                 "T0's L3 domain has no other core available: other-core "
                 "measurements cross L3 domains"));
    MC_CHECK(mc_calib_pin_self(t->cpu[t->a]));
    MC_CHECK(mc_calib_clock_init(o->quick ? 10 : 100));
    if (t->b >= 0 && !(c->hb = mc_calib_helper_new(t->cpu[t->b])))
        return MC_ERR_SYS;
    if (t->third >= 0 && !(c->h3 = mc_calib_helper_new(t->cpu[t->third])))
        return MC_ERR_SYS;
    if (t->far >= 0 && !(c->hfar = mc_calib_helper_new(t->cpu[t->far])))
        return MC_ERR_SYS;
    return MC_OK;
}

int mc_calibrate(const mc_calib_opts_t *o, mc_profile_t *p)
{
    mc_calib_t c = {.quick = o->quick, .reps = o->reps, .prof = p};
    if (c.reps < 1)
        c.reps = o->quick ? 15 : 1500;
    int rc = setup(&c, o);
    if (rc == MC_OK) {
        describe(&c, o);
        rc = measure(&c);
    }
    mc_calib_helper_free(c.hb);
    mc_calib_helper_free(c.h3);
    mc_calib_helper_free(c.hfar);
    return rc;
}
