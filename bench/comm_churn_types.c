/*
 * comm_churn's datatypes, buffers, calls and checks.
 *
 *   type     MPI datatype                          extent  fields (gaps)
 *   int      MPI_INT                               4       int
 *   double   MPI_DOUBLE                            8       double
 *   contig   MPI_Type_contiguous(2, MPI_INT)       8       int int
 *   vector   MPI_Type_vector(2, 1, 2, MPI_INT)     12      int _ int
 *   struct   {int; double} (create_struct)         16      int ____ double
 *   resized  MPI_INT resized to extent 8           8       int ____
 *
 * Every field of element e from the contributor tagged `tag` holds a small
 * integer v(tag, e, field), so sums are exact in int and double alike and
 * a block in the wrong place shows. A receive buffer is poisoned before
 * each call and compared whole after it against an image built here: the
 * gaps must still hold the poison (an unpack that writes them is wrong).
 * Reductions (MPI_SUM) run on the predefined types only: MPI defines its
 * ops on those (Open MPI refuses a derived type).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "comm_churn.h"

#define POISON 0xA5

const char *const churn_type_names[NTYPES] = {
    "int", "double", "contig", "vector", "struct", "resized"};

static unsigned char *sbuf, *rbuf, *expect;
static size_t buflen;

double churn_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int churn_types_make(const side_t *f, ctype_t t[NTYPES])
{
    struct pad { int i; double d; };
    static const int one[2] = {1, 1};
    const MPI_Aint disp[2] = {offsetof(struct pad, i),
                              offsetof(struct pad, d)};
    const MPI_Datatype parts[2] = {MPI_INT, MPI_DOUBLE};
    int rc = MPI_SUCCESS;
    t[T_INT] = (ctype_t){"int", MPI_INT, 4, 1, {0, 0}, {0, 0}, 1};
    t[T_DOUBLE] = (ctype_t){"double", MPI_DOUBLE, 8, 1, {0, 0}, {1, 0}, 1};
    t[T_CONTIG] = (ctype_t){"contig", MPI_DATATYPE_NULL, 8, 2, {0, 4},
                            {0, 0}, 0};
    t[T_VECTOR] = (ctype_t){"vector", MPI_DATATYPE_NULL, 12, 2, {0, 8},
                            {0, 0}, 0};
    t[T_STRUCT] = (ctype_t){"struct", MPI_DATATYPE_NULL,
                            (int)sizeof(struct pad), 2,
                            {(int)disp[0], (int)disp[1]}, {0, 1}, 0};
    t[T_RESIZED] = (ctype_t){"resized", MPI_DATATYPE_NULL, 8, 1, {0, 0},
                             {0, 0}, 0};
    rc |= f->type_contiguous(2, MPI_INT, &t[T_CONTIG].dt);
    rc |= f->type_vector(2, 1, 2, MPI_INT, &t[T_VECTOR].dt);
    rc |= f->type_create_struct(2, one, disp, parts, &t[T_STRUCT].dt);
    rc |= f->type_create_resized(MPI_INT, 0, 8, &t[T_RESIZED].dt);
    for (int i = T_CONTIG; i < NTYPES && rc == MPI_SUCCESS; i++)
        rc = f->type_commit(&t[i].dt);
    return rc;
}

void churn_types_free(const side_t *f, ctype_t t[NTYPES])
{
    for (int i = T_CONTIG; i < NTYPES; i++)
        if (t[i].dt != MPI_DATATYPE_NULL)
            f->type_free(&t[i].dt);
}

int churn_buffers(size_t max_count, int P)
{
    buflen = max_count * (size_t)P * 16 + 64;
    sbuf = malloc(buflen);
    rbuf = malloc(buflen);
    expect = malloc(buflen);
    if (!sbuf || !rbuf || !expect)
        return -1;
    memset(sbuf, 0, buflen);
    memset(rbuf, 0, buflen);
    memset(expect, 0, buflen);
    return 0;
}

void churn_buffers_free(void)
{
    free(sbuf);
    free(rbuf);
    free(expect);
}

/* ---- values ---- */

static int val(int tag, size_t e, int field)
{
    return (int)(((unsigned)tag * 7u + (unsigned)(e % 100003u) * 13u +
                  (unsigned)field * 5u) % 31u) - 15;
}

static void put(unsigned char *p, const ctype_t *t, int f, int v)
{
    if (t->dbl[f]) {
        double d = v;
        memcpy(p + t->off[f], &d, sizeof d);
    } else {
        memcpy(p + t->off[f], &v, sizeof v);
    }
}

/* n elements from contributor `tag`, or (tag < 0) the sum over P ranks;
 * the gaps poisoned */
static void fill(unsigned char *p, const ctype_t *t, int n, int tag, int P)
{
    memset(p, POISON, (size_t)n * (size_t)t->extent);
    for (int e = 0; e < n; e++)
        for (int f = 0; f < t->nf; f++) {
            int v = 0;
            if (tag >= 0)
                v = val(tag, (size_t)e, f);
            else
                for (int r = 0; r < P; r++)
                    v += val(r, (size_t)e, f);
            put(p + (size_t)e * (size_t)t->extent, t, f, v);
        }
}

/* P blocks of n elements, block b from contributor tag(b) */
static void fill_blocks(unsigned char *p, const ctype_t *t, int n, int P,
                        int me, int a2a_send, int a2a_recv)
{
    size_t blk = (size_t)n * (size_t)t->extent;
    for (int b = 0; b < P; b++) {
        int tag = a2a_send ? 100 + me * P + b
                  : a2a_recv ? 100 + b * P + me : b;
        fill(p + (size_t)b * blk, t, n, tag, P);
    }
}

