/*
 * Which datatypes and ops manycoll takes, decided from values MPI requires
 * to be the same on every rank of a reduction (the datatype and the op).
 *
 *   predefined C types, by MPI's op groups (MPI-4.1 section 6.9.2):
 *     C integer (signed/unsigned char, short, int, long, long long,
 *       intN_t, uintN_t)        SUM PROD MIN MAX BAND BOR BXOR LAND LOR
 *     floating (float, double) SUM PROD MIN MAX
 *     complex (C and C++ float and double complex)
 *                              SUM PROD
 *     pairs (MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_2INT, MPI_LONG_INT)
 *                              MINLOC MAXLOC
 *     byte (MPI_BYTE)          BAND BOR BXOR
 *     logical (MPI_C_BOOL)     LAND LOR
 *     multi-language (MPI_AINT, MPI_OFFSET, MPI_COUNT)
 *                              SUM PROD MIN MAX BAND BOR BXOR
 *   a user op (MPI_Op_create, whose commutativity is known) on any of
 *     the predefined types above, and on the other predefined types of 1,
 *     2, 4 or 8 bytes: manycoll moves the elements, the user's function
 *     combines them
 *   everything else (MPI_LXOR, MPI_REPLACE, derived datatypes, long
 *     double and its complex and pair, MPI_SHORT_INT, Fortran types, an op
 *     MPI does not define on the type): the MPI library, which also
 *     reports the errors
 *
 * Lookups are maps (util/map.h) keyed by the handle's bits, filled once
 * at MPI_Init: one or two probes, no call into MPI.
 */
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>

#include "mpi/mcmpi.h"

mc_map_t mcm_types;
mc_map_t mcm_ops;
_Thread_local mcm_ctx_t mcm_ctx;

enum { G_INT, G_FLOAT, G_BYTE, G_LOGICAL, G_MULTI, G_COMPLEX, G_PAIR, G_NONE };

#define B(op) (1u << (op))
static const uint16_t group_ops[] = {
    [G_INT] = B(MC_SUM) | B(MC_PROD) | B(MC_MIN) | B(MC_MAX) | B(MC_BAND) |
              B(MC_BOR) | B(MC_BXOR) | B(MC_LAND) | B(MC_LOR),
    [G_FLOAT] = B(MC_SUM) | B(MC_PROD) | B(MC_MIN) | B(MC_MAX),
    [G_BYTE] = B(MC_BAND) | B(MC_BOR) | B(MC_BXOR),
    [G_LOGICAL] = B(MC_LAND) | B(MC_LOR),
    [G_MULTI] = B(MC_SUM) | B(MC_PROD) | B(MC_MIN) | B(MC_MAX) | B(MC_BAND) |
                B(MC_BOR) | B(MC_BXOR),
    [G_COMPLEX] = B(MC_SUM) | B(MC_PROD),
    [G_PAIR] = B(MC_MINLOC) | B(MC_MAXLOC),
    [G_NONE] = 0,
};

static int mc_int(size_t size, int is_signed)
{
    switch (size) {
    case 1: return is_signed ? MC_INT8 : MC_UINT8;
    case 2: return is_signed ? MC_INT16 : MC_UINT16;
    case 4: return is_signed ? MC_INT32 : MC_UINT32;
    case 8: return is_signed ? MC_INT64 : MC_UINT64;
    default: return -1;
    }
}

/* a predefined type: group G_COMPLEX and G_PAIR name their mc type in
 * is_signed */
static void add_type(MPI_Datatype dt, int group, int is_signed, size_t size)
{
    uintptr_t k = mcm_key(&dt, sizeof dt);
    mcm_type_t *t;
    if (!k)
        return; /* not in this MPI (a weak symbol absent) */
    /* 0: an alias (MPICH's MPI_LONG_LONG_INT == MPI_LONG_LONG); < 0: out
     * of memory, the type is not known and goes to MPI */
    if (mc_map_add(&mcm_types, k, (void **)&t) != 1)
        return;
    int mc = -1;
    if (group == G_INT || group == G_BYTE || group == G_LOGICAL ||
        group == G_MULTI)
        mc = mc_int(size, is_signed);
    else if (group == G_FLOAT)
        mc = size == 4 ? MC_FLOAT32 : size == 8 ? MC_FLOAT64 : -1;
    else if (group == G_COMPLEX || group == G_PAIR)
        mc = mc_dtype_size(is_signed) == size ? is_signed : -1;
    int umc = mc_int(size, 0);
    if (umc < 0 && mc >= 0)
        umc = mc; /* 16-byte elements move as themselves */
    *t = (mcm_type_t){.mc = (int8_t)mc, .umc = (int8_t)umc,
                      .ops = mc >= 0 ? group_ops[group] : 0,
                      .size = (uint32_t)size, .dt = dt};
}

