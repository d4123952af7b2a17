/*
 * Collective test cases: inputs, the scalar reference, buffers, running a
 * case (verification: check_verify.c).
 *
 * Inputs are a hash of (seed, contributor, index), shaped per op so that
 * results are exact in every datatype (small integers for float sums,
 * {1, 2, 0.5, -1} for float products) while integer sums and products do
 * overflow and must wrap. The reference combines contributions in rank
 * order with scalar code that shares nothing with the library's kernels.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/check.h"
#include "oracle/check_impl.h"

static const char *const uop_names[MC_UOP_COUNT] = {"", "user-first",
                                                    "user-last", "user-sum"};

/* ---- user ops ---- */

static void uop_first(const void *in, void *io, size_t n, mc_dtype_t dt)
{
    memcpy(io, in, n * mc_dtype_size(dt)); /* in op io = in */
}

static void uop_last(const void *in, void *io, size_t n, mc_dtype_t dt)
{
    (void)in, (void)io, (void)n, (void)dt; /* in op io = io */
}

static void uop_sum(const void *in, void *io, size_t n, mc_dtype_t dt)
{
    for (size_t i = 0; i < n; i++) {
        switch (dt) {
        case MC_INT32: case MC_UINT32:
            ((uint32_t *)io)[i] += ((const uint32_t *)in)[i];
            break;
        case MC_INT64: case MC_UINT64:
            ((uint64_t *)io)[i] += ((const uint64_t *)in)[i];
            break;
        case MC_FLOAT64:
            ((double *)io)[i] += ((const double *)in)[i];
            break;
        default: abort(); /* mc_case_valid keeps other types away */
        }
    }
}

static mc_op_t uop_handle[MC_UOP_COUNT];
static pthread_once_t uop_once = PTHREAD_ONCE_INIT;

static void make_uops(void)
{
    mc_op_create(uop_first, 0, &uop_handle[MC_UOP_FIRST]);
    mc_op_create(uop_last, 0, &uop_handle[MC_UOP_LAST]);
    mc_op_create(uop_sum, 1, &uop_handle[MC_UOP_SUM]);
}

mc_op_t mc_case_op(const mc_case_t *k)
{
    if (k->uop == MC_UOP_NONE)
        return k->op;
    pthread_once(&uop_once, make_uops);
    return uop_handle[k->uop];
}

int chk_is_float(mc_dtype_t dt)
{
    return dt == MC_FLOAT32 || dt == MC_FLOAT64;
}

static int is_signed(mc_dtype_t dt)
{
    return dt <= MC_INT64;
}

int mc_case_valid(const mc_case_t *k)
{
    if (k->uop == MC_UOP_SUM)
        return k->dt == MC_INT32 || k->dt == MC_UINT32 || k->dt == MC_INT64 ||
               k->dt == MC_UINT64 || k->dt == MC_FLOAT64;
    if (k->uop != MC_UOP_NONE)
        return 1;
    return chk_op_defined(k->op, k->dt);
}
/* ---- scalar values (load and store: check_impl.h, check_types.c) ---- */

/* u brought to the width and sign of integer type dt (built in place:
 * a copy of a partly written chk_num_t stalls store forwarding) */
static chk_num_t chk_norm_int(mc_dtype_t dt, uint64_t u)
{
    switch (dt) {
    case MC_INT8: return (chk_num_t){.i = (int8_t)u};
    case MC_INT16: return (chk_num_t){.i = (int16_t)u};
    case MC_INT32: return (chk_num_t){.i = (int32_t)u};
    case MC_UINT8: return (chk_num_t){.u = (uint8_t)u};
    case MC_UINT16: return (chk_num_t){.u = (uint16_t)u};
    case MC_UINT32: return (chk_num_t){.u = (uint32_t)u};
    default: return (chk_num_t){.u = u};
    }
}

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static int op_class(const mc_case_t *k)
{
    if (!(mc_coll_info(k->coll)->props & MC_COLL_REDUCES))
        return -1;
    return k->uop == MC_UOP_SUM ? MC_SUM : k->uop ? MC_MIN : (int)k->op;
}

