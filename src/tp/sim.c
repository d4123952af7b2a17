/*
 * Simulator transport: the same interface as shm.c, for the cores of a
 * simulated chip. Each operation is described to the engine as a number
 * of cache lines and the accesses each line makes (which MPB, or private
 * memory, read or written); the engine charges the platform's cost and
 * suspends the core until the operation completes; then the data really
 * moves (simulated MPBs are memory of the simulator, private memory is the
 * program's), so results can be checked at any scale.
 *
 *   operation     fixed overhead   accesses per line
 *   put           o_put_mem        read memory, write MPB[dst]
 *   put_mpb       o_put_mpb        read my MPB, write MPB[dst]
 *   get           o_get_mem        read MPB[src], write memory
 *   get_mpb       o_get_mpb        read MPB[src], write my MPB
 *   get_reduce    o_get_mem        read MPB[src], read memory, write memory
 *   get_reduce_mpb o_get_mpb       read MPB[src], read memory, write my MPB
 *   copy          -                read memory, write memory
 *   reduce        -                read memory twice, write memory
 *   flag set      -                write one line of MPB[owner] (lands at
 *                                  its latency, wakes waiters)
 *   flag wait     -                read one line of MPB[owner] (when set)
 * Reductions also pay o_reduce_elem per element. `charge` keeps the core
 * busy for n times one of the platform's software costs (o_call, ...);
 * a cost of 0 charges nothing, not even an event.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/ops.h"
#include "sim/domain.h"
#include "sim/engine.h"
#include "sim/host_task.h"
#include "sim/grid.h"
#include "tp/fused.h"
#include "tp/sim.h"
#include "tp/sim_impl.h"
#include "util/error.h"

static const mc_tp_ops_t sim_ops;

static uint64_t *flag(sim_tp_t *t, int rank, int idx)
{
    return mc_sim_flag_word(t->dom, rank, idx);
}

static int core_of(sim_tp_t *t, int rank) { return t->dom->cores[rank]; }

static int check_mpb(sim_tp_t *t, int rank, size_t off, size_t n,
                     const char *what)
{
    if (off + n <= t->base.mpb_size && rank >= 0 && rank < t->base.size)
        return MC_OK;
    return mc_error(MC_ERR_INTERNAL,
                    "%s by rank %d: %zu bytes at offset %zu of the MPB of "
                    "rank %d, which has %zu bytes",
                    what, t->base.rank, n, off, rank, t->base.mpb_size);
}

/* runs an operation of n bytes with the given per-line accesses */
static int run(sim_tp_t *t, const char *name, mc_ps_t fixed, size_t n,
               int64_t elems, int nacc, const mc_sim_acc_t *acc)
{
    mc_sim_op_t op = {.name = name, .fixed = fixed, .nacc = nacc,
                      .elems = elems};
    size_t line = t->base.line;
    op.lines = (int64_t)((n + line - 1) / line);
    for (int i = 0; i < nacc; i++)
        op.acc[i] = acc[i];
    return mc_sim_do(t->sim, &op);
}

/* a private-memory access of core c at address p (the caches' key) */
#define MEM_R(c, p) {MC_ACC_MEM, 0, c, NULL, (uintptr_t)(p)}
#define MEM_W(c, p) {MC_ACC_MEM, 1, c, NULL, (uintptr_t)(p)}
/* an MPB access of `rank` at byte `off` (the line states of a coherent
 * chip are found from the rank and offset; the offset finds the host's
 * copy of a multi-chip platform, sim/host_task.c) */
#define MPB_R(rank, off)                                                     \
    {MC_ACC_MPB, 0, core_of(t, rank), st_of(t, rank, off), (uintptr_t)(off)}
#define MPB_W(rank, off)                                                     \
    {MC_ACC_MPB, 1, core_of(t, rank), st_of(t, rank, off), (uintptr_t)(off)}

static mc_cc_line_t *st_of(sim_tp_t *t, int rank, size_t off)
{
    return mc_sim_cc_mpb(t->sim, t->dom, rank, off);
}

