/*
 * Test cases of the v-variants (allgatherv, alltoallv, gatherv, scatterv,
 * reduce_scatter): the per-rank counts and displacements, the buffers,
 * the inputs, the call and the verification.
 *
 * Counts vary by rank (and by pair for alltoallv; symmetric there, as an
 * in-place alltoallv needs) among 0, count + 1, count, count - 1 and
 * count - 2, so cases have empty blocks and uneven ones of the case's
 * size. Receive blocks are laid out in rank
 * order with one element of gap after each, send blocks (alltoallv,
 * scatterv) in reverse rank order with a gap, so a displacement that is
 * ignored or taken as a prefix sum shows; gaps must keep their poison.
 * Blocks are walked whole (never element by element over all ranks), so
 * a case costs what its buffers hold, also at 1,024 simulated ranks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/check.h"
#include "oracle/check_impl.h"

int chk_is_v(mc_coll_t coll)
{
    return (mc_coll_info(coll)->props & MC_COLL_VECTOR) != 0;
}

/* one of 0, count + 1, count, count - 1, count - 2 (never below 0) by a
 * key mixed from the ranks and the seed */
static size_t pick(size_t count, size_t key)
{
    size_t j = key % 5;
    if (j == 0)
        return 0;
    if (j == 1)
        return count + 1;
    return count >= j - 2 ? count - (j - 2) : count;
}

/* elements from rank s to rank d */
static size_t cnt(const mc_case_t *k, int s, int d)
{
    size_t seed = k->seed;
    switch (k->coll) {
    case MC_COLL_ALLGATHERV: case MC_COLL_GATHERV:
        return pick(k->count, 3 * (size_t)s + seed);
    case MC_COLL_ALLTOALLV: {
        size_t lo = (size_t)(s < d ? s : d), hi = (size_t)(s < d ? d : s);
        return pick(k->count, 7 * lo + 3 * hi + seed);
    }
    default: /* scatterv, reduce_scatter: by receiver */
        return pick(k->count, 3 * (size_t)d + seed);
    }
}

/* this rank's four arrays: counts it sends to / receives from each rank
 * and their displacements */
typedef struct { size_t *sc, *sd, *rc, *rd; } layout_t;

static layout_t layout(const mc_case_bufs_t *b, int size)
{
    size_t n = (size_t)size;
    return (layout_t){b->v, b->v + n, b->v + 2 * n, b->v + 3 * n};
}

/* fills the arrays; returns the send and receive extents (elements) */
static void make_layout(const mc_case_t *k, int rank, int size, layout_t l,
                        size_t *s_ext, size_t *r_ext)
{
    size_t at = 0;
    for (int q = 0; q < size; q++) { /* receive: rank order, gaps */
        l.rc[q] = k->coll == MC_COLL_ALLTOALLV ? cnt(k, q, rank)
                                               : cnt(k, q, q);
        l.rd[q] = at;
        at += l.rc[q] + 1;
    }
    *r_ext = at;
    at = 0;
    for (int q = size - 1; q >= 0; q--) { /* send: reverse order, gaps */
        l.sc[q] = k->coll == MC_COLL_ALLTOALLV ? cnt(k, rank, q)
                                               : cnt(k, q, q);
        l.sd[q] = at;
        at += l.sc[q] + 1;
    }
    *s_ext = at;
}

static size_t total(const layout_t *l, int size)
{
    size_t t = 0;
    for (int q = 0; q < size; q++)
        t += l->rc[q];
    return t;
}

size_t chk_v_total(const mc_case_t *k, int size)
{
    size_t t = 0;
    for (int q = 0; q < size; q++)
        t += cnt(k, q, q);
    return t;
}

/* element counts of the send and receive buffers */
void chk_v_lens(const mc_case_t *k, int rank, int size,
                const mc_case_bufs_t *b, size_t *s, size_t *r)
{
    layout_t l = layout(b, size);
    size_t se, re;
    make_layout(k, rank, size, l, &se, &re);
    switch (k->coll) {
    case MC_COLL_ALLGATHERV: case MC_COLL_GATHERV:
        *s = l.rc[rank], *r = re;
        break;
    case MC_COLL_SCATTERV: *s = se, *r = l.rc[rank]; break;
    case MC_COLL_ALLTOALLV: *s = se, *r = re; break;
    default: /* reduce_scatter */
        *s = total(&l, size);
        *r = k->in_place ? *s : l.rc[rank];
        break;
    }
}

