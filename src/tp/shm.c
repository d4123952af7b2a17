/*
 * Shared-memory transport: the ranks of a job are processes on one machine
 * that map one POSIX shared-memory segment.
 *
 *   segment = [ header | rank 0 region | rank 1 region | ... ]
 *   region  = [ flags: nflags x 8 bytes | MPB: mpb_size bytes ]  (page aligned)
 *
 * Names and lifetime (shm_name.c). Under `manycoll run` the world's
 * segment has no name: the launcher creates an unnamed file and every rank
 * inherits it. Otherwise the segment is /manycoll-<uid>-<job>, mode 0600; a
 * segment owned by another user or readable by others is refused. The
 * first rank to arrive creates it (O_EXCL), the others wait for its header.
 * When the last rank has attached, that rank unlinks the name: from then on
 * the memory lives only as long as the mappings, so a crash cannot leave
 * anything in /dev/shm. `manycoll run` also unlinks the names of its job
 * after it, for a job whose ranks never all arrived.
 *
 * Liveness (shm_live.c). Each rank holds a lock on its byte of the
 * segment's file for as long as it is a member, through an open file of
 * its process (not of a thread). A waiter that has waited a while checks
 * its peers' locks: a lock gone without a normal leave means the holder
 * died, and the waiter fails with MC_ERR_PEER_DEAD naming that rank. A
 * peer that left, or whose call failed, before the waiter's current call
 * ends the wait too.
 *
 * Waiting spins with a pause instruction, then yields (sched_yield), and
 * checks liveness and the timeout every 10 ms of waiting (while spinning,
 * it reads the clock every 2^16 polls).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ops/ops.h"
#include "tp/shm.h"
#include "tp/shm_impl.h"
#include "util/config.h"
#include "util/error.h"


/* ---- addresses ---- */

static inline _Atomic uint64_t *flagp(shm_tp_t *s, int rank, int idx)
{
    return (_Atomic uint64_t *)(s->regions + (size_t)rank * s->stride) + idx;
}

static inline unsigned char *mpbp(shm_tp_t *s, int rank, size_t off)
{
    return s->regions + (size_t)rank * s->stride + s->flags_bytes + off;
}

void *mc_shm_mpb(mc_tp_t *tp, int rank)
{
    return mpbp((shm_tp_t *)tp, rank, 0);
}

/* ---- waiting ---- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* "call 5 step 3" of a flag value built by mc_flagval; counters of the
 * two-sided layer and the fast paths are plain numbers */
static void describe_value(uint64_t v, char *buf, size_t len)
{
    if (v >> 32)
        snprintf(buf, len, "call %llu step %u", (unsigned long long)(v >> 32),
                 (unsigned)(v & 0xffffffffu));
    else
        snprintf(buf, len, "%llu", (unsigned long long)v);
}

/* names the rank that should have written the flag, not the flag */
static int timed_out(shm_tp_t *s, _Atomic uint64_t *f, uint64_t v, int rank,
                     int idx)
{
    int me = s->base.rank;
    int w = mc_tp_flag_writer(s->base.size, LINE, rank, idx);
    char want[64], got[64], who[64];
    describe_value(v, want, sizeof want);
    describe_value(atomic_load(f), got, sizeof got);
    if (w < 0)
        snprintf(who, sizeof who, "one of several ranks");
    else
        snprintf(who, sizeof who, "rank %d", w);
    return mc_error(MC_ERR_TIMEOUT,
                    "rank %d of job '%s' waited %g s (MC_TIMEOUT) for %s "
                    "(its signal %s; seen: %s)%s",
                    me, s->job, s->timeout, who, want, got,
                    w == me ? " (a flag this rank writes itself: a bug)"
                            : "");
}

/* another library's progress (mc_set_progress) turns first
 * PROGRESS_S into a wait, then every PROGRESS_S of it */
#define PROGRESS_S 20e-6
_Atomic(mc_progress_fn) mc_shm_progress_fn;
void *mc_shm_progress_arg;

void mc_shm_set_progress(mc_progress_fn fn, void *arg)
{
    atomic_store_explicit(&mc_shm_progress_fn, NULL, memory_order_relaxed);
    mc_shm_progress_arg = arg;
    /* release: pairs with the acquire in mc_shm_progress */
    atomic_store_explicit(&mc_shm_progress_fn, fn, memory_order_release);
}