static int sim_put(mc_tp_t *tp, int dst, size_t off, const void *src,
                   size_t n)
{
    sim_tp_t *t = st(tp);
    if (!n)
        return MC_OK;
    MC_CHECK(check_mpb(t, dst, off, n, "put"));
    mc_sim_acc_t a[2] = {MEM_R(t->core, src), MPB_W(dst, off)};
    MC_CHECK(run(t, "put", mc_sim_platform(t->sim)->c.o_put_mem, n, 0, 2, a));
    mc_sim_mpb_write(t->dom, dst, off, src, n);
    return MC_OK;
}

static int sim_put_mpb(mc_tp_t *tp, int dst, size_t off, size_t my_off,
                       size_t n)
{
    sim_tp_t *t = st(tp);
    if (!n)
        return MC_OK;
    MC_CHECK(check_mpb(t, dst, off, n, "put_mpb"));
    MC_CHECK(check_mpb(t, tp->rank, my_off, n, "put_mpb"));
    mc_sim_acc_t a[2] = {MPB_R(tp->rank, my_off), MPB_W(dst, off)};
    MC_CHECK(run(t, "put", mc_sim_platform(t->sim)->c.o_put_mpb, n, 0, 2, a));
    mc_sim_mpb_move(t->dom, dst, off, tp->rank, my_off, n);
    return MC_OK;
}

static int sim_get(mc_tp_t *tp, void *dst, int src, size_t off, size_t n)
{
    sim_tp_t *t = st(tp);
    if (!n)
        return MC_OK;
    MC_CHECK(check_mpb(t, src, off, n, "get"));
    mc_sim_acc_t a[2] = {MPB_R(src, off), MEM_W(t->core, dst)};
    MC_CHECK(run(t, "get", mc_sim_platform(t->sim)->c.o_get_mem, n, 0, 2, a));
    mc_sim_mpb_read(t->dom, src, off, dst, n);
    return MC_OK;
}

static int sim_get_mpb(mc_tp_t *tp, size_t my_off, int src, size_t off,
                       size_t n)
{
    sim_tp_t *t = st(tp);
    if (!n)
        return MC_OK;
    MC_CHECK(check_mpb(t, src, off, n, "get_mpb"));
    MC_CHECK(check_mpb(t, tp->rank, my_off, n, "get_mpb"));
    mc_sim_acc_t a[2] = {MPB_R(src, off), MPB_W(tp->rank, my_off)};
    MC_CHECK(run(t, "get", mc_sim_platform(t->sim)->c.o_get_mpb, n, 0, 2, a));
    mc_sim_mpb_move(t->dom, tp->rank, my_off, src, off, n);
    return MC_OK;
}

static int sim_get_reduce(mc_tp_t *tp, void *inout, int src, size_t off,
                          size_t count, mc_dtype_t dt, mc_op_t op,
                          int src_left)
{
    sim_tp_t *t = st(tp);
    size_t n = count * mc_dtype_size(dt);
    if (!n)
        return MC_OK;
    MC_CHECK(check_mpb(t, src, off, n, "get_reduce"));
    mc_sim_acc_t a[3] = {MPB_R(src, off), MEM_R(t->core, inout),
                         MEM_W(t->core, inout)};
    MC_CHECK(run(t, "get_reduce", mc_sim_platform(t->sim)->c.o_get_mem, n,
                 (int64_t)count, 3, a));
    unsigned char *theirs = mc_sim_mpb_scratch(t->dom, 0);
    mc_sim_mpb_read(t->dom, src, off, theirs, n);
    mc_reduce_into(inout, theirs, count, dt, op, src_left);
    return MC_OK;
}

static int sim_get_reduce_mpb(mc_tp_t *tp, size_t my_off, int src,
                              size_t off, const void *in, size_t count,
                              mc_dtype_t dt, mc_op_t op, int src_left)
{
    sim_tp_t *t = st(tp);
    size_t n = count * mc_dtype_size(dt);
    if (!n)
        return MC_OK;
    MC_CHECK(check_mpb(t, src, off, n, "get_reduce_mpb"));
    MC_CHECK(check_mpb(t, tp->rank, my_off, n, "get_reduce_mpb"));
    mc_sim_acc_t a[3] = {MPB_R(src, off), MEM_R(t->core, in),
                         MPB_W(tp->rank, my_off)};
    MC_CHECK(run(t, "get_reduce_mpb", mc_sim_platform(t->sim)->c.o_get_mpb, n,
                 (int64_t)count, 3, a));
    /* as if in were copied to my range and then src's range read (the
     * two ranges may overlap) */
    unsigned char *mine = mc_sim_mpb_scratch(t->dom, 0),
                  *theirs = mc_sim_mpb_scratch(t->dom, 1);
    memmove(mine, in, n);
    mc_sim_mpb_write(t->dom, tp->rank, my_off, in, n);
    mc_sim_mpb_read(t->dom, src, off, theirs, n);
    mc_reduce_into(mine, theirs, count, dt, op, src_left);
    mc_sim_mpb_write(t->dom, tp->rank, my_off, mine, n);
    return MC_OK;
}

