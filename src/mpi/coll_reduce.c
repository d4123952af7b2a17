/*
 * MPI_Allreduce, MPI_Reduce, MPI_Reduce_scatter_block.
 *
 * Fast path (one node, a predefined type, a builtin op MPI defines on it):
 * one cache probe, two table probes, the manycoll call. Everything else
 * takes the slow function of the collective, which decides in this order,
 * from values that are the same on every rank:
 *
 *   communicator   intercommunicator, one rank, settings differ -> MPI
 *   arguments      negative count, root out of range -> MPI (it reports)
 *   datatype, op   mcm_reduction (types.c) -> MPI if manycoll cannot
 *   shape          several nodes: mc_hier_supports, else -> MPI
 *
 * and then calls manycoll (flat) or src/hier (several nodes). A manycoll
 * failure becomes the communicator's error handler call (report.c).
 */
#include "mpi/mcmpi.h"

static const char *const no_comm = "not a communicator manycoll takes";

static const void *mcin(const void *p)
{
    return p == MPI_IN_PLACE ? MC_IN_PLACE : p;
}

static const char *comm_why(const mcm_comm_t *s)
{
    return s && s->topo && s->topo->why ? s->topo->why : no_comm;
}

/* 0 if the collective may go to manycoll, else -1 with *why set */
static int takes(mcm_comm_t *s, int coll, MPI_Datatype dt, MPI_Op op,
                 int count, mcm_red_t *r, const char **why)
{
    if (!s || s->path == MCM_PMPI) {
        *why = comm_why(s);
        return -1;
    }
    if (count < 0) {
        *why = "negative count";
        return -1;
    }
    if (mcm_reduction(dt, op, r, why))
        return -1;
    if (s->path == MCM_HIER &&
        !mc_hier_supports(&s->hier, coll, r->commutative)) {
        *why = r->commutative || coll == MC_COLL_REDUCE_SCATTER_BLOCK
                   ? mcm_shape_why
                   : "non-commutative op on nodes that are not blocks of "
                     "ranks";
        return -1;
    }
    s->stat[coll].mc++;
    return 0;
}

static int result(mcm_comm_t *s, const char *fn, int rc)
{
    if (rc == MC_OK)
        return MPI_SUCCESS;
    return mcm_fail(s, fn, rc, s->path == MCM_HIER ? mc_hier_last_error()
                                                   : NULL);
}

static int allreduce_slow(const void *sbuf, void *rbuf, int count,
                          MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                          mcm_comm_t *s)
{
    const char *why;
    mcm_red_t r;
    if (takes(s, MC_COLL_ALLREDUCE, dt, op, count, &r, &why)) {
        mcm_count_pmpi(s, MC_COLL_ALLREDUCE, why);
        return PMPI_Allreduce(sbuf, rbuf, count, dt, op, comm);
    }
    int rc = s->path == MCM_FLAT
                 ? mc_allreduce(s->node, mcin(sbuf), rbuf, (size_t)count,
                                r.dt, r.op)
                 : mc_hier_allreduce(&s->hier, mcin(sbuf), rbuf,
                                     (size_t)count, r.dt, r.op);
    return result(s, "MPI_Allreduce", rc);
}

int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                  MPI_Op op, MPI_Comm comm)
{
    mcm_comm_t *s = mcm_comm(comm);
    const mcm_type_t *t;
    int o;
    if (s && s->path == MCM_FLAT && count >= 0 && (t = mcm_type(dt)) &&
        (o = mcm_builtin_op(op)) >= 0 && (t->ops >> o & 1)) {
        s->stat[MC_COLL_ALLREDUCE].mc++;
        int rc = mc_allreduce(s->node, mcin(sbuf), rbuf, (size_t)count,
                              (mc_dtype_t)t->mc, (mc_op_t)o);
        if (rc == MC_OK)
            return MPI_SUCCESS;
        return mcm_fail(s, "MPI_Allreduce", rc, NULL);
    }
    return allreduce_slow(sbuf, rbuf, count, dt, op, comm, s);
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
               MPI_Op op, int root, MPI_Comm comm)
{
    mcm_comm_t *s = mcm_comm(comm);
    const char *why;
    mcm_red_t r;
    if (s && s->path != MCM_PMPI && (root < 0 || root >= s->topo->size)) {
        mcm_count_pmpi(s, MC_COLL_REDUCE, "root out of range");
        return PMPI_Reduce(sbuf, rbuf, count, dt, op, root, comm);
    }
    if (takes(s, MC_COLL_REDUCE, dt, op, count, &r, &why)) {
        mcm_count_pmpi(s, MC_COLL_REDUCE, why);
        return PMPI_Reduce(sbuf, rbuf, count, dt, op, root, comm);
    }
    int rc = s->path == MCM_FLAT
                 ? mc_reduce(s->node, mcin(sbuf), rbuf, (size_t)count, r.dt,
                             r.op, root)
                 : mc_hier_reduce(&s->hier, mcin(sbuf), rbuf, (size_t)count,
                                  r.dt, r.op, root);
    return result(s, "MPI_Reduce", rc);
}

int MPI_Reduce_scatter_block(const void *sbuf, void *rbuf, int count,
                             MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    mcm_comm_t *s = mcm_comm(comm);
    const char *why;
    mcm_red_t r;
    if (takes(s, MC_COLL_REDUCE_SCATTER_BLOCK, dt, op, count, &r, &why)) {
        mcm_count_pmpi(s, MC_COLL_REDUCE_SCATTER_BLOCK, why);
        return PMPI_Reduce_scatter_block(sbuf, rbuf, count, dt, op, comm);
    }
    int rc = s->path == MCM_FLAT
                 ? mc_reduce_scatter_block(s->node, mcin(sbuf), rbuf,
                                           (size_t)count, r.dt, r.op)
                 : mc_hier_reduce_scatter_block(&s->hier, mcin(sbuf), rbuf,
                                                (size_t)count, r.dt, r.op);
    return result(s, "MPI_Reduce_scatter_block", rc);
}
