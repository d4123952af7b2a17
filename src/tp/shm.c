/*
 * Shared-memory transport: the ranks of a job are processes on one machine
 * that map one POSIX shared-memory segment.
 *
 *   segment = [ header | rank 0 region | rank 1 region | ... ]
 *   region  = [ flags: nflags x 8 bytes | MPB: mpb_size bytes ]  (page aligned)
 *
 * Names and lifetime. The segment is /manycoll-<uid>-<job>, mode 0600; a
 * segment owned by another user or readable by others is refused. The
 * first rank to arrive creates it (O_EXCL), the others wait for its header.
 * When the last rank has attached, that rank unlinks the name: from then on
 * the memory lives only as long as the mappings, so a crash cannot leave
 * anything in /dev/shm. `manycoll run` also unlinks the name after the job,
 * for a job whose ranks never all arrived.
 *
 * Liveness. Each rank holds a robust, process-shared mutex in the header
 * for as long as it is a member. A waiter that has waited a while try-locks
 * the mutexes of its peers: EOWNERDEAD means the holder died (the kernel
 * releases robust mutexes of dead threads), and the waiter fails with
 * MC_ERR_PEER_DEAD naming that rank. A rank that leaves normally marks
 * itself finalized first, so its exit is not mistaken for a death.
 *
 * Waiting spins with a pause instruction, then yields (sched_yield), and
 * checks liveness and the timeout every 10 ms of waiting.
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

#include "internal.h"
#include "tp/shm.h"
#include "tp/shm_impl.h"
#include "util/config.h"


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

/* MC_OK if every peer is alive (or has left normally). */
int mc_shm_check_peers(shm_tp_t *s)
{
    shm_header_t *h = s->hdr;
    for (int r = 0; r < s->base.size; r++) {
        if (r == s->base.rank)
            continue;
        shm_rankinfo_t *in = &h->info[r];
        int dead = atomic_load_explicit(&in->dead, memory_order_acquire);
        int st = atomic_load_explicit(&in->state, memory_order_acquire);
        if (!dead && st == ST_JOINED) {
            int e = pthread_mutex_trylock(&in->alive);
            if (e == EOWNERDEAD || e == ENOTRECOVERABLE) {
                if (e == EOWNERDEAD)
                    pthread_mutex_consistent(&in->alive);
                /* we now hold it: release so no robust list points here */
                pthread_mutex_unlock(&in->alive);
                atomic_store_explicit(&in->dead, 1, memory_order_release);
                dead = 1;
            } else if (e == 0) {
                /* it left between our two reads: not a death */
                pthread_mutex_unlock(&in->alive);
            }
        }
        if (dead)
            return mc_error(MC_ERR_PEER_DEAD,
                            "peer rank %d (pid %d) of job '%s' died", r,
                            in->pid, s->job);
    }
    return MC_OK;
}

static int wait_slow(shm_tp_t *s, _Atomic uint64_t *f, uint64_t v, int rank,
                     int idx)
{
    for (long i = 0; i < s->spin; i++) {
        cpu_relax();
        if (atomic_load_explicit(f, memory_order_acquire) >= v)
            return MC_OK;
    }
    double t0 = now_s(), next = t0 + 0.01;
    for (;;) {
        sched_yield();
        for (int i = 0; i < 16; i++) {
            /* acquire: pairs with the writer's release store, so the data
             * written before the flag is visible after this load */
            if (atomic_load_explicit(f, memory_order_acquire) >= v)
                return MC_OK;
            cpu_relax();
        }
        double t = now_s();
        if (t < next)
            continue;
        next = t + 0.01;
        MC_CHECK(mc_shm_check_peers(s));
        if (t - t0 > s->timeout)
            return mc_error(MC_ERR_TIMEOUT,
                            "rank %d of job '%s' waited %.0f s for flag %d "
                            "of rank %d to reach %llu (it is %llu)",
                            s->base.rank, s->job, s->timeout, idx, rank,
                            (unsigned long long)v,
                            (unsigned long long)atomic_load(f));
    }
}

static int shm_flag_wait(mc_tp_t *t, int rank, int idx, uint64_t v)
{
    shm_tp_t *s = (shm_tp_t *)t;
    _Atomic uint64_t *f = flagp(s, rank, idx);
    if (atomic_load_explicit(f, memory_order_acquire) >= v)
        return MC_OK;
    return wait_slow(s, f, v, rank, idx);
}

static void shm_flag_set(mc_tp_t *t, int rank, int idx, uint64_t v)
{
    /* release: everything this rank wrote before (MPB payload, reads it
     * finished) happens-before the waiter's acquire load of this value */
    atomic_store_explicit(flagp((shm_tp_t *)t, rank, idx), v,
                          memory_order_release);
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
    if (n % 8 == 0) {
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

static int shm_line_wait_reduce(mc_tp_t *t, int rank, int idx, uint64_t v,
                                size_t off, void *inout, size_t count,
                                mc_dtype_t dt, mc_op_t op, int in_left)
{
    shm_tp_t *s = (shm_tp_t *)t;
    _Atomic uint64_t *f = flagp(s, rank, idx);
    if (atomic_load_explicit(f, memory_order_acquire) < v)
        MC_CHECK(wait_slow(s, f, v, rank, idx));
    /* straight from the peer's line: no staging copy */
    mc_reduce_into(inout, (const char *)(f + 1) + off, count, dt, op,
                   in_left);
    return MC_OK;
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
    mc_reduce_into(inout, in, count, dt, op, in_left);
    return MC_OK;
}

const mc_tp_ops_t mc_shm_ops = {
    .name = "shm",
    .put = shm_put,
    .put_mpb = shm_put_mpb,
    .get = shm_get,
    .get_mpb = shm_get_mpb,
    .get_reduce = shm_get_reduce,
    .get_reduce_mpb = shm_get_reduce_mpb,
    .copy = shm_copy,
    .reduce = shm_reduce,
    .flag_set = shm_flag_set,
    .flag_read = shm_flag_read,
    .flag_wait = shm_flag_wait,
    .line_set = shm_line_set,
    .line_wait = shm_line_wait,
    .line_wait_reduce = shm_line_wait_reduce,
    .get_direct = mc_shm_get_direct,
    .sub = mc_shm_sub,
    .destroy = mc_shm_destroy,
};
