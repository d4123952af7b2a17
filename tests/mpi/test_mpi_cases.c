/*
 * The cases of test_mpi: each runs MPI_X and PMPI_X on the same inputs
 * and compares the outputs (see test_mpi.c).
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test_mpi.h"

static void *xalloc(size_t n)
{
    void *p = calloc(1, n ? n : 1);
    if (!p) {
        fprintf(stderr, "test_mpi: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return p;
}

static void same(const void *a, const void *b, size_t n, const char *what,
                 const char *tname, const char *oname, size_t count, int root)
{
    cases++;
    if (memcmp(a, b, n))
        FAIL("%s %s %s count %zu root %d: MPI_ and PMPI_ results differ",
             what, tname, oname ? oname : "", count, root);
}

typedef int (*query_fn)(MPI_Comm, const char *, long *, long *, int *);

/* where the library sends c's collectives (0 MPI, 1 flat, 2 hier), and
 * how many calls of `coll` went to manycoll so far */
static int lib_query(MPI_Comm c, const char *coll, long *mc)
{
    static query_fn q;
    if (!q)
        q = (query_fn)(uintptr_t)dlsym(RTLD_DEFAULT, "mc_mpi_query");
    long pm;
    int path = 0;
    *mc = 0;
    if (q)
        q(c, coll, mc, &pm, &path);
    return path;
}

#ifdef MPICH_VERSION
static int lib_path(MPI_Comm c)
{
    long mc;
    return lib_query(c, NULL, &mc);
}
#endif

/* the calls of coll that went to manycoll so far */
static long mc_calls(MPI_Comm c, const char *coll)
{
    long mc;
    lib_query(c, coll, &mc);
    return mc;
}

static int csize(MPI_Comm c)
{
    int n;
    MPI_Comm_size(c, &n);
    return n;
}

static int crank(MPI_Comm c)
{
    int r;
    MPI_Comm_rank(c, &r);
    return r;
}

/* Integer min and max computed here, from every rank's inputs: the
 * reference where the MPI libraries are wrong (Open MPI 4.1.4 compares
 * MPI_UNSIGNED_LONG as signed, MPICH 4.0.2 every 64-bit unsigned type). */
static int int_minmax(const tinfo_t *t, MPI_Op op, size_t n, int P,
                      unsigned char *want)
{
    if ((op != MPI_MIN && op != MPI_MAX) ||
        (t->kind != K_SINT && t->kind != K_UINT))
        return 0;
    size_t sz = (size_t)t->size;
    unsigned char *v = xalloc(n * (size_t)P * sz);
    for (int r = 0; r < P; r++) {
        fill(t, v, n * (size_t)P, r, 101);
        for (size_t i = 0; i < n * (size_t)P; i++) {
            uint64_t x = 0, y = 0;
            memcpy(&x, v + i * sz, sz);
            memcpy(&y, want + i * sz, sz);
            int less;
            if (t->kind == K_UINT) {
                less = x < y;
            } else {
                int sh = 64 - 8 * (int)sz; /* sign-extend */
                less = (int64_t)(x << sh) >> sh < (int64_t)(y << sh) >> sh;
            }
            if (r == 0 || (op == MPI_MIN ? less : !less && x != y))
                memcpy(want + i * sz, &x, sz);
        }
    }
    free(v);
    return 1;
}

/* The MPI library disagreed with the local reference: its bug, noted once
 * per type and op (not a failure of the library under test). */
static void mpi_wrong(const tinfo_t *t, const char *on)
{
    static char seen[4096];
    char key[128];
    snprintf(key, sizeof key, "|%s %s|", t->name, on);
    if (rank != 0 || strstr(seen, key) ||
        strlen(seen) + strlen(key) >= sizeof seen)
        return;
    strcat(seen, key);
    printf("test_mpi: note: the MPI library's own %s of %s is wrong "
           "(checked against a local reference instead)\n", on, t->name);
}

/* compares MPI_'s result x with the reference: PMPI_'s y, or the local
 * one ref where the MPI cannot be trusted, whichever path the call took
 * (`mc`: the library's count of such calls grew): a call the library
 * hands to MPI whole goes with manycoll's kernel as its op where the MPI
 * gets the op wrong (src/mpi/provider.c, mcm_right_op); only a library
 * turned off (lib_off) gives the MPI's own result */
/* complex products may differ in the sign of a zero part, which depends
 * on the order of combining (not an error): compared as values */