static int sim_charge(mc_tp_t *tp, int kind, uint64_t n)
{
    static const char *const names[MC_CHARGE_COUNT] = {
        "o_call", "o_req_ircce", "o_req_light", "compute"};
    sim_tp_t *t = st(tp);
    if (kind < 0 || kind >= MC_CHARGE_COUNT)
        return mc_error(MC_ERR_INTERNAL, "charge: unknown kind %d", kind);
    mc_ps_t per = mc_sim_platform(t->sim)->c.o_charge[kind];
    if (per <= 0 || n == 0)
        return MC_OK;
    mc_sim_op_t op = {.name = names[kind], .fixed = per * (mc_ps_t)n};
    return mc_sim_do(t->sim, &op);
}

static int sim_copy(mc_tp_t *tp, void *dst, const void *src, size_t n)
{
    sim_tp_t *t = st(tp);
    if (!n || dst == src)
        return MC_OK;
    mc_sim_acc_t a[2] = {MEM_R(t->core, src), MEM_W(t->core, dst)};
    MC_CHECK(run(t, "copy", 0, n, 0, 2, a));
    memmove(dst, src, n);
    return MC_OK;
}

static int sim_reduce(mc_tp_t *tp, void *inout, const void *in, size_t count,
                      mc_dtype_t dt, mc_op_t op, int in_left)
{
    sim_tp_t *t = st(tp);
    size_t n = count * mc_dtype_size(dt);
    if (!n)
        return MC_OK;
    mc_sim_acc_t a[3] = {MEM_R(t->core, in), MEM_R(t->core, inout),
                         MEM_W(t->core, inout)};
    MC_CHECK(run(t, "reduce", 0, n, (int64_t)count, 3, a));
    mc_reduce_into(inout, in, count, dt, op, in_left);
    return MC_OK;
}

/* Flags only grow (tp.h): a write is at least the flag's value now (a
 * write of the same core still in flight in simulated time is smaller
 * still). Read straight from memory: no simulated cost. */
#define ASSERT_GROWS(w, v)                                                   \
    MC_ASSERT(*(w) <= (v), "a flag goes down from %llu to %llu",            \
              (unsigned long long)*(w), (unsigned long long)(v))

static void sim_flag_set(mc_tp_t *tp, int rank, int idx, uint64_t v)
{
    sim_tp_t *t = st(tp);
    uint64_t *w = flag(t, rank, idx);
    ASSERT_GROWS(w, v);
    mc_sim_flag_write(t->sim, w, core_of(t, rank), v, NULL, 0);
}

static uint64_t sim_flag_read(mc_tp_t *tp, int rank, int idx)
{
    sim_tp_t *t = st(tp);
    return mc_sim_flag_read(t->sim, flag(t, rank, idx), core_of(t, rank));
}

/* In a non-blocking collective's coroutine: yields to its test or wait
 * until the flag is there (tp.h). 1 if it yielded: the wait or poll that
 * found the flag outside has paid for seeing it; 0: wait (and pay) as
 * usual. */
static int nb_wait(mc_tp_t *tp, int rank, int idx, uint64_t v)
{
    const uint64_t *f = flag(st(tp), rank, idx);
    int yielded = 0;
    while (*f < v && tp_wait_yield(tp, rank, idx, v))
        yielded = 1;
    return yielded && *f >= v;
}

/* a progress loop with several collectives: one poll of its own flags */
static int sim_idle(mc_tp_t *tp)
{
    (void)sim_flag_read(tp, tp->rank, 0);
    return MC_OK;
}

