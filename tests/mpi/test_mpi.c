/*
 * libmanycoll_mpi against the MPI library itself, in the same run: every
 * case calls MPI_X (interposed: manycoll, the hierarchy, or MPI where the
 * library passes it on) and PMPI_X (the MPI library, untouched) on the
 * same inputs and compares the outputs byte for byte. Inputs are small
 * integers, so floating-point sums and products are exact in any order.
 *
 *   cases: every collective the library interposes; predefined types
 *   (every C integer, float, double, bool, byte, char, MPI_AINT, MPI_2INT
 *   with MINLOC/MAXLOC, float and double complex); every builtin op, a commutative
 *   user op and a non-commutative one that sees every operand's position;
 *   every root; in place and not; counts 0, 1, 7 and one past the
 *   hierarchy's segment; derived datatypes (vector, contiguous) including
 *   type signatures that match while the datatypes differ between ranks;
 *   MPI_COMM_WORLD, a duplicate, a split, MPI_COMM_SELF, an
 *   intercommunicator; communicators made and freed in a loop.
 *
 * Then it asks the library (mc_mpi_query) where the calls went, so a run
 * in which everything silently fell back to MPI fails:
 *   test_mpi --expect flat|hier|pmpi|off [--uneven] [--quick] [--small]
 * --quick: fewer communicators and counts; --small: one type of each kind
 * in the type-and-op matrix, --tiny: int, double, uint64, byte and char
 * (for MPIs that are slow oversubscribed, where the reference calls take
 * most of the time); --nb: only the non-blocking cases, on MPI_COMM_WORLD
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "test_mpi.h"

int rank, failures, cases, quick, small, lib_off;
tinfo_t types[32];
int ntypes;
opinfo_t ops[16];
int nops;
MPI_Op op_affine, op_isum;

/* ---- types ---- */

static void add(MPI_Datatype dt, const char *name, int size, int kind)
{
    /* --small: one of each C type family, and those the library passes on */
    static const char *few[] = {"int", "double", "uint64_t", "byte",
                                "char", "signed char", "unsigned short",
                                "long", "uint32_t", "float", "bool", "2int",
                                "double complex"};
    int keep = !small;
    for (size_t i = 0; i < (small > 1 ? 5 : sizeof few / sizeof *few); i++)
        keep |= !strcmp(name, few[i]);
    if (keep)
        types[ntypes++] = (tinfo_t){dt, name, size, kind};
}

void init_types(void)
{
    add(MPI_SIGNED_CHAR, "signed char", 1, K_SINT);
    add(MPI_UNSIGNED_CHAR, "unsigned char", 1, K_UINT);
    add(MPI_SHORT, "short", sizeof(short), K_SINT);
    add(MPI_UNSIGNED_SHORT, "unsigned short", sizeof(short), K_UINT);
    add(MPI_INT, "int", sizeof(int), K_SINT);
    add(MPI_UNSIGNED, "unsigned", sizeof(int), K_UINT);
    add(MPI_LONG, "long", sizeof(long), K_SINT);
    add(MPI_UNSIGNED_LONG, "unsigned long", sizeof(long), K_UINT);
    add(MPI_LONG_LONG, "long long", sizeof(long long), K_SINT);
    add(MPI_UNSIGNED_LONG_LONG, "unsigned long long", 8, K_UINT);
    add(MPI_INT8_T, "int8_t", 1, K_SINT);
    add(MPI_INT16_T, "int16_t", 2, K_SINT);
    add(MPI_INT32_T, "int32_t", 4, K_SINT);
    add(MPI_INT64_T, "int64_t", 8, K_SINT);
    add(MPI_UINT8_T, "uint8_t", 1, K_UINT);
    add(MPI_UINT16_T, "uint16_t", 2, K_UINT);
    add(MPI_UINT32_T, "uint32_t", 4, K_UINT);
    add(MPI_UINT64_T, "uint64_t", 8, K_UINT);
    add(MPI_FLOAT, "float", sizeof(float), K_FLOAT);
    add(MPI_DOUBLE, "double", sizeof(double), K_FLOAT);
    add(MPI_C_BOOL, "bool", 1, K_BOOL);
    add(MPI_BYTE, "byte", 1, K_BYTE);
    add(MPI_CHAR, "char", 1, K_CHAR);
    add(MPI_AINT, "MPI_Aint", sizeof(MPI_Aint), K_SINT);
    add(MPI_2INT, "2int", 2 * sizeof(int), K_PAIR);
    add(MPI_C_DOUBLE_COMPLEX, "double complex", 16, K_CPLX);
    add(MPI_C_FLOAT_COMPLEX, "float complex", 8, K_CPLX);
}

