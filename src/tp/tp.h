/*
 * The transport interface: everything an algorithm in src/coll/ may do.
 *
 * Every rank owns
 *   - an MPB (message-passing buffer): `mpb_size` bytes of payload that any
 *     rank can read (get) and write (put), addressed by (rank, offset);
 *   - a flag area: `nflags` 64-bit words that any rank can set and wait on,
 *     addressed by (rank, index). Flags are grouped in cache lines of
 *     `line / 8` words; the first word of a line can carry a payload in the
 *     rest of that line ("notification with payload").
 *
 * Flags only ever grow: writers store monotonically increasing values (call
 * sequence numbers, message counters), and waiters wait until a flag is >= a
 * value. So no flag is ever reset, and a stale value can never satisfy a
 * newer wait.
 *
 * House rules every algorithm keeps, so that consecutive collectives can
 * reuse the MPB and flags without extra synchronisation:
 *   1. a rank returns only after every read of its MPB by a peer, for this
 *      call, has been acknowledged to it;
 *   2. a rank waits, within the call, for every flag write peers make to it
 *      in that call;
 *   3. algorithm flag values are built from the call sequence number
 *      (mc_flagval), so they grow across calls;
 *   4. every flag line has ONE writer, for good: line (bank, w) of a rank
 *      is written only by rank w (mc_flag_from). A peer already in call
 *      n+1 may write to me while I still wait for a call-n write from
 *      another peer; if both wrote the same line, the early larger value
 *      would satisfy my call-n wait and the late smaller one would then
 *      overwrite it. One writer per line keeps every line's values in
 *      program order.
 *
 * Implementations: shm.c (processes on one machine, POSIX shared memory),
 * sim.c (cores of a simulated chip, virtual time). Operations are plain
 * memory accesses on shm; on sim each one charges time from the platform's
 * cost model and may suspend the calling core.
 */
#ifndef MC_TP_H
#define MC_TP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "manycoll.h"
#include "ops/ops.h"
#include "util/assert.h"
#include "util/coro.h"

typedef struct mc_tp mc_tp_t;

/* ranks of a communicator at most (a shm segment is sized for them) */
#define MC_MAX_RANKS (1 << 20)

/* Where the ranks sit (tp->topo, filled by the transport when it opens).
 * MC_TOPO_GRID (a mesh chip): the ranks fill a w x h rectangle of tiles
 * with cpt cores each, tile by tile, row by row: rank r on tile t = r /
 * cpt at (t % w, t / w) of the rectangle (x0, y0 on the chip), core r %
 * cpt of the tile -- the order `manycoll sim --grid` gives, and every
 * split that keeps whole rows of it. MC_TOPO_HIER (a real machine whose
 * ranks are bound, MC_BIND=1): rank r's package, NUMA node and L3 cache
 * are ids[r * levels + 0..2] (tp/hwtopo.h). MC_TOPO_NONE: anything else;
 * topology-aware algorithms then fall back. */
enum { MC_TOPO_NONE = 0, MC_TOPO_GRID = 1, MC_TOPO_HIER = 2 };
typedef struct mc_topo {
    int kind;
    int w, h, cpt;  /* GRID */
    int x0, y0;
    int levels;     /* HIER: ids per rank */
    const int *ids; /*       [size * levels] group ids */
    const int *low; /*       [size * levels] lowest rank of each group */
    const int *pus; /*       [size] PU of each rank */
} mc_topo_t;

/* How close a peer is (tp_locality): the same rank; a core that shares
 * the tile (the simulator) or the last-level cache (a real machine with
 * bound ranks); the same chip (or socket); another chip behind a slower
 * link (the simulator's multi-chip platforms, another socket). Algorithms
 * and the two-sided layer choose per peer from it; every rank sees the
 * same answer for a pair. */
enum { MC_LOC_SELF = 0, MC_LOC_TILE = 1, MC_LOC_CHIP = 2, MC_LOC_OTHER = 3 };

/* What tp->charge charges (the simulator's optional cost keys, 0 unless a
 * platform sets them; docs/platforms.md). */
