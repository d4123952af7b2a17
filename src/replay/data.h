/*
 * manycoll replay as data: what `manycoll replay --json` prints, as
 * structs filled by one C call. The Python package binds it
 * (manycoll.replay, python/manycoll/_data.pxi); the command prints the
 * same rows (report.c). Self-contained (no internal headers), so that
 * Cython can declare it. Nothing is printed: a failure returns the
 * library's status, and mc_last_error() says why.
 */
#ifndef MC_REPLAY_DATA_H
#define MC_REPLAY_DATA_H

typedef struct mc_rp_spec {
    const char *archive;    /* the .otf2 anchor file or its directory */
    const char *platform;   /* a name, "meshXxY" or a platform file */
    const char *map;        /* NULL or "linear", or a file of cores */
    int ranks;              /* 0: as recorded; more: weak scaling */
    double compute_scale;   /* computation times this (1: as recorded) */
    const char *const *algos; /* "allreduce=ring:sync=2", nalgos of them */
    int nalgos;
    int best;               /* try every algorithm per call site */
} mc_rp_spec_t;

enum { MC_RP_ROW_SITE, MC_RP_ROW_SUBTOTAL, MC_RP_ROW_TOTAL };

/* One row of the report. A site (communicator, collective or "p2p",
 * size class): calls, sim_us and measured_us per rank that made such
 * calls (ranks of them), bytes per call (size_class <= bytes <
 * 2 * size_class). A subtotal (one per collective kind) and the total:
 * calls, bytes and times per rank, over all simulated ranks (a site adds
 * x * ranks / the total's ranks to them); the total adds the run. */
typedef struct mc_rp_row {
    int kind;               /* MC_RP_ROW_* */
    char comm[96], coll[32], algo[160];
    unsigned long long size_class, bytes, calls;
    double sim_us, measured_us;
    char best[160];         /* --best: the fastest that ran as asked */
    double best_us, gain;   /* gain: sim_us / best_us */
    int ranks;              /* a site: ranks that made its calls; the
                               total: simulated ranks */
    /* the total only */
    double run_sim_us, comm_share, unreplayed_us, wall_s;
    int recorded_ranks, derived; /* derived: counts from bytes */
    /* the simulator's events (op completions, line steps, flag landings,
     * wake-ups): the host's work, which wall_s divides into time */
    unsigned long long events;
    char platform[64], archive[1024];
} mc_rp_row_t;

/* The replay of s->archive: *rows (malloc'd: free()) and *nrows, the
 * sites, the subtotals, the total last. A failure leaves none: MC_ERR_ARG
 * for a wrong spec or an archive that cannot be read or replayed,
 * MC_ERR_UNSUPPORTED in a build without OTF2. */
int mc_rp_data(const mc_rp_spec_t *s, mc_rp_row_t **rows, int *nrows);

#endif
