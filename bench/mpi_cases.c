/*
 * mpi_compare's cases: buffers, inputs, expected outputs, the two calls.
 *
 * Reductions (reduce, allreduce, reduce_scatter_block) are float64 sums of
 * small integers, so every order of summation gives the same bits and both
 * libraries must agree exactly with a sum computed here. The others move
 * bytes; each byte is a function of (contributor tag, index), so a block
 * in the wrong place or a stale buffer shows up as a wrong byte.
 *
 *   coll                  send bytes   receive bytes   checked on
 *   barrier               0            0               (status only)
 *   bcast                 -            n (in place)    non-root ranks
 *   reduce                n            n               the root
 *   allreduce             n            n               every rank
 *   allgather             n            P n             every rank
 *   alltoall              P n          P n             every rank
 *   reduce_scatter_block  P n          n               every rank
 *   gather                n            P n             the root
 *   scatter               P n (root)   n               every rank
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_compare.h"

#define POISON 0xEE

static const char *const names[CO_COUNT] = {
    [CO_BARRIER] = "barrier",
    [CO_BCAST] = "bcast",
    [CO_REDUCE] = "reduce",
    [CO_ALLREDUCE] = "allreduce",
    [CO_ALLGATHER] = "allgather",
    [CO_ALLTOALL] = "alltoall",
    [CO_REDUCE_SCATTER_BLOCK] = "reduce_scatter_block",
    [CO_GATHER] = "gather",
    [CO_SCATTER] = "scatter",
};

const char *coll_name(coll_t c)
{
    return (unsigned)c < CO_COUNT ? names[c] : "?";
}

int coll_from_name(const char *s, coll_t *out)
{
    for (int i = 0; i < CO_COUNT; i++)
        if (strcmp(s, names[i]) == 0) {
            *out = (coll_t)i;
            return 0;
        }
    return -1;
}

int coll_is_reduction(coll_t c)
{
    return c == CO_REDUCE || c == CO_ALLREDUCE ||
           c == CO_REDUCE_SCATTER_BLOCK;
}

/* ---- values ---- */

/* float input j of rank r: a small integer, so sums are exact */
static double fval(int r, size_t j)
{
    return (double)(((unsigned)r * 37u + (unsigned)(j % 1000003u) * 11u +
                     (unsigned)(j >> 10)) % 29u) - 14.0;
}

static double fsum(int size, size_t j)
{
    double s = 0;
    for (int r = 0; r < size; r++)
        s += fval(r, j);
    return s;
}

/* byte j of the block tagged `tag` */
static unsigned char bval(unsigned tag, size_t j)
{
    uint32_t x = (uint32_t)j;
    return (unsigned char)((x ^ (x >> 8) ^ (x >> 16)) * 31u + tag * 97u + 7u);
}

/* tag of the scatter block for rank dst */
static unsigned scatter_tag(int dst)
{
    return 500u + (unsigned)dst;
}

/* tag of the alltoall block that rank src sends to rank dst */
static unsigned a2a_tag(int src, int dst, int size)
{
    return 1000u + (unsigned)src * (unsigned)size + (unsigned)dst;
}

static void fill_f(unsigned char *p, int r, size_t from, size_t n)
{
    double *d = (double *)(void *)p;
    for (size_t i = 0; i < n; i++)
        d[i] = fval(r, from + i);
}

static void fill_sum(unsigned char *p, int size, size_t from, size_t n)
{
    double *d = (double *)(void *)p;
    for (size_t i = 0; i < n; i++)
        d[i] = fsum(size, from + i);
}

static void fill_b(unsigned char *p, unsigned tag, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = bval(tag, i);
}

/* ---- buffers ---- */

static void *alloc64(size_t n)
{
    return aligned_alloc(64, (n + 63) / 64 * 64 + 64);
}

static void lens(const bench_case_t *k, size_t *s, size_t *r)
{
    size_t n = coll_is_reduction(k->coll) ? k->count * 8 : k->count;
    size_t pn = n * (size_t)k->size;
    switch (k->coll) {
    case CO_BARRIER: *s = 0, *r = 0; break;
    case CO_BCAST: *s = 0, *r = n; break;
    case CO_ALLGATHER: case CO_GATHER: *s = n, *r = pn; break;
    case CO_SCATTER: *s = pn, *r = n; break;
    case CO_ALLTOALL: *s = pn, *r = pn; break;
    case CO_REDUCE_SCATTER_BLOCK: *s = pn, *r = n; break;
    default: *s = n, *r = n; break;
    }
}