typedef enum {
    MC_CHARGE_CALL = 0,  /* o_call: a blocking send or receive (RCCE) */
    MC_CHARGE_REQ_IRCCE, /* o_req_ircce: one iRCCE request, issue to
                            completion (list keeping, malloc and free) */
    MC_CHARGE_REQ_LIGHT, /* o_req_light: one lightweight request (at most
                            one send and one receive in flight) */
    MC_CHARGE_FLOP,      /* o_flop: one floating-point operation of the
                            application's local work */
    MC_CHARGE_COUNT
} mc_charge_t;

typedef struct mc_tp_ops {
    const char *name;
    /* data movement; src/dst pointers are private memory of the caller */
    int (*put)(mc_tp_t *tp, int dst, size_t dst_off, const void *src,
               size_t n);
    int (*put_mpb)(mc_tp_t *tp, int dst, size_t dst_off, size_t my_off,
                   size_t n);
    int (*get)(mc_tp_t *tp, void *dst, int src, size_t src_off, size_t n);
    int (*get_mpb)(mc_tp_t *tp, size_t my_off, int src, size_t src_off,
                   size_t n);
    /* inout = combine(MPB data of src, inout), count elements: see
     * mc_reduce_into(); the MPB data is the left operand if src_left */
    int (*get_reduce)(mc_tp_t *tp, void *inout, int src, size_t src_off,
                      size_t count, mc_dtype_t dt, mc_op_t op, int src_left);
    /* private-memory work of the caller (charged in the simulator) */
    int (*copy)(mc_tp_t *tp, void *dst, const void *src, size_t n);
    int (*reduce)(mc_tp_t *tp, void *inout, const void *in, size_t count,
                  mc_dtype_t dt, mc_op_t op, int in_left);
    /* flags (a set and a wait as one call, where a transport saves by
     * knowing both: tp/fused.h, the simulator's extension) */
    void (*flag_set)(mc_tp_t *tp, int rank, int idx, uint64_t v);
    uint64_t (*flag_read)(mc_tp_t *tp, int rank, int idx);
    int (*flag_wait)(mc_tp_t *tp, int rank, int idx, uint64_t v);
    /* payload (<= line - 8 bytes) in the words after flag idx, then flag */
    void (*line_set)(mc_tp_t *tp, int rank, int idx, uint64_t v,
                     const void *payload, size_t n);
    int (*line_wait)(mc_tp_t *tp, int rank, int idx, uint64_t v, void *out,
                     size_t n);
    /* waits like line_wait, then combines count elements of the payload,
     * from byte off, into inout (payload on the left if in_left) */
    int (*line_wait_reduce)(mc_tp_t *tp, int rank, int idx, uint64_t v,
                            size_t off, void *inout, size_t count,
                            mc_dtype_t dt, mc_op_t op, int in_left);
    /* single copy: n bytes at address addr of rank src's private memory
     * (a buffer src passed to the collective) into dst; only where
     * single_copy is 1, NULL in transports that have none */
    int (*get_direct)(mc_tp_t *tp, void *dst, int src, uintptr_t addr,
                      size_t n);
    /* ... and the other way: n bytes of src into address addr of rank
     * dst's private memory (a buffer dst passed to the collective and
     * published for it); where get_direct is */
    int (*put_direct)(mc_tp_t *tp, int dst, uintptr_t addr, const void *src,
                      size_t n);
    /* Static-network multicast, where tp->mcast is 1 (a grid of one core
     * per tile on a chip with a static network): every rank calls it
     * with the same root; the root's n bytes at buf arrive in every
     * rank's buf along the column-first tree of sched/mesh.h, forwarded
     * by the routers without the cores. */
    int (*mcast)(mc_tp_t *tp, int root, void *buf, size_t n);
    /* MPB(me)[my_off..] = combine(MPB(src)[src_off..], in), count elements
     * (the MPB data is the left operand if src_left): a peer's partial
     * result and private data into my own MPB, never through private
     * memory (Kohler et al.'s MPB-direct ring) */
    int (*get_reduce_mpb)(mc_tp_t *tp, size_t my_off, int src, size_t src_off,
                          const void *in, size_t count, mc_dtype_t dt,
                          mc_op_t op, int src_left);
    /* CPU time spent outside data movement and waiting: n units of cost
     * `kind` (mc_charge_t), e.g. the software overhead of a two-sided
     * primitive. Charged where time is simulated; NULL where the CPU
     * really spends it (shm). */
    int (*charge)(mc_tp_t *tp, int kind, uint64_t n);
    /* sub-communicator over `members` (ranks of tp, ascending order of the
     * new ranks); `id` is the same on every member and unique per parent */
    int (*sub)(mc_tp_t *tp, const int *members, int n, int myrank,
               uint64_t id, mc_tp_t **out);
    /* this rank's collective call number `call` failed with `status`:
     * the peers' waits in that call or a later one fail too, with msg
     * (optional; NULL in transports without failures) */
    void (*fail)(mc_tp_t *tp, uint64_t call, int status, const char *msg);
    /* memory this rank's transport state takes: returns its private
     * bytes; *shared: its part (1 / size) of what the ranks share */
    size_t (*footprint)(const mc_tp_t *tp, size_t *shared);
    /* a progress round of non-blocking collectives that advanced none
     * lets a little time pass: the simulator charges a poll (so that the
     * other cores run), shm pauses and yields the CPU now and then (at
     * once when oversubscribed); optional */
    int (*idle)(mc_tp_t *tp);
    /* how close `rank` is (MC_LOC_*); optional: without it every other
     * rank is MC_LOC_CHIP */
    int (*locality)(mc_tp_t *tp, int rank);
    /* Virtual DMA (the vSCC's host communication task): an asynchronous
     * copy of n bytes at my_off of my MPB to dst_off of rank dst's MPB by
     * an agent, not by the calling core. When the bytes have landed,
     * rank dst's flag idx becomes v; when my range may be reused, my own
     * flag done_idx becomes done_v (both written on my behalf: lines I
     * own, house rule 4). Returns once the copy is programmed. Optional:
     * tp_dma otherwise copies with put_mpb and sets both flags itself. */
    int (*dma)(mc_tp_t *tp, int dst, size_t dst_off, size_t my_off,
               size_t n, int idx, uint64_t v, int done_idx, uint64_t done_v);
    /* Hints to a host's software cache of my MPB (the vSCC's prefetching
     * task): prefetch says my bytes [off, off + n) are published and may
     * be copied to the host, to serve peers on other chips from there;
     * invalidate says they are about to change. Optional: no-ops where
     * no host caches MPBs (shm, one chip). */
    int (*prefetch)(mc_tp_t *tp, size_t off, size_t n);
    int (*invalidate)(mc_tp_t *tp, size_t off, size_t n);
    void (*destroy)(mc_tp_t *tp);
} mc_tp_ops_t;