/* element i of rank r's input: small values, exact in any order;
 * seed > 100 for min and max */
void fill(const tinfo_t *t, void *buf, size_t n, int r, int seed)
{
    unsigned char *p = buf;
    for (size_t i = 0; i < n; i++, p += t->size) {
        int v = (int)((r * 3 + i * 7 + (size_t)seed) % 3) + 1;
        switch (t->kind) {
        case K_FLOAT:
            if (t->size == 4)
                *(float *)(void *)p = (float)v;
            else
                *(double *)(void *)p = (double)v;
            break;
        case K_BOOL: *p = (unsigned char)(v & 1); break;
        case K_PAIR:
            ((int *)(void *)p)[0] = v;
            ((int *)(void *)p)[1] = r;
            break;
        case K_CPLX:
            if (t->size == 8) {
                ((float *)(void *)p)[0] = (float)v;
                ((float *)(void *)p)[1] = (float)-v;
            } else {
                ((double *)(void *)p)[0] = v;
                ((double *)(void *)p)[1] = -v;
            }
            break;
        default: {
            /* every other element negative, alternating between ranks;
             * for unsigned types only with seed
             * > 100 (min/max): the high bit set makes signed and unsigned
             * compare differently, and sums must not wrap (Open MPI
             * 4.1.4's vectorised unsigned char and short sums saturate
             * from 32 elements) */
            int neg = ((i + (size_t)r) & 1) && (t->kind == K_SINT || seed > 100);
            int64_t x = neg ? -v : v;
            memcpy(p, &x, (size_t)t->size); /* little endian: low bytes */
        }
        }
    }
}

/* ---- ops ---- */

/* x -> a*x + b mod 2^32 as one uint64 (a high): inout = inout after in */
static void affine(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    uint64_t *x = in, *y = inout;
    (void)dt;
    for (int i = 0; i < *len; i++) {
        uint32_t a1 = (uint32_t)(x[i] >> 32), b1 = (uint32_t)x[i];
        uint32_t a2 = (uint32_t)(y[i] >> 32), b2 = (uint32_t)y[i];
        y[i] = ((uint64_t)(a2 * a1) << 32) | (uint32_t)(a2 * b1 + b2);
    }
}

static void isum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    int *x = in, *y = inout;
    (void)dt;
    for (int i = 0; i < *len; i++)
        y[i] += x[i];
}

void init_ops(void)
{
    static const char *names[] = {"sum", "prod", "min", "max", "band",
                                  "bor", "bxor", "land", "lor", "lxor",
                                  "maxloc", "minloc"};
    MPI_Op o[] = {MPI_SUM, MPI_PROD, MPI_MIN, MPI_MAX, MPI_BAND, MPI_BOR,
                  MPI_BXOR, MPI_LAND, MPI_LOR, MPI_LXOR, MPI_MAXLOC,
                  MPI_MINLOC};
    for (int i = 0; i < 12; i++)
        ops[nops++] = (opinfo_t){o[i], names[i]};
    MPI_Op_create(affine, 0, &op_affine);
    MPI_Op_create(isum, 1, &op_isum);
}

