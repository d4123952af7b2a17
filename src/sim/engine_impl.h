/* Private to the simulator engine (engine.c, evq.c, cost.c, ...). */
#ifndef MC_SIM_ENGINE_IMPL_H
#define MC_SIM_ENGINE_IMPL_H

#include <time.h>

#include "sim/engine.h"

/* EV_WAIT: a core's flag write is acknowledged and its wait begins
 * (mc_sim_flag_write_wait), handled without switching to the core */
enum { EV_RESUME = 0, EV_LINE, EV_LAND, EV_WAIT };

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

/* A slot calendar: time cut into slots of `slot` ps; a slot holds one
 * packet (or one line of service). A ring of tags, allocated on first
 * use (cost.c). */
typedef struct cal {
    uint16_t *tag;
} cal_t;

/* The host task's copy of one core's MPB range (cost_host.c): lines
 * arrive in the host from `first` to `last` (evenly, in order). */
#define MC_HCOPIES 2
typedef struct hcopy {
    size_t off, n; /* n = 0: none */
    mc_ps_t first, last;
} hcopy_t;

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

struct mc_sim {
    const mc_platform_t *p;
    int n;
    core_t *cores;
    int running;          /* core running now, or -1 */
    mc_ps_t now;
    uint64_t seq;
    mc_evq_t q;
    land_t *lands;
    unsigned char (*land_pay)[LAND_PAYLOAD];
    int nlands, caplands, free_land;
    int *bucket;          /* waiters: hash of flag address -> core */
    uint32_t bucket_mask;
    int c_mpb, c_link, c_mc;
    uint16_t *port_tags;  /* the MPB ports' calendars (cost.c) */
    size_t port_len;
    cal_t *cal_mc, *cal_link;
    cal_t *cal_host;      /* per chip: host thread, PCIe up, PCIe down
                             (several chips only; cost_host.c) */
    mc_ps_t *wc_drain;    /* per core: when the host began to drain its
                             last remote put (several chips only;
                             cost_host.c, write-combining) */
    hcopy_t *hcopy;       /* per core: MC_HCOPIES copies of ranges of its
                             MPB in the host, NULL until a prefetch */
    uint64_t rng;         /* jitter (0 = off) */
    mc_sim_stats_t st;
    size_t stack_size;
    unsigned char *stack_pool; /* every core's stack block, one mapping */
    size_t pool_len;
    int stack_guard;           /* guard pages (while mappings allow) */
    int nspawned, nstarted;    /* cores spawned; of them, cores that ran */
    struct timespec run_t0;    /* when mc_sim_run began */
    int trace;
    mc_sim_trace_rec_t *tr;
    void (*progress)(void *arg, uint64_t events, double sim_us);
    void *progress_arg;
    size_t ntr, captr;
    mc_sim_domain_t *domains;
    uint64_t *traffic;    /* n x n bytes (opts.traffic), or NULL */
    struct mc_msg *msg;   /* the message network (cost_msg.c), or NULL */
    struct mc_sim_cache *cache; /* cache.c, NULL until first used */
};

/* engine.c */
/* Simulated times saturate at MC_PS_LIMIT (2^61 ps, about 27 days)
 * instead of overflowing: platform costs are bounded (platform.c) but
 * message sizes are not, and a product of the two could pass 2^63. A run
 * that reaches the limit gives meaningless times, never undefined
 * arithmetic. */
static inline mc_ps_t mc_ps_cap(__int128 v)
{
    return v > MC_PS_LIMIT ? MC_PS_LIMIT : (mc_ps_t)v;
}

/* any contention model on: operations are stepped line by line */
static inline int mc_sim_stepped(const mc_sim_t *s)
{
    return s->c_mpb || s->c_link || s->c_mc;
}

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

/* cost.c (dispatching to cost_cc.c on cache-coherent platforms) */
mc_ps_t mc_sim_closed_form(mc_sim_t *s, int core, const mc_sim_op_t *op);
mc_ps_t mc_sim_line_step(mc_sim_t *s, int core, mc_ps_t t);
mc_ps_t mc_sim_access_cost(const mc_sim_t *s, int core, int kind, int write,
                           int target, int latency_only);
