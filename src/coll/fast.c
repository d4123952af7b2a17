/* The shared machinery of the small-message fast paths (see fast.h). */
#include <stdlib.h>

#include "coll/fast.h"
#include "coll/flags.h"
#include "util/error.h"

#define slot_line mc_fast_slot_line
#define progress_line mc_fast_progress_line
#define saw mc_fast_saw

/* payloads up to this size ride in the flag's line (lines of up to 128
 * bytes; the fetch-and-combine path stages them on the stack) */
static size_t line_max(const mc_team_t *c)
{
    return c->fast.line_max;
}

/* On a cache-coherent machine the fast paths keep MC_FAST_SLOTS slots at
 * the end of the MPB for payloads that do not fit a flag line; without
 * coherence (the simulated SCC) they use lines only. */
static int reserve_slots(mc_team_t *c)
{
    size_t mpb = c->tp->mpb_size, line = c->tp->line;
    if (!c->tp->cache_coherent)
        return MC_OK;
    size_t slot = mpb / 32 < MC_FAST_MAX_SLOT ? mpb / 32 : MC_FAST_MAX_SLOT;
    slot = slot / line * line;
    if (slot < line)
        return MC_OK;
    c->fast.slot = slot;
    return mc_team_mpb_tail(c, MC_FAST_SLOTS * slot, "coll/fast.c",
                            &c->fast.off);
}

int mc_fast_init(mc_team_t *c, int what)
{
    size_t p = tp_line_payload(c->tp);
    c->fast = (mc_fast_state_t){.line_max = p < 120 ? p : 120,
                                .free_upto = MC_FAST_LINES};
    c->fast.line0 = mc_flag_line(c, MC_FL_FAST, 0);
    c->fast.line_step = tp_flags_per_line(c->tp);
    MC_CHECK(reserve_slots(c));
    /* above MC_TEAM_DENSE ranks the first fast call makes it (a
     * communicator that never runs one, as most of the simulator's, has
     * none) */
    if (what != MC_TEAM_FULL || c->size > MC_TEAM_DENSE)
        return MC_OK;
    c->fast.seen = calloc((size_t)c->size, sizeof(uint64_t));
    return c->fast.seen ? MC_OK
                        : mc_error(MC_ERR_NOMEM, "out of memory for "
                                                 "fast-path state");
}

void mc_fast_fini(mc_team_t *c)
{
    free(c->fast.seen);
    c->fast = (mc_fast_state_t){0};
}

static size_t slot_off(const mc_team_t *c, uint64_t f)
{
    return c->fast.off + (size_t)(f % MC_FAST_SLOTS) * c->fast.slot;
}

size_t mc_fast_max(const mc_team_t *c)
{
    return c->fast.slot > line_max(c) ? c->fast.slot : line_max(c);
}

int mc_fast_usable(const mc_team_t *t, const mc_params_t *p,
                   const char **why)
{
    (void)p;
    *why = mc_fast_max(t) < (size_t)t->size ? "a fast slot has less than a "
                                              "byte per rank"
                                            : NULL;
    return *why == NULL;
}

/* a large team's first fast call (teams up to MC_TEAM_DENSE ranks have
 * the array from creation); out of line, so the fast path stays small */
static __attribute__((noinline, cold)) int fast_seen_alloc(mc_team_t *c)
{
    c->fast.seen = calloc((size_t)c->size, sizeof(uint64_t));
    return c->fast.seen ? MC_OK
                        : mc_error(MC_ERR_NOMEM, "out of memory for "
                                                 "fast-path state");
}

/* waits until every peer is done with call f, then notes how far the
 * least progress seen (at least f) lets the next calls go without
 * looking; out of line, so the fast path stays small */
static __attribute__((noinline)) int slot_wait(mc_team_t *c, uint64_t f)
{
    MC_CHECK(mc_fast_wait_done(c, f));
    uint64_t low = UINT64_MAX - MC_FAST_LINES; /* no peer: no limit */
    for (int p = 0; p < c->size; p++)
        if (p != c->rank && c->fast.seen[p] < low)
            low = c->fast.seen[p];
    c->fast.free_upto = low + MC_FAST_LINES;
    return MC_OK;
}

int mc_fast_begin_slow(mc_team_t *c, int publishes, uint64_t f)
{
    if (!c->fast.seen)
        MC_CHECK(fast_seen_alloc(c));
    if (publishes && f > c->fast.free_upto)
        MC_CHECK(slot_wait(c, f - MC_FAST_LINES));
    /* here as well as in mc_fast_publish (inline in the algorithms): a
     * build of this file with its asserts on (tests/fast_asserted.c)
     * checks the slots of a release library */
    MC_ASSERT(!publishes || mc_fast_slot_free(c, f, MC_FAST_LINES),
              "fast call %llu may publish in line slot %llu before every "
              "peer is done with call %llu",
              (unsigned long long)f, (unsigned long long)(f % MC_FAST_LINES),
              (unsigned long long)(f - MC_FAST_LINES));
    return MC_OK;
}

/* inlined in the loop below: a call per peer cost every fast call 25
 * instructions at 2 ranks (bench/icount) */