/* the input element `idx` of contributor `who` */
chk_num_t chk_gen(const mc_case_t *k, uint64_t who, size_t idx)
{
    /* the per-contributor half of the hash, kept between calls: callers
     * walk one contributor's elements in a row */
    static uint64_t last_key = ~0ULL, last_base;
    uint64_t key = ((uint64_t)k->seed << 40) ^ who;
    if (key != last_key) {
        last_key = key;
        last_base = mix(key);
    }
    uint64_t h = mix(last_base ^ idx);
    int cls = op_class(k);
    if (chk_kind(k->dt) > CHK_FLOAT)
        return chk_gen_wide(k, who, h, cls);
    if (chk_is_float(k->dt)) {
        static const double prod_vals[4] = {1.0, 2.0, 0.5, -1.0};
        if (cls == MC_PROD)
            return (chk_num_t){.f = prod_vals[h % 4]};
        if (cls == MC_SUM)
            return (chk_num_t){.f = (double)(int)(h % 21) - 10.0};
        return (chk_num_t){.f = (double)(int64_t)(h % 200001) - 100000.0};
    }
    uint64_t u = h; /* full width: exercises signed vs unsigned compares */
    if (cls == MC_SUM)
        u = h % 200; /* sums overflow 8-bit types and must wrap */
    else if (cls == MC_PROD)
        u = 1 + h % 3;
    else if (cls == MC_LAND || cls == MC_LOR)
        u = h % 3;
    return chk_norm_int(k->dt, u); /* sign-extends signed types */
}

/* acc = acc op x, as the MPI standard defines it for each type */
static chk_num_t combine(const mc_case_t *k, chk_num_t a, chk_num_t b)
{
    mc_dtype_t dt = k->dt;
    if (k->uop == MC_UOP_FIRST)
        return a;
    if (k->uop == MC_UOP_LAST)
        return b;
    int op = k->uop == MC_UOP_SUM ? MC_SUM : (int)k->op;
    chk_num_t r = {.u = 0};
    if (chk_kind(dt) > CHK_FLOAT)
        return chk_combine_wide(dt, op, a, b);
    if (chk_is_float(dt)) {
        int f32 = dt == MC_FLOAT32;
        switch (op) {
        case MC_SUM: r.f = f32 ? (double)((float)a.f + (float)b.f) : a.f + b.f; break;
        case MC_PROD: r.f = f32 ? (double)((float)a.f * (float)b.f) : a.f * b.f; break;
        case MC_MIN: r.f = b.f < a.f ? b.f : a.f; break;
        default: r.f = b.f > a.f ? b.f : a.f; break;
        }
        return r;
    }
    int sgn = is_signed(dt);
    switch (op) {
    case MC_SUM: r.u = a.u + b.u; break;
    case MC_PROD: r.u = a.u * b.u; break;
    case MC_MIN: r = (sgn ? b.i < a.i : b.u < a.u) ? b : a; break;
    case MC_MAX: r = (sgn ? b.i > a.i : b.u > a.u) ? b : a; break;
    case MC_BAND: r.u = a.u & b.u; break;
    case MC_BOR: r.u = a.u | b.u; break;
    case MC_BXOR: r.u = a.u ^ b.u; break;
    case MC_LAND: r.u = (a.u != 0) && (b.u != 0); break;
    default: r.u = (a.u != 0) || (b.u != 0); break;
    }
    return r;
}

static chk_num_t reduce_one(const mc_case_t *k, int size, size_t idx)
{
    chk_num_t acc = chk_gen(k, 0, idx);
    for (int r = 1; r < size; r++)
        acc = combine(k, acc, chk_gen(k, (uint64_t)r, idx));
    /* bring the result to the type's width (and sign) */
    unsigned char tmp[CHK_ELEM_MAX];
    chk_store(k->dt, tmp, 0, acc);
    return chk_load(k->dt, tmp, 0);
}

/* The expected reduction of one case, computed once: on a simulated chip
 * every core verifies the same case, and recomputing P contributions per
 * element on each of P cores would cost P^2 per element. (Single-threaded
 * use: one process per rank on shm, one thread for all simulated cores.) */
static struct {
    mc_case_t k;
    int size;
    size_t n;
    chk_num_t *v;
} memo;