/* inputs of lib's buffers: the send buffer, or the root's bcast buffer */
static void fill_inputs(bench_case_t *k, int lib)
{
    unsigned char *s = k->sbuf[lib];
    size_t c = k->count;
    switch (k->coll) {
    case CO_BCAST:
        if (k->rank == k->root)
            fill_b(k->rbuf[lib], (unsigned)k->root, c);
        break;
    case CO_REDUCE: case CO_ALLREDUCE:
        fill_f(s, k->rank, 0, c);
        break;
    case CO_REDUCE_SCATTER_BLOCK:
        fill_f(s, k->rank, 0, c * (size_t)k->size);
        break;
    case CO_ALLGATHER: case CO_GATHER:
        fill_b(s, (unsigned)k->rank, c);
        break;
    case CO_SCATTER:
        for (int d = 0; d < k->size; d++)
            fill_b(s + (size_t)d * c, scatter_tag(d), c);
        break;
    case CO_ALLTOALL:
        for (int d = 0; d < k->size; d++)
            fill_b(s + (size_t)d * c, a2a_tag(k->rank, d, k->size), c);
        break;
    default: break;
    }
}

/* the expected output of this rank, or NULL where nothing is checked */
static int fill_expect(bench_case_t *k)
{
    size_t c = k->count;
    int me = k->rank, p = k->size;
    int none = k->coll == CO_BARRIER || (k->coll == CO_BCAST && me == k->root) ||
               ((k->coll == CO_REDUCE || k->coll == CO_GATHER) &&
                me != k->root);
    if (none)
        return 0;
    k->expect = alloc64(k->rlen);
    if (!k->expect)
        return -1;
    unsigned char *e = k->expect;
    switch (k->coll) {
    case CO_BCAST: fill_b(e, (unsigned)k->root, c); break;
    case CO_REDUCE: case CO_ALLREDUCE: fill_sum(e, p, 0, c); break;
    case CO_REDUCE_SCATTER_BLOCK: fill_sum(e, p, (size_t)me * c, c); break;
    case CO_ALLGATHER: case CO_GATHER:
        for (int r = 0; r < p; r++)
            fill_b(e + (size_t)r * c, (unsigned)r, c);
        break;
    case CO_SCATTER: fill_b(e, scatter_tag(me), c); break;
    case CO_ALLTOALL:
        for (int s = 0; s < p; s++)
            fill_b(e + (size_t)s * c, a2a_tag(s, me, p), c);
        break;
    default: break;
    }
    return 0;
}

int case_setup(bench_case_t *k)
{
    size_t b = k->bytes ? k->bytes : 1;
    k->count = coll_is_reduction(k->coll) ? (b + 7) / 8 : b;
    if (k->coll == CO_BARRIER)
        k->count = 0;
    lens(k, &k->slen, &k->rlen);
    for (int l = 0; l < LIB_COUNT; l++) {
        k->sbuf[l] = alloc64(k->slen);
        k->rbuf[l] = alloc64(k->rlen);
        if (!k->sbuf[l] || !k->rbuf[l])
            return -1;
        /* touch every page now, so no call pays for page faults */
        memset(k->sbuf[l], 0, k->slen);
        memset(k->rbuf[l], POISON, k->rlen);
        fill_inputs(k, l);
    }
    return fill_expect(k);
}

void case_free(bench_case_t *k)
{
    for (int l = 0; l < LIB_COUNT; l++) {
        free(k->sbuf[l]);
        free(k->rbuf[l]);
        k->sbuf[l] = k->rbuf[l] = NULL;
    }
    free(k->expect);
    k->expect = NULL;
}

/* --sides mc,mc+progress: the progress function libmanycoll_mpi gives
 * manycoll (a test of an MPI request that never completes, which turns
 * the MPI's progress engine), on side B only */
static MPI_Request spin = MPI_REQUEST_NULL;

static int spin_query(void *x, MPI_Status *st)
{
    (void)x;
    MPI_Status_set_elements(st, MPI_BYTE, 0);
    MPI_Status_set_cancelled(st, 0);
    return MPI_SUCCESS;
}

static int spin_free(void *x)
{
    (void)x;
    return MPI_SUCCESS;
}

