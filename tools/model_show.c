/*
 * manycoll model profile  --profile P [--json]
 * manycoll model pingpong --profile P [--json]
 *
 * `profile` prints what a profile holds (its JSON with --json).
 * `pingpong` compares the report's ping-pong estimates with the profile's
 * measured ping-pongs (median if the profile has one, else the mean):
 *
 *   full      Eq. 2.1: R_{L,S_s} + R_{loc,S_r} + R_{loc,M}, from the
 *             profile's line latencies (S_s = I: the I-line latency)
 *   clustered Eq. 2.16-2.20 without the overhead O: R_L (R_I if S_s = I)
 *             + 2 R_R (2 R_L on one core)
 *   multiline T_1 = o + q - p of the S_s-S_r multi-line fit (Section 3.1),
 *             where the profile has that fit
 *
 * each with its relative error (estimate - measured) / measured.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_cmd.h"
#include "util/error.h"

int model_profile(const model_opts_t *o, const mc_profile_t *p)
{
    if (o->json) {
        char *s = mc_profile_dumps(p);
        if (!s)
            return 1;
        fputs(s, stdout);
        free(s);
        return 0;
    }
    printf("profile %s: %s\n  source: %s\n", p->name, p->description,
           p->source);
    if (*p->command)
        printf("  command: %s (%s)\n", p->command, p->created);
    printf("  line %d bytes, %d cores\n  clustered (ns):", p->line_bytes,
           p->cores);
    for (int i = 0; i < p->nclust; i++)
        printf(" %s %.1f", p->clust[i].name, p->clust[i].ns);
    printf("\n");
    for (int i = 0; i < p->nlines; i++) {
        const mc_prof_stat_t *s = &p->lines[i];
        char med[16] = "      -", n[16] = "-";
        if (!isnan(s->median))
            snprintf(med, sizeof med, "%7.1f", s->median);
        if (s->count > 0)
            snprintf(n, sizeof n, "%d", s->count);
        /* a profile taken from a paper's tables has means and deviations
         * but no samples: "-" rather than nan and 0 */
        printf("  line %-2s %-14s median %s  mean %7.1f  stdev %6.1f  n %s\n",
               s->states, s->location, med, s->mean, s->stdev, n);
    }
    for (int i = 0; i < p->nml; i++) {
        const mc_prof_fit_t *f = &p->ml[i];
        printf("  multi-line %s: T_N = %.1f*N %+.1f %+.1f/N  R^2 %.4f  "
               "max rel err %.1f%%  (%d points)\n", f->states, f->slope,
               f->icept, -f->inv, f->r2, 100 * f->max_rel_err, f->npts);
    }
    for (int i = 0; i < p->ncont; i++) {
        const mc_prof_fit_t *f = &p->cont[i];
        if (isnan(f->slope))
            printf("  contention %s: not fitted", f->states);
        else
            printf("  contention %s: T_C(n) = %.1f %+.1f*n", f->states,
                   f->icept, f->slope);
        if (f->has_inv && !isnan(f->inv))
            printf(" %+.1f/n", -f->inv);
        printf("  R^2 %.4f  (%d points", f->r2, f->npts);
        for (int j = 0; j < f->npts; j++)
            printf("%s n=%g: %.1f", j ? "," : ":", f->pts[j].x,
                   f->pts[j].median);
        printf(")\n");
    }
    for (int i = 0; i < p->nbw; i++)
        printf("  copy %-12s %10.0f bytes: %.2f GB/s (median)\n",
               p->bw[i].kind, p->bw[i].bytes, p->bw[i].gbps_median);
    for (int i = 0; i < p->nskip; i++)
        printf("  skipped %s: %s\n", p->skip[i].what, p->skip[i].reason);
    return 0;
}

static double value(const mc_prof_stat_t *s)
{
    return isnan(s->median) ? s->mean : s->median;
}

static double line(const mc_profile_t *p, char state, const char *loc)
{
    for (int i = 0; i < p->nlines; i++)
        if (p->lines[i].states[0] == state && !p->lines[i].states[1] &&
            !strcmp(p->lines[i].location, loc))
            return value(&p->lines[i]);
    return NAN;
}

static void print_est(const char *name, double est, double meas, int json)
{
    double err = (est - meas) / meas;
    if (json && isnan(est))
        printf(", \"%s_ns\": null, \"%s_rel_err\": null", name, name);
    else if (json)
        printf(", \"%s_ns\": %.3f, \"%s_rel_err\": %.4f", name, est, name,
               err);
    else if (isnan(est))
        printf(" %9s %7s", "-", "-");
    else
        printf(" %9.1f %+6.1f%%", est, 100 * err);
}

int model_pingpong(const model_opts_t *o, const mc_profile_t *p)
{
    if (!o->json)
        printf("# ping-pong on %s: measured half round trip against the "
               "report's estimates (ns, relative error)\n"
               "%-6s %-14s %9s %9s %7s %9s %7s %9s %7s\n", p->name, "states",
               "location", "measured", "full", "err", "clust", "err",
               "T_1", "err");
    for (int i = 0; i < p->npp; i++) {
        const mc_prof_stat_t *s = &p->pp[i];
        const char *loc = s->location;
        int local = !strcmp(loc, "same-core");
        char ss = s->states[0], sr = s->states[2];
        double meas = value(s);
        double full = line(p, ss, "same-core") + line(p, sr, loc) +
                      line(p, 'M', loc);
        double clust = (ss == 'I' ? p->r_i : p->r_l) +
                       2 * (local ? p->r_l : p->r_r);
        const mc_prof_fit_t *f = mc_profile_fit(p->ml, p->nml, s->states);
        double t1 = f && !local ? mc_prof_fit_eval(f, 1) : NAN;
        if (o->json)
            printf("{\"states\": \"%s\", \"location\": \"%s\", "
                   "\"measured_ns\": %.3f", s->states, loc, meas);
        else
            printf("%-6s %-14s %9.1f", s->states, loc, meas);
        print_est("full", full, meas, o->json);
        print_est("clustered", clust, meas, o->json);
        print_est("multiline_T1", t1, meas, o->json);
        printf(o->json ? "}\n" : "\n");
    }
    return 0;
}
