/*
 * Profiles (src/plat/profile.h):
 *   - the shipped profiles load by name and hold the report's numbers;
 *   - save -> load -> save is byte-identical, for a synthetic profile with
 *     every kind of entry (NAN, samples, points, skips) and for the
 *     shipped ones, and the loaded values equal the saved ones;
 *   - bad profiles fail with a message naming the file and the field;
 *   - `test_profile --check-calibrated FILE` checks a profile written by
 *     `manycoll calibrate` (structure and skip list only, never timings).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plat/profile.h"
#include "util/error.h"

static int failures;

#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);  \
            fprintf(stderr, __VA_ARGS__);                                    \
            fputc('\n', stderr);                                             \
            failures++;                                                      \
        }                                                                    \
    } while (0)

static double clust(const mc_profile_t *p, const char *name)
{
    for (int i = 0; i < p->nclust; i++)
        if (!strcmp(p->clust[i].name, name))
            return p->clust[i].ns;
    return NAN;
}

static void shipped(void)
{
    mc_profile_t p;
    int rc = mc_profile_load("xeonphi60", &p);
    CHECK(rc == MC_OK, "%s", mc_last_error());
    CHECK(p.r_l == 8.6 && p.r_r == 235.8 && p.r_i == 277.7,
          "R_L %g R_R %g R_I %g", p.r_l, p.r_r, p.r_i);
    CHECK(p.cores == 60 && p.line_bytes == 64, "%d %d", p.cores,
          p.line_bytes);
    const mc_prof_fit_t *f = mc_profile_fit(p.ml, p.nml, "E-E");
    CHECK(f && f->slope == 76.0 && f->icept == 1521.0 && f->inv == 1096.0,
          "multi-line E-E (Table 3.1)");
    f = mc_profile_fit(p.ml, p.nml, "I-I");
    CHECK(f && f->slope == 94.9 && f->icept == 2750.0 && f->inv == 2017.5,
          "multi-line I-I (Figure 3.1b)");
    f = mc_profile_fit(p.cont, p.ncont, "E-E");
    CHECK(f && !f->has_inv && f->icept == 320.5 && f->slope == 56.2 &&
          f->inv == 0, "contention E-E (Table 3.2)");
    f = mc_profile_fit(p.cont, p.ncont, "I-I");
    CHECK(f && f->has_inv && f->icept == 1202.0 && f->slope == 23.4 &&
          f->inv == 695.8, "contention I-I (Figure 3.6b)");
    CHECK(p.nlines == 16 && p.lines[4].states[0] == 'E' &&
          !strcmp(p.lines[4].location, "same-core") &&
          p.lines[4].mean == 8.603, "Table 1.6 rows");
    CHECK(!strcmp(p.lines[2].source, "Table 1.6"), "source cited");
    mc_profile_free(&p);

    rc = mc_profile_load("sandybridge2s", &p);
    CHECK(rc == MC_OK, "%s", mc_last_error());
    CHECK(p.r_l == 2.3 && clust(&p, "R_P,M") == 41.6 &&
          clust(&p, "R_N,M") == 115.4 && clust(&p, "R_N,I") == 109.3 &&
          clust(&p, "R_R,S") == 15.7, "Table 1.8");
    CHECK(p.nml == 0 && p.ncont == 0 && p.nskip >= 2,
          "no multi-line/contention fits, and skipped says why");
    mc_profile_free(&p);
}

static void fill(mc_profile_t *p)
{
    mc_profile_init(p);
    strcpy(p->name, "synthetic");
    strcpy(p->description, "a \"quoted\" machine\nwith a newline");
    strcpy(p->source, "test_profile.c");
    p->line_bytes = 64;
    p->cores = 3;
    mc_profile_set_clust(p, "R_L", 1.25);
    mc_profile_set_clust(p, "R_R", 30);
    mc_profile_set_clust(p, "R_I", 140.5);
    mc_profile_set_clust(p, "R_N,M", 99.125);
    mc_prof_stat_t *s = mc_profile_add_line(p, "M", "other-core");
    double v[4] = {29.5, 30.25, 1e-3, 12345.678};
    s->median = 30;
    s->mean = 31.5;
    s->count = 4;
    mc_prof_samples_set(&s->samples, v, 4);
    s = mc_profile_add_pp(p, "E-S", "other-core");
    s->mean = 60.5; /* median, stdev stay NAN -> null */
    mc_prof_fit_t *f = mc_profile_add_ml(p, "E-E");
    f->slope = 5.5;
    f->icept = 4.4;
    f->inv = -91.9;
    f->r2 = 0.977;
    mc_prof_fit_alloc(f, 2);
    f->pts[0].x = 1;
    f->pts[0].median = 75.0625;
    mc_prof_samples_set(&f->pts[0].samples, v, 3);
    f->pts[1].x = 128;
    f->pts[1].median = 718.5;
    f->pts[1].model = 705.5;
    f->pts[1].rel_err = -0.018;
    f = mc_profile_add_cont(p, "I-I"); /* not fitted: nulls */
    f->has_inv = 1;
    mc_prof_fit_alloc(f, 1);
    f->pts[0].x = 1;
    f->pts[0].median = 150.25;
    mc_prof_bw_t *b = &p->bw[p->nbw++];
    strcpy(b->kind, "memcpy");
    b->bytes = 32768;
    b->gbps_median = 54.5;
    b->gbps_mean = NAN;
    mc_profile_skip(p, "lines S other-core", "needs %d cores", 3);
}

