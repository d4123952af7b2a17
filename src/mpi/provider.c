/*
 * The MPI library as the hierarchy's provider (src/hier/hier.h): the
 * group handle is the communicator's state, whose `slice` is an MPI
 * communicator of the ranks with this rank's local index on every node.
 * Data-movement collectives arrive as bytes; reductions in the caller's
 * own MPI datatype and op, which the wrapper left in the thread's context
 * (mcm_ctx), so a user op reaches MPI as the user's MPI_Op.
 */
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "mpi/mcmpi.h"
#include "ops/ops.h"

static MPI_Comm slice(void *g)
{
    return ((mcm_comm_t *)g)->slice;
}

static int ok(int rc, const char *fn)
{
    if (rc == MPI_SUCCESS)
        return MC_OK;
    char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (PMPI_Error_string(rc, s, &len) != MPI_SUCCESS)
        len = 0;
    return mc_hier_fail(MC_ERR_SYS, "%s on the slice communicator: %s", fn,
                        len ? s : "an MPI error");
}

static int too_big(size_t count, const char *fn)
{
    if (count <= INT_MAX)
        return 0;
    mc_hier_fail(MC_ERR_UNSUPPORTED, "%s of %zu elements: more than the "
                 "MPI interface's int count", fn, count);
    return 1;
}

#define CHECK_COUNT(n, fn)                                                   \
    do {                                                                     \
        if (too_big(n, fn))                                                  \
            return MC_ERR_UNSUPPORTED;                                       \
    } while (0)

static const void *in(const void *p)
{
    return p == MC_IN_PLACE ? MPI_IN_PLACE : p;
}

/* data movement is always in bytes; reductions in the caller's type */
static MPI_Datatype mdt(mc_dtype_t dt)
{
    (void)dt;
    return MPI_BYTE;
}

static MPI_Datatype rdt(mc_dtype_t dt)
{
    (void)dt;
    return mcm_ctx.dt;
}

/* ---- ops the MPI libraries get wrong ----
 * Measured (tests/mpi): Open MPI 4.1.4 takes MPI_MIN/MPI_MAX of
 * MPI_UNSIGNED_LONG as signed, and its vectorised op component (op/avx)
 * saturates 8- and 16-bit integer sums from 32 elements, signed and
 * unsigned (int8 31 + 32 + 33 + 34 gives 127, not -126); Debian's MPICH
 * 4.0.2 takes MPI_MIN/MPI_MAX of 16, 32 and 64-bit unsigned types as
 * signed. The inter-node phase must give what manycoll gives inside the
 * node (C semantics: integers wrap), so these go through an MPI user op
 * that runs manycoll's own kernel (mc_reduce_into) on the type the call
 * names: 8- and 16-bit integer SUM and PROD (products share the sums'
 * code paths there), and unsigned MIN and MAX. Every other reduction
 * stays the MPI's own. The ops are commutative, as the built-in ones. */

static void mc_kernel(void *in, void *inout, int *len, MPI_Datatype *dt,
                      mc_op_t op)
{
    const mcm_type_t *t = mcm_type(*dt);
    if (t && t->mc >= 0 && *len > 0)
        mc_reduce_into(inout, in, (size_t)*len, (mc_dtype_t)t->mc, op, 1);
}

static void op_sum(void *a, void *b, int *n, MPI_Datatype *dt)
{
    mc_kernel(a, b, n, dt, MC_SUM);
}

static void op_prod(void *a, void *b, int *n, MPI_Datatype *dt)
{
    mc_kernel(a, b, n, dt, MC_PROD);
}

static void op_min(void *a, void *b, int *n, MPI_Datatype *dt)
{
    mc_kernel(a, b, n, dt, MC_MIN);
}

static void op_max(void *a, void *b, int *n, MPI_Datatype *dt)
{
    mc_kernel(a, b, n, dt, MC_MAX);
}

static MPI_Op fixed[4]; /* by mc_op_t: SUM, PROD, MIN, MAX */
static pthread_once_t fixed_once = PTHREAD_ONCE_INIT;

static void make_fixed(void)
{
    PMPI_Op_create(op_sum, 1, &fixed[MC_SUM]);
    PMPI_Op_create(op_prod, 1, &fixed[MC_PROD]);
    PMPI_Op_create(op_min, 1, &fixed[MC_MIN]);
    PMPI_Op_create(op_max, 1, &fixed[MC_MAX]);
}

int mcm_mpi_op_wrong(mc_dtype_t dt, mc_op_t op)
{
    int u = dt == MC_UINT8 || dt == MC_UINT16 || dt == MC_UINT32 ||
            dt == MC_UINT64;
    int narrow = dt == MC_INT8 || dt == MC_UINT8 || dt == MC_INT16 ||
                 dt == MC_UINT16;
    int arith = op == MC_SUM || op == MC_PROD;
    return (narrow && arith) || (u && (op == MC_MIN || op == MC_MAX));
}

MPI_Op mcm_right_op(MPI_Datatype dt, MPI_Op op)
{
    const mcm_type_t *t;
    int o;
    if (!mcm_cfg.on || !mcm_builtin_red(0, dt, op, &t, &o) ||
        !mcm_mpi_op_wrong((mc_dtype_t)t->mc, (mc_op_t)o))
        return op;
    pthread_once(&fixed_once, make_fixed);
    return fixed[o];
}

/* the MPI op for a reduction between nodes */
static MPI_Op rop(mc_dtype_t dt, mc_op_t op)
{
    if (!mcm_mpi_op_wrong(dt, op))
        return mcm_ctx.op;
    pthread_once(&fixed_once, make_fixed);
    return fixed[op];
}