/* 1 if MPI defines op on the type (the cases only use valid pairs) */
int valid(const tinfo_t *t, int oi)
{
    const char *n = ops[oi].name;
    int arith = !strcmp(n, "sum") || !strcmp(n, "prod");
    int minmax = !strcmp(n, "min") || !strcmp(n, "max");
    int bit = n[0] == 'b';
    int logic = n[0] == 'l';
    int loc = !strcmp(n, "maxloc") || !strcmp(n, "minloc");
    switch (t->kind) {
    case K_SINT: case K_UINT: return !loc;
    case K_FLOAT: return arith || minmax;
    case K_BOOL: return logic;
    case K_BYTE: return bit;
    case K_PAIR: return loc;
    case K_CPLX: return arith;
    default: return 0;
    }
}


/* ---- communicators ---- */

typedef int (*query_fn)(MPI_Comm, const char *, long *, long *, int *);

static void on_comm(MPI_Comm c, const char *name, int full)
{
    size_t big = quick ? 300 : 2500; /* past MC_MPI_SEGMENT=1K in tests */
    reductions(c, 7, full);
    user_ops(c, 7);
    narrow_overflow(c);
    size_t counts[] = {0, 1, big};
    for (int i = 0; i < 3 && full; i++) {
        reductions(c, counts[i], 0);
        user_ops(c, counts[i]);
    }
    movement(c, 7, 1);
    if (full) {
        movement(c, 0, 0);
        movement(c, big, 0);
    }
    derived(c);
    vcases(c, 1, 1);
    nbcases(c);
    scans(c);
    if (full)
        vcases(c, (int)big / 6, 0);
    if (rank == 0 && getenv("TEST_MPI_VERBOSE"))
        printf("test_mpi: %s done (%d cases so far)\n", name, cases);
}

/* an intercommunicator between the two halves: the library passes its
 * collectives to MPI; they must still work */
static void intercomm(void)
{
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2)
        return;
    MPI_Comm half, inter;
    int low = rank < size / 2;
    MPI_Comm_split(MPI_COMM_WORLD, low, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? size / 2 : 0, 7,
                         &inter);
    int x = rank + 1, a = 0, b = 0;
    MPI_Allreduce(&x, &a, 1, MPI_INT, MPI_SUM, inter);
    PMPI_Allreduce(&x, &b, 1, MPI_INT, MPI_SUM, inter);
    cases++;
    if (a != b)
        FAIL("intercommunicator allreduce: %d, MPI gives %d", a, b);
    MPI_Barrier(inter);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
}

/* Communicators made from a group of a set-up communicator: Open MPI 4.1
 * copies attributes on MPI_Comm_create_group, so the library must not take
 * the parent's state for a subset (the even ranks) or a reordering (all
 * ranks, reversed); found by MPICH's coll tests (allred2 hung) */
static void from_groups(void)
{
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Group world, even, rev;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int range[1][3] = {{0, size - 1, 2}}, back[1][3] = {{size - 1, 0, -1}};
    MPI_Group_range_incl(world, 1, range, &even);
    MPI_Group_range_incl(world, 1, back, &rev);
    MPI_Comm c;
    if (rank % 2 == 0) {
        MPI_Comm_create_group(MPI_COMM_WORLD, even, 5, &c);
        reductions(c, 7, 0);
        movement(c, 7, 1);
        MPI_Comm_free(&c);
    }
    MPI_Comm_create_group(MPI_COMM_WORLD, rev, 6, &c);
    reductions(c, 7, 0);
    movement(c, 7, 1);
    MPI_Comm_free(&c);
    MPI_Group_free(&rev);
    MPI_Group_free(&even);
    MPI_Group_free(&world);
}

