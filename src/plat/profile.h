/*
 * Cache-coherence profiles: what a machine costs to move cache lines, in
 * the terms of Ramos & Hoefler, "Modelling Communications in Cache Coherent
 * Systems" (2013). A profile is a JSON file (docs/profiles.md) written by
 * `manycoll calibrate` or transcribed from the report's tables
 * (platforms/profiles/xeonphi60.json, sandybridge2s.json).
 *
 * It holds
 *   - the clustered line costs R_L, R_R, R_I (report Table 1.5b), plus any
 *     finer clustered names (R_P,M, R_N,E, ... of Table 1.8);
 *   - line-transfer latencies by coherence state and location (Tables
 *     1.6-1.7), single-line ping-pong results (Tables 2.x);
 *   - fits of the form  T(x) = slope*x + icept - inv/x :
 *       multi-line ping-pong  T_N = o*N + q - p/N     (Table 3.1):
 *                             slope = o, icept = q, inv = p
 *       contention            T_C(n) = b + c*n        (Table 3.2, cached)
 *                             T_C(n) = b + c*n - a/n  (Table 3.2, I state)
 *                             slope = c, icept = b, inv = a
 *     each with its fit quality and the points (and raw samples) behind it;
 *   - copy bandwidths, and the measurements that were skipped and why.
 *
 * Every time is in nanoseconds. NAN marks a value the source does not give.
 */
#ifndef MC_MODEL_PROFILE_H
#define MC_MODEL_PROFILE_H

#include <stddef.h>

#define MC_PROF_MAX_STATS 64
#define MC_PROF_MAX_FITS 8
#define MC_PROF_MAX_CLUST 24
#define MC_PROF_MAX_BW 8
#define MC_PROF_MAX_SKIP 32

/* Raw samples of one measurement, ns (heap, owned by the profile). */
/* cores of a profile at most (models and tunings go up to it) */
#define MC_PROF_MAX_CORES 1024

typedef struct mc_prof_samples {
    int n;
    double *v;
} mc_prof_samples_t;

/* One measured or published latency. */
typedef struct mc_prof_stat {
    char states[8];    /* lines: "M" "E" "S" "I" "F"; ping-pong: "E-E" =
                        * send-buffer state - recv-buffer state */
    char location[24]; /* "same-core", "other-core", "other-socket", or the
                        * report's "adjacent-core", "middle-core", ... */
    double mean, stdev, median;
    int count;         /* samples measured (0 if unknown) */
    char source[96];
    mc_prof_samples_t samples;
} mc_prof_stat_t;

/* One point of a fit: x is lines (multi-line) or readers (contention). */
typedef struct mc_prof_point {
    double x, mean, median; /* measured */
    double model, rel_err;  /* fit at x; (model - median) / median */
    mc_prof_samples_t samples;
} mc_prof_point_t;

typedef struct mc_prof_fit {
    char states[8];     /* "E-E": send (global) buffer - recv buffer state */
    double slope, icept, inv;  /* T(x) = slope*x + icept - inv/x */
    int has_inv;        /* contention only: the I-state form with -a/x */
    double r2;          /* coefficient of determination, NAN if unknown */
    double max_rel_err; /* largest |rel_err| over the points, NAN if none */
    char source[96];
    int npts;
    mc_prof_point_t *pts;
} mc_prof_fit_t;

typedef struct mc_prof_clust {
    char name[16];      /* "R_L", "R_P,M", ... */
    double ns;
} mc_prof_clust_t;

typedef struct mc_prof_bw {
    char kind[32];      /* "memcpy" (one core) */
    double bytes;       /* per copy */
    double gbps_median, gbps_mean; /* 1e9 bytes / s */
    mc_prof_samples_t samples;     /* GB/s per repetition */
} mc_prof_bw_t;

typedef struct mc_prof_skip {
    char what[64];
    char reason[256];
} mc_prof_skip_t;

typedef struct mc_profile {
    char name[64];
    char description[256]; /* the machine */
    char source[256];      /* where the numbers come from */
    char created[40];      /* ISO date, calibrated profiles only */
    char command[256];     /* the command that wrote it, if any */
    char notes[512];
    int line_bytes, cores;
    /* the clustered model (Table 1.5b); also listed in clust[] */
    double r_l, r_r, r_i;
    int nclust;
    mc_prof_clust_t clust[MC_PROF_MAX_CLUST];
    char clust_source[256];
    int nlines;
    mc_prof_stat_t lines[MC_PROF_MAX_STATS];
    int npp;
    mc_prof_stat_t pp[MC_PROF_MAX_STATS];
    int nml;
    mc_prof_fit_t ml[MC_PROF_MAX_FITS];
    int ncont;
    mc_prof_fit_t cont[MC_PROF_MAX_FITS];
    int nbw;
    mc_prof_bw_t bw[MC_PROF_MAX_BW];
    int nskip;
    mc_prof_skip_t skip[MC_PROF_MAX_SKIP];
} mc_profile_t;

/* An empty profile: NAN costs, no entries. */
void mc_profile_init(mc_profile_t *p);
/* Frees the samples and points; the struct itself is the caller's. */
void mc_profile_free(mc_profile_t *p);

/* Loads a profile by name (mc_data_path("platforms/profiles", ...)) or by
 * path. On error: negative status, message naming the file and field. */
int mc_profile_load(const char *name, mc_profile_t *p);
int mc_profile_read_file(const char *path, mc_profile_t *p);
/* Parses JSON text; `what` names it in error messages. */
int mc_profile_parse(const char *text, const char *what, mc_profile_t *p);
/* Writes the profile as JSON ("-" is stdout). */
int mc_profile_save(const mc_profile_t *p, const char *path);
/* The JSON text, malloc'd (free() it), or NULL with mc_error set. */
char *mc_profile_dumps(const mc_profile_t *p);

/* Sets a clustered cost; R_L, R_R, R_I also set r_l, r_r, r_i. */
int mc_profile_set_clust(mc_profile_t *p, const char *name, double ns);
/* Records a measurement that was not made and why. */
int mc_profile_skip(mc_profile_t *p, const char *what, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Appends an empty stat / fit; NULL (with mc_error) if the table is full. */
mc_prof_stat_t *mc_profile_add_line(mc_profile_t *p, const char *states,
                                    const char *location);
mc_prof_stat_t *mc_profile_add_pp(mc_profile_t *p, const char *states,
                                  const char *location);
mc_prof_fit_t *mc_profile_add_ml(mc_profile_t *p, const char *states);
mc_prof_fit_t *mc_profile_add_cont(mc_profile_t *p, const char *states);

/* The fit for `states` ("E-E") among n fits, or NULL. */
const mc_prof_fit_t *mc_profile_fit(const mc_prof_fit_t *fits, int n,
                                    const char *states);
/* T(x) = slope*x + icept - inv/x */
double mc_prof_fit_eval(const mc_prof_fit_t *f, double x);

/* Copies v[0..n) into s (replacing what was there). */
int mc_prof_samples_set(mc_prof_samples_t *s, const double *v, int n);
/* Allocates npts zeroed points for f. */
int mc_prof_fit_alloc(mc_prof_fit_t *f, int npts);

#endif