mc_ps_t mc_sim_port_delay(mc_sim_t *s, int owner, mc_ps_t t);
/* delay until a free slot of calendar c at or after t (0 if free) */
mc_ps_t mc_sim_reserve(cal_t *c, uint32_t nslots, mc_ps_t slot, mc_ps_t t);
/* a data packet from router (x0,y0) to (x1,y1) of `chip`, leaving at t:
 * when it reaches the target router (XY routing, link by link) */
mc_ps_t mc_sim_route(mc_sim_t *s, int chip, int x0, int y0, int x1, int y1,
                     mc_ps_t t);
void mc_sim_flag_costs(mc_sim_t *s, int core, int owner, uint64_t *addr,
                       mc_ps_t *lat, mc_ps_t *done);
mc_ps_t mc_sim_poll_cost(mc_sim_t *s, int core, int owner, uint64_t *addr);

/* cost_host.c: platforms of several chips behind one host */
mc_ps_t mc_host_way(const mc_platform_t *p, int a, int b);
mc_ps_t mc_host_line(const mc_platform_t *p, int core, int target, int write,
                     int latency_only);
mc_ps_t mc_host_step(mc_sim_t *s, int core, const mc_sim_acc_t *a,
                     mc_ps_t t);
/* a line of data written to another chip's MPB, until it is acknowledged
 * (closed form: through the task's write-combining buffer where there is
 * one, else as mc_host_line) */
mc_ps_t mc_host_put_line(const mc_platform_t *p, int core, int target);
/* a flag line to another chip: adds the waits for the host link to the
 * contention-free latency and completion */
void mc_host_flag(mc_sim_t *s, int core, int owner, mc_ps_t *lat,
                  mc_ps_t *done);
/* a read of line `line` of an MPB access a served from the host task's
 * copy: the one-way time between core and host (the read costs it twice)
 * and, in *ready, when that line is in the host; -1 if not there */
mc_ps_t mc_host_cached(const mc_sim_t *s, int core, const mc_sim_acc_t *a,
                       int64_t line, mc_ps_t *ready);
/* the host thread of `chip` takes a request arriving at t: when it is
 * done; a data line on the PCIe link of `chip` (dir 0 up, 1 down) at t:
 * when it is at the other end (both reserve their calendars) */
mc_ps_t mc_host_thread(mc_sim_t *s, int chip, mc_ps_t t);
mc_ps_t mc_host_pcie(mc_sim_t *s, int chip, int dir, mc_ps_t t);
int mc_host_create(mc_sim_t *s);
void mc_host_free(mc_sim_t *s);

/* cost_msg.c: platforms with a message network ("network") */
int mc_msg_create(mc_sim_t *s);
void mc_msg_free(mc_sim_t *s);
mc_ps_t mc_msg_op(mc_sim_t *s, int core, const mc_sim_op_t *op, int *net);
mc_ps_t mc_msg_step(mc_sim_t *s, int core, mc_ps_t t);
void mc_msg_flag(mc_sim_t *s, int core, int owner, size_t n, mc_ps_t *lat,
                 mc_ps_t *done);
mc_ps_t mc_msg_poll(mc_sim_t *s, int core, int owner);
/* cache.c: the cost of line i of a private-memory access if the core's
 * caches have it (and they are updated), else -1 */
mc_ps_t mc_sim_cache_line(mc_sim_t *s, int core, const mc_sim_acc_t *a,
                          int64_t i);
void mc_sim_cache_free(mc_sim_t *s);

/* cost_cc.c */
mc_ps_t mc_cc_access(const mc_sim_t *s, mc_cc_line_t *ln, int core,
                     int write, mc_ps_t t);
mc_ps_t mc_cc_closed_form(mc_sim_t *s, int core, const mc_sim_op_t *op);
mc_ps_t mc_cc_line_step(mc_sim_t *s, int core, mc_ps_t t);
mc_cc_line_t *mc_cc_flag_line(const mc_sim_t *s, const uint64_t *addr);
int mc_cc_domain_init(const mc_sim_t *s, mc_sim_domain_t *d);
void mc_sim_cal_free(mc_sim_t *s);

#endif
