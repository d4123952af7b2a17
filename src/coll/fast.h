/*
 * Small-message fast paths (barrier, bcast, reduce, allreduce "flat"):
 * every rank publishes its contribution in slots it alone writes, and the
 * ranks that need it read it straight from there, one cache-line transfer
 * when data and flag share a line (the "notification with payload" of
 * Ramos & Hoefler). No acknowledgement round trips: a slot is reused only
 * after every peer has finished the fast call that read it.
 *
 *   rank r's own lines:   slot 0 | slot 1 | ... | slot 31 | progress
 *   fast call f:          publish in line slot f % 32 (flag = f, payload
 *                         after it in the line, or in the MPB slot f % 4
 *                         of the reserved tail when it does not fit), read
 *                         peers' slot f % 32, then progress = f
 *
 * Reuse: before writing line slot f % 32 a rank needs every peer's
 * progress >= f - 32 (they are done with call f - 32, the last one that
 * read it), and before writing MPB slot f % 4, >= f - 4. It keeps what it
 * has seen of each peer's progress; reading a peer's slot for call f
 * shows that peer finished f - 1, so symmetric collectives never read a
 * progress line, and a broadcast root reads them about once every 31
 * calls. It also keeps the last call whose line slot that shows free
 * (fast.free_upto), so it looks at what it has seen once in 32 calls. 32 line slots let a root run that far ahead of the other ranks
 * in a loop of small calls: with more ranks than CPUs, a rank that waits
 * gives up its CPU, and with four slots each waiting rank's turn carried
 * only four calls (8-byte MPI_Bcast at 4 ranks on 2 CPUs, back to back,
 * mpi_compare --loop 100: 0.47 us a call with 4 line slots, 0.19-0.21
 * with 16, 0.14-0.16 with 32; Open MPI 0.11-0.17).
 *
 * All ranks count fast calls alike (the selection depends only on the
 * arguments, which are equal on every rank), so f is the same everywhere.
 * The lines are the shared range MC_FL_FAST of coll/flags.h, each
 * written by its owner only (rule 4 of tp/tp.h); the MPB slots are the
 * tail this file reserves (mc_team_mpb_tail).
 */
#ifndef MC_COLL_FAST_H
#define MC_COLL_FAST_H

#include "coll/coll.h"

#define MC_FAST_LINES 32 /* line slots: calls a rank may run ahead */
#define MC_FAST_SLOTS 4  /* MPB slots, for payloads beyond a line */
#define MC_FAST_MAX_SLOT 2048 /* bytes of the largest MPB slot */

/* Sets up the part fast of a new team (mc_team_init; state in
 * fast_state.h, written by fast.c alone): the line indices, the MPB
 * slots (reserved with mc_team_mpb_tail), and with MC_TEAM_FULL the
 * progress seen of up to MC_TEAM_DENSE peers. */
int mc_fast_init(mc_team_t *c, int what);
void mc_fast_fini(mc_team_t *c);
/* largest payload a fast call can carry per rank on this communicator */
size_t mc_fast_max(const mc_team_t *c);
/* usable hook (mc_algo_impl_t.usable) of the algorithms that publish a
 * piece for every rank in their slot: 1 if a slot has a byte per rank,
 * else 0 and *why */
int mc_fast_usable(const mc_team_t *t, const mc_params_t *p,
                   const char **why);

/* ---- out of line: the parts an 8-byte call does not reach ---- */
/* mc_fast_begin's rare part: the first call of a large team, or a slot
 * not yet known to be free */
int mc_fast_begin_slow(mc_team_t *c, int publishes, uint64_t f);
/* mc_fast_publish of a payload beyond a line (in an MPB slot) */
int mc_fast_publish_mpb(mc_team_t *c, uint64_t f, const void *data,
                        size_t n);
/* mc_fast_fetch_part of a part of a line, or from an MPB slot */
int mc_fast_fetch_part_slow(mc_team_t *c, uint64_t f, int peer, size_t off,
                            void *out, size_t n, size_t total);
