/*
 * Min-max cost models of collectives on a cache-coherent chip: Table 4.1 of
 * Ramos & Hoefler, "Modelling Communications in Cache Coherent Systems"
 * (2013). Every model gives a best case (min) and a worst case (max) in
 * nanoseconds, as functions of a profile's costs:
 *
 *   R_L, R_R, R_I  read a line from the own cache, another core's cache,
 *                  memory (Table 1.5b)
 *   T_C(n)         n threads copying the same line (contention, Eq. 3.2):
 *                  b + c*n (cached line), b + c*n - a/n (line in memory)
 *   T_N            a ping-pong of N lines (multi-line model, Eq. 3.1):
 *                  o*N + q - p/N
 *
 * The functions are pure: no I/O, no allocation, no global state.
 */
#ifndef MC_MODEL_CCMODEL_H
#define MC_MODEL_CCMODEL_H

#include "plat/profile.h"

#define MC_CCM_MAX_LEVELS 16

/* How T_C(n) of a cached line is taken (see ccmodel.c, "Contention"). */
typedef enum {
    MC_CCM_TC_ANCHORED = 0, /* R_L + R_R + c*(n-1): Eq. 3.2 and 4.5 */
    MC_CCM_TC_FIT           /* b + c*n with the fitted b of Table 3.2 */
} mc_ccm_tc_t;

/* How the reduction's T_{k_i} (the parent combining k_i buffers) is
 * taken (see ccmodel.c, "Small reduction"). */
typedef enum {
    MC_CCM_TK_SLOPE = 0, /* o*k: the asymptotic per-line cost only */
    MC_CCM_TK_FULL       /* o*k + q - p/k: the whole multi-line model */
} mc_ccm_tk_t;

typedef struct mc_ccm {
    double rl, rr, ri;           /* R_L, R_R, R_I */
    double tc_b, tc_c, tc_a;     /* contention fit: b + c*n - a/n */
    int tc_inv;                  /* the fit has the -a/n term (I state) */
    double ml_o, ml_q, ml_p;     /* multi-line fit: o*N + q - p/N */
    int has_tc, has_ml;          /* the profile provides these fits */
    mc_ccm_tc_t tc_mode;
    mc_ccm_tk_t tk_mode;
} mc_ccm_t;

typedef struct mc_ccm_range {
    double min, max;
} mc_ccm_range_t;

/* Model parameters from a profile. `state` is the state of the data
 * buffers, "E" (the report's chapter 4 assumption) or "I": it picks the
 * contention and multi-line fits "E-E" or "I-I". A missing fit is not an
 * error here (has_tc / has_ml = 0); the models that need it fail. */
int mc_ccm_from_profile(const mc_profile_t *p, const char *state,
                        mc_ccm_t *m);

/* T_C(n), n >= 1 readers of one line. */
double mc_ccm_tc(const mc_ccm_t *m, int n);
/* T_N, N >= 1 lines (multi-line ping-pong). */
double mc_ccm_tn(const mc_ccm_t *m, double lines);

/* Notification backwards to a parent from nth - 1 threads (Eq. 4.1, 4.2). */
int mc_ccm_notify_bw(const mc_ccm_t *m, int nth, mc_ccm_range_t *out);
/* Notification forwards down a tree of d levels with fan-outs k[0..d)
 * (Eq. 4.6). */
int mc_ccm_notify_fw(const mc_ccm_t *m, int d, const int *k,
                     mc_ccm_range_t *out);
/* Small (one-line) broadcast on that tree (Eq. 4.7, Table 4.1). */
int mc_ccm_bcast_small(const mc_ccm_t *m, int d, const int *k,
                       mc_ccm_range_t *out);
/* Pipelined large broadcast of nth threads, slices of ncl lines
 * (Eq. 4.8, 4.9). */
int mc_ccm_bcast_pipelined(const mc_ccm_t *m, int nth, double ncl,
                           mc_ccm_range_t *out);
/* Flat-tree large broadcast of N lines to nth - 1 threads (Eq. 4.10). */
int mc_ccm_bcast_flat(const mc_ccm_t *m, int nth, double lines,
                      mc_ccm_range_t *out);
/* Dissemination barrier with mpeers peers per round, `rounds` rounds
 * (Eq. 4.11, 4.12). */
int mc_ccm_barrier(const mc_ccm_t *m, int mpeers, int rounds,
                   mc_ccm_range_t *out);
/* Rounds of that barrier for nth threads: the report's ceil(log_m nth)
 * (paper = 1) or the schedule's ceil(log_{m+1} nth) (paper = 0); see
 * ccmodel.c. -1 if m peers can never cover nth threads. */
int mc_ccm_barrier_rounds(int nth, int mpeers, int paper);
/* Small (one-item) reduction on a tree (Eq. 4.13, 4.14). */
int mc_ccm_reduce_small(const mc_ccm_t *m, int d, const int *k,
                        mc_ccm_range_t *out);

/* Threads a tree of fan-outs k[0..d) reaches: 1 + sum_i prod_{j<=i} k_j
 * (Eq. 4.4), saturating at INT32_MAX / 2. */
long mc_ccm_tree_size(int d, const int *k);

#endif