static int check(const unsigned char *got, size_t n, const char *coll,
                 const ctype_t *t, int count, char *msg, size_t len)
{
    if (!memcmp(got, expect, n))
        return 0;
    size_t i = 0;
    while (got[i] == expect[i])
        i++;
    snprintf(msg, len, "%s of %d %s: byte %zu is 0x%02x, expected 0x%02x",
             coll, count, t->name, i, got[i], expect[i]);
    return 1;
}

/* ---- the round ---- */

typedef struct call {
    const side_t *f;
    const ctype_t *t;
    int n, P, me, root;
    MPI_Datatype dt;
    MPI_Comm comm;
    double *acc;
} call_t;

#define TIMED(k, expr)                                                      \
    do {                                                                    \
        double t0_ = churn_now();                                           \
        int rc_ = (expr);                                                   \
        *(k)->acc += churn_now() - t0_;                                     \
        if (rc_ != MPI_SUCCESS) {                                           \
            snprintf(msg, len, "%s of %d %s failed (%d)", #expr, (k)->n,     \
                     (k)->t->name, rc_);                                    \
            return 1;                                                       \
        }                                                                   \
    } while (0)

static int rooted(call_t *k, char *msg, size_t len)
{
    const side_t *f = k->f;
    const ctype_t *t = k->t;
    int n = k->n, P = k->P, me = k->me, root = k->root;
    size_t one = (size_t)n * (size_t)t->extent, all = one * (size_t)P;
    /* bcast */
    if (me == root)
        fill(rbuf, t, n, root, P);
    else
        memset(rbuf, POISON, one);
    TIMED(k, f->bcast(rbuf, n, k->dt, root, k->comm));
    fill(expect, t, n, root, P);
    if (check(rbuf, one, "bcast", t, n, msg, len))
        return 1;
    /* gather */
    fill(sbuf, t, n, me, P);
    memset(rbuf, POISON, all);
    TIMED(k, f->gather(sbuf, n, k->dt, rbuf, n, k->dt, root, k->comm));
    fill_blocks(expect, t, n, P, me, 0, 0);
    if (me == root && check(rbuf, all, "gather", t, n, msg, len))
        return 1;
    /* scatter */
    if (me == root)
        fill_blocks(sbuf, t, n, P, me, 0, 0);
    memset(rbuf, POISON, one);
    TIMED(k, f->scatter(sbuf, n, k->dt, rbuf, n, k->dt, root, k->comm));
    fill(expect, t, n, me, P);
    return check(rbuf, one, "scatter", t, n, msg, len);
}

static int reductions(call_t *k, char *msg, size_t len)
{
    const side_t *f = k->f;
    const ctype_t *t = k->t;
    int n = k->n, P = k->P, me = k->me;
    size_t one = (size_t)n * (size_t)t->extent;
    if (!t->reduces)
        return 0;
    fill(sbuf, t, n, me, P);
    fill(expect, t, n, -1, P);
    memset(rbuf, POISON, one);
    TIMED(k, f->reduce(sbuf, rbuf, n, k->dt, MPI_SUM, k->root, k->comm));
    if (me == k->root && check(rbuf, one, "reduce", t, n, msg, len))
        return 1;
    memset(rbuf, POISON, one);
    TIMED(k, f->allreduce(sbuf, rbuf, n, k->dt, MPI_SUM, k->comm));
    return check(rbuf, one, "allreduce", t, n, msg, len);
}

static int everyone(call_t *k, char *msg, size_t len)
{
    const side_t *f = k->f;
    const ctype_t *t = k->t;
    int n = k->n, P = k->P, me = k->me;
    size_t all = (size_t)n * (size_t)t->extent * (size_t)P;
    fill(sbuf, t, n, me, P);
    memset(rbuf, POISON, all);
    TIMED(k, f->allgather(sbuf, n, k->dt, rbuf, n, k->dt, k->comm));
    fill_blocks(expect, t, n, P, me, 0, 0);
    if (check(rbuf, all, "allgather", t, n, msg, len))
        return 1;
    fill_blocks(sbuf, t, n, P, me, 1, 0);
    memset(rbuf, POISON, all);
    TIMED(k, f->alltoall(sbuf, n, k->dt, rbuf, n, k->dt, k->comm));
    fill_blocks(expect, t, n, P, me, 0, 1);
    if (check(rbuf, all, "alltoall", t, n, msg, len))
        return 1;
    TIMED(k, f->barrier(k->comm));
    return 0;
}

int churn_round(const side_t *f, const ctype_t *t, int count, MPI_Comm comm,
                double *t_calls, char *msg, size_t len)
{
    call_t k = {.f = f, .t = t, .n = count, .dt = t->dt, .comm = comm,
                .acc = t_calls};
    MPI_Comm_rank(comm, &k.me);
    MPI_Comm_size(comm, &k.P);
    k.root = k.P - 1; /* not always rank 0 */
    if ((size_t)count * (size_t)t->extent * (size_t)k.P > buflen) {
        snprintf(msg, len, "count %d of %s: buffers too small", count,
                 t->name);
        return 1;
    }
    return rooted(&k, msg, len) || reductions(&k, msg, len) ||
           everyone(&k, msg, len);
}
