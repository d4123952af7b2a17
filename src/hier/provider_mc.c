/*
 * A provider made of manycoll itself: the group handle is an mc_comm_t
 * (e.g. one rank per node or chip, from mc_comm_split). Used by the tests
 * to run the hierarchy without MPI, and by multi-chip simulations, where
 * that communicator's ranks sit on different simulated chips. It has no
 * alltoall: a simulated alltoall across chips stays flat (its results,
 * and the vSCC goldens, are those of the flat algorithms); tests/test_hier.c
 * adds one to run hier_alltoall.c.
 */
#include "hier/hier_impl.h"

static int fail(int rc)
{
    return rc < 0 ? mc_hier_fail(rc, "%s", mc_last_error()) : rc;
}

static int p_barrier(void *g)
{
    return fail(mc_barrier(g));
}

static int p_bcast(void *g, void *buf, size_t count, mc_dtype_t dt, int root)
{
    return fail(mc_bcast(g, buf, count, dt, root));
}

static int p_reduce(void *g, const void *sbuf, void *rbuf, size_t count,
                    mc_dtype_t dt, mc_op_t op, int root)
{
    return fail(mc_reduce(g, sbuf, rbuf, count, dt, op, root));
}

static int p_allreduce(void *g, const void *sbuf, void *rbuf, size_t count,
                       mc_dtype_t dt, mc_op_t op)
{
    return fail(mc_allreduce(g, sbuf, rbuf, count, dt, op));
}

static int p_allgather(void *g, const void *sbuf, void *rbuf, size_t count,
                       mc_dtype_t dt)
{
    return fail(mc_allgather(g, sbuf, rbuf, count, dt));
}

static int p_gather(void *g, const void *sbuf, void *rbuf, size_t count,
                    mc_dtype_t dt, int root)
{
    return fail(mc_gather(g, sbuf, rbuf, count, dt, root));
}

static int p_scatter(void *g, const void *sbuf, void *rbuf, size_t count,
                     mc_dtype_t dt, int root)
{
    return fail(mc_scatter(g, sbuf, rbuf, count, dt, root));
}

static int p_reduce_scatter_block(void *g, const void *sbuf, void *rbuf,
                                  size_t count, mc_dtype_t dt, mc_op_t op)
{
    return fail(mc_reduce_scatter_block(g, sbuf, rbuf, count, dt, op));
}

const mc_hier_provider_t mc_hier_provider_manycoll = {
    .name = "manycoll",
    .barrier = p_barrier, .bcast = p_bcast, .reduce = p_reduce,
    .allreduce = p_allreduce, .allgather = p_allgather, .gather = p_gather,
    .scatter = p_scatter, .reduce_scatter_block = p_reduce_scatter_block,
};