static void add_op(MPI_Op op, int mc)
{
    uintptr_t k = mcm_key(&op, sizeof op);
    mcm_op_t *o;
    if (k && mc_map_put(&mcm_ops, k, (void **)&o) >= 0)
        *o = (mcm_op_t){.mc = (int8_t)mc, .op = op};
}

/* ---- user ops: recorded by MPI_Op_create, run through a trampoline ---- */

#define MAX_UOPS 256
static struct uop {
    _Atomic uintptr_t key;
    MPI_User_function *fn;
    int commute;
} uops[MAX_UOPS];
static atomic_int nuops; /* high-water mark */
static pthread_mutex_t uop_lock = PTHREAD_MUTEX_INITIALIZER;
static mc_op_t tramp_op[2]; /* [commutative] */

static void trampoline(const void *in, void *inout, size_t count,
                       mc_dtype_t dt)
{
    size_t ds = mc_dtype_size(dt);
    const char *a = in;
    char *b = inout;
    while (count) {
        int n = count > INT_MAX ? INT_MAX : (int)count;
        mcm_ctx.fn((void *)a, b, &n, &mcm_ctx.dt);
        a += (size_t)n * ds;
        b += (size_t)n * ds;
        count -= (size_t)n;
    }
}

void mcm_types_init(void)
{
    mc_map_init(&mcm_types, sizeof(mcm_type_t));
    mc_map_init(&mcm_ops, sizeof(mcm_op_t));
    add_type(MPI_CHAR, G_NONE, 1, sizeof(char));
    add_type(MPI_SIGNED_CHAR, G_INT, 1, 1);
    add_type(MPI_UNSIGNED_CHAR, G_INT, 0, 1);
    add_type(MPI_BYTE, G_BYTE, 0, 1);
    add_type(MPI_SHORT, G_INT, 1, sizeof(short));
    add_type(MPI_UNSIGNED_SHORT, G_INT, 0, sizeof(short));
    add_type(MPI_INT, G_INT, 1, sizeof(int));
    add_type(MPI_UNSIGNED, G_INT, 0, sizeof(int));
    add_type(MPI_LONG, G_INT, 1, sizeof(long));
    add_type(MPI_UNSIGNED_LONG, G_INT, 0, sizeof(long));
    add_type(MPI_LONG_LONG_INT, G_INT, 1, sizeof(long long));
    add_type(MPI_UNSIGNED_LONG_LONG, G_INT, 0, sizeof(long long));
    add_type(MPI_INT8_T, G_INT, 1, 1);
    add_type(MPI_INT16_T, G_INT, 1, 2);
    add_type(MPI_INT32_T, G_INT, 1, 4);
    add_type(MPI_INT64_T, G_INT, 1, 8);
    add_type(MPI_UINT8_T, G_INT, 0, 1);
    add_type(MPI_UINT16_T, G_INT, 0, 2);
    add_type(MPI_UINT32_T, G_INT, 0, 4);
    add_type(MPI_UINT64_T, G_INT, 0, 8);
    add_type(MPI_FLOAT, G_FLOAT, 1, sizeof(float));
    add_type(MPI_DOUBLE, G_FLOAT, 1, sizeof(double));
    add_type(MPI_WCHAR, G_NONE, 0, sizeof(wchar_t));
    add_type(MPI_C_BOOL, G_LOGICAL, 0, sizeof(bool));
    add_type(MPI_AINT, G_MULTI, 1, sizeof(MPI_Aint));
    add_type(MPI_OFFSET, G_MULTI, 1, sizeof(MPI_Offset));
    add_type(MPI_COUNT, G_MULTI, 1, sizeof(MPI_Count));
    add_type(MPI_PACKED, G_NONE, 0, 1);
    add_type(MPI_C_COMPLEX, G_COMPLEX, MC_COMPLEX64, 2 * sizeof(float));
    add_type(MPI_C_FLOAT_COMPLEX, G_COMPLEX, MC_COMPLEX64, 2 * sizeof(float));
    add_type(MPI_C_DOUBLE_COMPLEX, G_COMPLEX, MC_COMPLEX128,
             2 * sizeof(double));
    add_type(MPI_CXX_FLOAT_COMPLEX, G_COMPLEX, MC_COMPLEX64,
             2 * sizeof(float));
    add_type(MPI_CXX_DOUBLE_COMPLEX, G_COMPLEX, MC_COMPLEX128,
             2 * sizeof(double));
    add_type(MPI_FLOAT_INT, G_PAIR, MC_FLOAT_INT,
             sizeof(struct { float v; int i; }));
    add_type(MPI_DOUBLE_INT, G_PAIR, MC_DOUBLE_INT,
             sizeof(struct { double v; int i; }));
    add_type(MPI_2INT, G_PAIR, MC_2INT, sizeof(struct { int v; int i; }));
    add_type(MPI_LONG_INT, G_PAIR, MC_LONG_INT,
             sizeof(struct { long v; int i; }));
    add_op(MPI_SUM, MC_SUM);
    add_op(MPI_PROD, MC_PROD);
    add_op(MPI_MIN, MC_MIN);
    add_op(MPI_MAX, MC_MAX);
    add_op(MPI_BAND, MC_BAND);
    add_op(MPI_BOR, MC_BOR);
    add_op(MPI_BXOR, MC_BXOR);
    add_op(MPI_LAND, MC_LAND);
    add_op(MPI_LOR, MC_LOR);
    add_op(MPI_LXOR, -1);
    add_op(MPI_MAXLOC, MC_MAXLOC);
    add_op(MPI_MINLOC, MC_MINLOC);
    add_op(MPI_REPLACE, -1);
    add_op(MPI_NO_OP, -1);
    mc_op_create(trampoline, 0, &tramp_op[0]);
    mc_op_create(trampoline, 1, &tramp_op[1]);
}