struct mc_tp {
    const mc_tp_ops_t *ops;
    int rank;
    int size;
    size_t mpb_size; /* payload bytes per rank */
    size_t line;     /* cache line size in bytes */
    int nflags;      /* flag words per rank */
    int cache_coherent; /* 1 if peers may read MPBs directly (no copy in) */
    size_t p2p_chunk_hint; /* two-sided chunk the platform suggests (0: MPB) */
    int single_copy;    /* 1 if get_direct works between every pair of ranks
                           (the same on every rank) */
    int plain_local;    /* 1 if ops->copy and ops->reduce are the CPU's
                           own memmove and kernels and charge nothing
                           (shm): tp_copy then moves up to 16 bytes, and
                           tp_reduce combines one element, inline */
    int oversubscribed; /* 1 if the ranks outnumber the machine's CPUs (the
                           same on every rank): a wait for a peer may wait
                           for the scheduler to run it */
    const uint64_t *calls; /* collective calls this rank has started, kept
                              by the layer above (NULL: not counted): a
                              peer that left before my current call will
                              never take part in it */
    mc_topo_t topo;     /* mesh coordinates of the ranks, if any */
    int mcast;          /* 1 if ops->mcast works here */
    int host_link;      /* 1 if some ranks may sit on other chips behind a
                           host link (tp_locality MC_LOC_OTHER): the same
                           on every rank */
    size_t dma_min;     /* below this many bytes tp_dma is slower than a
                           direct put (the vSCC's vdma_threshold) */
    uint64_t share;     /* nonzero: the ranks of this process with the same
                           value are ranks of one communicator, alike in
                           everything the selection reads, and may share
                           one copy of it (the simulator's cores); 0: none */
};

