/*
 * The MPI library as the hierarchy's provider (src/hier/hier.h): the
 * group handle is the communicator's state, whose `slice` is an MPI
 * communicator of the ranks with this rank's local index on every node.
 * Data-movement collectives arrive as bytes; reductions in the caller's
 * own MPI datatype and op, which the wrapper left in the thread's context
 * (mcm_ctx), so a user op reaches MPI as the user's MPI_Op.
 */
#include <limits.h>

#include "mpi/mcmpi.h"

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
    return ok(PMPI_Reduce(in(sbuf), rbuf, (int)count, rdt(dt), mcm_ctx.op,
                          root, slice(g)),
              "PMPI_Reduce");
}

static int p_allreduce(void *g, const void *sbuf, void *rbuf, size_t count,
                       mc_dtype_t dt, mc_op_t op)
{
    CHECK_COUNT(count, "PMPI_Allreduce");
    return ok(PMPI_Allreduce(in(sbuf), rbuf, (int)count, rdt(dt), mcm_ctx.op,
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
                                        mcm_ctx.op, slice(g)),
              "PMPI_Reduce_scatter_block");
}

static int p_iallreduce(void *g, const void *sbuf, void *rbuf, size_t count,
                        mc_dtype_t dt, mc_op_t op, int slot)
{
    CHECK_COUNT(count, "PMPI_Iallreduce");
    mcm_comm_t *s = g;
    return ok(PMPI_Iallreduce(in(sbuf), rbuf, (int)count, rdt(dt),
                              mcm_ctx.op, s->slice, &s->req[slot]),
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
    .barrier = p_barrier,
    .bcast = p_bcast,
    .reduce = p_reduce,
    .allreduce = p_allreduce,
    .allgather = p_allgather,
    .gather = p_gather,
    .scatter = p_scatter,
    .reduce_scatter_block = p_reduce_scatter_block,
    .iallreduce = p_iallreduce,
    .ibcast = p_ibcast,
    .wait = p_wait,
};
