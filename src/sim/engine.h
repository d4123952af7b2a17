/*
 * The discrete-event engine of the chip simulator.
 *
 * Virtual time is in integer picoseconds. Every simulated core runs its
 * program (the unmodified algorithm code) in a coroutine; an operation
 * (put, get, flag access, local copy or reduction) computes when it
 * completes from the platform's cost model, schedules an event at that
 * time and suspends the core. The engine pops events in (time, sequence)
 * order, so a run is deterministic bit for bit.
 *
 * With every contention model off, an operation is one event whose length
 * is the closed-form formula of the OC-Bcast paper (formulas 1-12). With
 * any contention model on, an operation advances one cache line per event
 * and each line reserves, at the time it happens, the MPB port or memory
 * controller it touches and every link on its XY route (see cost.c).
 *
 * Flags: a flag write lands (becomes visible) at its latency, not its
 * completion time, as an event that stores the value and wakes the cores
 * waiting for it; a woken core pays one more read of the flag line.
 */
#ifndef MC_SIM_ENGINE_H
#define MC_SIM_ENGINE_H

#include <stdint.h>
#include <stdio.h>

#include "plat/platform.h"
#include "util/coro.h"

typedef struct mc_sim mc_sim_t;

typedef struct mc_sim_opts {
    int contention_mpb, contention_link, contention_mc; /* -1 = platform */
    uint64_t jitter_seed; /* 0 = no jitter */
    size_t stack_size;    /* per core; 0 = default */
    int trace;            /* record operations for a Chrome trace */
    /* called every 2^20 events with the events so far and the simulated
     * time in microseconds (NULL: never), for progress reports */
    void (*progress)(void *arg, uint64_t events, double sim_us);
    void *progress_arg;
    int traffic; /* count the bytes each core moves to each other core's
                    MPB or from it (at most MC_SIM_TRAFFIC_MAX cores) */
} mc_sim_opts_t;

#define MC_SIM_TRAFFIC_MAX 4096

/* One memory access of every line of an operation. */
enum { MC_ACC_MPB = 0, MC_ACC_MEM = 1 };
/* Coherence state of one line (cache-coherent platforms only). */
typedef struct mc_cc_line {
    int32_t owner;    /* core holding it modified/exclusive, or -1 */
    uint64_t sharers; /* cores holding it shared (bit per core) */
    int64_t busy;     /* a write in flight ends at this time (ps) */
} mc_cc_line_t;

typedef struct mc_sim_acc {
    uint8_t kind;  /* MC_ACC_MPB or MC_ACC_MEM */
    uint8_t write; /* 1 = write, 0 = read */
    int core;      /* owner of the MPB; for MEM, the accessing core */
    mc_cc_line_t *st; /* coherent chips: state of the first MPB line */
    uintptr_t addr;   /* MEM: private address of the first line (for the
                         caches of sim/cache.c) */
} mc_sim_acc_t;

typedef struct mc_sim_op {
    const char *name;   /* for the trace: "put", "get", ... */
    mc_ps_t fixed;      /* per-operation overhead (o_put_mem, ...) */
    int64_t lines;      /* cache lines moved */
    int nacc;           /* accesses per line (1-3) */
    mc_sim_acc_t acc[3];
    int64_t elems;      /* elements combined (reductions) */
} mc_sim_op_t;

typedef struct mc_sim_stats {
    uint64_t events;   /* engine events: op completions, line steps,
                          flag landings, wake-ups */
    uint64_t ops;      /* operations issued by cores */
    uint64_t lines;    /* cache lines moved */
    uint64_t link_waits;  /* lines (packets) of data that waited for a
                             link */
    mc_ps_t link_wait_ps; /* how long they waited, summed */
    uint64_t flag_waits;  /* bare notifications (message network) that
                             waited for a link */
    mc_ps_t flag_wait_ps;
    mc_ps_t port_wait_ps; /* time lines waited for MPB ports, summed */
    mc_ps_t host_wait_ps; /* ... for host threads and PCIe links */
    double wall_s;     /* wall-clock time of mc_sim_run */
    /* the events and the wall-clock time until every spawned core had
     * run once (its stack first touched, its communicator made) */
    uint64_t start_events;
    double start_wall_s;
} mc_sim_stats_t;