/* who contributes block (s -> d) */
static uint64_t who(const mc_case_t *k, int s, int d, int size)
{
    switch (k->coll) {
    case MC_COLL_ALLGATHERV: case MC_COLL_GATHERV:
    case MC_COLL_REDUCE_SCATTER:
        return (uint64_t)s;
    default: return chk_a2a_who(s, d, size);
    }
}

static void put_block(const mc_case_t *k, void *p, size_t at, size_t n,
                      uint64_t w, size_t from)
{
    for (size_t i = 0; i < n; i++)
        chk_store(k->dt, p, at + i, chk_gen(k, w, from + i));
}

/* the send buffer (nonzero: it was written as expected; used for filling
 * and, into a scratch copy, for checking it unchanged) */
static void send_image(const mc_case_t *k, int rank, int size,
                       const mc_case_bufs_t *b, void *p)
{
    layout_t l = layout(b, size);
    memset(p, POISON_BYTE, b->slen);
    switch (k->coll) {
    case MC_COLL_ALLGATHERV: case MC_COLL_GATHERV:
        put_block(k, p, 0, l.rc[rank], who(k, rank, rank, size), 0);
        break;
    case MC_COLL_REDUCE_SCATTER:
        if (!k->in_place)
            put_block(k, p, 0, total(&l, size), (uint64_t)rank, 0);
        break;
    case MC_COLL_SCATTERV:
        if (rank != k->root)
            break;
        /* fallthrough */
    default: /* alltoallv (not in place), scatterv's root */
        if (k->coll == MC_COLL_ALLTOALLV && k->in_place)
            break;
        for (int q = 0; q < size; q++)
            put_block(k, p, l.sd[q], l.sc[q], who(k, rank, q, size), 0);
        break;
    }
}

void chk_v_fill(const mc_case_t *k, int rank, int size, mc_case_bufs_t *b)
{
    layout_t l = layout(b, size);
    send_image(k, rank, size, b, b->sbuf);
    memset(b->rbuf, POISON_BYTE, b->rlen);
    if (!k->in_place)
        return;
    switch (k->coll) {
    case MC_COLL_ALLGATHERV: case MC_COLL_GATHERV:
        if (k->coll == MC_COLL_ALLGATHERV || rank == k->root)
            put_block(k, b->rbuf, l.rd[rank], l.rc[rank], (uint64_t)rank, 0);
        break;
    case MC_COLL_ALLTOALLV: /* the input laid out as the output */
        for (int q = 0; q < size; q++)
            put_block(k, b->rbuf, l.rd[q], l.rc[q], who(k, rank, q, size),
                      0);
        break;
    case MC_COLL_REDUCE_SCATTER:
        put_block(k, b->rbuf, 0, total(&l, size), (uint64_t)rank, 0);
        break;
    default: break; /* scatterv: the root's rbuf is MC_IN_PLACE */
    }
}

