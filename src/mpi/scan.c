/*
 * MPI_Scan and MPI_Exscan on one node, blocking, non-blocking and (MPI 4)
 * persistent: manycoll's scans, which combine in rank order for any op,
 * so user ops of either commutativity are taken by the blocking calls
 * (the plan, plan.c, decides from the datatype and op, the same on every
 * rank). The non-blocking and persistent forms take builtin ops only, as
 * the other non-blocking reductions (coll_nb_red.c). Several nodes go to
 * the MPI library (no hierarchical scan).
 */
#include "mpi/mcmpi.h"
#include "mpi/trace_hot.h"

typedef int (*scan_fn)(mc_comm_t *, const void *, void *, size_t,
                       mc_dtype_t, mc_op_t);
typedef int (*iscan_fn)(mc_comm_t *, const void *, void *, size_t,
                        mc_dtype_t, mc_op_t, mc_request_t **);

static const void *mcin(const void *p)
{
    return p == MPI_IN_PLACE ? MC_IN_PLACE : p;
}

static const char *const names[2][3] = {
    {"MPI_Scan", "MPI_Iscan", "MPI_Scan_init"},
    {"MPI_Exscan", "MPI_Iexscan", "MPI_Exscan_init"}};

/* blocking: MCM_NOT_TAKEN, or the MPI result */
static int scan(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                MPI_Op op, MPI_Comm comm, int ex)
{
    mcm_comm_t *s = mcm_comm(comm);
    mcm_plan_t p;
    if (mcm_plan(s, ex ? MC_COLL_EXSCAN : MC_COLL_SCAN, MCM_BLOCKING,
                 &(mcm_call_t){.sbuf = sbuf, .count = count, .dt = dt,
                               .op = op},
                 &p) == MCM_PMPI)
        return MCM_NOT_TAKEN;
    scan_fn f = ex ? mc_exscan : mc_scan;
    int rc = f(s->node, mcin(sbuf), rbuf, (size_t)count, p.red.dt, p.red.op);
    return rc == MC_OK ? MPI_SUCCESS
                       : mcm_fail(s, names[ex][0], rc, NULL);
}

/* non-blocking (pers 0) or persistent (1) */
static int iscan(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                 MPI_Op op, MPI_Comm comm, MPI_Request *req, int ex,
                 int pers)
{
    mcm_comm_t *s = mcm_comm(comm);
    mcm_plan_t p;
    mcm_nb_t *x;
    int rc = mcm_nb_take(s, ex ? MC_COLL_EXSCAN : MC_COLL_SCAN,
                         names[ex][1 + pers], pers,
                         &(mcm_call_t){.sbuf = sbuf, .count = count,
                                       .dt = dt, .op = op},
                         &p, &x);
    if (rc != MPI_SUCCESS)
        return rc;
    iscan_fn f = ex ? (pers ? mc_exscan_init : mc_iexscan)
                    : (pers ? mc_scan_init : mc_iscan);
    return mcm_nb_started(x, f(s->node, mcin(sbuf), rbuf, (size_t)count,
                               p.red.dt, p.red.op, &x->r),
                          req);
}

static inline __attribute__((always_inline)) int blk_scan(const void *sbuf, void *rbuf, int count,
                           MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    int rc = scan(sbuf, rbuf, count, dt, op, comm, 0);
    return rc != MCM_NOT_TAKEN ? rc
                               : PMPI_Scan(sbuf, rbuf, count, dt,
                                           mcm_right_op(dt, op), comm);
}

static MCM_TRACED int tr_scan(const void *sbuf, void *rbuf, int count,
                              MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    MCM_TRACE_BLK(MC_COLL_SCAN, comm, blk_scan(sbuf, rbuf, count, dt, op,
                  comm), count, 0, dt, MPI_DATATYPE_NULL, op, 0,
                  sbuf == MPI_IN_PLACE, .sbuf = sbuf, .rbuf = rbuf,
                  .count = count, .sdt = dt, .op = op);
    return blk_scan(sbuf, rbuf, count, dt, op, comm);
}

