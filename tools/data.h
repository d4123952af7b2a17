/*
 * The simulator, the models and the registry as data: what `manycoll sim
 * --json`, `manycoll model ... --json` and `manycoll info --json` print,
 * as structs filled by C calls. The Python package (python/manycoll)
 * binds these; the command prints the same structs (one description of
 * each record).
 *
 * Options come in as a struct; a failure returns the library's status
 * with mc_last_error() saying why (nothing is printed). The calls keep no
 * state between them and may run in several threads at once.
 *
 * Self-contained (no internal headers), so that Cython can declare it.
 */
#ifndef MC_TOOLS_DATA_H
#define MC_TOOLS_DATA_H

#include <stddef.h>

/* manycoll.sim.run: one simulation per size */
typedef struct mc_sim_spec {
    const char *platform;   /* a name, "meshXxY" or a platform file */
    const char *coll;
    const char *algo;       /* "name[:k=v,...]"; NULL: the library's */
    const char *dtype, *op; /* NULL: uint8 (float64 if it reduces), sum */
    const char *contention; /* "all", "none", "mpb,link"; NULL: the
                               platform's */
    const size_t *sizes;    /* bytes */
    int nsizes;
    int ranks;              /* 0: every working core */
    int root;
    int iters;              /* calls measured per size (>= 1) */
    int check;              /* every core verifies its result */
    long long jitter;       /* a seed; < 0: none */
} mc_sim_spec_t;

/* one size: the fields of `manycoll sim --json` (host_wait_us only where
 * chips > 1, grid only where not empty) */
typedef struct mc_sim_row {
    char platform[64], coll[32], algo[160], ran[160], why[400];
    char contention[16], grid[48];
    int ranks, root, check, iters, warmup, chips;
    size_t bytes;
    double lat_us, bw_MBps, done_min_us, done_max_us, done_stdev_us;
    unsigned long long events, ops, lines, jitter;
    double events_per_s, wall_s, rank0_avg_us, iter_mean_us, iter_var_us2;
    unsigned long long link_waits, flag_link_waits, start_events;
    double link_wait_us, flag_link_wait_us, port_wait_us, start_wall_s;
    double host_wait_us;
} mc_sim_row_t;

/* rows[0..s->nsizes) (for a barrier, one). *nrows: the rows filled, or
 * -1 when the spec itself is wrong (then MC_ERR_ARG); a simulated failure
 * (a core's error or wrong result) is MC_ERR_INTERNAL naming the ranks. */
int mc_sim_data(const mc_sim_spec_t *s, mc_sim_row_t *rows, int *nrows);

/* manycoll.model.predict: the OC-Bcast paper's LogP put/get model of a
 * broadcast on a platform (`manycoll model --platform P`) */
typedef struct mc_ocb_spec {
    const char *platform;
    const char *coll;       /* "bcast" */
    const char *algo;       /* ocbcast[:k=..,chunk=..], binomial, ... */
    const char *sizes;      /* "32,1K", "96L", "1L-192L"; NULL: default */
    int ranks, root;        /* ranks 0: every core */
    int layout;             /* the platform's distances, not the paper's */
} mc_ocb_spec_t;

/* one size: the --json record (coll "bcast", events 0, source "model";
 * peak_MBps only where > 0) */
typedef struct mc_ocb_row {
    char platform[64], algo[128], mode[8];
    int ranks, root;
    size_t bytes;
    double lat_us, bw_MBps, done_min_us, done_max_us, done_stdev_us;
    double peak_MBps;
} mc_ocb_row_t;

/* *rows (malloc'd: free()) and *nrows; *nrows -1 when the spec is wrong
 * (MC_ERR_ARG), else a model's failure */
int mc_ocb_data(const mc_ocb_spec_t *s, mc_ocb_row_t **rows, int *nrows);

/* manycoll.model.cc_predict and .optimize: the cache-coherence min-max
 * models (`manycoll model predict|optimize --profile P`); the variant
 * options are the command's values as text (NULL: its default) */
typedef struct mc_cc_spec {
    const char *profile, *coll;
    const char *ranks;      /* "2-60", "2,4,8-16" */
    int optimize;           /* 1: the optimiser; 0: predict */
    const char *k, *m, *lines, *state, *contention, *reduce_copy, *rounds,
        *order, *c, *dmax;
} mc_cc_spec_t;

enum { MC_CC_MROUNDS, MC_CC_LINES, MC_CC_CHILDREN, MC_CC_TREE };
#define MC_CC_MAX_LEVELS 16

/* one rank count: the parameters of `kind` (m and rounds; lines;
 * children; d and k[0..d)), the range, and (optimize; else -1) ties */
typedef struct mc_cc_row {
    char coll[32];
    int ranks, kind, m, rounds, children, d, k[MC_CC_MAX_LEVELS], ties;
    double lines, min_ns, max_ns;
} mc_cc_row_t;

/* *rows (malloc'd: free()) and *nrows; *nrows -1 when the spec or the
 * profile is wrong, else a model's failure (MC_ERR_ARG: bad parameters) */
int mc_cc_data(const mc_cc_spec_t *s, mc_cc_row_t **rows, int *nrows);

/* manycoll.algorithms: the registry's algorithms (`manycoll info
 * --json`); the strings are the registry's own (static) */
typedef struct mc_algo_row {
    const char *coll, *algo, *desc;
    const char *fallback, *declines; /* NULL where it has none */
    int commutative_only, single_copy;
    int nparams, nvariants;
    const char *variants[5]; /* the settings the generated tests run */
} mc_algo_row_t;

typedef struct mc_param_row {
    const char *name, *help;
    long long def, min, max;
} mc_param_row_t;

/* the i-th algorithm: MC_OK, or MC_ERR_ARG past the last */
int mc_algo_data(int i, mc_algo_row_t *r);
/* parameter j of the i-th algorithm: MC_OK, or MC_ERR_ARG */
int mc_algo_param_data(int i, int j, mc_param_row_t *p);

/* one message size: "4096", "3K", "1M"; -1 if it is none */
long long mc_data_size(const char *s);

#endif