/* the clock of a wait: every PROGRESS_S of it, with `progress`, another
 * library's progress; every 10 ms, the peers' liveness; past MC_TIMEOUT,
 * the timeout. t0 == 0: the wait starts now. */
typedef struct wait_clock {
    double t0, next, next_progress;
} wait_clock_t;

static int tick(shm_tp_t *s, wait_clock_t *w, _Atomic uint64_t *f,
                uint64_t v, int rank, int idx, int progress)
{
    double t = now_s();
    if (w->t0 == 0)
        w->t0 = t, w->next = t + 0.01, w->next_progress = t + PROGRESS_S;
    if (progress && t >= w->next_progress) {
        mc_shm_progress();
        w->next_progress = t + PROGRESS_S;
    }
    if (t < w->next)
        return MC_OK;
    w->next = t + 0.01;
    MC_CHECK(mc_shm_check_peers(s));
    return t - w->t0 > s->timeout ? timed_out(s, f, v, rank, idx) : MC_OK;
}

/* Spins MC_SPIN polls, reading the clock every 256 of them (a spin of any
 * length still sees deaths and the timeout, and turns another library's
 * progress), then yields between polls, reading the clock at each yield.
 * Inside a non-blocking call's coroutine it yields to the test or wait
 * that resumed it, which progresses the other library itself (on its own
 * stack, not the coroutine's). */
static int wait_slow(shm_tp_t *s, _Atomic uint64_t *f, uint64_t v, int rank,
                     int idx)
{
    wait_clock_t w = {0, 0, 0};
    /* in a non-blocking collective: yield to its test or wait instead
     * (the clock every 64 resumes: a test loop still sees the timeout) */
    for (unsigned i = 0; tp_wait_yield(&s->base, rank, idx, v); i++) {
        if (atomic_load_explicit(f, memory_order_acquire) >= v)
            return MC_OK;
        if (i % 64 == 63)
            MC_CHECK(tick(s, &w, f, v, rank, idx, 0));
    }
    for (long i = 0; i < s->spin; i++) {
        cpu_relax();
        if (atomic_load_explicit(f, memory_order_acquire) >= v)
            return MC_OK;
        if (i % 256 == 255)
            MC_CHECK(tick(s, &w, f, v, rank, idx, 1));
    }
    for (;;) {
        sched_yield();
        for (int i = 0; i < 16; i++) {
            /* acquire: pairs with the writer's release store, so the data
             * written before the flag is visible after this load */
            if (atomic_load_explicit(f, memory_order_acquire) >= v)
                return MC_OK;
            cpu_relax();
        }
        MC_CHECK(tick(s, &w, f, v, rank, idx, 1));
    }
}

/* a progress round of non-blocking calls that advanced none: a pause,
 * and the CPU to others now and then (at once when oversubscribed, as a
 * waiter does after MC_SPIN polls) */
static int shm_idle(mc_tp_t *t)
{
    shm_tp_t *s = (shm_tp_t *)t;
    if (s->spin <= 64 || ++s->idle_n % 64 == 0) {
        mc_shm_progress();
        sched_yield();
    } else {
        cpu_relax();
    }
    return MC_OK;
}

static int shm_flag_wait(mc_tp_t *t, int rank, int idx, uint64_t v)
{
    shm_tp_t *s = (shm_tp_t *)t;
    _Atomic uint64_t *f = flagp(s, rank, idx);
    if (atomic_load_explicit(f, memory_order_acquire) >= v)
        return MC_OK;
    return wait_slow(s, f, v, rank, idx);
}

/* Flags only grow (tp.h): the value a flag's one writer stores is at
 * least the one it stored before. Relaxed: this rank wrote it last. */
#define ASSERT_GROWS(f, v)                                                   \
    MC_ASSERT(atomic_load_explicit(f, memory_order_relaxed) <= (v),         \
              "a flag goes down from %llu to %llu",                          \
              (unsigned long long)atomic_load_explicit(                     \
                  f, memory_order_relaxed),                                  \
              (unsigned long long)(v))

static void shm_flag_set(mc_tp_t *t, int rank, int idx, uint64_t v)
{
    _Atomic uint64_t *f = flagp((shm_tp_t *)t, rank, idx);
    ASSERT_GROWS(f, v);
    /* release: everything this rank wrote before (MPB payload, reads it
     * finished) happens-before the waiter's acquire load of this value */
    atomic_store_explicit(f, v, memory_order_release);
}

