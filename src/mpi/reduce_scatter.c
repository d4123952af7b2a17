/*
 * MPI_Reduce_scatter and MPI_Ireduce_scatter on one node (a communicator
 * manycoll takes flat):
 * what MPI_Reduce_scatter_block takes (mcm_reduction decides from the
 * datatype and op, which MPI requires to be the same on every rank),
 * with the counts copied into the communicator's state (made at the
 * first call). Several nodes (no hierarchical form yet) and negative
 * counts go to the MPI library, which reports the latter.
 */
#include <stdlib.h>

#include "mpi/mcmpi.h"

/* rcounts as size_t in the state's array; 0, or -1 on a negative entry
 * or no memory */
static int counts(mcm_comm_t *s, const int *cnt)
{
    size_t n = (size_t)s->topo->size;
    if (!mcm_varrays(s))
        return -1;
    if (!cnt)
        return -1;
    for (size_t q = 0; q < n; q++) {
        if (cnt[q] < 0)
            return -1;
        s->v[q] = (size_t)cnt[q];
    }
    return 0;
}

static int result(mcm_comm_t *s, const char *fn, int rc)
{
    return rc == MC_OK ? MPI_SUCCESS : mcm_fail(s, fn, rc, NULL);
}

static const void *mcin(const void *p)
{
    return p == MPI_IN_PLACE ? MC_IN_PLACE : p;
}

static const char *const types_why = "a negative count";

int MPI_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[],
                       MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    mcm_comm_t *s = mcm_comm(comm);
    mcm_red_t r;
    const char *why = types_why;
    int ok = s && s->path == MCM_FLAT &&
             mcm_reduction(dt, op, &r, &why) == 0 && counts(s, rcounts) == 0;
    if (mcm_flat_only(s, MC_COLL_REDUCE_SCATTER, ok, why))
        return PMPI_Reduce_scatter(sbuf, rbuf, rcounts, dt, op, comm);
    s->stat[MC_COLL_REDUCE_SCATTER].mc++;
    return result(s, "MPI_Reduce_scatter",
                  mc_reduce_scatter(s->node, mcin(sbuf), rbuf, s->v,
                                    r.dt, r.op));
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
    const mcm_type_t *t = mcm_type(dt);
    int b = mcm_builtin_op(op), n = s ? s->topo->size : 0;
    int ok = s && rcounts && !mcm_negative(rcounts, n) && t && b >= 0 &&
             (t->ops >> b & 1);
    mcm_nb_t *x = mcm_nb_take(s, MC_COLL_REDUCE_SCATTER, fns[pers], pers, ok,
                              "a negative count, a derived type, or an op "
                              "not builtin or not defined on the type "
                              "(non-blocking)");
    if (!x)
        return MCM_NOT_TAKEN;
    if (!(x->v = malloc((size_t)n * sizeof *x->v))) {
        mcm_nb_drop(x);
        return mcm_fail(s, fns[pers], MC_ERR_NOMEM, NULL);
    }
    for (int q = 0; q < n; q++)
        x->v[q] = (size_t)rcounts[q];
    int rc = pers ? mc_reduce_scatter_init(s->node, mcin(sbuf), rbuf, x->v,
                                           (mc_dtype_t)t->mc, (mc_op_t)b,
                                           &x->r)
                  : mc_ireduce_scatter(s->node, mcin(sbuf), rbuf, x->v,
                                       (mc_dtype_t)t->mc, (mc_op_t)b, &x->r);
    return mcm_nb_started(x, rc, req);
}

int MPI_Ireduce_scatter(const void *sbuf, void *rbuf, const int rcounts[],
                        MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                        MPI_Request *req)
{
    int rc = ireduce_scatter(sbuf, rbuf, rcounts, dt, op, comm, req, 0);
    return rc != MCM_NOT_TAKEN
               ? rc
               : PMPI_Ireduce_scatter(sbuf, rbuf, rcounts, dt, op, comm, req);
}

#if MPI_VERSION >= 4
int MPI_Reduce_scatter_init(const void *sbuf, void *rbuf,
                            const int rcounts[], MPI_Datatype dt, MPI_Op op,
                            MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    int rc = ireduce_scatter(sbuf, rbuf, rcounts, dt, op, comm, req, 1);
    return rc != MCM_NOT_TAKEN ? rc
                               : PMPI_Reduce_scatter_init(sbuf, rbuf, rcounts,
                                                          dt, op, comm, info,
                                                          req);
}
#endif
