/*
 * `manycoll calibrate`: the benchmarks of Ramos & Hoefler (2013), chapters
 * 1-3, on this machine. Shared by calibrate.c (the command, the rounds,
 * the profile), calib_sys.c (clock, pinning, topology, helper threads),
 * calib_lines.c (line latency by state and location), calib_contention.c
 * (n readers of one line) and calib_pingpong.c (single- and multi-line
 * ping-pong).
 *
 * Threads: the main thread is T0, the measuring thread, pinned to cpu
 * `a`; helper threads are pinned one per other CPU and run jobs the main
 * thread hands them (calib_call / calib_start + calib_wait).
 */
#ifndef MC_TOOLS_CALIB_H
#define MC_TOOLS_CALIB_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "plat/profile.h"

#define CALIB_LINE 64
#define CALIB_MAX_CPUS 64

/* ---- clock (calib_sys.c) ---- */
uint64_t calib_tick(void);
/* Calibrates ticks per ns; ms = how long to sample. */
int calib_clock_init(int ms);
double calib_ns(uint64_t ticks);
const char *calib_clock_name(void);
/* ns per empty calib_tick() pair (median), to subtract */
double calib_tick_overhead_ns(void);
/* the clock's step (ns) */
double calib_clock_step_ns(void);
/* seconds on CLOCK_MONOTONIC_RAW */
double calib_now_s(void);
/* sleeps until calib_now_s() >= t */
void calib_sleep_until(double t);

/* ---- cache-line control ---- */
void calib_flush(const void *p);   /* clflush + fence; no-op without */
int calib_can_flush(void);
void calib_fence(void);
static inline void calib_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* ---- topology and pinning ---- */
typedef struct calib_topo {
    int ncpu;                  /* CPUs we may run on */
    int cpu[CALIB_MAX_CPUS];
    int package[CALIB_MAX_CPUS];
    int core[CALIB_MAX_CPUS];  /* core id within the package */
    int l3[CALIB_MAX_CPUS];    /* first CPU of its L3 (or package) domain */
    int a;                     /* T0 */
    int b;                     /* another core, same L3 domain; -1 */
    int third;                 /* a third core (T2), not a's or b's; -1 */
    int far;                   /* a core in another L3 domain/socket; -1 */
    int smt;                   /* a's SMT sibling (same core); -1 */
    int b_crosses;             /* no core shares a's L3: b is a far one */
    int packages, l3domains;
} calib_topo_t;

int calib_topo_init(calib_topo_t *t);
int calib_pin_self(int cpu);

/* ---- helper threads ---- */
typedef struct calib_helper calib_helper_t;
typedef void (*calib_job_fn)(void *arg);
/* A helper pinned to cpu; NULL with mc_error on failure. */
calib_helper_t *calib_helper_new(int cpu);
void calib_helper_free(calib_helper_t *h); /* NULL is fine */
void calib_start(calib_helper_t *h, calib_job_fn fn, void *arg);
void calib_wait(calib_helper_t *h);
void calib_call(calib_helper_t *h, calib_job_fn fn, void *arg);

/* Two-party barrier: each side waits for the other's round number. */
typedef struct calib_pair {
    _Alignas(CALIB_LINE) _Atomic uint64_t arrive0;
    _Alignas(CALIB_LINE) _Atomic uint64_t arrive1;
} calib_pair_t;
void calib_pair_sync(calib_pair_t *p, int me, uint64_t round);

/* Page-aligned, zeroed memory; free with free(). */
void *calib_alloc(size_t bytes);

/* ---- the run ---- */
typedef struct calib {
    calib_topo_t topo;
    calib_helper_t *hb;     /* helper on topo.b, or NULL */
    calib_helper_t *h3;     /* helper on topo.third, or NULL */
    calib_helper_t *hfar;   /* helper on topo.far, or NULL */
    int quick;
    int reps;               /* rounds: samples per configuration */
    mc_profile_t *prof;
} calib_t;

void calib_progress(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
/* Stores samples and their summary into s. */
int calib_store(mc_prof_stat_t *s, const double *v, int n);

/*
 * The measurements, each a family of configurations: begin (allocate;
 * record what this machine cannot measure in the profile's skip list; on
 * failure it cleans up after itself), round r (one sample of every
 * configuration), end (store `rounds` samples per configuration into the
 * profile, then free; rounds 0 only frees). calibrate.c runs the rounds
 * of all families interleaved, so that all of them sample the host's
 * placements of our vCPUs alike.
 */
typedef struct calib_family {
    const char *name;
    int (*begin)(calib_t *c, void **state);
    int (*round)(void *state, int r);
    int (*end)(void *state, int rounds);
} calib_family_t;

extern const calib_family_t calib_lines_family;      /* calib_lines.c */
extern const calib_family_t calib_contention_family; /* calib_contention.c */
extern const calib_family_t calib_pingpong_family;   /* calib_pingpong.c */
extern const calib_family_t calib_multiline_family;  /* calib_pingpong.c */

#endif