static int p_barrier(void *g)
{
    return ok(PMPI_Barrier(slice(g)), "PMPI_Barrier");
}

static int p_bcast(void *g, void *buf, size_t count, mc_dtype_t dt, int root)
{
    CHECK_COUNT(count, "PMPI_Bcast");
    return ok(PMPI_Bcast(buf, (int)count, mdt(dt), root, slice(g)),
              "PMPI_Bcast");
}

static int p_reduce(void *g, const void *sbuf, void *rbuf, size_t count,
                    mc_dtype_t dt, mc_op_t op, int root)
{
    CHECK_COUNT(count, "PMPI_Reduce");
    /* MPICH 4.0.2's MPI_Reduce crashes with MPI_IN_PLACE at a root other
     * than 0 above 2 KiB: such a root sends from a copy */
    if (sbuf == MC_IN_PLACE && root != 0 && count) {
        size_t b = count * mc_dtype_size(dt);
        void *copy = mcm_scratch(g, b, 0);
        if (!copy)
            return mc_hier_fail(MC_ERR_NOMEM, "out of memory (%zu bytes)", b);
        memcpy(copy, rbuf, b);
        sbuf = copy;
    }
    return ok(PMPI_Reduce(in(sbuf), rbuf, (int)count, rdt(dt), rop(dt, op),
                          root, slice(g)),
              "PMPI_Reduce");
}

static int p_allreduce(void *g, const void *sbuf, void *rbuf, size_t count,
                       mc_dtype_t dt, mc_op_t op)
{
    CHECK_COUNT(count, "PMPI_Allreduce");
    return ok(PMPI_Allreduce(in(sbuf), rbuf, (int)count, rdt(dt), rop(dt, op),
                             slice(g)),
              "PMPI_Allreduce");
}

static int p_allgather(void *g, const void *sbuf, void *rbuf, size_t count,
                       mc_dtype_t dt)
{
    CHECK_COUNT(count, "PMPI_Allgather");
    return ok(PMPI_Allgather(in(sbuf), (int)count, mdt(dt), rbuf, (int)count,
                             mdt(dt), slice(g)),
              "PMPI_Allgather");
}

static int p_gather(void *g, const void *sbuf, void *rbuf, size_t count,
                    mc_dtype_t dt, int root)
{
    CHECK_COUNT(count, "PMPI_Gather");
    return ok(PMPI_Gather(in(sbuf), (int)count, mdt(dt), rbuf, (int)count,
                          mdt(dt), root, slice(g)),
              "PMPI_Gather");
}

static int p_scatter(void *g, const void *sbuf, void *rbuf, size_t count,
                     mc_dtype_t dt, int root)
{
    CHECK_COUNT(count, "PMPI_Scatter");
    return ok(PMPI_Scatter(sbuf, (int)count, mdt(dt),
                           rbuf == MC_IN_PLACE ? MPI_IN_PLACE : rbuf,
                           (int)count, mdt(dt), root, slice(g)),
              "PMPI_Scatter");
}

static int p_reduce_scatter_block(void *g, const void *sbuf, void *rbuf,
                                  size_t count, mc_dtype_t dt, mc_op_t op)
{
    CHECK_COUNT(count, "PMPI_Reduce_scatter_block");
    return ok(PMPI_Reduce_scatter_block(in(sbuf), rbuf, (int)count, rdt(dt),
                                        rop(dt, op), slice(g)),
              "PMPI_Reduce_scatter_block");
}

static int p_alltoall(void *g, const void *sbuf, void *rbuf, size_t count,
                      mc_dtype_t dt)
{
    CHECK_COUNT(count, "PMPI_Alltoall");
    return ok(PMPI_Alltoall(in(sbuf), (int)count, mdt(dt), rbuf, (int)count,
                            mdt(dt), slice(g)),
              "PMPI_Alltoall");
}

static int p_iallreduce(void *g, const void *sbuf, void *rbuf, size_t count,
                        mc_dtype_t dt, mc_op_t op, int slot)
{
    CHECK_COUNT(count, "PMPI_Iallreduce");
    mcm_comm_t *s = g;
    return ok(PMPI_Iallreduce(in(sbuf), rbuf, (int)count, rdt(dt),
                              rop(dt, op), s->slice, &s->req[slot]),
              "PMPI_Iallreduce");
}

static int p_ibcast(void *g, void *buf, size_t count, mc_dtype_t dt, int root,
                    int slot)
{
    CHECK_COUNT(count, "PMPI_Ibcast");
    mcm_comm_t *s = g;
    return ok(PMPI_Ibcast(buf, (int)count, mdt(dt), root, s->slice,
                          &s->req[slot]),
              "PMPI_Ibcast");
}

static int p_wait(void *g, int slot)
{
    mcm_comm_t *s = g;
    return ok(PMPI_Wait(&s->req[slot], MPI_STATUS_IGNORE), "PMPI_Wait");
}

const mc_hier_provider_t mcm_provider = {
    .name = "MPI",
    .barrier = p_barrier, .bcast = p_bcast, .reduce = p_reduce,
    .allreduce = p_allreduce, .allgather = p_allgather, .gather = p_gather,
    .scatter = p_scatter, .reduce_scatter_block = p_reduce_scatter_block,
    .alltoall = p_alltoall, .iallreduce = p_iallreduce, .ibcast = p_ibcast, .wait = p_wait,
};
