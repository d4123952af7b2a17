/*
 * Verification of collective test cases: the outputs against the scalar
 * reference of check.c, the send buffer unchanged, receive buffers that
 * are not significant untouched, nothing written past a buffer's end, and
 * the barrier's meaning through the arrival record (arrivals.c).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "oracle/check.h"
#include "oracle/check_impl.h"

/* compares n elements of p (from element `at`) with want(i) */
typedef chk_num_t (*want_fn)(const mc_case_t *k, int rank, int size,
                             int block, size_t i);

static int expect(const mc_case_t *k, int rank, int size, int block,
                  const void *p, size_t at, size_t n, want_fn want,
                  const char *what, char *msg, size_t len)
{
    for (size_t i = 0; i < n; i++) {
        chk_num_t got = chk_load(k->dt, p, at + i);
        chk_num_t w = want(k, rank, size, block, i);
        if (!chk_same(k->dt, got, w)) {
            char d[160];
            mc_case_describe(k, d, sizeof d);
            snprintf(msg, len,
                     "%s: rank %d of %d: %s[%zu] = %#llx (%g, %g, %lld), "
                     "expected %#llx (%g, %g, %lld)",
                     d, rank, size, what, at + i, (unsigned long long)got.u,
                     chk_kind(k->dt) ? got.f : (double)got.i, got.im,
                     (long long)got.loc, (unsigned long long)w.u,
                     chk_kind(k->dt) ? w.f : (double)w.i, w.im,
                     (long long)w.loc);
            return 1;
        }
    }
    return 0;
}

static chk_num_t w_root(const mc_case_t *k, int rank, int size,
                        int block, size_t i)
{
    (void)block;
    (void)rank, (void)size;
    return chk_gen(k, (uint64_t)k->root, i);
}
static chk_num_t w_reduced(const mc_case_t *k, int rank, int size,
                           int block, size_t i)
{
    (void)block;
    (void)rank;
    return chk_reduced(k, size, i);
}
static chk_num_t w_block(const mc_case_t *k, int rank, int size,
                         int block, size_t i)
{
    (void)block;
    (void)rank, (void)size;
    return chk_gen(k, (uint64_t)block, i);
}
static chk_num_t w_a2a(const mc_case_t *k, int rank, int size,
                       int block, size_t i)
{
    (void)block;
    return chk_gen(k, chk_a2a_who(block, rank, size), i);
}
/* scan: ranks 0 .. rank; exscan: 0 .. rank - 1 */
static chk_num_t w_scan(const mc_case_t *k, int rank, int size, int block,
                        size_t i)
{
    (void)block, (void)size;
    return chk_reduced(k, k->coll == MC_COLL_SCAN ? rank + 1 : rank, i);
}

static chk_num_t w_rsb(const mc_case_t *k, int rank, int size,
                       int block, size_t i)
{
    (void)block;
    return chk_reduced(k, size, (size_t)rank * k->count + i);
}
static chk_num_t w_scatter(const mc_case_t *k, int rank, int size,
                           int block, size_t i)
{
    (void)block;
    (void)size;
    return chk_gen(k, chk_scatter_who(k->root), (size_t)rank * k->count + i);
}

static int verify_blocks(const mc_case_t *k, int rank, int size,
                         const void *p, want_fn want, char *msg, size_t len)
{
    for (int b = 0; b < size; b++)
        if (expect(k, rank, size, b, p, (size_t)b * k->count, k->count, want,
                   "rbuf", msg, len))
            return 1;
    return 0;
}

static int guards_ok(const mc_case_bufs_t *b)
{
    const unsigned char *s = b->sbuf, *r = b->rbuf;
    for (int i = 0; i < GUARD; i++)
        if (s[b->slen + i] != GUARD_BYTE || r[b->rlen + i] != GUARD_BYTE)
            return 0;
    return 1;
}

/* 1 with a message if the receive buffer, not significant on this rank,
 * is not all poison any more */
