/*
 * The simulator's event queue, on (time, sequence): events are taken in
 * the order of their 128-bit key, time then the order they were
 * scheduled. Two structures give that same order:
 *
 * - a 4-ary min-heap (up to MC_EVQ_RADIX_CORES cores): four children per
 *   node halve a binary heap's depth; the event being handled stays at
 *   the root, and the next event of its own core replaces it (one sift
 *   instead of a pop and a push). Small, it lives in the L1 cache.
 *
 * - a radix heap (Ahuja, Mehlhorn, Orlin and Tarjan) on the time, from
 *   that many cores on. A new event is never earlier than the one being
 *   handled, so the times taken only grow, which is what it needs.
 *   Bucket i > 0 holds the events whose time first differs from the time
 *   last taken (`last`) in bit i - 1:
 *
 *     last      = ...0110 1000
 *     bucket 4:   ...0110 1xxx  (bit 3 is the highest that differs)
 *     bucket 5:   ...0111 xxxx
 *     bucket 8:   ...1xxx xxxx
 *
 *   and bucket 0 the events at `last` itself, in the order they were
 *   scheduled: a queue taken from its head, to which a new event at
 *   `last` is appended (its sequence number is the largest yet). When it
 *   is empty, the lowest non-empty bucket's earliest time becomes `last`
 *   and the bucket's events go down, those at that time to bucket 0, the
 *   others to lower buckets, each at most 64 times in its life. Buckets are
 *   arrays, filled and scanned in order. With many cores in flight the
 *   4-ary heap's sift misses the caches at every level below the top few
 *   (a third of a 262,144-core barrier's time), where these moves
 *   stream: 1.2-1.8x faster simulations from 4,096 cores. At 1,024 the
 *   two are even; below, the heap is about 5% faster. Many events share
 *   a time (the cores of a round of a tree do the same thing at the same
 *   moments): each is then taken in O(1), where a key of (time,
 *   sequence) went down bit by bit through the sequence numbers' bits.
 *
 * MC_SIM_EVQ=heap or radix picks one whatever the cores (tests, and
 * measuring the crossover).
 */
#include <stdlib.h>
#include <string.h>

#include "sim/engine_impl.h"
#include "util/error.h"

typedef unsigned __int128 evkey_t;

/* (t, seq) as one key: one compare, no branch on equal times (t is never
 * negative: mc_ps_cap) */
static inline evkey_t ev_key(const ev_t *e)
{
    return (evkey_t)(uint64_t)e->t << 64 | e->seq;
}

static inline int ev_less(const ev_t *a, const ev_t *b)
{
    return ev_key(a) < ev_key(b);
}

/* ---- the 4-ary heap ---- */

#define ARITY 4

static int heap_push(mc_evq_t *q, ev_t e)
{
    if (q->nheap == q->capheap) {
        size_t cap = q->capheap ? 2 * q->capheap : 1024;
        ev_t *h = realloc(q->heap, cap * sizeof *h);
        if (!h) {
            q->want = cap * sizeof *h;
            return MC_ERR_NOMEM;
        }
        q->heap = h;
        q->capheap = cap;
    }
    size_t i = q->nheap++;
    while (i > 0) {
        size_t up = (i - 1) / ARITY;
        if (!ev_less(&e, &q->heap[up]))
            break;
        q->heap[i] = q->heap[up];
        i = up;
    }
    q->heap[i] = e;
    return MC_OK;
}

/* Moves `last` down from the root to its place, bottom-up (Floyd): the
 * hole goes down the smaller children to a leaf without comparing with
 * `last`, which then climbs back the few steps it needs. The event that
 * replaces the root is most often later than nearly all others, so this
 * saves a compare per level over the top-down sift. */
static void sift_down(mc_evq_t *q, ev_t last)
{
    ev_t *h = q->heap;
    size_t i = 0, n = q->nheap;
    for (;;) {
        size_t c = ARITY * i + 1;
        if (c >= n)
            break;
        size_t end = c + ARITY < n ? c + ARITY : n, best = c;
        for (size_t j = c + 1; j < end; j++)
            if (ev_less(&h[j], &h[best]))
                best = j;
        h[i] = h[best];
        i = best;
    }
    while (i > 0) {
        size_t up = (i - 1) / ARITY;
        if (!ev_less(&last, &h[up]))
            break;
        h[i] = h[up];
        i = up;
    }
    h[i] = last;
}

static void heap_pop(mc_evq_t *q)
{
    ev_t last = q->heap[--q->nheap];
    if (q->nheap)
        sift_down(q, last);
}

/* ---- the radix heap ---- */

/* 1 + the highest bit in which t differs from last (t >= last) */
static inline int bucket_of(mc_ps_t t, mc_ps_t last)
{
    uint64_t x = (uint64_t)t ^ (uint64_t)last;
    return x ? 64 - __builtin_clzll(x) : 0; /* 0: t == last */
}

static int append(mc_evq_t *q, int i, const ev_t *e)
{
    if (q->n[i] == q->cap[i]) {
        size_t cap = q->cap[i] ? 2 * q->cap[i] : 64;
        ev_t *b = realloc(q->b[i], cap * sizeof *b);
        if (!b) {
            q->want = cap * sizeof *b;
            return MC_ERR_NOMEM;
        }
        q->b[i] = b;
        q->cap[i] = cap;
    }
    q->b[i][q->n[i]++] = *e;
    if (i)
        q->bits[i >> 6] |= 1ull << (i & 63);
    return MC_OK;
}

/* the lowest non-empty bucket above 0 (there is one: q->count > 0 and
 * bucket 0 is empty) */