static int sim_flag_wait(mc_tp_t *tp, int rank, int idx, uint64_t v)
{
    sim_tp_t *t = st(tp);
    if (nb_wait(tp, rank, idx, v))
        return MC_OK;
    return mc_sim_flag_wait(t->sim, flag(t, rank, idx), core_of(t, rank), v,
                            NULL, 0);
}

static int sim_flag_set_wait(mc_tp_t *tp, int rank, int idx, uint64_t v,
                             int wrank, int widx, uint64_t wv)
{
    sim_tp_t *t = st(tp);
    if (tp_nb_call()) { /* a non-blocking collective: it may yield */
        sim_flag_set(tp, rank, idx, v);
        return sim_flag_wait(tp, wrank, widx, wv);
    }
    uint64_t *w = flag(t, rank, idx);
    ASSERT_GROWS(w, v);
    return mc_sim_flag_write_wait(t->sim, w, core_of(t, rank), v,
                                  flag(t, wrank, widx), core_of(t, wrank),
                                  wv);
}

/* what the engine keeps of a tp_flag_rounds call (MC_SIM_ROUND_CTX) */
typedef struct sim_rounds {
    mc_sim_domain_t *dom;
    mc_tp_round_fn fn;
    uint64_t ctx[MC_TP_ROUND_CTX / 8];
} sim_rounds_t;

/* the engine's round r: the algorithm's, with the flags' addresses */
static void sim_round(const void *arg, int r, mc_sim_round_t *out)
{
    const sim_rounds_t *x = arg;
    mc_tp_round_t rd;
    x->fn(x->ctx, r, &rd);
    *out = (mc_sim_round_t){.addr = mc_sim_flag_word(x->dom, rd.rank, rd.idx),
                            .owner = x->dom->cores[rd.rank],
                            .v = rd.v,
                            .waddr = mc_sim_flag_word(x->dom, rd.wrank,
                                                      rd.widx),
                            .wowner = x->dom->cores[rd.wrank],
                            .wv = rd.wv};
}

static int sim_flag_rounds(mc_tp_t *tp, int n, mc_tp_round_fn fn,
                           const void *ctx, size_t size)
{
    sim_tp_t *t = st(tp);
    if (tp_nb_call() || size > MC_TP_ROUND_CTX) /* one by one */
        return tp_flag_rounds_each(tp, n, fn, ctx);
    sim_rounds_t x = {.dom = t->dom, .fn = fn};
    memcpy(x.ctx, ctx, size);
    _Static_assert(sizeof x <= MC_SIM_ROUND_CTX, "round context");
    return mc_sim_flag_rounds(t->sim, n, sim_round, &x, sizeof x);
}

static void sim_line_set(mc_tp_t *tp, int rank, int idx, uint64_t v,
                         const void *payload, size_t n)
{
    sim_tp_t *t = st(tp);
    uint64_t *w = flag(t, rank, idx);
    ASSERT_GROWS(w, v);
    mc_sim_flag_write(t->sim, w, core_of(t, rank), v, payload, n);
}

static int sim_line_wait(mc_tp_t *tp, int rank, int idx, uint64_t v,
                         void *out, size_t n)
{
    sim_tp_t *t = st(tp);
    const mc_platform_t *p = mc_sim_platform(t->sim);
    if (nb_wait(tp, rank, idx, v)) {
        if (n)
            memcpy(out, flag(t, rank, idx) + 1, n);
    } else {
        MC_CHECK(mc_sim_flag_wait(t->sim, flag(t, rank, idx),
                                  core_of(t, rank), v, out, n));
    }
    /* a message network: a line with a payload is a message received */
    return n && p->net.on ? mc_sim_busy(t->sim, "recv", p->net.o_recv) : MC_OK;
}

static int sim_line_wait_reduce(mc_tp_t *tp, int rank, int idx, uint64_t v,
                                size_t off, void *inout, size_t count,
                                mc_dtype_t dt, mc_op_t op, int in_left)
{
    unsigned char line[256];
    size_t n = count * mc_dtype_size(dt);
    if (off + n > sizeof line)
        return mc_error(MC_ERR_INTERNAL, "line_wait_reduce: %zu bytes at "
                                         "%zu do not fit a line", n, off);
    MC_CHECK(sim_line_wait(tp, rank, idx, v, line, off + n));
    return sim_reduce(tp, inout, line + off, count, dt, op, in_left);
}