/* mc_fast_fetch_reduce_part from an MPB slot */
int mc_fast_fetch_reduce_mpb(mc_team_t *c, uint64_t f, int peer, size_t off,
                             void *inout, size_t count, const mc_args_t *a,
                             int in_left);
/* for MC_ASSERT: every peer has been seen done with call f - back */
int mc_fast_slot_free(const mc_team_t *c, uint64_t f, uint64_t back);

/* waits until every peer has ended fast call f (mc_fast_end) */
int mc_fast_wait_done(mc_team_t *c, uint64_t f);
/* ... until peer p has (at once if p is me) */
int mc_fast_wait_peer(mc_team_t *c, uint64_t f, int p);
/* mc_fast_fetch_part for collectives whose ranks publish up to `ahead`
 * calls before ending the first of them (alltoall:flat): a publication of
 * f shows only that its publisher has ended f - ahead */
int mc_fast_fetch_ahead(mc_team_t *c, uint64_t f, int ahead, int peer,
                        size_t off, void *out, size_t n, size_t total);

/* ---- the hot path, inline: an 8-byte call is a few flag lines, and a
 * function boundary per step cost it 10 to 20 instructions each
 * (bench/icount_check.py --functions) ---- */

/* the line indices are fixed per communicator (mc_fast_init) */
static inline int mc_fast_slot_line(const mc_team_t *c, uint64_t f)
{
    return c->fast.line0 + (int)(f % MC_FAST_LINES) * c->fast.line_step;
}

static inline int mc_fast_progress_line(const mc_team_t *c)
{
    return c->fast.line0 + MC_FAST_LINES * c->fast.line_step;
}

/* starts fast call f; if `publishes`, waits until the slot is free.
 * seen[] only grows, so free_upto stays right: a symmetric collective
 * (each call shows every peer done with the one before) reads seen[]
 * once in MC_FAST_LINES calls, not in every call */
static inline int mc_fast_begin(mc_team_t *c, int publishes, uint64_t *f)
{
    uint64_t me = ++c->fast.seq;
    *f = me;
    if (__builtin_expect(!c->fast.seen ||
                             (publishes && me > c->fast.free_upto), 0))
        return mc_fast_begin_slow(c, publishes, me);
    return MC_OK;
}

/* ends fast call f: my progress is f */
static inline void mc_fast_end(mc_team_t *c, uint64_t f)
{
    tp_flag_set(c->tp, c->rank, mc_fast_progress_line(c), f);
}

/* publishes n bytes (n <= mc_fast_max) in my slot of call f, whose
 * line is `line` (mc_fast_slot_line) */
static inline int mc_fast_publish_at(mc_team_t *c, uint64_t f, int line,
                                     const void *data, size_t n)
{
    MC_ASSERT(f == c->fast.seq && mc_fast_slot_free(c, f, MC_FAST_LINES),
              "fast call %llu publishes in line slot %llu before every "
              "peer is done with call %llu",
              (unsigned long long)f, (unsigned long long)(f % MC_FAST_LINES),
              (unsigned long long)(f - MC_FAST_LINES));
    if (__builtin_expect(n > c->fast.line_max, 0))
        return mc_fast_publish_mpb(c, f, data, n);
    tp_line_set(c->tp, c->rank, line, f, data, n);
    return MC_OK;
}

static inline int mc_fast_publish(mc_team_t *c, uint64_t f, const void *data,
                                  size_t n)
{
    return mc_fast_publish_at(c, f, mc_fast_slot_line(c, f), data, n);
}

/* a peer that published call f has finished call f - 1 */
static inline void mc_fast_saw(mc_team_t *c, int peer, uint64_t f)
{
    if (c->fast.seen[peer] < f - 1)
        c->fast.seen[peer] = f - 1;
}

/* copies n bytes at offset off of peer's publication of `total` bytes in
 * call f to out, once it is there */