static inline int lowest(const mc_evq_t *q)
{
    for (int w = 0;; w++)
        if (q->bits[w])
            return 64 * w + __builtin_ctzll(q->bits[w]);
}

/* without memory for the queue, the run fails (mc_sim_fail) */
static void nomem(mc_sim_t *s)
{
    mc_sim_fail(s, MC_ERR_NOMEM, "simulator: out of memory for the event "
                "queue (%zu bytes for %zu events)", s->q.want, s->q.count);
}

/* Bucket 0 is empty: the lowest bucket's earliest time becomes `last`,
 * its events at that time go to bucket 0, the others below (an append
 * fails only without memory: the run fails, the event is lost). Every
 * bucket is in the order of scheduling: a push appends the largest
 * sequence number yet, and a bucket refilled from above was empty (it
 * was below the lowest non-empty one), taking the events in the order
 * they were in. So bucket 0 is too. */
static void refill(mc_sim_t *s, mc_evq_t *q)
{
    if (!q->bits[0] && !q->bits[1])
        return; /* every event lost (out of memory): stop() */
    int i = lowest(q);
    ev_t *b = q->b[i];
    size_t n = q->n[i];
    mc_ps_t best = b[0].t;
    for (size_t j = 1; j < n; j++)
        best = b[j].t < best ? b[j].t : best;
    q->last = best;
    q->n[i] = 0;
    q->bits[i >> 6] &= ~(1ull << (i & 63));
    for (size_t j = 0; j < n; j++)
        if (append(q, bucket_of(b[j].t, best), &b[j]) != MC_OK) {
            nomem(s);
            q->count--; /* it is gone: count what is left */
        }
}

/* The run has failed and the queue lost events: it ends now, every event
 * dropped (what was waiting gets the failure: engine_run.c). */
static ev_t stop(mc_evq_t *q)
{
    for (int i = 0; i < MC_EVQ_BUCKETS; i++)
        q->n[i] = 0;
    q->bits[0] = q->bits[1] = 0;
    q->head = 0;
    q->count = 0;
    return (ev_t){.kind = EV_NONE};
}

static ev_t radix_pop(mc_sim_t *s, mc_evq_t *q)
{
    if (q->head == q->n[0]) {
        q->head = q->n[0] = 0;
        refill(s, q);
        if (!q->n[0]) /* its events lost (out of memory); count may have
                         gone below 0 with them */
            return stop(q);
    }
    return q->b[0][q->head++];
}

/* ---- the queue ---- */

void mc_sim_evq_init(mc_sim_t *s, int ncores)
{
    const char *v = getenv("MC_SIM_EVQ");
    s->q.radix = v && !strcmp(v, "radix")  ? 1
                 : v && !strcmp(v, "heap") ? 0
                                           : ncores >= MC_EVQ_RADIX_CORES;
}

void mc_sim_evq_free(mc_sim_t *s)
{
    for (int i = 0; i < MC_EVQ_BUCKETS; i++)
        free(s->q.b[i]);
    free(s->q.heap);
    memset(&s->q, 0, sizeof s->q);
}

int mc_sim_push(mc_sim_t *s, mc_ps_t t, uint32_t kind, uint32_t idx)
{
    /* nothing happens before now: an agent's completion computed from
     * times the core's jittered wait has passed (the host's DMA done
     * flag) happens now; so keys only grow, and the event being handled
     * stays the earliest */
    if (t < s->now)
        t = s->now;
    ev_t e = {mc_ps_cap(t), s->seq++, kind, idx};
    mc_evq_t *q = &s->q;
    if ((q->radix ? append(q, bucket_of(e.t, q->last), &e)
                  : heap_push(q, e)) != MC_OK) {
        nomem(s); /* the event is lost, the run fails */
        return MC_ERR_NOMEM;
    }
    q->count++;
    return MC_OK;
}

void mc_sim_replace_top(mc_sim_t *s, mc_ps_t t, uint32_t kind, uint32_t idx)
{
    mc_evq_t *q = &s->q;
    if (q->radix) {
        (void)mc_sim_push(s, t, kind, idx);
        return;
    }
    sift_down(q, (ev_t){mc_ps_cap(t), s->seq++, kind, idx});
    q->count++;
    q->top_replaced = 1;
}

ev_t mc_sim_take(mc_sim_t *s)
{
    mc_evq_t *q = &s->q;
    q->count--;
    if (q->radix)
        return radix_pop(s, q);
    q->top_replaced = 0;
    return q->heap[0]; /* stays at the root while it is handled */
}

void mc_sim_taken(mc_sim_t *s)
{
    mc_evq_t *q = &s->q;
    if (!q->radix && !q->top_replaced)
        heap_pop(q);
}

size_t mc_sim_peek(const mc_sim_t *s, const ev_t **out, size_t max,
                   int *ordered)
{
    const mc_evq_t *q = &s->q;
    const ev_t *from = q->heap + 1; /* the root's children */
    size_t n = q->nheap > 1 ? q->nheap - 1 : 0;
    *ordered = q->radix && q->head < q->n[0];
    if (*ordered) { /* the next ones, in order */
        from = q->b[0] + q->head;
        n = q->n[0] - q->head;
    } else if (q->radix) {
        /* the lowest bucket's first few (not a scan for its earliest:
         * handlers that schedule at the current time would have it
         * scanned again at every event) */
        if (!q->count)
            return 0;
        int i = lowest(q);
        from = q->b[i];
        n = q->n[i];
    }
    n = n < max ? n : max;
    for (size_t j = 0; j < n; j++)
        out[j] = &from[j];
    return n;
}