static uint64_t shm_flag_read(mc_tp_t *t, int rank, int idx)
{
    return atomic_load_explicit(flagp((shm_tp_t *)t, rank, idx),
                                memory_order_acquire);
}

/* a line's payload is a few words: copy them inline (a libc memcpy call
 * costs more than the copy; this is the 8-byte fast path's hot spot) */
static inline void copy_small(void *dst, const void *src, size_t n)
{
    if (n - 8 <= 8) {
        /* 8 to 16 bytes: two words, overlapping below 16 (the 8-byte
         * calls' case, in 8 instructions) */
        uint64_t lo, hi;
        memcpy(&lo, src, 8);
        memcpy(&hi, (const char *)src + n - 8, 8);
        memcpy(dst, &lo, 8);
        memcpy((char *)dst + n - 8, &hi, 8);
    } else if (n % 8 == 0) {
        /* word by word through memcpy: one plain load and store each,
         * and defined for a user buffer of any alignment */
        char *d = dst;
        const char *s = src;
        for (size_t i = 0; i < n; i += 8) {
            uint64_t w;
            memcpy(&w, s + i, 8);
            memcpy(d + i, &w, 8);
        }
    } else {
        memcpy(dst, src, n);
    }
}

static void shm_line_set(mc_tp_t *t, int rank, int idx, uint64_t v,
                         const void *payload, size_t n)
{
    _Atomic uint64_t *f = flagp((shm_tp_t *)t, rank, idx);
    ASSERT_GROWS(f, v);
    copy_small((void *)(f + 1), payload, n);
    atomic_store_explicit(f, v, memory_order_release); /* see flag_set */
}

static int shm_line_wait(mc_tp_t *t, int rank, int idx, uint64_t v,
                         void *out, size_t n)
{
    shm_tp_t *s = (shm_tp_t *)t;
    _Atomic uint64_t *f = flagp(s, rank, idx);
    if (atomic_load_explicit(f, memory_order_acquire) < v)
        MC_CHECK(wait_slow(s, f, v, rank, idx));
    copy_small(out, (const void *)(f + 1), n);
    return MC_OK;
}

/* a line not there yet: wait, then reduce; out of line, so that the
 * common case (the line is there) saves no registers and makes no call
 * but the reduction's (23 instructions of the 8-byte allreduce) */
static __attribute__((noinline)) int
line_wait_reduce_slow(shm_tp_t *s, _Atomic uint64_t *f, uint64_t v, int rank,
                      int idx, const void *in, void *inout, size_t count,
                      mc_dtype_t dt, mc_op_t op, int in_left)
{
    MC_CHECK(wait_slow(s, f, v, rank, idx));
    mc_reduce_into(inout, in, count, dt, op, in_left);
    return MC_OK;
}

static __attribute__((noinline)) int reduce_rest(void *inout, const void *in,
                                                 size_t count, mc_dtype_t dt,
                                                 mc_op_t op, int in_left)
{
    mc_reduce_into(inout, in, count, dt, op, in_left);
    return MC_OK;
}

static int shm_line_wait_reduce(mc_tp_t *t, int rank, int idx, uint64_t v,
                                size_t off, void *inout, size_t count,
                                mc_dtype_t dt, mc_op_t op, int in_left)
{
    shm_tp_t *s = (shm_tp_t *)t;
    _Atomic uint64_t *f = flagp(s, rank, idx);
    /* straight from the peer's line: no staging copy */
    const char *in = (const char *)(f + 1) + off;
    if (__builtin_expect(atomic_load_explicit(f, memory_order_acquire) < v,
                         0))
        return line_wait_reduce_slow(s, f, v, rank, idx, in, inout, count,
                                     dt, op, in_left);
    if (count == 1 && (unsigned)op < MC_OP_BUILTIN_COUNT &&
        mc_reduce_scalar(inout, in, dt, op))
        return MC_OK;
    return reduce_rest(inout, in, count, dt, op, in_left);
}

/* ---- data movement: plain copies on a cache-coherent machine ---- */

static int shm_put(mc_tp_t *t, int dst, size_t off, const void *src, size_t n)
{
    memcpy(mpbp((shm_tp_t *)t, dst, off), src, n);
    return MC_OK;
}