static void round_trip_text(const mc_profile_t *p, const char *what)
{
    char *a = mc_profile_dumps(p);
    CHECK(a != NULL, "%s: dumps: %s", what, mc_last_error());
    if (!a)
        return;
    mc_profile_t q;
    int rc = mc_profile_parse(a, what, &q);
    CHECK(rc == MC_OK, "%s: parse: %s", what, mc_last_error());
    char *b = rc == MC_OK ? mc_profile_dumps(&q) : NULL;
    CHECK(b && !strcmp(a, b), "%s: save/load/save differs", what);
    if (rc == MC_OK)
        mc_profile_free(&q);
    free(a);
    free(b);
}

static void round_trip(void)
{
    mc_profile_t p, q;
    fill(&p);
    round_trip_text(&p, "synthetic");
    const char *path = "test_profile_rt.json";
    CHECK(mc_profile_save(&p, path) == MC_OK, "%s", mc_last_error());
    int rc = mc_profile_load(path, &q);
    CHECK(rc == MC_OK, "%s", mc_last_error());
    if (rc == MC_OK) {
        CHECK(!strcmp(q.description, p.description), "description");
        CHECK(q.r_i == 140.5 && q.nclust == 4 && q.clust[3].ns == 99.125,
              "clustered");
        CHECK(q.lines[0].samples.n == 4 && q.lines[0].samples.v[3] ==
              12345.68 && q.lines[0].samples.v[2] == 1e-3,
              "samples (7 significant digits)");
        CHECK(isnan(q.pp[0].median) && q.pp[0].mean == 60.5, "null -> NAN");
        CHECK(q.ml[0].inv == -91.9 && q.ml[0].npts == 2 &&
              q.ml[0].pts[1].rel_err == -0.018 &&
              q.ml[0].pts[0].samples.n == 3, "multi-line fit and points");
        CHECK(q.cont[0].has_inv && isnan(q.cont[0].slope) &&
              q.cont[0].pts[0].median == 150.25, "unfitted contention");
        CHECK(q.nbw == 1 && q.bw[0].gbps_median == 54.5, "bandwidth");
        CHECK(q.nskip == 1 && !strcmp(q.skip[0].reason, "needs 3 cores"),
              "skipped");
        mc_profile_free(&q);
    }
    remove(path);
    mc_profile_free(&p);
    for (int i = 0; i < 2; i++) {
        const char *name = i ? "sandybridge2s" : "xeonphi60";
        if (mc_profile_load(name, &q) == MC_OK) {
            round_trip_text(&q, name);
            mc_profile_free(&q);
        }
    }
}

static void expect_error(const char *json, const char *needle)
{
    mc_profile_t p;
    int rc = mc_profile_parse(json, "bad.json", &p);
    CHECK(rc == MC_ERR_ARG, "'%s' accepted", json);
    CHECK(strstr(mc_last_error(), needle) &&
          strstr(mc_last_error(), "bad.json"),
          "message '%s' does not name '%s'", mc_last_error(), needle);
}

