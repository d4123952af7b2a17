/*
 * mpi_diff's calls: one case on one side, and this rank's check of its
 * result against the reference (mpi_diff.h).
 */
#include <string.h>

#include "mpi_diff.h"

#define CALL(f, ...) (lib ? MPI_##f(__VA_ARGS__) : PMPI_##f(__VA_ARGS__))

/* rank r's inputs, elements [0, n) */
static void inputs(const dcase_t *d, int c, int r, long n, unsigned char *p)
{
    const dtype_t *t = &diff_types[d->type];
    for (long j = 0; j < n; j++)
        diff_input(t, d->op, diff_seed, c, r, j, p + j * t->size);
}

/* the reference: elements [from, from + n) of ranks lo..hi-1 combined */
static void reduce_ref(const dcase_t *d, int c, int lo, int hi, long from,
                       long n, unsigned char *out)
{
    const dtype_t *t = &diff_types[d->type];
    for (long j = 0; j < n; j++) {
        unsigned char *acc = out + j * t->size, x[16];
        diff_input(t, d->op, diff_seed, c, lo, from + j, acc);
        for (int r = lo + 1; r < hi; r++) {
            diff_input(t, d->op, diff_seed, c, r, from + j, x);
            diff_combine(t, d->op, acc, x);
        }
    }
}

static int differs(const dtype_t *t, const unsigned char *got,
                   const unsigned char *exp, long n)
{
    for (long j = 0; j < n; j++)
        if (!diff_equal(t, got + j * t->size, exp + j * t->size))
            return 1;
    return 0;
}

static int run_reduce(int c, const dcase_t *d, int lib, MPI_Comm comm,
                      int r, int P)
{
    const dtype_t *t = &diff_types[d->type];
    int n = d->count, root = d->root % P;
    MPI_Op op = diff_op(d->op);
    long all = d->coll == C_RSB ? (long)P * n : n;
    int ip = d->ip && (d->coll != C_REDUCE || r == root), rc;
    memset(rbuf, 0xa5, (size_t)all * (size_t)t->size + 16);
    inputs(d, c, r, all, ip ? rbuf : sbuf);
    const void *sb = ip ? MPI_IN_PLACE : sbuf;
    switch (d->coll) {
    case C_ALLREDUCE: rc = CALL(Allreduce, sb, rbuf, n, t->dt, op, comm); break;
    case C_REDUCE: rc = CALL(Reduce, sb, rbuf, n, t->dt, op, root, comm); break;
    case C_RSB:
        rc = CALL(Reduce_scatter_block, sb, rbuf, n, t->dt, op, comm);
        break;
    case C_SCAN: rc = CALL(Scan, sb, rbuf, n, t->dt, op, comm); break;
    default: rc = CALL(Exscan, sb, rbuf, n, t->dt, op, comm);
    }
    if (rc != MPI_SUCCESS)
        return 1;
    if ((d->coll == C_REDUCE && r != root) || (d->coll == C_EXSCAN && !r))
        return 0; /* nothing defined here */
    int hi = d->coll == C_SCAN ? r + 1 : d->coll == C_EXSCAN ? r : P;
    reduce_ref(d, c, 0, hi, d->coll == C_RSB ? (long)r * n : 0, n, want);
    return differs(t, rbuf, want, n);
}

/* want = every rank's block of n bytes, in rank order */
static void all_blocks(int c, int P, size_t n)
{
    for (int q = 0; q < P; q++)
        diff_bytes(diff_seed, c, q, want + (size_t)q * n, n);
}

static int run_move(int c, const dcase_t *d, int lib, MPI_Comm comm, int r,
                    int P)
{
    const dtype_t *t = &diff_types[d->type];
    size_t n = (size_t)d->count * (size_t)t->size, mine = (size_t)r * n;
    int k = d->count, root = d->root % P, me = r == root, rc;
    MPI_Datatype dt = t->dt;
    /* (every collective here but bcast has P blocks in a buffer) */
    memset(rbuf, 0xa5, (d->coll == C_BCAST ? 1 : (size_t)P) * n + 16);
    switch (d->coll) {
    case C_BCAST:
        diff_bytes(diff_seed, c, root, want, n);
        if (me)
            memcpy(rbuf, want, n);
        rc = CALL(Bcast, rbuf, k, dt, root, comm);
        return rc != MPI_SUCCESS || memcmp(rbuf, want, n);
    case C_GATHER:
        diff_bytes(diff_seed, c, r, d->ip && me ? rbuf + mine : sbuf, n);
        rc = CALL(Gather, d->ip && me ? MPI_IN_PLACE : sbuf, k, dt, rbuf, k,
                  dt, root, comm);
        all_blocks(c, P, n);
        return rc != MPI_SUCCESS || (me && memcmp(rbuf, want, (size_t)P * n));
    case C_SCATTER:
        diff_bytes(diff_seed, c, root, tmp, (size_t)P * n);
        if (me)
            memcpy(sbuf, tmp, (size_t)P * n);
        rc = CALL(Scatter, sbuf, k, dt, d->ip && me ? MPI_IN_PLACE : rbuf, k,
                  dt, root, comm);
        return rc != MPI_SUCCESS ||
               (!(d->ip && me) && memcmp(rbuf, tmp + mine, n));
    case C_ALLGATHER:
        diff_bytes(diff_seed, c, r, d->ip ? rbuf + mine : sbuf, n);
        rc = CALL(Allgather, d->ip ? MPI_IN_PLACE : sbuf, k, dt, rbuf, k, dt,
                  comm);
        all_blocks(c, P, n);
        return rc != MPI_SUCCESS || memcmp(rbuf, want, (size_t)P * n);
    default: /* alltoall: block q of rank q's send comes here */
        diff_bytes(diff_seed, c, r, d->ip ? rbuf : sbuf, (size_t)P * n);
        rc = CALL(Alltoall, d->ip ? MPI_IN_PLACE : sbuf, k, dt, rbuf, k, dt,
                  comm);
        for (int q = 0; q < P; q++) {
            diff_bytes(diff_seed, c, q, tmp, (size_t)P * n);
            memcpy(want + (size_t)q * n, tmp + mine, n);
        }
        return rc != MPI_SUCCESS || memcmp(rbuf, want, (size_t)P * n);
    }
}

int run_case(int c, const dcase_t *d, int lib)
{
    MPI_Comm comm = diff_comms[d->comm];
    int r, P;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &P);
    return reduces(d->coll) ? run_reduce(c, d, lib, comm, r, P)
                            : run_move(c, d, lib, comm, r, P);
}
