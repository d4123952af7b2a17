/*
 * mpi_diff's types, ops, inputs and reference (mpi_diff.h). The reference
 * is computed on each rank from every rank's inputs, which each rank
 * generates alike from (seed, case, rank, element): no communication, and
 * nothing of the MPI or of manycoll.
 */
#include <string.h>

#include "mpi_diff.h"

dtype_t diff_types[NTYPES_D];

#define T(i, n, d, s, k) diff_types[i] = (dtype_t){n, d, s, k}
void diff_types_init(void)
{
    T(0, "int8", MPI_INT8_T, 1, K_INT);
    T(1, "uint8", MPI_UINT8_T, 1, K_UINT);
    T(2, "int16", MPI_INT16_T, 2, K_INT);
    T(3, "uint16", MPI_UINT16_T, 2, K_UINT);
    T(4, "int32", MPI_INT32_T, 4, K_INT);
    T(5, "uint32", MPI_UINT32_T, 4, K_UINT);
    T(6, "int64", MPI_INT64_T, 8, K_INT);
    T(7, "uint64", MPI_UINT64_T, 8, K_UINT);
    T(8, "signed char", MPI_SIGNED_CHAR, 1, K_INT);
    T(9, "unsigned char", MPI_UNSIGNED_CHAR, 1, K_UINT);
    T(10, "short", MPI_SHORT, (int)sizeof(short), K_INT);
    T(11, "unsigned short", MPI_UNSIGNED_SHORT, (int)sizeof(short), K_UINT);
    T(12, "int", MPI_INT, (int)sizeof(int), K_INT);
    T(13, "unsigned", MPI_UNSIGNED, (int)sizeof(int), K_UINT);
    T(14, "long", MPI_LONG, (int)sizeof(long), K_INT);
    T(15, "unsigned long", MPI_UNSIGNED_LONG, (int)sizeof(long), K_UINT);
    T(16, "long long", MPI_LONG_LONG, (int)sizeof(long long), K_INT);
    T(17, "float", MPI_FLOAT, 4, K_FLOAT);
    T(18, "double", MPI_DOUBLE, 8, K_DOUBLE);
    T(19, "2int", MPI_2INT, 8, K_2INT);
    T(20, "double_int", MPI_DOUBLE_INT, 16, K_DOUBLE_INT);
}
#undef T

const char *const diff_op_names[NOPS] = {
    "sum", "prod", "min", "max", "land", "lor",
    "lxor", "band", "bor", "bxor", "maxloc", "minloc"};

MPI_Op diff_op(op_t o)
{
    switch (o) {
    case O_SUM: return MPI_SUM;
    case O_PROD: return MPI_PROD;
    case O_MIN: return MPI_MIN;
    case O_MAX: return MPI_MAX;
    case O_LAND: return MPI_LAND;
    case O_LOR: return MPI_LOR;
    case O_LXOR: return MPI_LXOR;
    case O_BAND: return MPI_BAND;
    case O_BOR: return MPI_BOR;
    case O_BXOR: return MPI_BXOR;
    case O_MAXLOC: return MPI_MAXLOC;
    default: return MPI_MINLOC;
    }
}

int diff_op_valid(op_t o, kind_t k)
{
    if (k == K_2INT || k == K_DOUBLE_INT)
        return o == O_MAXLOC || o == O_MINLOC;
    if (o == O_MAXLOC || o == O_MINLOC)
        return 0;
    if (k == K_FLOAT || k == K_DOUBLE)
        return o <= O_MAX;
    return 1;
}