static int spans_chips(const mc_platform_t *p, const mc_sim_domain_t *d)
{
    for (int i = 1; i < d->n && p->host.nchips > 1; i++)
        if (mc_plat_chip(p, d->cores[i]) != mc_plat_chip(p, d->cores[0]))
            return 1;
    return 0;
}

static int make(mc_sim_t *sim, mc_sim_domain_t *dom, int rank, mc_tp_t **out)
{
    const mc_platform_t *p = mc_sim_platform(sim);
    sim_tp_t *t = calloc(1, sizeof *t);
    if (!t)
        return mc_error(MC_ERR_NOMEM, "simulator: out of memory for the "
                        "transport of rank %d (%zu bytes)", rank, sizeof *t);
    t->base.ops = &sim_ops;
    t->base.rank = rank;
    t->base.size = dom->n;
    t->base.mpb_size = p->mpb_bytes;
    t->base.line = (size_t)p->line;
    t->base.nflags = dom->nflags;
    /* a coherent chip (xeonphi60, a calibrated machine) selects as a
     * real coherent machine does: the coherent rules, fast-path slots */
    t->base.cache_coherent = p->cc;
    t->base.p2p_chunk_hint = p->p2p_chunk;
    if (!dom->span_state) /* once per communicator: several chips? */
        dom->span_state = spans_chips(p, dom) ? 1 : -1;
    t->base.host_link = dom->span_state > 0;
    t->base.dma_min = p->host.vdma_threshold;
    t->sim = sim;
    t->dom = dom;
    t->core = dom->cores[rank];
    t->base.share = dom->uid; /* the cores of a domain select alike */
    if (!dom->grid_state) /* once per communicator, not per rank */
        dom->grid_state =
            mc_plat_grid_of(p, dom->cores, dom->n, &dom->grid) ? 1 : -1;
    const mc_plat_grid_t *g = &dom->grid;
    if (dom->grid_state > 0)
        t->base.topo = (mc_topo_t){.kind = MC_TOPO_GRID, .w = g->w,
                                   .h = g->h, .cpt = g->cpt, .x0 = g->x0,
                                   .y0 = g->y0};
    t->base.mcast = dom->grid_state > 0 && g->cpt == 1 && p->net.on &&
                    p->net.sn_hop > 0;
    *out = &t->base;
    return MC_OK;
}