static int poisoned(const mc_case_t *k, int rank, const mc_case_bufs_t *b,
                    char *msg, size_t len)
{
    const unsigned char *p = b->rbuf;
    for (size_t i = 0; i < b->rlen; i++)
        if (p[i] != POISON_BYTE) {
            char d[160];
            mc_case_describe(k, d, sizeof d);
            snprintf(msg, len,
                     "%s: rank %d: the call wrote byte %zu of a receive "
                     "buffer that is not significant on this rank",
                     d, rank, i);
            return 1;
        }
    return 0;
}

/* 1 with a message if the call changed the send buffer */
static int send_changed(const mc_case_t *k, int rank, int size,
                        const mc_case_bufs_t *b, char *msg, size_t len)
{
    size_t d = mc_dtype_size(k->dt);
    const unsigned char *p = b->sbuf;
    for (size_t i = 0; i < b->slen / d; i++) {
        unsigned char want[CHK_ELEM_MAX];
        chk_num_t v;
        if (chk_send_elem(k, rank, size, i, &v))
            chk_store(k->dt, want, 0, v);
        else
            memset(want, POISON_BYTE, d);
        if (memcmp(p + i * d, want, d) != 0) {
            char desc[160];
            mc_case_describe(k, desc, sizeof desc);
            snprintf(msg, len,
                     "%s: rank %d of %d: the call changed the send buffer "
                     "at element %zu (byte %zu of %zu)",
                     desc, rank, size, i, i * d, b->slen);
            return 1;
        }
    }
    return 0;
}

int mc_case_verify(const mc_case_t *k, int rank, int size,
                   const mc_case_bufs_t *b, char *msg, size_t len)
{
    size_t n = k->count;
    int root = rank == k->root;
    if (!guards_ok(b)) {
        char d[160];
        mc_case_describe(k, d, sizeof d);
        snprintf(msg, len, "%s: rank %d wrote past the end of a buffer", d,
                 rank);
        return 1;
    }
    if (chk_is_v(k->coll))
        return chk_v_verify(k, rank, size, b, msg, len);
    if (send_changed(k, rank, size, b, msg, len))
        return 1;
    switch (k->coll) {
    case MC_COLL_BARRIER:
        if (!b->arrivals) {
            snprintf(msg, len, "barrier: rank %d: no arrival record, the "
                     "barrier cannot be verified", rank);
            return 1;
        }
        return mc_arrivals_check(b->arrivals, msg, len);
    case MC_COLL_BCAST:
        return expect(k, rank, size, 0, b->rbuf, 0, n, w_root, "buf", msg, len);
    case MC_COLL_REDUCE:
        if (!root) /* its receive buffer is not significant: untouched */
            return poisoned(k, rank, b, msg, len);
        /* fallthrough */
    case MC_COLL_ALLREDUCE:
        return expect(k, rank, size, 0, b->rbuf, 0, n, w_reduced, "rbuf", msg,
                      len);
    case MC_COLL_GATHER:
        if (!root)
            return poisoned(k, rank, b, msg, len);
        /* fallthrough */
    case MC_COLL_ALLGATHER:
        return verify_blocks(k, rank, size, b->rbuf, w_block, msg, len);
    case MC_COLL_ALLTOALL:
        return verify_blocks(k, rank, size, b->rbuf, w_a2a, msg, len);
    case MC_COLL_REDUCE_SCATTER_BLOCK:
        return expect(k, rank, size, 0, b->rbuf, 0, n, w_rsb, "rbuf", msg, len);
    case MC_COLL_SCATTER:
        if (root && k->in_place) /* the root's block stays in sbuf */
            return poisoned(k, rank, b, msg, len);
        return expect(k, rank, size, 0, b->rbuf, 0, n, w_scatter, "rbuf", msg,
                      len);
    case MC_COLL_EXSCAN:
        if (rank == 0) /* not written: poisoned, or its input in place */
            return k->in_place ? 0 : poisoned(k, rank, b, msg, len);
        /* fallthrough */
    case MC_COLL_SCAN:
        return expect(k, rank, size, 0, b->rbuf, 0, n, w_scan, "rbuf", msg,
                      len);
    default: break; /* the v-variants: above */
    }
    snprintf(msg, len, "rank %d: no verification for collective %d", rank,
             (int)k->coll);
    return 1;
}
