/*
 * The arrival record of barrier cases (check.h): what a barrier means,
 * checked from outside the library.
 *
 *   rank r, barrier i:   pause (jitter)  slot[r].entered = i   mc_barrier
 *                        then for every q:  i <= slot[q].entered <= i + 1
 *                        and, simulated:    slot[q].entry_ps <= exit of r
 *
 * slot[q].entered < i: q had not entered barrier i when r left it.
 * slot[q].entered > i + 1: q left barrier i + 1 before r entered it.
 * Entries are stored with release order and read with acquire order, so a
 * rank that sees a count also sees the entry time written before it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "oracle/check.h"

static uint64_t next_rng(uint64_t *s)
{
    uint64_t x = (*s += 0x9e3779b97f4a7c15ULL);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static void sleep_ns(uint64_t ns)
{
    struct timespec ts = {(time_t)(ns / 1000000000u),
                          (long)(ns % 1000000000u)};
    nanosleep(&ts, NULL);
}

static int64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void init(mc_arrivals_t *a, int rank, int size, uint64_t seed)
{
    memset(a, 0, sizeof *a);
    a->rank = rank;
    a->size = size;
    a->seed = seed;
    a->rng = seed * 0x100000001b3ULL + (uint64_t)rank;
}

void mc_arrivals_view(mc_arrival_slot_t *slot, int rank, int size,
                      uint64_t seed, int64_t (*clock_ps)(void),
                      void (*pause_ns)(uint64_t), mc_arrivals_t *a)
{
    init(a, rank, size, seed);
    a->slot = slot;
    a->clock_ps = clock_ps;
    a->pause_ns = pause_ns;
    a->late_min_ns = 1000; /* virtual time costs nothing: no cap */
    a->late_max_ns = INT64_MAX / 8;
}

/* the segment: a count of the ranks that opened it, then the slots */
typedef struct seg_head {
    _Atomic int opened;
    char pad[60];
} seg_head_t;

int mc_arrivals_open(int rank, int size, uint64_t seed, mc_arrivals_t *a)
{
    init(a, rank, size, seed);
    a->pause_ns = sleep_ns;
    a->late_min_ns = 50000;
    a->late_max_ns = 2000000;
    const char *job = getenv("MC_JOB");
    size_t len = sizeof(seg_head_t) + (size_t)size * sizeof(mc_arrival_slot_t);
    if (!job || !*job || size == 1) { /* no other rank to share with */
        a->slot = calloc((size_t)size, sizeof(mc_arrival_slot_t));
        return a->slot ? MC_OK : MC_ERR_NOMEM;
    }
    snprintf(a->name, sizeof a->name, "/mc-arrivals-%s", job);
    /* every rank creates or opens it; ftruncate to the same size is
     * harmless when another rank already did */
    int fd = shm_open(a->name, O_RDWR | O_CREAT, 0600);
    if (fd < 0 || ftruncate(fd, (off_t)len) != 0) {
        fprintf(stderr, "arrivals: %s: %s\n", a->name, strerror(errno));
        if (fd >= 0)
            close(fd);
        return MC_ERR_SYS;
    }
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        fprintf(stderr, "arrivals: mmap %s: %s\n", a->name, strerror(errno));
        shm_unlink(a->name);
        return MC_ERR_SYS;
    }
    seg_head_t *h = p;
    /* the last rank to open it removes the name: nothing is left in
     * /dev/shm even if the test dies later */
    if (atomic_fetch_add(&h->opened, 1) + 1 == size)
        shm_unlink(a->name);
    a->slot = (mc_arrival_slot_t *)(h + 1);
    a->seg_len = len;
    return MC_OK;
}

void mc_arrivals_close(mc_arrivals_t *a)
{
    if (!a->slot)
        return;
    if (a->seg_len) {
        shm_unlink(a->name); /* if some rank never opened it (ENOENT else) */
        munmap((seg_head_t *)a->slot - 1, a->seg_len);
    } else {
        free(a->slot);
    }
    a->slot = NULL;
}

static int64_t now_ns(const mc_arrivals_t *a)
{
    return a->clock_ps ? a->clock_ps() / 1000 : mono_ns();
}

/* The pause before barrier i. The late rank (the same on every rank, none
 * in about a quarter of the barriers) waits four times as long as the last
 * barrier without a late rank took; a quarter of the others wait a little
 * (at most a quarter of the shortest late pause), so the measured length
 * stays that of the barrier itself. */
static uint64_t pause_for(mc_arrivals_t *a, uint64_t i)
{
    uint64_t s = a->seed ^ (i << 20);
    uint64_t late = next_rng(&s) % ((uint64_t)a->size + 1 + a->size / 3u);
    a->quiet = late >= (uint64_t)a->size;
    int64_t l = 4 * a->quiet_ns;
    l = l < a->late_min_ns ? a->late_min_ns
        : l > a->late_max_ns ? a->late_max_ns : l;
    uint64_t r = next_rng(&a->rng);
    if (late == (uint64_t)a->rank)
        return (uint64_t)l;
    return r % 4 == 0 ? (r >> 8) % ((uint64_t)a->late_min_ns / 4 + 1) : 0;
}

void mc_arrivals_enter(mc_arrivals_t *a)
{
    uint64_t p = a->pause_ns ? pause_for(a, a->mine + 1) : 0;
    if (p)
        a->pause_ns(p);
    mc_arrival_slot_t *s = &a->slot[a->rank];
    a->mine++;
    a->enter_ns = now_ns(a);
    if (a->clock_ps)
        s->entry_ps[a->mine % 2] = a->clock_ps();
    /* release: the entry time is visible to whoever sees the count */
    atomic_store_explicit(&s->entered, a->mine, memory_order_release);
}

void mc_arrivals_exit(mc_arrivals_t *a)
{
    if (a->clock_ps)
        a->exit_ps = a->clock_ps();
    if (a->quiet)
        a->quiet_ns = now_ns(a) - a->enter_ns;
}

int mc_arrivals_check(const mc_arrivals_t *a, char *msg, size_t len)
{
    uint64_t i = a->mine;
    for (int q = 0; q < a->size; q++) {
        const mc_arrival_slot_t *s = &a->slot[q];
        uint64_t e = atomic_load_explicit(&s->entered, memory_order_acquire);
        if (e < i) {
            snprintf(msg, len,
                     "barrier: rank %d of %d left barrier %llu before rank "
                     "%d entered it (rank %d has entered %llu)",
                     a->rank, a->size, (unsigned long long)i, q, q,
                     (unsigned long long)e);
            return 1;
        }
        if (e > i + 1) {
            snprintf(msg, len,
                     "barrier: rank %d of %d entered barrier %llu before "
                     "rank %d entered barrier %llu",
                     q, a->size, (unsigned long long)e, a->rank,
                     (unsigned long long)(i + 1));
            return 1;
        }
        if (a->clock_ps && s->entry_ps[i % 2] > a->exit_ps) {
            snprintf(msg, len,
                     "barrier %llu: rank %d of %d entered at %lld ps, after "
                     "rank %d left at %lld ps (virtual time)",
                     (unsigned long long)i, q, a->size,
                     (long long)s->entry_ps[i % 2], a->rank,
                     (long long)a->exit_ps);
            return 1;
        }
    }
    return 0;
}