/* What a non-blocking collective's coroutine waits for when it yields
 * (api/nbc.c: its wait_note): its test or wait may then wait for that
 * flag outside it, as a blocking call would. */
typedef struct mc_tp_wait_note {
    mc_tp_t *tp;
    int rank, idx;
    uint64_t v;
} mc_tp_wait_note_t;

/* co (mc_coro_current()) if it runs a non-blocking collective, whose
 * waits must yield rather than block; else NULL */
static inline mc_coro_t *tp_nb_call(void)
{
    mc_coro_t *co = mc_coro_current();
    return co && co->wait_note ? co : NULL;
}

/* For a transport's waits: in a non-blocking collective's coroutine, notes
 * the wait, yields to test or wait and returns 1 (check the flag again);
 * elsewhere returns 0 (block as usual). */
static inline int tp_wait_yield(mc_tp_t *t, int rank, int idx, uint64_t v)
{
    mc_coro_t *co = tp_nb_call();
    if (!co)
        return 0;
    *(mc_tp_wait_note_t *)co->wait_note =
        (mc_tp_wait_note_t){.tp = t, .rank = rank, .idx = idx, .v = v};
    mc_coro_yield();
    return 1;
}

/* Inline wrappers: algorithms call these, never ops-> directly. */
static inline int tp_put(mc_tp_t *t, int dst, size_t off, const void *src,
                         size_t n)
{
    return t->ops->put(t, dst, off, src, n);
}
static inline int tp_put_mpb(mc_tp_t *t, int dst, size_t off, size_t my_off,
                             size_t n)
{
    return t->ops->put_mpb(t, dst, off, my_off, n);
}
static inline int tp_get(mc_tp_t *t, void *dst, int src, size_t off, size_t n)
{
    return t->ops->get(t, dst, src, off, n);
}
static inline int tp_get_mpb(mc_tp_t *t, size_t my_off, int src, size_t off,
                             size_t n)
{
    return t->ops->get_mpb(t, my_off, src, off, n);
}
static inline int tp_get_reduce(mc_tp_t *t, void *inout, int src, size_t off,
                                size_t count, mc_dtype_t dt, mc_op_t op,
                                int src_left)
{
    return t->ops->get_reduce(t, inout, src, off, count, dt, op, src_left);
}
static inline int tp_get_reduce_mpb(mc_tp_t *t, size_t my_off, int src,
                                    size_t off, const void *in, size_t count,
                                    mc_dtype_t dt, mc_op_t op, int src_left)
{
    return t->ops->get_reduce_mpb(t, my_off, src, off, in, count, dt, op,
                                  src_left);
}
/* no-op where the transport does not charge (shm: the CPU spends it) */
static inline int tp_charge(mc_tp_t *t, mc_charge_t kind, uint64_t n)
{
    return t->ops->charge ? t->ops->charge(t, (int)kind, n) : 0;
}
static inline int tp_copy(mc_tp_t *t, void *dst, const void *src, size_t n)
{
    /* 8 to 16 bytes: two words, overlapping below 16, both loaded before
     * either is stored (right for overlapping buffers too); a call to
     * ops->copy cost an 8-byte allreduce 30 instructions */
    if (t->plain_local && n - 8 <= 8) {
        uint64_t lo, hi;
        memcpy(&lo, src, 8);
        memcpy(&hi, (const char *)src + n - 8, 8);
        memcpy(dst, &lo, 8);
        memcpy((char *)dst + n - 8, &hi, 8);
        return 0;
    }
    return t->ops->copy(t, dst, src, n);
}
static inline int tp_reduce(mc_tp_t *t, void *inout, const void *in,
                            size_t count, mc_dtype_t dt, mc_op_t op,
                            int in_left)
{
    if (t->plain_local && count == 1 && (unsigned)op < MC_OP_BUILTIN_COUNT &&
        mc_reduce_scalar(inout, in, dt, op))
        return 0;
    return t->ops->reduce(t, inout, in, count, dt, op, in_left);
}
/* Rule 4: whether this rank may write flag idx of rank's area, the one
 * writer of its line (or one of the several writers of a word of the
 * acknowledgement lines). For MC_ASSERT on every algorithm's flag write:
 * a write to a line of another writer would let a late small value
 * overwrite an early large one (above). */
