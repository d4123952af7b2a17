/*
 * The calibration experiments (calibrate.h): the benchmarks of Ramos &
 * Hoefler (2013), chapters 1-3, on this machine. Shared by calibrate.c
 * (the rounds, bandwidth, the clustered model), calib_sys.c (clock,
 * pinning, topology, helper threads), calib_lines.c (line latency by
 * state and location), calib_contention.c (n readers of one line) and
 * calib_pingpong.c (single- and multi-line ping-pong).
 *
 * Threads: the main thread is T0, the measuring thread, pinned to cpu
 * `a`; helper threads are pinned one per other CPU and run jobs the main
 * thread hands them (mc_calib_call / mc_calib_start + mc_calib_wait).
 */
#ifndef MC_MODEL_CALIB_H
#define MC_MODEL_CALIB_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "plat/profile.h"

#define MC_CALIB_LINE 64
#define MC_CALIB_MAX_CPUS 64

/* ---- clock (calib_sys.c) ---- */
uint64_t mc_calib_tick(void);
/* Calibrates ticks per ns; ms = how long to sample. */
int mc_calib_clock_init(int ms);
double mc_calib_ns(uint64_t ticks);
const char *mc_calib_clock_name(void);
/* ns per empty mc_calib_tick() pair (median), to subtract */
double mc_calib_tick_overhead_ns(void);
/* the clock's step (ns) */
double mc_calib_clock_step_ns(void);
/* seconds on CLOCK_MONOTONIC_RAW */
double mc_calib_now_s(void);
/* sleeps until mc_calib_now_s() >= t */
void mc_calib_sleep_until(double t);

/* ---- cache-line control ---- */
void mc_calib_flush(const void *p);   /* clflush + fence; no-op without */
int mc_calib_can_flush(void);
void mc_calib_fence(void);
static inline void mc_calib_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* ---- topology and pinning ---- */
typedef struct mc_calib_topo {
    int ncpu;                  /* CPUs we may run on */
    int cpu[MC_CALIB_MAX_CPUS];
    int package[MC_CALIB_MAX_CPUS];
    int core[MC_CALIB_MAX_CPUS];  /* core id within the package */
    int l3[MC_CALIB_MAX_CPUS];    /* first CPU of its L3 (or package) domain */
    int a;                     /* T0 */
    int b;                     /* another core, same L3 domain; -1 */
    int third;                 /* a third core (T2), not a's or b's; -1 */
    int far;                   /* a core in another L3 domain/socket; -1 */
    int smt;                   /* a's SMT sibling (same core); -1 */
    int b_crosses;             /* no core shares a's L3: b is a far one */
    int packages, l3domains;
} mc_calib_topo_t;

int mc_calib_topo_init(mc_calib_topo_t *t);
int mc_calib_pin_self(int cpu);

/* ---- helper threads ---- */
typedef struct mc_calib_helper mc_calib_helper_t;
typedef void (*mc_calib_job_fn)(void *arg);
/* A helper pinned to cpu; NULL with mc_error on failure. */
mc_calib_helper_t *mc_calib_helper_new(int cpu);
void mc_calib_helper_free(mc_calib_helper_t *h); /* NULL is fine */
void mc_calib_start(mc_calib_helper_t *h, mc_calib_job_fn fn, void *arg);
void mc_calib_wait(mc_calib_helper_t *h);
void mc_calib_call(mc_calib_helper_t *h, mc_calib_job_fn fn, void *arg);

/* Two-party barrier: each side waits for the other's round number. */
typedef struct mc_calib_pair {
    _Alignas(MC_CALIB_LINE) _Atomic uint64_t arrive0;
    _Alignas(MC_CALIB_LINE) _Atomic uint64_t arrive1;
} mc_calib_pair_t;
void mc_calib_pair_sync(mc_calib_pair_t *p, int me, uint64_t round);

/* Page-aligned, zeroed memory; free with free(). */
void *mc_calib_alloc(size_t bytes);

/* ---- the run ---- */
typedef struct calib {
    mc_calib_topo_t topo;
    mc_calib_helper_t *hb;     /* helper on topo.b, or NULL */
    mc_calib_helper_t *h3;     /* helper on topo.third, or NULL */
    mc_calib_helper_t *hfar;   /* helper on topo.far, or NULL */
    int quick;
    int reps;               /* rounds: samples per configuration */
    mc_profile_t *prof;
} mc_calib_t;

void mc_calib_progress(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
/* Stores samples and their summary into s. */
int mc_calib_store(mc_prof_stat_t *s, const double *v, int n);

/*
 * The measurements, each a family of configurations: begin (allocate;
 * record what this machine cannot measure in the profile's skip list; on
 * failure it cleans up after itself), round r (one sample of every
 * configuration), end (store `rounds` samples per configuration into the
 * profile, then free; rounds 0 only frees). calibrate.c runs the rounds
 * of all families interleaved, so that all of them sample the host's
 * placements of our vCPUs alike.
 */
typedef struct mc_calib_family {
    const char *name;
    int (*begin)(mc_calib_t *c, void **state);
    int (*round)(void *state, int r);
    int (*end)(void *state, int rounds);
} mc_calib_family_t;

extern const mc_calib_family_t mc_calib_lines_family;      /* calib_lines.c */
extern const mc_calib_family_t mc_calib_contention_family; /* calib_contention.c */
extern const mc_calib_family_t mc_calib_pingpong_family;   /* calib_pingpong.c */
extern const mc_calib_family_t mc_calib_multiline_family;  /* calib_pingpong.c */

#endif
