/*
 * MPI_Ibarrier, MPI_Ireduce, MPI_Iallreduce, MPI_Ireduce_scatter_block
 * and (MPI 4) their persistent forms MPI_<coll>_init, on one node:
 * manycoll's mc_i<coll> / mc_<coll>_init under a generalized MPI request
 * (nbreq.c). The plan (plan.c) takes a reduction with a predefined
 * datatype and a builtin op MPI defines on it (the same on every rank);
 * user ops go to MPI, since their trampoline would read the op of
 * whichever call is current when the coroutine runs. Several nodes go to
 * MPI (no hierarchical non-blocking form).
 */
#include "mpi/mcmpi.h"

typedef int (*red_fn)(mc_comm_t *, const void *, void *, size_t,
                      mc_dtype_t, mc_op_t, mc_request_t **);
typedef int (*red_root_fn)(mc_comm_t *, const void *, void *, size_t,
                           mc_dtype_t, mc_op_t, int, mc_request_t **);

static const void *mcin(const void *p)
{
    return p == MPI_IN_PLACE ? MC_IN_PLACE : p;
}

static int ibarrier(MPI_Comm comm, MPI_Request *req, int pers)
{
    mcm_comm_t *s = mcm_comm(comm);
    const char *fn = pers ? "MPI_Barrier_init" : "MPI_Ibarrier";
    mcm_plan_t p;
    mcm_nb_t *x;
    int rc = mcm_nb_take(s, MC_COLL_BARRIER, fn, pers, &(mcm_call_t){0}, &p,
                      &x);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = pers ? mc_barrier_init(s->node, &x->r) : mc_ibarrier(s->node, &x->r);
    return mcm_nb_started(x, rc, req);
}

static int iallreduce(const void *sbuf, void *rbuf, int count,
                      MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                      MPI_Request *req, int pers, int coll)
{
    mcm_comm_t *s = mcm_comm(comm);
    static const char *const fns[2][2] = {
        {"MPI_Iallreduce", "MPI_Allreduce_init"},
        {"MPI_Ireduce_scatter_block", "MPI_Reduce_scatter_block_init"}};
    int rsb = coll == MC_COLL_REDUCE_SCATTER_BLOCK;
    mcm_plan_t p;
    mcm_nb_t *x;
    int rc = mcm_nb_take(s, (mc_coll_t)coll, fns[rsb][pers], pers,
                      &(mcm_call_t){.sbuf = sbuf, .count = count, .dt = dt,
                                    .op = op},
                      &p, &x);
    if (rc != MPI_SUCCESS)
        return rc;
    red_fn f = rsb ? (pers ? mc_reduce_scatter_block_init
                           : mc_ireduce_scatter_block)
                   : (pers ? mc_allreduce_init : mc_iallreduce);
    return mcm_nb_started(x, f(s->node, mcin(sbuf), rbuf, (size_t)count,
                               p.red.dt, p.red.op, &x->r),
                          req);
}

static int ireduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                   MPI_Op op, int root, MPI_Comm comm, MPI_Request *req,
                   int pers)
{
    mcm_comm_t *s = mcm_comm(comm);
    mcm_plan_t p;
    mcm_nb_t *x;
    int rc = mcm_nb_take(s, MC_COLL_REDUCE,
                      pers ? "MPI_Reduce_init" : "MPI_Ireduce", pers,
                      &(mcm_call_t){.sbuf = sbuf, .count = count, .dt = dt,
                                    .op = op, .root = root},
                      &p, &x);
    if (rc != MPI_SUCCESS)
        return rc;
    red_root_fn f = pers ? mc_reduce_init : mc_ireduce;
    return mcm_nb_started(x, f(s->node, mcin(sbuf), rbuf, (size_t)count,
                               p.red.dt, p.red.op, root, &x->r),
                          req);
}

int MPI_Ibarrier(MPI_Comm comm, MPI_Request *req)
{
    MCM_TRACE_COLL(MC_COLL_BARRIER, MCM_NONBLOCKING, comm, req,
                   MPI_Ibarrier(comm, req),
                   .root = 0);
    int rc = ibarrier(comm, req, 0);
    return rc != MCM_NOT_TAKEN ? rc : PMPI_Ibarrier(comm, req);
}

int MPI_Iallreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                   MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
    MCM_TRACE_COLL(MC_COLL_ALLREDUCE, MCM_NONBLOCKING, comm, req,
                   MPI_Iallreduce(sbuf, rbuf, count, dt, op, comm, req),
                   .sbuf = sbuf, .rbuf = rbuf, .count = count, .sdt = dt, .op = op);
    int rc = iallreduce(sbuf, rbuf, count, dt, op, comm, req, 0,
                        MC_COLL_ALLREDUCE);
    return rc != MCM_NOT_TAKEN
               ? rc
               : PMPI_Iallreduce(sbuf, rbuf, count, dt, mcm_right_op(dt, op),
                                 comm, req);
}