chk_num_t chk_reduced(const mc_case_t *k, int size, size_t idx)
{
    size_t n = k->coll == MC_COLL_REDUCE_SCATTER_BLOCK
                   ? k->count * (size_t)size
               : k->coll == MC_COLL_REDUCE_SCATTER ? chk_v_total(k, size)
                                                   : k->count;
    /* the root and in-place do not change the result */
    const mc_case_t *m = &memo.k;
    int same_case = m->coll == k->coll && m->count == k->count &&
                    m->dt == k->dt && m->op == k->op && m->uop == k->uop &&
                    m->seed == k->seed;
    if (!memo.v || memo.size != size || memo.n != n || !same_case) {
        free(memo.v);
        memo.v = malloc(n * sizeof(chk_num_t));
        if (!memo.v)
            return reduce_one(k, size, idx);
        for (size_t i = 0; i < n; i++)
            memo.v[i] = reduce_one(k, size, i);
        memo.k = *k;
        memo.size = size;
        memo.n = n;
    }
    return memo.v[idx];
}

/* ---- buffers ---- */

/* element counts of the send and receive buffers */
static void lens(const mc_case_t *k, int size, size_t *s, size_t *r)
{
    size_t n = k->count, pn = n * (size_t)size;
    switch (k->coll) {
    case MC_COLL_BARRIER: *s = 0, *r = 0; break;
    case MC_COLL_BCAST: *s = 0, *r = n; break;
    case MC_COLL_ALLGATHER: case MC_COLL_GATHER: *s = n, *r = pn; break;
    case MC_COLL_ALLTOALL: *s = pn, *r = pn; break;
    case MC_COLL_REDUCE_SCATTER_BLOCK: *s = pn, *r = k->in_place ? pn : n;
        break;
    case MC_COLL_SCATTER: *s = pn, *r = n; break;
    default: *s = n, *r = n; break;
    }
}

size_t mc_case_bytes(const mc_case_t *k, int size)
{
    size_t s, r;
    if (chk_is_v(k->coll)) /* at most count + 1 and a gap per block */
        return (k->count + 2) * (size_t)size * 2 * mc_dtype_size(k->dt);
    lens(k, size, &s, &r);
    return (s + r) * mc_dtype_size(k->dt);
}

static void *guarded(size_t bytes)
{
    /* line-aligned, so a simulated chip's caches (src/sim/cache.c) see the
     * same lines in every run */
    unsigned char *p = aligned_alloc(64, (bytes + GUARD + 63) / 64 * 64);
    if (p)
        memset(p + bytes, GUARD_BYTE, GUARD);
    return p;
}

int mc_case_alloc(const mc_case_t *k, int rank, int size, mc_case_bufs_t *b)
{
    size_t s, r, d = mc_dtype_size(k->dt);
    b->v = NULL;
    if (chk_is_v(k->coll)) {
        b->v = malloc(4 * (size_t)size * sizeof *b->v);
        if (!b->v)
            return MC_ERR_NOMEM;
        chk_v_lens(k, rank, size, b, &s, &r);
    } else {
        lens(k, size, &s, &r);
    }
    b->slen = s * d;
    b->rlen = r * d;
    b->arrivals = NULL;
    b->sbuf = guarded(b->slen);
    b->rbuf = guarded(b->rlen);
    if (!b->sbuf || !b->rbuf) {
        mc_case_free(b);
        return MC_ERR_NOMEM;
    }
    return MC_OK;
}

void mc_case_free(mc_case_bufs_t *b)
{
    free(b->sbuf);
    free(b->rbuf);
    free(b->v);
    b->sbuf = b->rbuf = NULL;
    b->v = NULL;
}

static void fill(const mc_case_t *k, void *p, uint64_t who, size_t from,
                 size_t n, size_t at)
{
    for (size_t i = 0; i < n; i++)
        chk_store(k->dt, p, at + i, chk_gen(k, who, from + i));
}

/* contributor ids of alltoall blocks and of the scatter root's input */
uint64_t chk_a2a_who(int src, int dst, int size)
{
    return 1000u + (uint64_t)src * (uint64_t)size + (uint64_t)dst;
}
uint64_t chk_scatter_who(int root) { return 5000000u + (uint64_t)root; }

/* Element i of the send buffer as mc_case_fill leaves it: 1 and its value,
 * or 0 where the buffer holds poison (not significant on this rank). The
 * one description of the send buffer, for filling it and for checking
 * after the call that it is unchanged. */