static int shm_put_mpb(mc_tp_t *t, int dst, size_t off, size_t my_off,
                       size_t n)
{
    shm_tp_t *s = (shm_tp_t *)t;
    memcpy(mpbp(s, dst, off), mpbp(s, t->rank, my_off), n);
    return MC_OK;
}

static int shm_get(mc_tp_t *t, void *dst, int src, size_t off, size_t n)
{
    memcpy(dst, mpbp((shm_tp_t *)t, src, off), n);
    return MC_OK;
}

static int shm_get_mpb(mc_tp_t *t, size_t my_off, int src, size_t off,
                       size_t n)
{
    shm_tp_t *s = (shm_tp_t *)t;
    memcpy(mpbp(s, t->rank, my_off), mpbp(s, src, off), n);
    return MC_OK;
}

static int shm_get_reduce(mc_tp_t *t, void *inout, int src, size_t off,
                          size_t count, mc_dtype_t dt, mc_op_t op,
                          int src_left)
{
    mc_reduce_into(inout, mpbp((shm_tp_t *)t, src, off), count, dt, op,
                   src_left);
    return MC_OK;
}

/* my slot gets a copy of `in`, then the peer's data combined into it */
static int shm_get_reduce_mpb(mc_tp_t *t, size_t my_off, int src, size_t off,
                              const void *in, size_t count, mc_dtype_t dt,
                              mc_op_t op, int src_left)
{
    shm_tp_t *s = (shm_tp_t *)t;
    unsigned char *mine = mpbp(s, t->rank, my_off);
    memcpy(mine, in, count * mc_dtype_size(dt));
    mc_reduce_into(mine, mpbp(s, src, off), count, dt, op, src_left);
    return MC_OK;
}

static int shm_copy(mc_tp_t *t, void *dst, const void *src, size_t n)
{
    (void)t;
    if (dst == src)
        return MC_OK;
    const char *d = dst, *s = src;
    if (n <= 64 && (d + n <= s || s + n <= d))
        copy_small(dst, src, n); /* a few words: no libc call */
    else
        memmove(dst, src, n);
    return MC_OK;
}

static int shm_reduce(mc_tp_t *t, void *inout, const void *in, size_t count,
                      mc_dtype_t dt, mc_op_t op, int in_left)
{
    (void)t;
    mc_reduce_small(inout, in, count, dt, op, in_left);
    return MC_OK;
}

/* private: the transport; shared: this rank's flag words in the
 * segment (its MPB is mpb_size more) */
static size_t shm_footprint(const mc_tp_t *t, size_t *shared)
{
    const shm_tp_t *s = (const shm_tp_t *)t;
    *shared = s->flags_bytes;
    return sizeof *s;
}

/* with bound ranks (MC_TOPO_HIER): the same L3 is a tile, another
 * package another chip; unbound, every other rank is on the chip */
static int shm_locality(mc_tp_t *tp, int rank)
{
    const mc_topo_t *h = &tp->topo;
    if (h->kind != MC_TOPO_HIER || h->levels < 1)
        return MC_LOC_CHIP;
    const int *a = h->ids + (size_t)tp->rank * (size_t)h->levels;
    const int *b = h->ids + (size_t)rank * (size_t)h->levels;
    if (a[0] != b[0])
        return MC_LOC_OTHER;
    return h->levels > 2 && a[2] == b[2] ? MC_LOC_TILE : MC_LOC_CHIP;
}

const mc_tp_ops_t mc_shm_ops = {
    .name = "shm",
    .put = shm_put, .put_mpb = shm_put_mpb, .get = shm_get,
    .get_mpb = shm_get_mpb, .get_reduce = shm_get_reduce,
    .get_reduce_mpb = shm_get_reduce_mpb, .copy = shm_copy,
    .reduce = shm_reduce, .flag_set = shm_flag_set, .flag_read = shm_flag_read,
    .flag_wait = shm_flag_wait, .line_set = shm_line_set,
    .line_wait = shm_line_wait, .line_wait_reduce = shm_line_wait_reduce,
    .get_direct = mc_shm_get_direct, .put_direct = mc_shm_put_direct,
    .sub = mc_shm_sub, .fail = mc_shm_fail, .footprint = shm_footprint,
    .idle = shm_idle, .locality = shm_locality, .destroy = mc_shm_destroy,
};