static int spin_cancel(void *x, int done)
{
    (void)x, (void)done;
    return MPI_SUCCESS;
}

static void mpi_progress(void *arg)
{
    int flag;
    (void)arg;
    if (spin == MPI_REQUEST_NULL)
        MPI_Grequest_start(spin_query, spin_free, spin_cancel, NULL, &spin);
    MPI_Test(&spin, &flag, MPI_STATUS_IGNORE);
}

void case_progress_end(void)
{
    mc_set_progress(NULL, NULL);
    if (spin == MPI_REQUEST_NULL)
        return;
    MPI_Grequest_complete(spin);
    MPI_Wait(&spin, MPI_STATUS_IGNORE);
}

void case_poison(bench_case_t *k, int lib)
{
    if (side_progress) /* outside the timed call */
        mc_set_progress(lib == LIB_MC ? mpi_progress : NULL, NULL);
    if (k->coll == CO_BCAST && k->rank == k->root)
        return; /* the root's buffer is the input */
    memset(k->rbuf[lib], POISON, k->rlen);
}

/* ---- the calls ---- */

/* The MPI calls, through MPI_X or (--sides pmpi,...) PMPI_X: with
 * libmanycoll_mpi loaded, MPI_X is the library and PMPI_X is the MPI alone
 * (the user's view: the same program with and without the library). */
typedef struct mpi_fns {
    int (*barrier)(MPI_Comm);
    int (*bcast)(void *, int, MPI_Datatype, int, MPI_Comm);
    int (*reduce)(const void *, void *, int, MPI_Datatype, MPI_Op, int,
                  MPI_Comm);
    int (*allreduce)(const void *, void *, int, MPI_Datatype, MPI_Op,
                     MPI_Comm);
    int (*allgather)(const void *, int, MPI_Datatype, void *, int,
                     MPI_Datatype, MPI_Comm);
    int (*alltoall)(const void *, int, MPI_Datatype, void *, int,
                    MPI_Datatype, MPI_Comm);
    int (*reduce_scatter_block)(const void *, void *, int, MPI_Datatype,
                                MPI_Op, MPI_Comm);
    int (*gather)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype,
                  int, MPI_Comm);
    int (*scatter)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype,
                   int, MPI_Comm);
} mpi_fns_t;

static const mpi_fns_t via_mpi = {
    MPI_Barrier, MPI_Bcast, MPI_Reduce, MPI_Allreduce, MPI_Allgather,
    MPI_Alltoall, MPI_Reduce_scatter_block, MPI_Gather, MPI_Scatter};
static const mpi_fns_t via_pmpi = {
    PMPI_Barrier, PMPI_Bcast, PMPI_Reduce, PMPI_Allreduce, PMPI_Allgather,
    PMPI_Alltoall, PMPI_Reduce_scatter_block, PMPI_Gather, PMPI_Scatter};

int side_a_pmpi, side_b_lib, side_progress;

static int run_mpi(bench_case_t *k, const mpi_fns_t *f, int lib)
{
    unsigned char *s = k->sbuf[lib], *r = k->rbuf[lib];
    int c = (int)k->count;
    switch (k->coll) {
    case CO_BARRIER: return f->barrier(k->mpi);
    case CO_BCAST: return f->bcast(r, c, MPI_BYTE, k->root, k->mpi);
    case CO_REDUCE:
        return f->reduce(s, r, c, MPI_DOUBLE, MPI_SUM, k->root, k->mpi);
    case CO_ALLREDUCE:
        return f->allreduce(s, r, c, MPI_DOUBLE, MPI_SUM, k->mpi);
    case CO_ALLGATHER:
        return f->allgather(s, c, MPI_BYTE, r, c, MPI_BYTE, k->mpi);
    case CO_ALLTOALL:
        return f->alltoall(s, c, MPI_BYTE, r, c, MPI_BYTE, k->mpi);
    case CO_REDUCE_SCATTER_BLOCK:
        return f->reduce_scatter_block(s, r, c, MPI_DOUBLE, MPI_SUM, k->mpi);
    case CO_GATHER:
        return f->gather(s, c, MPI_BYTE, r, c, MPI_BYTE, k->root, k->mpi);
    case CO_SCATTER:
        return f->scatter(s, c, MPI_BYTE, r, c, MPI_BYTE, k->root, k->mpi);
    default: return MPI_ERR_ARG;
    }
}

