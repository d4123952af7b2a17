/*
 * manycoll bench (tools/bench.c): its options, and what the non-blocking
 * and persistent modes (tools/bench_nb.c) share with it.
 */
#ifndef MC_TOOLS_BENCH_H
#define MC_TOOLS_BENCH_H

#include "oracle/check.h"
#include "select/select.h"

enum {
    MC_BENCH_LATENCY = 0, /* the blocking call */
    MC_BENCH_PERSISTENT,  /* blocking and persistent, interleaved */
    MC_BENCH_OVERLAP      /* non-blocking, with computation to hide it */
};

#define MAX_SIZES 64
#define MAX_ALGOS 8

typedef struct bench_opts {
    int n;
    const char *coll, *dtype, *op;
    const char *algos[MAX_ALGOS]; /* --algo, repeatable: interleaved */
    int nalgos;
    size_t sizes[MAX_SIZES];
    int nsizes;
    int iters, warmup, check, json, cold;
    int mode;                /* MC_BENCH_LATENCY, ... (--mode) */
    mc_arrivals_t *arrivals; /* --check of a barrier (check.h) */
} bench_opts_t;

/* microseconds of CLOCK_MONOTONIC */
double mc_bench_now_us(void);
/* calls at a size when --iters is not given */
int mc_bench_default_iters(size_t bytes);
/* rank 0: statistics over all[rank * iters + it] (see bench.c); algo
 * labels the row, x (or NULL) says what ran and why */
void mc_bench_report(const bench_opts_t *o, mc_comm_t *w, const char *algo,
                     const mc_explain_t *x, size_t bytes, const double *all,
                     int iters, double *worst, const double *base);
/* the non-blocking modes at one size (tools/bench_nb.c) */
int mc_bench_persistent(const bench_opts_t *o, mc_comm_t *w, mc_case_t *k,
                        size_t bytes);
int mc_bench_overlap(const bench_opts_t *o, mc_comm_t *w, mc_case_t *k,
                     size_t bytes);

#endif