static inline int mc_tp_flag_writer(int size, size_t line, int owner,
                                    int idx);
static inline size_t tp_line_payload(const mc_tp_t *t);
static inline int tp_may_write(const mc_tp_t *t, int rank, int idx)
{
    int w = mc_tp_flag_writer(t->size, t->line, rank, idx);
    return w < 0 || w == t->rank;
}
#define TP_ASSERT_WRITER(t, rank, idx)                                       \
    MC_ASSERT(tp_may_write(t, rank, idx),                                    \
              "rank %d writes flag %d of rank %d, a line of rank %d",       \
              (t)->rank, idx, rank,                                          \
              mc_tp_flag_writer((t)->size, (t)->line, rank, idx))

static inline void tp_flag_set(mc_tp_t *t, int rank, int idx, uint64_t v)
{
    TP_ASSERT_WRITER(t, rank, idx);
    t->ops->flag_set(t, rank, idx, v);
}
static inline uint64_t tp_flag_read(mc_tp_t *t, int rank, int idx)
{
    return t->ops->flag_read(t, rank, idx);
}
static inline int tp_flag_wait(mc_tp_t *t, int rank, int idx, uint64_t v)
{
    return t->ops->flag_wait(t, rank, idx, v);
}
static inline void tp_line_set(mc_tp_t *t, int rank, int idx, uint64_t v,
                               const void *payload, size_t n)
{
    TP_ASSERT_WRITER(t, rank, idx);
    MC_ASSERT(n <= tp_line_payload(t), "%zu bytes of payload in a line of "
              "%zu", n, t->line);
    t->ops->line_set(t, rank, idx, v, payload, n);
}
static inline int tp_line_wait(mc_tp_t *t, int rank, int idx, uint64_t v,
                               void *out, size_t n)
{
    return t->ops->line_wait(t, rank, idx, v, out, n);
}

static inline int tp_line_wait_reduce(mc_tp_t *t, int rank, int idx,
                                      uint64_t v, size_t off, void *inout,
                                      size_t count, mc_dtype_t dt, mc_op_t op,
                                      int in_left)
{
    return t->ops->line_wait_reduce(t, rank, idx, v, off, inout, count, dt,
                                    op, in_left);
}

static inline int tp_get_direct(mc_tp_t *t, void *dst, int src,
                                uintptr_t addr, size_t n)
{
    /* callers check t->single_copy first */
    return t->ops->get_direct(t, dst, src, addr, n);
}

static inline int tp_put_direct(mc_tp_t *t, int dst, uintptr_t addr,
                                const void *src, size_t n)
{
    /* callers check t->single_copy first */
    return t->ops->put_direct(t, dst, addr, src, n);
}

static inline int tp_locality(mc_tp_t *t, int rank)
{
    if (rank == t->rank)
        return MC_LOC_SELF;
    return t->ops->locality ? t->ops->locality(t, rank) : MC_LOC_CHIP;
}