static inline int mc_fast_fetch_part(mc_team_t *c, uint64_t f, int peer,
                                     size_t off, void *out, size_t n,
                                     size_t total)
{
    if (__builtin_expect(off || total > c->fast.line_max, 0))
        return mc_fast_fetch_part_slow(c, f, peer, off, out, n, total);
    MC_ASSERT(n <= total && peer >= 0 && peer < c->size,
              "%zu bytes of a publication of %zu by rank %d", n, total,
              peer);
    MC_CHECK(tp_line_wait(c->tp, peer, mc_fast_slot_line(c, f), f, out, n));
    mc_fast_saw(c, peer, f);
    return MC_OK;
}

/* waits for peer's slot of call f and copies its n bytes to out */
static inline int mc_fast_fetch(mc_team_t *c, uint64_t f, int peer,
                                void *out, size_t n)
{
    return mc_fast_fetch_part(c, f, peer, 0, out, n, n);
}

/* ... or combines count elements at offset off of a publication of
 * `total` bytes into inout (peer's data on the left if in_left) */
static inline int mc_fast_fetch_reduce_part(mc_team_t *c, uint64_t f,
                                            int peer, size_t off, void *inout,
                                            size_t count, const mc_args_t *a,
                                            int in_left, size_t total)
{
    if (__builtin_expect(total > c->fast.line_max, 0))
        return mc_fast_fetch_reduce_mpb(c, f, peer, off, inout, count, a,
                                        in_left);
    MC_CHECK(tp_line_wait_reduce(c->tp, peer, mc_fast_slot_line(c, f), f,
                                 off, inout, count, a->dt, a->op, in_left));
    mc_fast_saw(c, peer, f);
    return MC_OK;
}

static inline int mc_fast_fetch_reduce(mc_team_t *c, uint64_t f, int peer,
                                       void *inout, size_t count,
                                       const mc_args_t *a, int in_left)
{
    return mc_fast_fetch_reduce_part(c, f, peer, 0, inout, count, a, in_left,
                                     count * a->dsize);
}

/* out = x_0 op x_1 op ... op x_{P-1} of fast call f, in rank order (my own
 * x from `in`, or from my slot when the call is in place): start from
 * rank 0's vector, then combine ranks 1 .. P-1 on the right; in place, my
 * own comes back from my slot (out has been overwritten) */
int mc_fast_combine_mpb(mc_team_t *c, uint64_t f, const mc_args_t *a,
                        const void *in, void *out, size_t count);
static inline __attribute__((always_inline)) int
mc_fast_combine_at(mc_team_t *c, uint64_t f, int line, const mc_args_t *a,
                   const void *in, void *out, size_t count)
{
    size_t n = count * a->dsize;
    if (__builtin_expect(n > c->fast.line_max, 0))
        return mc_fast_combine_mpb(c, f, a, in, out, count);
    /* every publication is in line `line` (mc_fast_slot_line) */
    mc_tp_t *t = c->tp;
    int me = c->rank;
    if (me == 0) {
        MC_CHECK(tp_copy(t, out, in, n));
    } else {
        MC_CHECK(tp_line_wait(t, 0, line, f, out, n));
        mc_fast_saw(c, 0, f);
    }
    for (int r = 1; r < c->size; r++) {
        if (r == me && !a->in_place) {
            MC_CHECK(tp_reduce(t, out, in, count, a->dt, a->op, 0));
        } else {
            MC_CHECK(tp_line_wait_reduce(t, r, line, f, 0, out, count, a->dt,
                                         a->op, 0));
            mc_fast_saw(c, r, f);
        }
    }
    return MC_OK;
}

static inline __attribute__((always_inline)) int
mc_fast_combine(mc_team_t *c, uint64_t f, const mc_args_t *a, const void *in,
                void *out, size_t count)
{
    return mc_fast_combine_at(c, f, mc_fast_slot_line(c, f), a, in, out,
                              count);
}

#endif
