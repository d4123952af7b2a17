/*
 * MPI_Reduce_scatter and MPI_Ireduce_scatter on one node (a communicator
 * manycoll takes flat): what MPI_Reduce_scatter_block takes (the plan,
 * plan.c, decides from the datatype and op, which MPI requires to be the
 * same on every rank, and the counts, which every rank has), with the
 * counts copied into the communicator's state (made at the first call)
 * or the request's. Several nodes (no hierarchical form yet) and negative
 * counts go to the MPI library, which reports the latter.
 */
#include <stdlib.h>

#include "mpi/mcmpi.h"

static const void *mcin(const void *p)
{
    return p == MPI_IN_PLACE ? MC_IN_PLACE : p;
}

/* rcounts as size_t in v (n of them), or NULL if there is no memory */
static size_t *counts(size_t *v, const int *cnt, int n)
{
    for (int q = 0; v && q < n; q++)
        v[q] = (size_t)cnt[q];
    return v;
}

int MPI_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[],
                       MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    MCM_TRACE_COLL(MC_COLL_REDUCE_SCATTER, MCM_BLOCKING, comm, NULL,
                   MPI_Reduce_scatter(sbuf, rbuf, rcounts, dt, op, comm),
                   .sbuf = sbuf, .rbuf = rbuf, .rcounts = rcounts, .sdt = dt, .op = op);
    static const char fn[] = "MPI_Reduce_scatter";
    mcm_comm_t *s = mcm_comm(comm);
    mcm_plan_t p;
    if (mcm_plan(s, MC_COLL_REDUCE_SCATTER, MCM_BLOCKING,
                 &(mcm_call_t){.sbuf = sbuf, .rcounts = rcounts, .dt = dt,
                               .op = op},
                 &p) == MCM_PMPI)
        return PMPI_Reduce_scatter(sbuf, rbuf, rcounts, dt, mcm_right_op(dt,
                                   op), comm);
    /* no memory is this rank's error, not a way to MPI its peers miss */
    if (!counts(mcm_varrays(s), rcounts, s->topo->size))
        return mcm_fail(s, fn, MC_ERR_NOMEM, "no memory for the counts");
    int rc = mc_reduce_scatter(s->node, mcin(sbuf), rbuf, s->v, p.red.dt,
                               p.red.op);
    return rc == MC_OK ? MPI_SUCCESS : mcm_fail(s, fn, rc, NULL);
}

/* the non-blocking (pers 0) and persistent (1) forms: builtin ops only
 * (coll_nb_red.c), the counts copied into the request, which MPI lets
 * the program reuse at once; MCM_NOT_TAKEN if MPI takes it */
static int ireduce_scatter(const void *sbuf, void *rbuf, const int *rcounts,
                           MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                           MPI_Request *req, int pers)
{
    static const char *const fns[2] = {"MPI_Ireduce_scatter",
                                       "MPI_Reduce_scatter_init"};
    mcm_comm_t *s = mcm_comm(comm);
    mcm_plan_t p;
    mcm_nb_t *x;
    int rc = mcm_nb_take(s, MC_COLL_REDUCE_SCATTER, fns[pers], pers,
                         &(mcm_call_t){.sbuf = sbuf, .rcounts = rcounts,
                                       .dt = dt, .op = op},
                         &p, &x);
    if (rc != MPI_SUCCESS)
        return rc;
    int n = s->topo->size;
    if (!(x->v = counts(malloc((size_t)n * sizeof *x->v), rcounts, n))) {
        mcm_nb_drop(x);
        return mcm_fail(s, fns[pers], MC_ERR_NOMEM, NULL);
    }
    rc = pers ? mc_reduce_scatter_init(s->node, mcin(sbuf), rbuf, x->v,
                                       p.red.dt, p.red.op, &x->r)
              : mc_ireduce_scatter(s->node, mcin(sbuf), rbuf, x->v, p.red.dt,
                                   p.red.op, &x->r);
    return mcm_nb_started(x, rc, req);
}

int MPI_Ireduce_scatter(const void *sbuf, void *rbuf, const int rcounts[],
                        MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                        MPI_Request *req)
{
    MCM_TRACE_COLL(MC_COLL_REDUCE_SCATTER, MCM_NONBLOCKING, comm, req,
                   MPI_Ireduce_scatter(sbuf, rbuf, rcounts, dt, op, comm, req),
                   .sbuf = sbuf, .rbuf = rbuf, .rcounts = rcounts, .sdt = dt, .op = op);
    int rc = ireduce_scatter(sbuf, rbuf, rcounts, dt, op, comm, req, 0);
    return rc != MCM_NOT_TAKEN
               ? rc
               : PMPI_Ireduce_scatter(sbuf, rbuf, rcounts, dt, mcm_right_op(dt,
                                      op), comm, req);
}

#if MPI_VERSION >= 4
int MPI_Reduce_scatter_init(const void *sbuf, void *rbuf,
                            const int rcounts[], MPI_Datatype dt, MPI_Op op,
                            MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    MCM_TRACE_COLL(MC_COLL_REDUCE_SCATTER, MCM_PERSISTENT, comm, req,
                   MPI_Reduce_scatter_init(sbuf, rbuf, rcounts, dt, op, comm, info, req),
                   .sbuf = sbuf, .rbuf = rbuf, .rcounts = rcounts, .sdt = dt, .op = op);
    int rc = ireduce_scatter(sbuf, rbuf, rcounts, dt, op, comm, req, 1);
    return rc != MCM_NOT_TAKEN ? rc
                               : PMPI_Reduce_scatter_init(sbuf, rbuf, rcounts,
                                                          dt, mcm_right_op(dt,
                                                          op), comm, info,
                                                          req);
}
#endif