int MPI_Ireduce_scatter_block(const void *sbuf, void *rbuf, int count,
                              MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                              MPI_Request *req)
{
    MCM_TRACE_COLL(MC_COLL_REDUCE_SCATTER_BLOCK, MCM_NONBLOCKING, comm, req,
                   MPI_Ireduce_scatter_block(sbuf, rbuf, count, dt, op, comm, req),
                   .sbuf = sbuf, .rbuf = rbuf, .count = count, .sdt = dt, .op = op);
    int rc = iallreduce(sbuf, rbuf, count, dt, op, comm, req, 0,
                        MC_COLL_REDUCE_SCATTER_BLOCK);
    return rc != MCM_NOT_TAKEN ? rc
                               : PMPI_Ireduce_scatter_block(
                                     sbuf, rbuf, count, dt, mcm_right_op(dt,
                                     op), comm, req);
}

int MPI_Ireduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                MPI_Op op, int root, MPI_Comm comm, MPI_Request *req)
{
    MCM_TRACE_COLL(MC_COLL_REDUCE, MCM_NONBLOCKING, comm, req,
                   MPI_Ireduce(sbuf, rbuf, count, dt, op, root, comm, req),
                   .sbuf = sbuf, .rbuf = rbuf, .count = count, .sdt = dt, .op = op, .root = root);
    int rc = ireduce(sbuf, rbuf, count, dt, op, root, comm, req, 0);
    return rc != MCM_NOT_TAKEN
               ? rc
               : PMPI_Ireduce(sbuf, rbuf, count, dt, mcm_right_op(dt, op),
                              root, comm, req);
}

#if MPI_VERSION >= 4
int MPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    MCM_TRACE_COLL(MC_COLL_BARRIER, MCM_PERSISTENT, comm, req,
                   MPI_Barrier_init(comm, info, req),
                   .root = 0);
    int rc = ibarrier(comm, req, 1);
    return rc != MCM_NOT_TAKEN ? rc : PMPI_Barrier_init(comm, info, req);
}

int MPI_Allreduce_init(const void *sbuf, void *rbuf, int count,
                       MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                       MPI_Info info, MPI_Request *req)
{
    MCM_TRACE_COLL(MC_COLL_ALLREDUCE, MCM_PERSISTENT, comm, req,
                   MPI_Allreduce_init(sbuf, rbuf, count, dt, op, comm, info, req),
                   .sbuf = sbuf, .rbuf = rbuf, .count = count, .sdt = dt, .op = op);
    int rc = iallreduce(sbuf, rbuf, count, dt, op, comm, req, 1,
                        MC_COLL_ALLREDUCE);
    return rc != MCM_NOT_TAKEN ? rc
                               : PMPI_Allreduce_init(sbuf, rbuf, count, dt,
                                                     mcm_right_op(dt, op),
                                                     comm, info, req);
}

int MPI_Reduce_scatter_block_init(const void *sbuf, void *rbuf, int count,
                                  MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                                  MPI_Info info, MPI_Request *req)
{
    MCM_TRACE_COLL(MC_COLL_REDUCE_SCATTER_BLOCK, MCM_PERSISTENT, comm, req,
                   MPI_Reduce_scatter_block_init(sbuf, rbuf, count, dt, op, comm, info, req),
                   .sbuf = sbuf, .rbuf = rbuf, .count = count, .sdt = dt, .op = op);
    int rc = iallreduce(sbuf, rbuf, count, dt, op, comm, req, 1,
                        MC_COLL_REDUCE_SCATTER_BLOCK);
    return rc != MCM_NOT_TAKEN
               ? rc
               : PMPI_Reduce_scatter_block_init(sbuf, rbuf, count, dt,
                                                mcm_right_op(dt, op),
                                                comm, info, req);
}

int MPI_Reduce_init(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                    MPI_Op op, int root, MPI_Comm comm, MPI_Info info,
                    MPI_Request *req)
{
    MCM_TRACE_COLL(MC_COLL_REDUCE, MCM_PERSISTENT, comm, req,
                   MPI_Reduce_init(sbuf, rbuf, count, dt, op, root, comm, info, req),
                   .sbuf = sbuf, .rbuf = rbuf, .count = count, .sdt = dt, .op = op, .root = root);
    int rc = ireduce(sbuf, rbuf, count, dt, op, root, comm, req, 1);
    return rc != MCM_NOT_TAKEN ? rc
                               : PMPI_Reduce_init(sbuf, rbuf, count, dt,
                                                  mcm_right_op(dt, op),
                                                  root, comm, info, req);
}
#endif
