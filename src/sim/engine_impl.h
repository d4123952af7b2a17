/* Private to the simulator's engine (engine.c, engine_run.c, evq.c,
 * flagmap.c, host_task.c, mpbmem.c, stack_guard.c); the cost models see
 * only cost.h. */
#ifndef MC_SIM_ENGINE_IMPL_H
#define MC_SIM_ENGINE_IMPL_H

#include <time.h>

#include "sim/cost.h"
#include "sim/domain.h"
#include "sim/engine.h"

/* EV_WAIT: a core's flag write is acknowledged and its wait begins
 * (mc_sim_flag_write_wait), handled without switching to the core;
 * EV_NONE: nothing (the queue lost events: the run has failed) */
enum { EV_RESUME = 0, EV_LINE, EV_LAND, EV_WAIT, EV_NONE };

typedef struct ev {
    mc_ps_t t;
    uint64_t seq;  /* tie-break: the order events were scheduled */
    uint32_t kind;
    uint32_t idx;  /* core, or landing record */
} ev_t;

/* the event queue (evq.c): a 4-ary heap, or from MC_EVQ_RADIX_CORES
 * cores a radix heap, whose bucket i holds the events whose time first
 * differs from the last one taken in bit i - 1 (0: equal, in order) */
#define MC_EVQ_BUCKETS 65
#define MC_EVQ_RADIX_CORES 2048
typedef struct mc_evq {
    int radix;
    size_t count;             /* events scheduled, not yet taken */
    ev_t *heap;
    size_t nheap, capheap;
    int top_replaced;         /* the handler replaced heap[0] */
    ev_t *b[MC_EVQ_BUCKETS];
    size_t n[MC_EVQ_BUCKETS], cap[MC_EVQ_BUCKETS];
    size_t head;              /* bucket 0 is taken from here */
    uint64_t bits[2];         /* the non-empty buckets */
    mc_ps_t last;             /* the time last taken */
    size_t want;              /* bytes an allocation failed for */
} mc_evq_t;

/* A flag write in flight. Its payload (a flag line's words after the
 * flag: lines are at most 256 bytes, platform.c) is in land_pay at the
 * same index, apart, so that the records of a million flags in flight
 * stay small. */
#define LAND_PAYLOAD 248
typedef struct land {
    uint64_t *addr;
    uint64_t v;
    uint32_t n;
    int next_free;
} land_t;

/* A simulated core. The fields every event touches come first, with the
 * coroutine's saved stack pointer, so that they share the record's first
 * cache line (records are 64-byte aligned): at a million cores each event
 * finds its core's record out of the caches. */
typedef struct core {
    /* a flag wait */
    uint64_t *wait_addr;
    uint64_t wait_v;
    int status;           /* what the suspended call returns */
    int done;
    int waiting;
    int next_waiter;      /* next core in the same hash bucket, or -1 */
    int wait_owner;
    int spawned;          /* 1 spawned, 2 has run */
    mc_coro_t co;         /* co.sp at byte 40 */
    int quiet;            /* its operations stay out of the traffic matrix */
    /* the operation in progress (line-stepped when contention is on) */
    mc_sim_op_t op;
    int64_t line;
    mc_ps_t op_start;
    mc_ps_t wait_start;
    /* mc_sim_flag_rounds in progress (fn NULL: none) */
    void (*round_fn)(const void *ctx, int r, mc_sim_round_t *rd);
    int round, nrounds;
    uint64_t round_ctx[MC_SIM_ROUND_CTX / 8];
} __attribute__((aligned(64))) core_t;

/* The stacks of all cores: one mapping (engine.c stack_pool). */
typedef struct mc_sim_stacks {
    size_t size;          /* per core, as asked */
    unsigned char *pool;  /* every core's block, one mapping */
    size_t len;
    int guard;            /* guard pages (while mappings allow) */
} mc_sim_stacks_t;

/* The operations recorded for a Chrome trace (opts.trace). */
typedef struct mc_sim_tracebuf {
    int on;
    mc_sim_trace_rec_t *rec;
    size_t n, cap;
} mc_sim_tracebuf_t;

/* The engine: clock, event queue, cores and their waits. What operations
 * cost is the cost models' (cost.h), composed from the platform. */
struct mc_sim {
    const mc_platform_t *p;
    int n;
    core_t *cores;
    int running;          /* core running now, or -1 */
    /* the simulation failed (out of memory during the run): every core's
     * operations fail with it from now on, and mc_sim_run returns it with
     * the message in `why` (mc_sim_fail); read at every resume */
    int failed;
    mc_ps_t now;
    uint64_t seq;
    mc_evq_t q;
    /* flag writes in flight */
    land_t *lands;
    unsigned char (*land_pay)[LAND_PAYLOAD];
    int nlands, caplands, free_land;
    int *bucket;          /* waiters: hash of flag address -> core */
    uint32_t bucket_mask;
    uint64_t rng;         /* jitter (0 = off) */
    mc_sim_stats_t st;
    mc_cost_t cost;       /* the cost models */
    mc_sim_stacks_t stacks;
    int nspawned, nstarted;    /* cores spawned; of them, cores that ran */
    struct timespec run_t0;    /* when mc_sim_run began */
    mc_sim_tracebuf_t trace;
    void (*progress)(void *arg, uint64_t events, double sim_us);
    void *progress_arg;
    mc_sim_domain_t *domains;
    uint64_t *traffic;    /* n x n bytes (opts.traffic), or NULL */
    char why[256];        /* the message of `failed` */
};

/* stack_guard.c: around mc_sim_run, a fault in a guard page of the
 * stacks reports which core overflowed its stack (nothing without guard
 * pages, or while another simulation holds the handler) */
void mc_sim_guard_begin(mc_sim_t *s);
void mc_sim_guard_end(mc_sim_t *s);

/* evq.c */
void mc_sim_evq_init(mc_sim_t *s, int ncores);
void mc_sim_evq_free(mc_sim_t *s);
/* schedules an event (not before now) */
int mc_sim_push(mc_sim_t *s, mc_ps_t t, uint32_t kind, uint32_t idx);
/* the same, from the handler of the current event, for that event's own
 * core: the heap replaces the current event with it (one sift) */
void mc_sim_replace_top(mc_sim_t *s, mc_ps_t t, uint32_t kind, uint32_t idx);
/* the earliest event (there is one: s->q.count), to handle; then
 * mc_sim_taken once it is handled */
ev_t mc_sim_take(mc_sim_t *s);
void mc_sim_taken(mc_sim_t *s);
/* up to max of the events likely next: *ordered, the next ones in the
 * order they will be taken; else the next is most likely the earliest
 * of them */
size_t mc_sim_peek(const mc_sim_t *s, const ev_t **out, size_t max,
                   int *ordered);

/* engine.c */
/* zeroed, 64-byte aligned, in transparent huge pages from 4 MiB; free()
 * it */
void *mc_sim_big_zalloc(size_t n);
mc_ps_t mc_sim_jitter(mc_sim_t *s, mc_ps_t d);
void mc_sim_trace_add(mc_sim_t *s, const char *name, int core, mc_ps_t start,
                      mc_ps_t end);
void mc_sim_set_self(mc_sim_t *s);
/* The one policy when the simulator cannot go on as modelled (out of
 * memory during a run): the first failure is kept (status, message),
 * every later operation of every core returns it, waiting cores get it
 * when the others are done, and mc_sim_run returns it. Never an abort,
 * never a run that goes on with a different model. Returns status. */
int mc_sim_fail(mc_sim_t *s, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