static int cplx_equal(const void *a, const void *b, size_t bytes, int size)
{
    for (size_t i = 0; i < bytes / (size_t)(size / 2); i++) {
        double x = size == 8 ? ((const float *)a)[i] : ((const double *)a)[i];
        double y = size == 8 ? ((const float *)b)[i] : ((const double *)b)[i];
        if (x != y)
            return 0;
    }
    return 1;
}

static void check(const void *x, const void *y, const void *ref, int mc,
                  size_t b, const char *what, const tinfo_t *t,
                  const char *on, size_t n, int root)
{
    if (ref && memcmp(y, ref, b))
        mpi_wrong(t, on);
    const void *want = ref && (mc || !lib_off) ? ref : y;
    if (t->kind == K_CPLX && cplx_equal(x, want, b, t->size)) {
        cases++;
        return;
    }
    same(x, want, b, what, t->name, on, n, root);
}

/* MPI_Reduce_scatter with uneven counts (every odd rank one element
 * short; even counts where the local reference ref is needed) */
static void reduce_scatter(MPI_Comm c, const tinfo_t *t, MPI_Op op,
                           const char *on, size_t n, int ip,
                           const unsigned char *in, unsigned char *x,
                           unsigned char *y, const unsigned char *ref)
{
    int P = csize(c), me = crank(c);
    int *rc = xalloc((size_t)P * sizeof *rc);
    for (int q = 0; q < P; q++)
        rc[q] = (int)n - (!ref && n > 0 && q % 2);
    size_t pb = n * (size_t)t->size * (size_t)P;
    memcpy(x, in, pb);
    memcpy(y, in, pb);
    long m0 = mc_calls(c, "reduce_scatter");
    int form = (int)((n + (size_t)ip + (size_t)t->size) % 3);
    MPI_Request r;
    if (form == 1) { /* a third of the cases: the non-blocking form */
        MPI_Ireduce_scatter(ip ? MPI_IN_PLACE : in, x, rc, t->dt, op, c, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
#if MPI_VERSION >= 4
    } else if (form == 2) { /* and the persistent one (MPI 4) */
        MPI_Reduce_scatter_init(ip ? MPI_IN_PLACE : in, x, rc, t->dt, op, c,
                                MPI_INFO_NULL, &r);
        MPI_Start(&r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Request_free(&r);
#endif
    } else {
        MPI_Reduce_scatter(ip ? MPI_IN_PLACE : in, x, rc, t->dt, op, c);
    }
    int mc = mc_calls(c, "reduce_scatter") > m0;
    PMPI_Reduce_scatter(ip ? MPI_IN_PLACE : in, y, rc, t->dt, op, c);
    check(x, y, ref, mc, (size_t)rc[me] * (size_t)t->size,
          ip ? "reduce_scatter in-place" : "reduce_scatter", t, on, n, -1);
    free(rc);
}

/* allreduce, reduce (root P-1, or every root), reduce_scatter_block; in
 * place and not */
static void reduce3(MPI_Comm c, const tinfo_t *t, MPI_Op op, const char *on,
                    size_t n, int all_roots)
{
    int P = csize(c), me = crank(c);
    size_t b = n * (size_t)t->size, pb = b * (size_t)P;
    unsigned char *in = xalloc(pb), *x = xalloc(pb), *y = xalloc(pb);
    unsigned char *ref = xalloc(pb);
    int minmax = op == MPI_MIN || op == MPI_MAX;
    fill(t, in, n * (size_t)P, me, minmax ? 101 : 1);
    if (op == op_affine) /* fill's values are the same on every rank (and
                          * x -> 0 x + b sees only the last operand): maps
                          * x -> a x + b that differ by rank and element,
                          * so that the order of the operands shows */
        for (size_t i = 0; i < n * (size_t)P; i++) {
            uint64_t a = 3 + 2 * (((size_t)me + i) % 5), o = (uint64_t)me + i;
            memcpy(in + i * 8, &(uint64_t){a << 32 | o}, 8);
        }
    int local = int_minmax(t, op, n, P, ref);
    for (int ip = 0; ip < 2; ip++) {
        memcpy(x, in, b);
        memcpy(y, in, b);
        long m0 = mc_calls(c, "allreduce");
        MPI_Allreduce(ip ? MPI_IN_PLACE : in, x, (int)n, t->dt, op, c);
        int mc = mc_calls(c, "allreduce") > m0;
        PMPI_Allreduce(ip ? MPI_IN_PLACE : in, y, (int)n, t->dt, op, c);
        check(x, y, local ? ref : NULL, mc, b,
              ip ? "allreduce in-place" : "allreduce", t, on, n, -1);
        for (int root = all_roots ? 0 : P - 1; root < P; root++) {
            memcpy(x, in, b);
            memcpy(y, in, b);
            int at = ip && me == root;
#ifdef MPICH_VERSION
            /* MPICH 4.0.2's own MPI_Reduce crashes with MPI_IN_PLACE at a
             * root other than 0 above 2 KiB: not where MPI runs it (a
             * communicator or an op the library passes on) */
            if (ip && root && b > 2048 &&
                (lib_path(c) != 1 || t->kind == K_PAIR || t->kind == K_CPLX))
                continue;
#endif
            m0 = mc_calls(c, "reduce");
            MPI_Reduce(at ? MPI_IN_PLACE : in, x, (int)n, t->dt, op, root, c);
            mc = mc_calls(c, "reduce") > m0;
            /* the reference is never in place (the same result by
             * definition, and see MPICH above) */
            PMPI_Reduce(in, y, (int)n, t->dt, op, root, c);
            if (me == root)
                check(x, y, local ? ref : NULL, mc, b,
                      ip ? "reduce in-place" : "reduce", t, on, n, root);
        }
        memcpy(x, in, pb);
        memcpy(y, in, pb);
        m0 = mc_calls(c, "reduce_scatter_block");
        MPI_Reduce_scatter_block(ip ? MPI_IN_PLACE : in, x, (int)n, t->dt, op,
                                 c);
        mc = mc_calls(c, "reduce_scatter_block") > m0;
        PMPI_Reduce_scatter_block(ip ? MPI_IN_PLACE : in, y, (int)n, t->dt,
                                  op, c);
        check(x, y, local ? ref + (size_t)me * b : NULL, mc, b,
              ip ? "reduce_scatter_block in-place" : "reduce_scatter_block",
              t, on, n, -1);
        reduce_scatter(c, t, op, on, n, ip, in, x, y,
                       local ? ref + (size_t)me * b : NULL);
    }
    free(in);
    free(x);
    free(y);
    free(ref);
}

void reductions(MPI_Comm c, size_t count, int all_ops)
{
    for (int ti = 0; ti < ntypes; ti++) {
        const tinfo_t *t = &types[ti];
        for (int oi = 0; oi < nops; oi++) {
            if (!valid(t, oi))
                continue;
            /* the whole matrix once; sum (or the first valid op) else */
            if (!all_ops && oi != 0 &&
                !(t->kind == 4 && oi == 4) && !(t->kind == 3 && oi == 7) &&
                !(t->kind == 6 && oi == 10))
                continue;
            reduce3(c, t, ops[oi].op, ops[oi].name, count, 0);
        }
    }
}

void user_ops(MPI_Comm c, size_t count)
{
    /* commutative user op on int, the order-seeing one on uint64: every
     * root */
    for (int ti = 0; ti < ntypes; ti++) {
        if (!strcmp(types[ti].name, "int"))
            reduce3(c, &types[ti], op_isum, "user sum", count, 1);
        if (!strcmp(types[ti].name, "uint64_t"))
            reduce3(c, &types[ti], op_affine, "user affine (non-commutative)",
                    count, 1);
    }
}

/* bcast, gather, scatter (every root or P-1), allgather, alltoall */
static void move1(MPI_Comm c, const tinfo_t *t, size_t n, int all_roots)
{
    int P = csize(c), me = crank(c);
    size_t b = n * (size_t)t->size, pb = b * (size_t)P;
    unsigned char *in = xalloc(pb), *x = xalloc(pb), *y = xalloc(pb);
    fill(t, in, n * (size_t)P, me, 2);
    int cnt = (int)n;
    for (int root = all_roots ? 0 : P - 1; root < P; root++) {
        int r = me == root;
        memcpy(x, in, pb);
        memcpy(y, in, pb);
        MPI_Bcast(x, cnt, t->dt, root, c);
        PMPI_Bcast(y, cnt, t->dt, root, c);
        same(x, y, b, "bcast", t->name, NULL, n, root);
        for (int ip = 0; ip < 2; ip++) {
            memset(x, 0, pb);
            memset(y, 0, pb);
            if (ip && r) { /* root's own block in place */
                memcpy(x + (size_t)me * b, in, b);
                memcpy(y + (size_t)me * b, in, b);
            }
            const void *s = ip && r ? MPI_IN_PLACE : in;
            MPI_Gather(s, cnt, t->dt, x, cnt, t->dt, root, c);
            PMPI_Gather(s, cnt, t->dt, y, cnt, t->dt, root, c);
            if (r)
                same(x, y, pb, ip ? "gather in-place" : "gather", t->name,
                     NULL, n, root);
            memset(x, 0, pb);
            memset(y, 0, pb);
            void *rx = ip && r ? MPI_IN_PLACE : x;
            void *ry = ip && r ? MPI_IN_PLACE : y;
            MPI_Scatter(in, cnt, t->dt, rx, cnt, t->dt, root, c);
            PMPI_Scatter(in, cnt, t->dt, ry, cnt, t->dt, root, c);
            same(x, y, b, ip ? "scatter in-place" : "scatter", t->name, NULL,
                 n, root);
        }
    }
    for (int ip = 0; ip < 2; ip++) {
        memcpy(x, in, pb);
        memcpy(y, in, pb);
        MPI_Allgather(ip ? MPI_IN_PLACE : in, cnt, t->dt, x, cnt, t->dt, c);
        PMPI_Allgather(ip ? MPI_IN_PLACE : in, cnt, t->dt, y, cnt, t->dt, c);
        same(x, y, pb, ip ? "allgather in-place" : "allgather", t->name, NULL,
             n, -1);
        memcpy(x, in, pb);
        memcpy(y, in, pb);
        MPI_Alltoall(ip ? MPI_IN_PLACE : in, cnt, t->dt, x, cnt, t->dt, c);
        PMPI_Alltoall(ip ? MPI_IN_PLACE : in, cnt, t->dt, y, cnt, t->dt, c);
        same(x, y, pb, ip ? "alltoall in-place" : "alltoall", t->name, NULL,
             n, -1);
    }
    free(in);
    free(x);
    free(y);
}

void movement(MPI_Comm c, size_t count, int all_roots)
{
    static const char *names[] = {"char", "int", "double", "2int",
                                  "double complex"};
    for (int ti = 0; ti < ntypes; ti++)
        for (int k = 0; k < 5; k++)
            if (!strcmp(types[ti].name, names[k]) && (!quick || k != 4))
                move1(c, &types[ti], count, all_roots);
    MPI_Barrier(c);
}

/* Datatypes that differ between ranks while the type signatures match:
 * the root describes its buffer with a vector (gaps) or a contiguous
 * type, the others with plain MPI_INT. */
/* the arguments MPI ignores on a rank (a non-root's root side, the count
 * beside MPI_IN_PLACE) are -1 and MPI_DATATYPE_NULL, as MPICH's tests pass
 * them (coll/scatter3: the root's counts are real, the others' -1): every
 * rank must still take the same path (a hang otherwise) */
static void insignificant(MPI_Comm c, const int *in, int *x, int *y,
                          size_t all)
{
    int P = csize(c), me = crank(c);
    const MPI_Datatype no = MPI_DATATYPE_NULL;
    for (int root = 0; root < P; root++) {
        int r = me == root;
        for (int nb = 0; nb < 2; nb++) {
            MPI_Request q = MPI_REQUEST_NULL;
            memcpy(x, in, all);
            memcpy(y, in, all);
            if (nb)
                MPI_Iscatter(r ? in : NULL, r ? 6 : -1, r ? MPI_INT : no,
                             x, 6, MPI_INT, root, c, &q);
            else
                MPI_Scatter(r ? in : NULL, r ? 6 : -1, r ? MPI_INT : no,
                            x, 6, MPI_INT, root, c);
            MPI_Wait(&q, MPI_STATUS_IGNORE);
            PMPI_Scatter(r ? in : NULL, r ? 6 : -1, r ? MPI_INT : no, y, 6,
                         MPI_INT, root, c);
            same(x, y, all, nb ? "iscatter, -1 where ignored"
                               : "scatter, -1 where ignored",
                 "int", NULL, 6, root);
            if (nb)
                MPI_Igather(r ? MPI_IN_PLACE : in, r ? -1 : 6,
                            r ? no : MPI_INT, r ? x : NULL, r ? 6 : -1,
                            r ? MPI_INT : no, root, c, &q);
            else
                MPI_Gather(r ? MPI_IN_PLACE : in, r ? -1 : 6,
                           r ? no : MPI_INT, r ? x : NULL, r ? 6 : -1,
                           r ? MPI_INT : no, root, c);
            MPI_Wait(&q, MPI_STATUS_IGNORE);
            PMPI_Gather(r ? MPI_IN_PLACE : in, r ? -1 : 6, r ? no : MPI_INT,
                        r ? y : NULL, r ? 6 : -1, r ? MPI_INT : no, root, c);
            if (r)
                same(x, y, all, nb ? "igather, -1 where ignored"
                                   : "gather, -1 where ignored",
                     "int", NULL, 6, root);
        }
    }
}

/* MPI_Allgatherv in place: the send count and type are ignored, -1 and
 * MPI_DATATYPE_NULL on odd ranks (the library read that count once, and
 * the odd ranks went to MPI while the even ones waited in manycoll) */
static void insignificant_v(MPI_Comm c, const int *in, int *x, int *y,
                            size_t all)
{
    int P = csize(c), me = crank(c), odd = me % 2;
    int *cnt = xalloc(sizeof(int) * (size_t)P);
    int *dsp = xalloc(sizeof(int) * (size_t)P);
    for (int q = 0; q < P; q++) {
        cnt[q] = 6;
        dsp[q] = 6 * q;
    }
    for (int nb = 0; nb < 2; nb++) {
        MPI_Request q = MPI_REQUEST_NULL;
        MPI_Datatype st = odd ? MPI_DATATYPE_NULL : MPI_INT;
        memcpy(x, in, all);
        memcpy(y, in, all);
        if (nb)
            MPI_Iallgatherv(MPI_IN_PLACE, odd ? -1 : 6, st, x, cnt, dsp,
                            MPI_INT, c, &q);
        else
            MPI_Allgatherv(MPI_IN_PLACE, odd ? -1 : 6, st, x, cnt, dsp,
                           MPI_INT, c);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        PMPI_Allgatherv(MPI_IN_PLACE, odd ? -1 : 6, st, y, cnt, dsp, MPI_INT,
                        c);
        same(x, y, all, nb ? "iallgatherv in place, -1 where ignored"
                           : "allgatherv in place, -1 where ignored",
             "int", NULL, 6, -1);
    }
    free(cnt);
    free(dsp);
}

void derived(MPI_Comm c)
{
    int P = csize(c), me = crank(c);
    MPI_Datatype vec, c4, vec1;
    MPI_Type_vector(3, 2, 4, MPI_INT, &vec); /* 6 ints over 10 */
    MPI_Type_create_resized(vec, 0, 12 * sizeof(int), &vec1);
    MPI_Type_contiguous(6, MPI_INT, &c4);
    MPI_Type_commit(&vec1);
    MPI_Type_commit(&c4);
    enum { N = 12 * 8 };
    int *in = xalloc(sizeof(int) * N * (size_t)P);
    int *x = xalloc(sizeof(int) * N * (size_t)P);
    int *y = xalloc(sizeof(int) * N * (size_t)P);
    size_t all = sizeof(int) * N * (size_t)P;
    for (int i = 0; i < N * P; i++)
        in[i] = me * 1000 + i;
    for (int root = 0; root < P; root++) {
        int r = me == root;
        /* bcast: root 2 x vec1, others 12 ints or 2 x c4 */
        memcpy(x, in, all);
        memcpy(y, in, all);
        MPI_Datatype d = r ? vec1 : (me & 1) ? c4 : MPI_INT;
        int n = r ? 2 : (me & 1) ? 2 : 12;
        MPI_Bcast(x, n, d, root, c);
        PMPI_Bcast(y, n, d, root, c);
        same(x, y, all, "bcast derived", "vector/int", NULL, (size_t)n, root);
        /* gather: root receives 1 vec1 per rank; others send 6 ints */
        memset(x, 0, all);
        memset(y, 0, all);
        MPI_Gather(in, r ? 1 : 6, r ? vec1 : MPI_INT, x, 1, vec1, root, c);
        PMPI_Gather(in, r ? 1 : 6, r ? vec1 : MPI_INT, y, 1, vec1, root, c);
        if (r)
            same(x, y, all, "gather derived", "vector/int", NULL, 6, root);
        /* scatter: root sends 1 c4 per rank; others receive 1 vec1 */
        memset(x, 0, all);
        memset(y, 0, all);
        MPI_Scatter(in, 1, c4, x, 1, r ? c4 : vec1, root, c);
        PMPI_Scatter(in, 1, c4, y, 1, r ? c4 : vec1, root, c);
        same(x, y, all, "scatter derived", "c4/vector", NULL, 6, root);
    }
    insignificant(c, in, x, y, all);
    insignificant_v(c, in, x, y, all);
    /* allgather and alltoall with a vector on both sides, in place too */
    for (int ip = 0; ip < 2; ip++) {
        memcpy(x, in, all);
        memcpy(y, in, all);
        MPI_Allgather(ip ? MPI_IN_PLACE : in, 6, MPI_INT, x, 1, vec1, c);
        PMPI_Allgather(ip ? MPI_IN_PLACE : in, 6, MPI_INT, y, 1, vec1, c);
        same(x, y, all, ip ? "allgather derived in-place" : "allgather derived",
             "int/vector", NULL, 6, -1);
        memcpy(x, in, all);
        memcpy(y, in, all);
        MPI_Alltoall(ip ? MPI_IN_PLACE : in, 1, vec1, x, 1, vec1, c);
        PMPI_Alltoall(ip ? MPI_IN_PLACE : in, 1, vec1, y, 1, vec1, c);
        same(x, y, all, ip ? "alltoall derived in-place" : "alltoall derived",
             "vector", NULL, 1, -1);
    }
    MPI_Type_free(&vec);
    MPI_Type_free(&vec1);
    MPI_Type_free(&c4);
    free(in);
    free(x);
    free(y);
}

/* ---- 8- and 16-bit integer sums and products that overflow ----
 * C's wrap-around, computed here: Open MPI 4.1.4's op/avx saturates these
 * sums (int8 31 + 32 + 33 + 34 gives 127, not -126), and across nodes the
 * library's inter-node phase is the MPI's reduction, so it must use
 * manycoll's kernel there (src/mpi/provider.c). Blocking and in place,
 * 7 elements and past Open MPI's vector width and MC_MPI_SEGMENT. */

/* element i of rank r */
static uint64_t narrow_in(int size, int prod, int r, size_t i)
{
    unsigned k = (unsigned)((i + (size_t)r) % 8);
    if (prod)
        return size == 1 ? 7 + k : 181 + k;
    return size == 1 ? 31 + k : 16001 + 13 * k;
}

void narrow_overflow(MPI_Comm c)
{
    static const size_t counts[] = {7, 100, 1500};
    int P = csize(c), me = crank(c);
    for (int ti = 0; ti < ntypes; ti++) {
        const tinfo_t *t = &types[ti];
        if ((t->kind != K_SINT && t->kind != K_UINT) || t->size > 2)
            continue;
        size_t sz = (size_t)t->size;
        for (int prod = 0; prod < 2; prod++)
            for (size_t ci = 0; ci < 3; ci++) {
                size_t n = counts[ci], b = n * sz;
                unsigned char *in = xalloc(b), *x = xalloc(b),
                              *want = xalloc(b);
                for (size_t i = 0; i < n; i++) {
                    uint64_t v = narrow_in(t->size, prod, me, i), acc = 0;
                    memcpy(in + i * sz, &v, sz); /* little endian */
                    for (int r = 0; r < P; r++) {
                        uint64_t w = narrow_in(t->size, prod, r, i);
                        acc = r == 0 ? w : prod ? acc * w : acc + w;
                    }
                    memcpy(want + i * sz, &acc, sz); /* wrapped */
                }
                MPI_Op op = prod ? MPI_PROD : MPI_SUM;
                const char *on = prod ? "prod (wraps)" : "sum (wraps)";
                for (int ip = 0; ip < 2; ip++) {
                    memcpy(x, in, b);
                    MPI_Allreduce(ip ? MPI_IN_PLACE : in, x, (int)n, t->dt,
                                  op, c);
                    same(x, want, b, ip ? "allreduce in-place" : "allreduce",
                         t->name, on, n, -1);
                    for (int k = 0; k < (P > 1 ? 2 : 1); k++) {
                        int root = k ? P - 1 : 0;
                        memcpy(x, in, b);
                        int at = ip && me == root;
                        MPI_Reduce(at ? MPI_IN_PLACE : in, x, (int)n, t->dt,
                                   op, root, c);
                        if (me == root)
                            same(x, want, b,
                                 ip ? "reduce in-place" : "reduce", t->name,
                                 on, n, root);
                    }
                }
                free(in);
                free(x);
                free(want);
            }
    }
}