int chk_send_elem(const mc_case_t *k, int rank, int size, size_t i,
                  chk_num_t *v)
{
    size_t n = k->count;
    int root = rank == k->root;
    switch (k->coll) {
    case MC_COLL_REDUCE: case MC_COLL_ALLREDUCE: case MC_COLL_ALLGATHER:
    case MC_COLL_GATHER: case MC_COLL_SCAN: case MC_COLL_EXSCAN:
        /* in place, the input is in rbuf; the send buffer is filled all
         * the same (and must stay so) */
        *v = chk_gen(k, (uint64_t)rank, i);
        return 1;
    case MC_COLL_ALLTOALL:
        if (k->in_place)
            return 0;
        *v = chk_gen(k, chk_a2a_who(rank, (int)(i / n), size), i % n);
        return 1;
    case MC_COLL_REDUCE_SCATTER_BLOCK:
        if (k->in_place)
            return 0;
        *v = chk_gen(k, (uint64_t)rank, i);
        return 1;
    case MC_COLL_SCATTER:
        if (!root)
            return 0;
        *v = chk_gen(k, chk_scatter_who(rank), i);
        return 1;
    default: return 0;
    }
}

static void fill_send(const mc_case_t *k, int rank, int size,
                      mc_case_bufs_t *b)
{
    size_t d = mc_dtype_size(k->dt);
    chk_num_t v;
    for (size_t i = 0; i < b->slen / d; i++) {
        if (chk_send_elem(k, rank, size, i, &v))
            chk_store(k->dt, b->sbuf, i, v);
        else
            memset((unsigned char *)b->sbuf + i * d, POISON_BYTE, d);
    }
}

void mc_case_fill(const mc_case_t *k, int rank, int size, mc_case_bufs_t *b)
{
    size_t n = k->count;
    if (chk_is_v(k->coll)) {
        chk_v_fill(k, rank, size, b);
        return;
    }
    fill_send(k, rank, size, b);
    memset(b->rbuf, POISON_BYTE, b->rlen);
    int root = rank == k->root;
    switch (k->coll) {
    case MC_COLL_BCAST:
        if (root)
            fill(k, b->rbuf, (uint64_t)rank, 0, n, 0);
        break;
    case MC_COLL_REDUCE: case MC_COLL_ALLREDUCE: case MC_COLL_SCAN:
    case MC_COLL_EXSCAN:
        if (k->in_place && (root || k->coll != MC_COLL_REDUCE))
            fill(k, b->rbuf, (uint64_t)rank, 0, n, 0);
        break;
    case MC_COLL_ALLGATHER: case MC_COLL_GATHER:
        if (k->in_place && (root || k->coll == MC_COLL_ALLGATHER))
            fill(k, b->rbuf, (uint64_t)rank, 0, n, (size_t)rank * n);
        break;
    case MC_COLL_ALLTOALL:
        if (k->in_place)
            for (int d = 0; d < size; d++)
                fill(k, b->rbuf, chk_a2a_who(rank, d, size), 0, n,
                     (size_t)d * n);
        break;
    case MC_COLL_REDUCE_SCATTER_BLOCK:
        if (k->in_place)
            fill(k, b->rbuf, (uint64_t)rank, 0, n * (size_t)size, 0);
        break;
    default: break;
    }
}