static int run_mc(bench_case_t *k, int lib)
{
    unsigned char *s = k->sbuf[lib], *r = k->rbuf[lib];
    size_t c = k->count;
    switch (k->coll) {
    case CO_BARRIER: return mc_barrier(k->mc);
    case CO_BCAST: return mc_bcast(k->mc, r, c, MC_UINT8, k->root);
    case CO_REDUCE:
        return mc_reduce(k->mc, s, r, c, MC_FLOAT64, MC_SUM, k->root);
    case CO_ALLREDUCE:
        return mc_allreduce(k->mc, s, r, c, MC_FLOAT64, MC_SUM);
    case CO_ALLGATHER: return mc_allgather(k->mc, s, r, c, MC_UINT8);
    case CO_ALLTOALL: return mc_alltoall(k->mc, s, r, c, MC_UINT8);
    case CO_REDUCE_SCATTER_BLOCK:
        return mc_reduce_scatter_block(k->mc, s, r, c, MC_FLOAT64, MC_SUM);
    case CO_GATHER: return mc_gather(k->mc, s, r, c, MC_UINT8, k->root);
    case CO_SCATTER: return mc_scatter(k->mc, s, r, c, MC_UINT8, k->root);
    default: return MC_ERR_ARG;
    }
}

int case_run(bench_case_t *k, int lib, char *msg, size_t len)
{
    if ((lib == LIB_MPI && !side_progress) || side_b_lib) {
        int rc = lib == LIB_MPI
                     ? run_mpi(k, side_a_pmpi ? &via_pmpi : &via_mpi, LIB_MPI)
                     : run_mpi(k, &via_mpi, LIB_MC);
        if (rc != MPI_SUCCESS) {
            char s[MPI_MAX_ERROR_STRING];
            int n = 0;
            MPI_Error_string(rc, s, &n);
            snprintf(msg, len, "MPI failed: %s", s);
            return 1;
        }
        return 0;
    }
    int rc = run_mc(k, lib);
    if (rc != MC_OK) {
        snprintf(msg, len, "manycoll failed: %s: %s", mc_strerror(rc),
                 mc_last_error());
        return 1;
    }
    return 0;
}

/* ---- checks ---- */

static size_t first_diff(const unsigned char *a, const unsigned char *b,
                         size_t n)
{
    if (memcmp(a, b, n) == 0)
        return n;
    size_t i = 0;
    while (a[i] == b[i])
        i++;
    return i;
}

/* describes byte i of lib's output against the expected value */
static void describe(const bench_case_t *k, int lib, size_t i, char *msg,
                     size_t len)
{
    const char *who = lib == LIB_MPI ? "MPI" : "manycoll";
    if (coll_is_reduction(k->coll)) {
        size_t e = i / 8;
        double got, want;
        memcpy(&got, k->rbuf[lib] + e * 8, 8);
        memcpy(&want, k->expect + e * 8, 8);
        snprintf(msg, len, "%s result element %zu is %g, expected %g", who, e,
                 got, want);
    } else {
        snprintf(msg, len, "%s result byte %zu is 0x%02x, expected 0x%02x",
                 who, i, k->rbuf[lib][i], k->expect[i]);
    }
}

int case_verify(const bench_case_t *k, int lib, char *msg, size_t len)
{
    if (!k->expect)
        return 0;
    size_t n = k->rlen;
    if (lib >= 0) { /* one library only: against the expected values */
        size_t d = first_diff(k->rbuf[lib], k->expect, n);
        if (d < n)
            describe(k, lib, d, msg, len);
        return d < n;
    }
    size_t d = first_diff(k->rbuf[LIB_MPI], k->rbuf[LIB_MC], n);
    size_t dm = first_diff(k->rbuf[LIB_MPI], k->expect, n);
    size_t dc = first_diff(k->rbuf[LIB_MC], k->expect, n);
    if (d == n && dm == n)
        return 0;
    char a[160] = "", b[160] = "";
    if (dm < n)
        describe(k, LIB_MPI, dm, a, sizeof a);
    if (dc < n)
        describe(k, LIB_MC, dc, b, sizeof b);
    snprintf(msg, len, "results differ (MPI and manycoll %s at byte %zu)%s%s"
             "%s%s", d < n ? "first differ" : "agree", d < n ? d : n,
             *a ? "; " : "", a, *b ? "; " : "", b);
    return 1;
}