static int sim_sub(mc_tp_t *tp, const int *members, int n, int myrank,
                   uint64_t id, mc_tp_t **out)
{
    sim_tp_t *t = st(tp);
    int *cores = malloc(sizeof(int) * (size_t)n);
    if (!cores)
        return mc_error(MC_ERR_NOMEM, "simulator: out of memory for the "
                        "cores of a sub-communicator of %d ranks (%zu "
                        "bytes)", n, sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        cores[i] = core_of(t, members[i]);
    mc_sim_domain_t *dom;
    int rc = mc_sim_tp_domain(t->sim, t->dom, id, cores, n, &dom);
    free(cores);
    return rc == MC_OK ? make(t->sim, dom, myrank, out) : rc;
}

/* private: the transport; shared: the domain's flag words (dense, or
 * those used) per rank (its MPBs are the chip's, mpb_size per rank) */
static size_t sim_footprint(const mc_tp_t *tp, size_t *shared)
{
    const sim_tp_t *t = (const sim_tp_t *)tp;
    const mc_sim_domain_t *d = t->dom;
    size_t flags = d->flags ? (size_t)d->n * (size_t)d->nflags * 8
                            : mc_sim_flagmap_bytes(d->fmap);
    *shared = flags / (size_t)d->n;
    return sizeof *t;
}

static int sim_locality(mc_tp_t *tp, int rank)
{
    const mc_platform_t *p = mc_sim_platform(st(tp)->sim);
    int a = st(tp)->core, b = core_of(st(tp), rank);
    if (a == b)
        return MC_LOC_SELF;
    if (mc_plat_remote(p, a, b))
        return MC_LOC_OTHER;
    return p->tile_x[a] == p->tile_x[b] && p->tile_y[a] == p->tile_y[b]
               ? MC_LOC_TILE
               : MC_LOC_CHIP;
}

/* the host task's virtual DMA to a core of another chip; a copy by the
 * caller (put_mpb) elsewhere */
static int sim_dma(mc_tp_t *tp, int dst, size_t dst_off, size_t my_off,
                   size_t n, int idx, uint64_t v, int done_idx,
                   uint64_t done_v)
{
    sim_tp_t *t = st(tp);
    if (!mc_sim_host_task(t->sim) || sim_locality(tp, dst) != MC_LOC_OTHER)
        return tp_dma_copy(tp, dst, dst_off, my_off, n, idx, v, done_idx,
                           done_v);
    MC_CHECK(check_mpb(t, dst, dst_off, n, "dma"));
    MC_CHECK(check_mpb(t, tp->rank, my_off, n, "dma"));
    /* the bytes move now; the flags say when they may be read (the
     * protocol keeps both ranges untouched until then) */
    mc_sim_mpb_move(t->dom, dst, dst_off, tp->rank, my_off, n);
    int64_t lines = (int64_t)((n + tp->line - 1) / tp->line);
    return mc_sim_host_dma(t->sim, core_of(t, dst), lines, flag(t, dst, idx),
                           v, flag(t, tp->rank, done_idx), done_v);
}

/* a hint to the host task about my MPB range (none without a task) */
static int host_hint(mc_tp_t *tp, size_t off, size_t n, int drop)
{
    sim_tp_t *t = st(tp);
    if (!mc_sim_host_task(t->sim) || !n)
        return MC_OK;
    MC_CHECK(check_mpb(t, tp->rank, off, n,
                       drop ? "invalidate" : "prefetch"));
    return drop ? mc_sim_host_invalidate(t->sim, off, n)
                : mc_sim_host_prefetch(t->sim, off, n);
}

static int sim_prefetch(mc_tp_t *tp, size_t off, size_t n)
{
    return host_hint(tp, off, n, 0);
}

static int sim_invalidate(mc_tp_t *tp, size_t off, size_t n)
{
    return host_hint(tp, off, n, 1);
}

static void sim_destroy(mc_tp_t *tp)
{
    free(tp); /* the domain's memory belongs to the simulator */
}

static const mc_tp_ops_t sim_ops = {
    .name = "sim",
    .put = sim_put, .put_mpb = sim_put_mpb, .get = sim_get,
    .get_mpb = sim_get_mpb, .get_reduce = sim_get_reduce,
    .get_reduce_mpb = sim_get_reduce_mpb, .charge = sim_charge,
    .copy = sim_copy, .reduce = sim_reduce, .flag_set = sim_flag_set,
    .flag_read = sim_flag_read, .flag_wait = sim_flag_wait,
    .line_set = sim_line_set, .line_wait = sim_line_wait,
    .line_wait_reduce = sim_line_wait_reduce, .mcast = mc_sim_tp_mcast,
    .sub = sim_sub, .footprint = sim_footprint, .idle = sim_idle,
    .locality = sim_locality, .dma = sim_dma, .prefetch = sim_prefetch,
    .invalidate = sim_invalidate, .destroy = sim_destroy,
};

/* the extension of tp/fused.h: a set and its wait, and rounds of them,
 * without switching back to the core in between */
static const mc_tp_fused_t sim_fused = {
    .set_wait = sim_flag_set_wait,
    .rounds = sim_flag_rounds,
};

const mc_tp_fused_t *mc_tp_fused(const mc_tp_t *t)
{
    return t->ops == &sim_ops ? &sim_fused : NULL;
}

int mc_sim_tp_domain(mc_sim_t *sim, mc_sim_domain_t *parent, uint64_t key,
                     const int *cores, int n, mc_sim_domain_t **out)
{
    int line = mc_sim_platform(sim)->line;
    return mc_sim_domain(sim, parent, key, cores, n,
                         mc_tp_nflags(n, (size_t)line), out);
}

int mc_sim_tp_create(mc_sim_t *sim, mc_sim_domain_t *dom, int rank,
                     mc_tp_t **out)
{
    return make(sim, dom, rank, out);
}