/* the call of case k in its form (check.h) */
#define CALL(name, ...)                                                      \
    (k->form == MC_FORM_NONBLOCKING ? mc_i##name(__VA_ARGS__, req)           \
     : k->form == MC_FORM_PERSISTENT ? mc_##name##_init(__VA_ARGS__, req)    \
                                     : mc_##name(__VA_ARGS__))

void chk_call_bufs(const mc_case_t *k, int rank, const mc_case_bufs_t *b,
                   const void **s, void **r)
{
    /* where MC_IN_PLACE goes is the collectives' table's to say: a wrong
     * row makes the API refuse these calls */
    mc_in_place_t ip = k->in_place ? mc_coll_info(k->coll)->in_place
                                   : MC_IN_PLACE_NONE;
    int root = rank == k->root;
    *s = ip == MC_IN_PLACE_SEND || (root && ip == MC_IN_PLACE_ROOT_SEND)
             ? MC_IN_PLACE
             : b->sbuf;
    *r = root && ip == MC_IN_PLACE_ROOT_RECV ? MC_IN_PLACE : b->rbuf;
}

int mc_case_call(mc_comm_t *c, const mc_case_t *k, mc_case_bufs_t *b,
                 mc_request_t **req)
{
    const void *s;
    void *r;
    chk_call_bufs(k, mc_comm_rank(c), b, &s, &r);
    mc_op_t op = mc_case_op(k);
    size_t n = k->count;
    if (chk_is_v(k->coll))
        return chk_v_call(c, k, b, op, req);
    switch (k->coll) {
    case MC_COLL_BARRIER: return CALL(barrier, c);
    case MC_COLL_BCAST: return CALL(bcast, c, r, n, k->dt, k->root);
    case MC_COLL_REDUCE:
        return CALL(reduce, c, s, r, n, k->dt, op, k->root);
    case MC_COLL_ALLREDUCE: return CALL(allreduce, c, s, r, n, k->dt, op);
    case MC_COLL_ALLGATHER: return CALL(allgather, c, s, r, n, k->dt);
    case MC_COLL_ALLTOALL: return CALL(alltoall, c, s, r, n, k->dt);
    case MC_COLL_REDUCE_SCATTER_BLOCK:
        return CALL(reduce_scatter_block, c, s, r, n, k->dt, op);
    case MC_COLL_GATHER: return CALL(gather, c, s, r, n, k->dt, k->root);
    case MC_COLL_SCATTER: return CALL(scatter, c, s, r, n, k->dt, k->root);
    case MC_COLL_SCAN: return CALL(scan, c, s, r, n, k->dt, op);
    case MC_COLL_EXSCAN: return CALL(exscan, c, s, r, n, k->dt, op);
    default: return MC_ERR_ARG;
    }
}

/* waits for req (even seeds), or tests it once and then waits (odd) */
static int finish_req(const mc_case_t *k, mc_request_t *req)
{
    int done = 0, rc = MC_OK;
    if (k->seed % 2) /* a test first (on a simulated chip a loop of tests
                        would simulate every poll: test_nbc has those) */
        rc = mc_test(req, &done);
    return rc != MC_OK || done ? rc : mc_wait(req);
}

/* completes a started case (see mc_form_t) */
static int complete_case(const mc_case_t *k, mc_request_t *req)
{
    int rc = MC_OK;
    if (k->form == MC_FORM_PERSISTENT) {
        /* started again on a quarter of the small calls (in place would
         * reduce its own result; every call twice would cost the
         * simulated walks a third more calls) */
        int starts = k->in_place || k->count > 64 || k->seed % 4 ? 1 : 2;
        for (int i = 0; i < starts && rc == MC_OK; i++) {
            rc = mc_start(req);
            if (rc == MC_OK)
                rc = finish_req(k, req);
        }
        int rc_free = mc_request_free(&req);
        return rc != MC_OK ? rc : rc_free;
    }
    return finish_req(k, req);
}

int mc_case_run(mc_comm_t *c, const mc_case_t *k, mc_case_bufs_t *b)
{
    mc_request_t *req = NULL;
    mc_arrivals_t *a = k->coll == MC_COLL_BARRIER ? b->arrivals : NULL;
    if (a)
        mc_arrivals_enter(a);
    int rc = mc_case_call(c, k, b, &req);
    if (rc == MC_OK && k->form != MC_FORM_BLOCKING)
        rc = complete_case(k, req);
    if (a)
        mc_arrivals_exit(a);
    return rc;
}

void mc_case_describe(const mc_case_t *k, char *buf, size_t len)
{
    int red = op_class(k) >= 0;
    static const char *const forms[] = {"", " non-blocking", " persistent"};
    snprintf(buf, len, "%s%s count=%zu %s%s%s root=%d%s seed=%u",
             mc_coll_name(k->coll), forms[k->form % MC_FORM_COUNT], k->count,
             mc_dtype_name(k->dt),
             red ? " " : "",
             red ? (k->uop ? uop_names[k->uop] : mc_op_name(k->op)) : "",
             k->root, k->in_place ? " in-place" : "", k->seed);
}