/* did the calls go where the shape says? */
static void check_path(const char *expect, int uneven)
{
    query_fn q = (query_fn)(uintptr_t)dlsym(RTLD_DEFAULT, "mc_mpi_query");
    long mc = 0, pm = 0;
    int path = -1;
    if (!q) {
        FAIL("libmanycoll_mpi is not loaded (no mc_mpi_query)");
        return;
    }
    int want = !strcmp(expect, "flat") ? 1 : !strcmp(expect, "hier") ? 2 : 0;
    static const char *colls[] = {"barrier", "bcast", "reduce", "allreduce",
                                  "allgather", "reduce_scatter_block",
                                  "gather", "scatter"};
    if (rank == 0 && getenv("TEST_MPI_VERBOSE"))
        printf("test_mpi: checking the path (%s%s)\n", expect,
               uneven ? ", uneven" : "");
    q(MPI_COMM_WORLD, NULL, &mc, &pm, &path);
    if (!strcmp(expect, "off")) { /* loaded but turned off: no path */
        if (path != -1 || mc)
            FAIL("the library is on (path %d, %ld calls taken)", path, mc);
        return;
    }
    if (path != want)
        FAIL("MPI_COMM_WORLD took path %d, expected %s", path, expect);
    /* uneven nodes: the four collectives that have a leaders' form */
    for (int i = 0; want && i < (uneven ? 4 : 8); i++) {
        q(MPI_COMM_WORLD, colls[i], &mc, &pm, &path);
        if (mc == 0)
            FAIL("no %s went to manycoll (%ld to MPI)", colls[i], pm);
    }
    /* the v-variants and scans: on one node only */
    static const char *vcolls[] = {"allgatherv", "alltoallv", "gatherv",
                                   "scatterv", "reduce_scatter", "scan",
                                   "exscan"};
    for (int i = 0; want && i < 7; i++) {
        q(MPI_COMM_WORLD, vcolls[i], &mc, &pm, &path);
        if ((mc > 0) != (want == 1))
            FAIL("%ld %s went to manycoll on path %s (%ld to MPI)", mc,
                 vcolls[i], expect, pm);
    }
    q(MPI_COMM_SELF, NULL, &mc, &pm, &path);
    if (path > 0)
        FAIL("MPI_COMM_SELF took manycoll's path %d", path);
}

static void all_comms(const char *expect, int uneven);

int main(int argc, char **argv)
{
    const char *expect = "flat";
    int uneven = 0, nb_only = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--small"))
            small = 1;
        else if (!strcmp(argv[i], "--tiny"))
            small = 2;
        else if (!strcmp(argv[i], "--uneven"))
            uneven = 1;
        else if (!strcmp(argv[i], "--nb"))
            nb_only = 1;
        else if (!strcmp(argv[i], "--expect") && i + 1 < argc)
            expect = argv[++i];
    }
    lib_off = !strcmp(expect, "off");
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    init_types();
    init_ops();
    if (nb_only)
        nbcases(MPI_COMM_WORLD);
    else
        all_comms(expect, uneven);
    int bad = 0;
    MPI_Allreduce(&failures, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("test_mpi: %d cases on rank 0, %d failures on all ranks\n",
               cases, bad);
    MPI_Op_free(&op_affine);
    MPI_Op_free(&op_isum);
    MPI_Finalize();
    return bad ? 1 : 0;
}

/* every communicator of the header's list, then where the calls went */
static void all_comms(const char *expect, int uneven)
{
    on_comm(MPI_COMM_WORLD, "MPI_COMM_WORLD", 1);
    MPI_Comm dup, split;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    on_comm(dup, "a duplicate", 0);
    /* reversed order, every other rank: not blocks of the world's nodes */
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &split);
    on_comm(split, "a split", 0);
    MPI_Comm_free(&split);
    /* even ranks first: with nodes of consecutive world ranks, every node
     * is spread over the communicator (not blocks: round robin) */
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_split(MPI_COMM_WORLD, 0, (rank % 2) * size + rank, &split);
    on_comm(split, "an interleaved communicator", 0);
    MPI_Comm_free(&split);
    on_comm(MPI_COMM_SELF, "MPI_COMM_SELF", 0);
    intercomm();
    from_groups();
    for (int i = 0; i < (quick ? 5 : 20); i++) { /* nothing may pile up */
        MPI_Comm d;
        MPI_Comm_dup(dup, &d);
        int x = i, y = -1;
        MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_MAX, d);
        cases++;
        if (y != i)
            FAIL("allreduce on duplicate %d gave %d", i, y);
        MPI_Comm_free(&d);
    }
    MPI_Comm_free(&dup);
    check_path(expect, uneven);
}