int chk_v_call(mc_comm_t *c, const mc_case_t *k, mc_case_bufs_t *b,
               mc_op_t op, mc_request_t **req)
{
    int rank = mc_comm_rank(c), size = mc_comm_size(c);
    layout_t l = layout(b, size);
    const void *s;
    void *r;
    chk_call_bufs(k, rank, b, &s, &r);
    (void)req;
#define VCALL(name, ...)                                                     \
    (k->form == MC_FORM_NONBLOCKING ? mc_i##name(__VA_ARGS__, req)           \
     : k->form == MC_FORM_PERSISTENT ? mc_##name##_init(__VA_ARGS__, req)    \
                                     : mc_##name(__VA_ARGS__))
    switch (k->coll) {
    case MC_COLL_ALLGATHERV:
        return VCALL(allgatherv, c, s, l.rc[rank], r, l.rc, l.rd, k->dt);
    case MC_COLL_ALLTOALLV:
        return VCALL(alltoallv, c, s, l.sc, l.sd, r, l.rc, l.rd, k->dt);
    case MC_COLL_GATHERV:
        return VCALL(gatherv, c, s, l.rc[rank], r, l.rc, l.rd, k->dt,
                     k->root);
    case MC_COLL_SCATTERV:
        return VCALL(scatterv, c, s, l.sc, l.sd, r, l.rc[rank], k->dt,
                     k->root);
    default:
        return VCALL(reduce_scatter, c, s, r, l.rc, k->dt, op);
    }
#undef VCALL
}

/* n elements of p from `at` against contributor w's from `from` (or the
 * reduction's, w < 0) */
static int check_block(const mc_case_t *k, int rank, int size,
                       const void *p, size_t at, size_t n, int64_t w,
                       size_t from, char *msg, size_t len)
{
    for (size_t i = 0; i < n; i++) {
        chk_num_t got = chk_load(k->dt, p, at + i);
        chk_num_t want = w < 0 ? chk_reduced(k, size, from + i)
                               : chk_gen(k, (uint64_t)w, from + i);
        if (!chk_same(k->dt, got, want)) {
            char d[160];
            mc_case_describe(k, d, sizeof d);
            snprintf(msg, len, "%s: rank %d of %d: rbuf[%zu] = %#llx, "
                     "expected %#llx", d, rank, size, at + i,
                     (unsigned long long)got.u, (unsigned long long)want.u);
            return 1;
        }
    }
    return 0;
}

static int poison_at(const mc_case_t *k, int rank, const void *p, size_t at,
                     size_t bytes, const char *what, char *msg, size_t len)
{
    const unsigned char *q = (const unsigned char *)p + at;
    for (size_t i = 0; i < bytes; i++)
        if (q[i] != POISON_BYTE) {
            char d[160];
            mc_case_describe(k, d, sizeof d);
            snprintf(msg, len, "%s: rank %d wrote byte %zu of %s, which "
                     "is not its to write", d, rank, at + i, what);
            return 1;
        }
    return 0;
}

int chk_v_verify(const mc_case_t *k, int rank, int size,
                 const mc_case_bufs_t *b, char *msg, size_t len)
{
    layout_t l = layout(b, size);
    size_t d = mc_dtype_size(k->dt);
    unsigned char *img = malloc(b->slen ? b->slen : 1);
    if (!img)
        return snprintf(msg, len, "out of memory"), 1;
    send_image(k, rank, size, b, img);
    int changed = memcmp(img, b->sbuf, b->slen) != 0;
    free(img);
    if (changed) {
        char desc[160];
        mc_case_describe(k, desc, sizeof desc);
        snprintf(msg, len, "%s: rank %d: the call changed the send buffer",
                 desc, rank);
        return 1;
    }
    int root = rank == k->root;
    switch (k->coll) {
    case MC_COLL_GATHERV:
        if (!root)
            return poison_at(k, rank, b->rbuf, 0, b->rlen, "rbuf", msg, len);
        /* fallthrough */
    case MC_COLL_ALLGATHERV: case MC_COLL_ALLTOALLV:
        for (int q = 0; q < size; q++) {
            if (check_block(k, rank, size, b->rbuf, l.rd[q], l.rc[q],
                            (int64_t)who(k, q, rank, size), 0, msg, len) ||
                poison_at(k, rank, b->rbuf, (l.rd[q] + l.rc[q]) * d, d,
                          "a gap in rbuf", msg, len))
                return 1;
        }
        return 0;
    case MC_COLL_SCATTERV:
        if (root && k->in_place)
            return 0; /* its block stays in sbuf, checked unchanged */
        return check_block(k, rank, size, b->rbuf, 0, l.rc[rank],
                           (int64_t)who(k, k->root, rank, size), 0, msg,
                           len);
    default: { /* reduce_scatter: block rank of the reduction */
        size_t off = 0;
        for (int q = 0; q < rank; q++)
            off += l.rc[q];
        return check_block(k, rank, size, b->rbuf, 0, l.rc[rank], -1, off,
                           msg, len);
    }
    }
}