typedef struct mc_sim_trace_rec {
    const char *name;
    int core;
    mc_ps_t start, end;
} mc_sim_trace_rec_t;

int mc_sim_create(const mc_platform_t *p, int ncores,
                  const mc_sim_opts_t *o, mc_sim_t **out);
void mc_sim_destroy(mc_sim_t *s);
const mc_platform_t *mc_sim_platform(const mc_sim_t *s);
/* Runs fn(arg) as the program of `core`, from time 0. */
int mc_sim_spawn(mc_sim_t *s, int core, void (*fn)(void *), void *arg);
/* Runs until every program has finished. A state where cores wait for
 * flags nobody will write fails their waits with MC_ERR_TIMEOUT. */
int mc_sim_run(mc_sim_t *s);
void mc_sim_get_stats(const mc_sim_t *s, mc_sim_stats_t *st);
/* The traffic matrix (opts.traffic): t[from * n + to] = bytes of data
 * (whole lines of puts and gets, not flags) that left core `from`'s
 * private memory or MPB for core `to`, or were read by `to` from
 * `from`'s MPB; *n = the cores simulated. NULL if not counted. */
const uint64_t *mc_sim_traffic(const mc_sim_t *s, int *n);
/* called by a program: whether its operations count from now on (they
 * do at first; e.g. not while setting up communicators) */
void mc_sim_count_traffic(mc_sim_t *s, int on);
/* trace records so far (NULL if tracing is off) */
const mc_sim_trace_rec_t *mc_sim_trace(const mc_sim_t *s, size_t *n);

/* The memory of a communicator's ranks (MPBs, flags): sim/domain.h; the
 * vSCC's host communication task: sim/host_task.h. */

/* ---- called by programs running on a core ---- */
mc_sim_t *mc_sim_self(void);
int mc_sim_self_core(void);
mc_ps_t mc_sim_now(const mc_sim_t *s);
/* runs an operation: suspends the core until it completes */
int mc_sim_do(mc_sim_t *s, const mc_sim_op_t *op);
/* flag of `owner`: write lands after the write latency */
void mc_sim_flag_write(mc_sim_t *s, uint64_t *addr, int owner, uint64_t v,
                       const void *payload, size_t n);
/* waits until *addr >= v; the payload (if n) is copied after the wait */
int mc_sim_flag_wait(mc_sim_t *s, uint64_t *addr, int owner, uint64_t v,
                     void *payload, size_t n);
/* mc_sim_flag_write(addr, owner, v) then mc_sim_flag_wait(waddr, wowner,
 * wv), at the same times and in the same order of events, without
 * switching back to the core between the two */
int mc_sim_flag_write_wait(mc_sim_t *s, uint64_t *addr, int owner,
                           uint64_t v, uint64_t *waddr, int wowner,
                           uint64_t wv);
/* one round of mc_sim_flag_rounds */
typedef struct mc_sim_round {
    uint64_t *addr, *waddr;
    int owner, wowner;
    uint64_t v, wv;
} mc_sim_round_t;
/* the most bytes of a mc_sim_flag_rounds context */
#define MC_SIM_ROUND_CTX 48
/* n rounds of mc_sim_flag_write_wait, round r given by fn(ctx, r, &rd)
 * when it begins, at the same times and in the same order of events. The
 * engine keeps a copy of the `size` bytes at ctx with the core and begins
 * each next round itself, without switching to the core: fn runs outside
 * it, on that copy, and the core's stack stays out of the caches.
 * MC_ERR_ARG if size > MC_SIM_ROUND_CTX. */
int mc_sim_flag_rounds(mc_sim_t *s, int n,
                       void (*fn)(const void *ctx, int r, mc_sim_round_t *rd),
                       const void *ctx, size_t size);
uint64_t mc_sim_flag_read(mc_sim_t *s, uint64_t *addr, int owner);
/* stores v at *addr at time `at` (>= now), waking its waiters, with no
 * core busy for it (hardware delivering: the static network) */
void mc_sim_post(mc_sim_t *s, uint64_t *addr, uint64_t v, mc_ps_t at);
/* the calling core is busy for d (name for the trace) */
int mc_sim_busy(mc_sim_t *s, const char *name, mc_ps_t d);

#endif