/* splitmix64's finaliser */
uint64_t diff_rand(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static uint64_t draw(uint64_t seed, int c, int r, long j)
{
    return diff_rand(seed ^ diff_rand((uint64_t)c * 0x10001ull +
                                      diff_rand((uint64_t)r << 40 ^
                                                (uint64_t)j)));
}

typedef struct { int v, i; } pair_i;
typedef struct { double v; int i; } pair_d;

/* a small integer in [lo, hi] */
static long small(uint64_t x, long lo, long hi)
{
    return lo + (long)(x % (uint64_t)(hi - lo + 1));
}

void diff_input(const dtype_t *t, op_t o, uint64_t seed, int c, int r,
                long j, void *p)
{
    uint64_t x = draw(seed, c, r, j);
    long f = o == O_PROD ? small(x, -2, 2)
             : o == O_SUM ? small(x, -64, 64)
                          : small(x, -1000000, 1000000);
    switch (t->kind) {
    case K_FLOAT: *(float *)p = (float)f; return;
    case K_DOUBLE: *(double *)p = (double)f; return;
    case K_2INT: *(pair_i *)p = (pair_i){(int)small(x, 0, 3), r}; return;
    case K_DOUBLE_INT:
        memset(p, 0, sizeof(pair_d));
        ((pair_d *)p)->v = (double)small(x, 0, 3);
        ((pair_d *)p)->i = r;
        return;
    default:
        /* logical ops: zero a third of the time */
        if (o >= O_LAND && o <= O_LXOR && x % 3 == 0)
            x = 0;
        memcpy(p, &x, (size_t)t->size); /* (little-endian) */
    }
}

void diff_bytes(uint64_t seed, int c, int r, void *p, size_t n)
{
    unsigned char *b = p;
    for (size_t i = 0; i < n; i += 8) {
        uint64_t x = draw(seed, c, r, (long)i);
        memcpy(b + i, &x, n - i < 8 ? n - i : 8);
    }
}

/* an integer element as 64 bits: signed ones sign-extended */
static uint64_t get_int(const dtype_t *t, const void *p)
{
    uint64_t x = 0;
    memcpy(&x, p, (size_t)t->size);
    int bits = 8 * t->size;
    if (t->kind == K_INT && bits < 64 && (x >> (bits - 1) & 1))
        x |= ~0ull << bits;
    return x;
}

static int less(const dtype_t *t, uint64_t a, uint64_t b)
{
    return t->kind == K_INT ? (int64_t)a < (int64_t)b : a < b;
}

static uint64_t int_op(const dtype_t *t, op_t o, uint64_t a, uint64_t b)
{
    switch (o) {
    case O_SUM: return a + b;
    case O_PROD: return a * b;
    case O_MIN: return less(t, b, a) ? b : a;
    case O_MAX: return less(t, a, b) ? b : a;
    case O_LAND: return a && b;
    case O_LOR: return a || b;
    case O_LXOR: return !a != !b;
    case O_BAND: return a & b;
    case O_BOR: return a | b;
    default: return a ^ b;
    }
}

static double real_op(op_t o, double a, double b)
{
    switch (o) {
    case O_SUM: return a + b;
    case O_PROD: return a * b;
    case O_MIN: return b < a ? b : a;
    default: return b > a ? b : a;
    }
}

/* MAXLOC / MINLOC: the better value, or on a tie the smaller index */
#define LOC(T, acc, x, o)                                                    \
    do {                                                                     \
        T *a_ = (acc);                                                       \
        const T *x_ = (x);                                                   \
        int better = (o) == O_MAXLOC ? x_->v > a_->v : x_->v < a_->v;        \
        if (better || (x_->v == a_->v && x_->i < a_->i))                     \
            *a_ = *x_;                                                       \
    } while (0)

void diff_combine(const dtype_t *t, op_t o, void *acc, const void *x)
{
    switch (t->kind) {
    case K_FLOAT:
        *(float *)acc = (float)real_op(o, *(float *)acc, *(const float *)x);
        return;
    case K_DOUBLE:
        *(double *)acc = real_op(o, *(double *)acc, *(const double *)x);
        return;
    case K_2INT: LOC(pair_i, acc, x, o); return;
    case K_DOUBLE_INT: LOC(pair_d, acc, x, o); return;
    default: {
        uint64_t r = int_op(t, o, get_int(t, acc), get_int(t, x));
        memcpy(acc, &r, (size_t)t->size);
    }
    }
}

int diff_equal(const dtype_t *t, const void *a, const void *b)
{
    switch (t->kind) {
    case K_FLOAT: return *(const float *)a == *(const float *)b;
    case K_DOUBLE: return *(const double *)a == *(const double *)b;
    case K_2INT: return !memcmp(a, b, sizeof(pair_i));
    case K_DOUBLE_INT: {
        const pair_d *x = a, *y = b;
        return x->v == y->v && x->i == y->i;
    }
    default: return get_int(t, a) == get_int(t, b);
    }
}