static void errors(void)
{
#define HEAD "{\"format\": \"manycoll-profile/1\", \"name\": \"x\", " \
             "\"line_bytes\": 64, \"cores\": 2, "
#define CL "\"clustered\": {\"R_L\": 1, \"R_R\": 2, \"R_I\": 3}"
    expect_error(HEAD CL ", \"colour\": 1}", "colour");
    expect_error(HEAD "\"clustered\": {\"R_L\": 1, \"R_I\": 3}}", "R_R");
    expect_error(HEAD CL ", \"lines\": [{\"states\": \"M\"}]}",
                 "lines[0].location");
    expect_error(HEAD CL ", \"multiline\": [{\"states\": \"E-E\", \"o\": "
                 "\"fast\", \"q\": 1, \"p\": 1}]}", "multiline[0].o");
    expect_error(HEAD CL ", \"contention\": [{\"states\": \"E-E\", \"form\":"
                 " \"b*n\", \"b\": 1, \"c\": 1}]}", "contention[0].form");
    expect_error(HEAD CL ", \"multiline\": [{\"states\": \"E-E\", \"o\": 1, "
                 "\"q\": 1, \"p\": 1, \"points\": [{\"median\": 3}]}]}",
                 "multiline[0].points[0].x");
    expect_error("{\"format\": \"other\"}", "format");
    expect_error("{\"format\": ", "line");
    mc_profile_t p;
    CHECK(mc_profile_load("no-such-profile", &p) == MC_ERR_ARG &&
          strstr(mc_last_error(), "no-such-profile"), "%s", mc_last_error());
}

static int has_skip(const mc_profile_t *p, const char *what)
{
    for (int i = 0; i < p->nskip; i++)
        if (strstr(p->skip[i].what, what) && strlen(p->skip[i].reason) > 10)
            return 1;
    return 0;
}

/* A profile from `manycoll calibrate --quick`: complete structure and the
 * skips this machine implies. No timing value is asserted. */
static int check_calibrated(const char *path)
{
    mc_profile_t p;
    int rc = mc_profile_load(path, &p);
    CHECK(rc == MC_OK, "%s", mc_last_error());
    if (rc != MC_OK)
        return 1;
    CHECK(isfinite(p.r_l) && isfinite(p.r_r) && isfinite(p.r_i),
          "R_L, R_R, R_I measured");
    CHECK(*p.created && strstr(p.command, "calibrate"), "provenance");
    CHECK(p.nlines >= 6 && p.lines[0].samples.n >= 3 &&
          p.lines[0].count == p.lines[0].samples.n, "line latencies");
    CHECK(p.npp >= 6 && p.pp[0].samples.n >= 3, "single-line ping-pong");
    const mc_prof_fit_t *f = mc_profile_fit(p.ml, p.nml, "E-E");
    CHECK(f && f->npts >= 6 && isfinite(f->slope) && isfinite(f->r2) &&
          f->pts[0].samples.n >= 3 && isfinite(f->pts[0].rel_err),
          "multi-line E-E fit with points, samples, quality");
    CHECK(p.ncont >= 1 && p.cont[0].npts >= 1, "contention points");
    CHECK(p.nbw >= 1 && isfinite(p.bw[0].gbps_median), "bandwidth");
    CHECK(p.nskip >= 1, "skipped measurements are recorded");
    if (p.cores < 3) {
        CHECK(has_skip(&p, "lines S other-core"), "S needs a third core");
        CHECK(has_skip(&p, "contention fit"), "contention fit needs readers");
    }
    CHECK(has_skip(&p, "other-socket") || p.nclust > 9,
          "other socket measured or skipped");
    printf("%s: %d lines, %d ping-pongs, %d multi-line fits, %d contention "
           "entries, %d skipped\n", path, p.nlines, p.npp, p.nml, p.ncont,
           p.nskip);
    mc_profile_free(&p);
    return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--check-calibrated"))
        return check_calibrated(argv[2]);
    shipped();
    round_trip();
    errors();
    if (failures)
        fprintf(stderr, "%d failure(s)\n", failures);
    else
        printf("profile tests passed\n");
    return failures ? 1 : 0;
}