static inline __attribute__((always_inline)) int wait_peer(mc_team_t *c,
                                                           uint64_t f, int p)
{
    if (p == c->rank || c->fast.seen[p] >= f)
        return MC_OK;
    /* acquire (in the transport): the peer's reads of my slot (and of my
     * buffers) happen before its progress store, so they are over when
     * we see it */
    MC_CHECK(tp_flag_wait(c->tp, p, progress_line(c), f));
    c->fast.seen[p] = tp_flag_read(c->tp, p, progress_line(c));
    return MC_OK;
}

int mc_fast_wait_peer(mc_team_t *c, uint64_t f, int p)
{
    return wait_peer(c, f, p);
}

int mc_fast_wait_done(mc_team_t *c, uint64_t f)
{
    for (int p = 0; p < c->size; p++)
        MC_CHECK(wait_peer(c, f, p));
    return MC_OK;
}

/* Slot ownership (fast.h): whether every peer has been seen done with
 * call f - back, the last call that read the slot f takes (of back line
 * slots or MPB slots). For MC_ASSERT: O(P), never in release builds. */
int mc_fast_slot_free(const mc_team_t *c, uint64_t f, uint64_t back)
{
    for (int p = 0; f > back && p < c->size; p++)
        if (p != c->rank && c->fast.seen[p] < f - back)
            return 0;
    return 1;
}

int mc_fast_publish_mpb(mc_team_t *c, uint64_t f, const void *data,
                        size_t n)
{
    MC_ASSERT(n <= mc_fast_max(c), "%zu bytes in a slot of %zu", n,
              mc_fast_max(c));
    /* the MPB slots are fewer than the lines: this one's last readers
     * were those of call f - MC_FAST_SLOTS */
    if (f > MC_FAST_SLOTS)
        MC_CHECK(mc_fast_wait_done(c, f - MC_FAST_SLOTS));
    MC_ASSERT(mc_fast_slot_free(c, f, MC_FAST_SLOTS), "fast call %llu "
              "publishes in MPB slot %llu before every peer is done with "
              "call %llu",
              (unsigned long long)f, (unsigned long long)(f % MC_FAST_SLOTS),
              (unsigned long long)(f - MC_FAST_SLOTS));
    MC_CHECK(tp_put(c->tp, c->rank, slot_off(c, f), data, n));
    tp_flag_set(c->tp, c->rank, slot_line(c, f), f);
    return MC_OK;
}

static int fetch_part(mc_team_t *c, uint64_t f, int peer, size_t off,
                      void *out, size_t n, size_t total)
{
    MC_ASSERT(off + n <= total && peer >= 0 && peer < c->size,
              "bytes %zu-%zu of a publication of %zu by rank %d", off,
              off + n, total, peer);
    if (total <= line_max(c)) {
        uint64_t tmp[15]; /* a line's payload */
        MC_CHECK(tp_line_wait(c->tp, peer, slot_line(c, f), f,
                              off ? tmp : out, off + n));
        if (off)
            MC_CHECK(tp_copy(c->tp, out, (char *)tmp + off, n));
    } else {
        MC_CHECK(tp_flag_wait(c->tp, peer, slot_line(c, f), f));
        MC_CHECK(tp_get(c->tp, out, peer, slot_off(c, f) + off, n));
    }
    return MC_OK;
}

int mc_fast_fetch_part_slow(mc_team_t *c, uint64_t f, int peer, size_t off,
                            void *out, size_t n, size_t total)
{
    MC_CHECK(fetch_part(c, f, peer, off, out, n, total));
    saw(c, peer, f);
    return MC_OK;
}

int mc_fast_fetch_ahead(mc_team_t *c, uint64_t f, int ahead, int peer,
                        size_t off, void *out, size_t n, size_t total)
{
    MC_CHECK(fetch_part(c, f, peer, off, out, n, total));
    if (f >= (uint64_t)ahead)
        saw(c, peer, f + 1 - (uint64_t)ahead);
    return MC_OK;
}

int mc_fast_fetch_reduce_mpb(mc_team_t *c, uint64_t f, int peer, size_t off,
                             void *inout, size_t count, const mc_args_t *a,
                             int in_left)
{
    MC_CHECK(tp_flag_wait(c->tp, peer, slot_line(c, f), f));
    MC_CHECK(tp_get_reduce(c->tp, inout, peer, slot_off(c, f) + off, count,
                           a->dt, a->op, in_left));
    saw(c, peer, f);
    return MC_OK;
}

int mc_fast_combine_mpb(mc_team_t *c, uint64_t f, const mc_args_t *a,
                        const void *in, void *out, size_t count)
{
    size_t n = count * a->dsize;
    if (c->rank == 0)
        MC_CHECK(tp_copy(c->tp, out, in, n));
    else
        MC_CHECK(mc_fast_fetch(c, f, 0, out, n));
    for (int r = 1; r < c->size; r++) {
        if (r == c->rank && !a->in_place)
            MC_CHECK(tp_reduce(c->tp, out, in, count, a->dt, a->op, 0));
        else
            MC_CHECK(mc_fast_fetch_reduce(c, f, r, out, count, a, 0));
    }
    return MC_OK;
}