/* tp_dma where no agent copies: the caller does, then sets both flags */
static inline int tp_dma_copy(mc_tp_t *t, int dst, size_t dst_off,
                              size_t my_off, size_t n, int idx, uint64_t v,
                              int done_idx, uint64_t done_v)
{
    int rc = t->ops->put_mpb(t, dst, dst_off, my_off, n);
    if (rc)
        return rc;
    t->ops->flag_set(t, dst, idx, v);
    t->ops->flag_set(t, t->rank, done_idx, done_v);
    return 0;
}
static inline int tp_dma(mc_tp_t *t, int dst, size_t dst_off, size_t my_off,
                         size_t n, int idx, uint64_t v, int done_idx,
                         uint64_t done_v)
{
    if (t->ops->dma)
        return t->ops->dma(t, dst, dst_off, my_off, n, idx, v, done_idx,
                           done_v);
    return tp_dma_copy(t, dst, dst_off, my_off, n, idx, v, done_idx, done_v);
}
static inline int tp_prefetch(mc_tp_t *t, size_t off, size_t n)
{
    return t->ops->prefetch ? t->ops->prefetch(t, off, n) : 0;
}
static inline int tp_invalidate(mc_tp_t *t, size_t off, size_t n)
{
    return t->ops->invalidate ? t->ops->invalidate(t, off, n) : 0;
}

static inline int tp_mcast(mc_tp_t *t, int root, void *buf, size_t n)
{
    /* callers check t->mcast first */
    return t->ops->mcast(t, root, buf, n);
}

/* The hierarchy of the ranks (NULL if unknown). */
static inline const mc_topo_t *tp_hier(const mc_tp_t *t)
{
    return t->topo.kind == MC_TOPO_HIER ? &t->topo : NULL;
}

/* The grid the ranks form (NULL if none): mesh algorithms call this. */
static inline const mc_topo_t *tp_grid(const mc_tp_t *t)
{
    return t->topo.kind == MC_TOPO_GRID ? &t->topo : NULL;
}

/* Flag words per cache line, and bytes of payload a flag line can carry. */
static inline int tp_flags_per_line(const mc_tp_t *t)
{
    return (int)(t->line / 8);
}
static inline size_t tp_line_payload(const mc_tp_t *t)
{
    return t->line - 8;
}

/* Flag layout shared by every transport, sized for a communicator of
 * `size` ranks: [0, size) "sent from rank i" and [size, 2 size) "ready
 * from rank i" for the two-sided layer (src/coll/p2p.c), then the
 * algorithms' area of mc_tp_alg_lines(size) whole lines: two banks of
 * `size` lines (line w of each written by rank w), then
 * MC_TP_OWN_LINES lines that the rank owning the area alone writes, then
 * MC_TP_MULTI_LINES lines whose words have several writers, one per
 * word. Which algorithm uses which of these: coll/flags.h allocates
 * them. */
#define MC_TP_OWN_LINES 48
#define MC_TP_MULTI_LINES 16
static inline int mc_tp_alg_lines(int size)
{
    return 2 * size + MC_TP_OWN_LINES + MC_TP_MULTI_LINES;
}
static inline int mc_tp_nflags(int size, size_t line)
{
    int per = (int)(line / 8);
    int p2p_lines = (2 * size + per - 1) / per;
    return (p2p_lines + mc_tp_alg_lines(size)) * per;
}

/* The rank that writes flag idx of rank owner's area, from the layout
 * above: "sent"/"ready" flags name their writer, a line of the two banks
 * of the algorithms' area is written by rank (line mod size), the own
 * lines by their owner, the several-writer lines by one of several (-1).
 * For messages, and for the checks of rule 4 (MC_ASSERT). */
static inline int mc_tp_flag_writer(int size, size_t line, int owner, int idx)
{
    int per = (int)(line / 8);
    int p2p_lines = (2 * size + per - 1) / per;
    if (idx < size)
        return idx;
    if (idx < 2 * size)
        return idx - size;
    int l = idx / per - p2p_lines;
    if (l < 0)
        return -1;
    if (l < 2 * size)
        return l % size;
    return l - 2 * size >= MC_TP_OWN_LINES ? -1 : owner;
}

#endif /* MC_TP_H */