int MPI_Scan(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
             MPI_Op op, MPI_Comm comm)
{
    if (MCM_TRACING())
        return tr_scan(sbuf, rbuf, count, dt, op, comm);
    return blk_scan(sbuf, rbuf, count, dt, op, comm);
}

static inline __attribute__((always_inline)) int blk_exscan(const void *sbuf, void *rbuf, int count,
                             MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    int rc = scan(sbuf, rbuf, count, dt, op, comm, 1);
    return rc != MCM_NOT_TAKEN
               ? rc
               : PMPI_Exscan(sbuf, rbuf, count, dt, mcm_right_op(dt, op), comm);
}

static MCM_TRACED int tr_exscan(const void *sbuf, void *rbuf, int count,
                                MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    MCM_TRACE_BLK(MC_COLL_EXSCAN, comm, blk_exscan(sbuf, rbuf, count, dt, op,
                  comm), count, 0, dt, MPI_DATATYPE_NULL, op, 0,
                  sbuf == MPI_IN_PLACE, .sbuf = sbuf, .rbuf = rbuf,
                  .count = count, .sdt = dt, .op = op);
    return blk_exscan(sbuf, rbuf, count, dt, op, comm);
}

int MPI_Exscan(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
               MPI_Op op, MPI_Comm comm)
{
    if (MCM_TRACING())
        return tr_exscan(sbuf, rbuf, count, dt, op, comm);
    return blk_exscan(sbuf, rbuf, count, dt, op, comm);
}

int MPI_Iscan(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
              MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
    MCM_TRACE_COLL(MC_COLL_SCAN, MCM_NONBLOCKING, comm, req,
                   MPI_Iscan(sbuf, rbuf, count, dt, op, comm, req),
                   .sbuf = sbuf, .rbuf = rbuf, .count = count, .sdt = dt, .op = op);
    int rc = iscan(sbuf, rbuf, count, dt, op, comm, req, 0, 0);
    return rc != MCM_NOT_TAKEN
               ? rc
               : PMPI_Iscan(sbuf, rbuf, count, dt, mcm_right_op(dt, op), comm,
                            req);
}

int MPI_Iexscan(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
    MCM_TRACE_COLL(MC_COLL_EXSCAN, MCM_NONBLOCKING, comm, req,
                   MPI_Iexscan(sbuf, rbuf, count, dt, op, comm, req),
                   .sbuf = sbuf, .rbuf = rbuf, .count = count, .sdt = dt, .op = op);
    int rc = iscan(sbuf, rbuf, count, dt, op, comm, req, 1, 0);
    return rc != MCM_NOT_TAKEN
               ? rc
               : PMPI_Iexscan(sbuf, rbuf, count, dt, mcm_right_op(dt, op),
                              comm, req);
}

#if MPI_VERSION >= 4
int MPI_Scan_init(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                  MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    MCM_TRACE_COLL(MC_COLL_SCAN, MCM_PERSISTENT, comm, req,
                   MPI_Scan_init(sbuf, rbuf, count, dt, op, comm, info, req),
                   .sbuf = sbuf, .rbuf = rbuf, .count = count, .sdt = dt, .op = op);
    int rc = iscan(sbuf, rbuf, count, dt, op, comm, req, 0, 1);
    return rc != MCM_NOT_TAKEN ? rc
                               : PMPI_Scan_init(sbuf, rbuf, count, dt,
                                                mcm_right_op(dt, op),
                                                comm, info, req);
}

int MPI_Exscan_init(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                    MPI_Op op, MPI_Comm comm, MPI_Info info,
                    MPI_Request *req)
{
    MCM_TRACE_COLL(MC_COLL_EXSCAN, MCM_PERSISTENT, comm, req,
                   MPI_Exscan_init(sbuf, rbuf, count, dt, op, comm, info, req),
                   .sbuf = sbuf, .rbuf = rbuf, .count = count, .sdt = dt, .op = op);
    int rc = iscan(sbuf, rbuf, count, dt, op, comm, req, 1, 1);
    return rc != MCM_NOT_TAKEN ? rc
                               : PMPI_Exscan_init(sbuf, rbuf, count, dt,
                                                  mcm_right_op(dt, op),
                                                  comm, info, req);
}
#endif