static const struct uop *uop_find(uintptr_t k)
{
    int n = atomic_load_explicit(&nuops, memory_order_acquire);
    for (int i = 0; i < n; i++)
        if (atomic_load_explicit(&uops[i].key, memory_order_acquire) == k)
            return &uops[i];
    return NULL;
}

int MPI_Op_create(MPI_User_function *fn, int commute, MPI_Op *op)
{
    int rc = PMPI_Op_create(fn, commute, op);
    if (rc != MPI_SUCCESS)
        return rc;
    uintptr_t k = mcm_key(op, sizeof *op);
    pthread_mutex_lock(&uop_lock);
    int n = atomic_load(&nuops), i = 0;
    while (i < n && atomic_load(&uops[i].key))
        i++;
    if (i < MAX_UOPS) {
        uops[i].fn = fn;
        uops[i].commute = commute != 0;
        /* release: fn and commute are in place before the key is seen */
        atomic_store_explicit(&uops[i].key, k, memory_order_release);
        if (i == n)
            atomic_store_explicit(&nuops, n + 1, memory_order_release);
    } /* else: more user ops than slots; this one goes to PMPI */
    pthread_mutex_unlock(&uop_lock);
    return rc;
}

int MPI_Op_free(MPI_Op *op)
{
    uintptr_t k = op ? mcm_key(op, sizeof *op) : 0;
    int rc = PMPI_Op_free(op);
    if (rc == MPI_SUCCESS && k) {
        pthread_mutex_lock(&uop_lock);
        int n = atomic_load(&nuops);
        for (int i = 0; i < n; i++)
            if (atomic_load(&uops[i].key) == k)
                atomic_store(&uops[i].key, 0);
        pthread_mutex_unlock(&uop_lock);
    }
    return rc;
}

int mcm_reduction(MPI_Datatype dt, MPI_Op op, mcm_red_t *r, const char **why)
{
    const mcm_type_t *t = mcm_type(dt);
    if (!t) {
        *why = "derived or non-C datatype";
        return -1;
    }
    int o = mcm_builtin_op(op);
    mcm_ctx.dt = dt;
    mcm_ctx.op = op;
    if (o >= 0) {
        if (!(t->ops & (1u << o))) {
            *why = "op not defined on the datatype by MPI";
            return -1;
        }
        *r = (mcm_red_t){.dt = (mc_dtype_t)t->mc, .op = (mc_op_t)o,
                         .commutative = 1};
        return 0;
    }
    const struct uop *u = uop_find(mcm_key(&op, sizeof op));
    if (!u) {
        *why = "MPI_LXOR, MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE or an "
               "unknown op";
        return -1;
    }
    if (t->umc < 0) {
        *why = "user op on a datatype not of 1, 2, 4 or 8 bytes";
        return -1;
    }
    mcm_ctx.fn = u->fn;
    *r = (mcm_red_t){.dt = (mc_dtype_t)t->umc, .op = tramp_op[u->commute],
                     .commutative = u->commute, .user = 1};
    return 0;
}
