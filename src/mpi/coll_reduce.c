/*
 * MPI_Allreduce, MPI_Reduce, MPI_Reduce_scatter_block.
 *
 * Fast path (one node, a predefined type, a builtin op MPI defines on it):
 * one cache probe, two table probes, the manycoll call; the plan's answer
 * for such a call is cached in the communicator's state (s->fast, plan.c).
 * Everything else asks the plan (mcm_plan: communicator, root, count,
 * datatype and op, shape, in that order, from values that are the same on
 * every rank) and then calls manycoll (flat) or src/hier (several nodes).
 * A manycoll failure becomes the communicator's error handler call
 * (report.c).
 */
#include <stdlib.h>

#include "mpi/mcmpi.h"
#include "mpi/trace_hot.h"

static const void *mcin(const void *p)
{
    return p == MPI_IN_PLACE ? MC_IN_PLACE : p;
}

static int result(mcm_comm_t *s, const char *fn, int rc)
{
    if (rc == MC_OK)
        return MPI_SUCCESS;
    return mcm_fail(s, fn, rc, s->path == MCM_HIER ? mc_hier_last_error()
                                                   : NULL);
}

/* the plan of a reduction (MCM_PMPI, MCM_FLAT, MCM_HIER) */
static int plan(mcm_comm_t *s, mc_coll_t coll, const void *sbuf, int count,
                MPI_Datatype dt, MPI_Op op, int root, mcm_plan_t *p)
{
    return mcm_plan(s, coll, MCM_BLOCKING,
                    &(mcm_call_t){.sbuf = sbuf, .count = count, .dt = dt,
                                  .op = op, .root = root},
                    p);
}

/* out of line: the fast path's registers stay its own */
__attribute__((noinline)) static int
allreduce_slow(const void *sbuf, void *rbuf, int count,
                          MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                          mcm_comm_t *s)
{
    mcm_plan_t p;
    if (mcm_red_routed(s, MC_COLL_ALLREDUCE, count, dt, op))
        return PMPI_Allreduce(sbuf, rbuf, count, dt, op, comm);
    if (plan(s, MC_COLL_ALLREDUCE, sbuf, count, dt, op, 0, &p) == MCM_PMPI)
        return mcm_picked(&p, PMPI_Allreduce(sbuf, rbuf, count, dt,
                                             mcm_right_op(dt, op), comm));
    int rc = p.path == MCM_FLAT
                 ? mc_allreduce(s->node, mcin(sbuf), rbuf, (size_t)count,
                                p.red.dt, p.red.op)
                 : mc_hier_allreduce(&s->hier, mcin(sbuf), rbuf,
                                     (size_t)count, p.red.dt, p.red.op);
    return mcm_picked(&p, result(s, "MPI_Allreduce", rc));
}

static inline __attribute__((always_inline)) int blk_allreduce(const void *sbuf, void *rbuf, int count,
                                MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    mcm_comm_t *s = mcm_comm(comm);
    const mcm_type_t *t;
    int o;
    if (mcm_plan_fast_red(s, MC_COLL_ALLREDUCE, count, dt, op, &t, &o)) {
        mcm_count(s, MC_COLL_ALLREDUCE, MCM_BLOCKING, MCM_FLAT, NULL);
        int rc = mc_allreduce(s->node, mcin(sbuf), rbuf, (size_t)count,
                              (mc_dtype_t)t->mc, (mc_op_t)o);
        if (rc == MC_OK)
            return MPI_SUCCESS;
        return mcm_fail(s, "MPI_Allreduce", rc, NULL);
    }
    return allreduce_slow(sbuf, rbuf, count, dt, op, comm, s);
}

static MCM_TRACED int tr_allreduce(const void *sbuf, void *rbuf, int count,
                                   MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    MCM_TRACE_BLK(MC_COLL_ALLREDUCE, comm, blk_allreduce(sbuf, rbuf, count,
                  dt, op, comm), count, 0, dt, MPI_DATATYPE_NULL, op, 0,
                  sbuf == MPI_IN_PLACE, .sbuf = sbuf, .rbuf = rbuf,
                  .count = count, .sdt = dt, .op = op);
    return blk_allreduce(sbuf, rbuf, count, dt, op, comm);
}

int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                  MPI_Op op, MPI_Comm comm)
{
    if (MCM_TRACING())
        return tr_allreduce(sbuf, rbuf, count, dt, op, comm);
    return blk_allreduce(sbuf, rbuf, count, dt, op, comm);
}

#ifdef MPICH_VERSION
/* MPICH 4.0.2's MPI_Reduce crashes with MPI_IN_PLACE at a root other than
 * 0 above 2 KiB (as the hierarchy's phase between nodes finds:
 * provider.c): such a root hands it a copy of its data to send from, the
 * span of count elements of dt */
static int reduce_from_copy(void *rbuf, int count, MPI_Datatype dt,
                            MPI_Op op, int root, MPI_Comm comm)
{
    MPI_Aint lb, ext, tlb, text;
    char *copy = NULL;
    size_t span = 0;
    if (PMPI_Type_get_extent(dt, &lb, &ext) == MPI_SUCCESS &&
        PMPI_Type_get_true_extent(dt, &tlb, &text) == MPI_SUCCESS &&
        ext >= 0 && text >= 0) {
        span = (size_t)(count - 1) * (size_t)ext + (size_t)text;
        copy = malloc(span ? span : 1);
    }
    if (!copy) /* as the MPI alone */
        return PMPI_Reduce(MPI_IN_PLACE, rbuf, count, dt, op, root, comm);
    memcpy(copy, (char *)rbuf + tlb, span);
    int rc = PMPI_Reduce(copy - tlb, rbuf, count, dt, op, root, comm);
    free(copy);
    return rc;
}
#endif

/* MPI_Reduce as the MPI's own; op is one it gets right (a routed call's
 * own, which mcm_red_routed checked, or mcm_right_op's) */
static int pmpi_reduce(const void *sbuf, void *rbuf, int count,
                       MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm)
{
#ifdef MPICH_VERSION
    if (sbuf == MPI_IN_PLACE && root != 0 && count > 0)
        return reduce_from_copy(rbuf, count, dt, op, root, comm);
#endif
    return PMPI_Reduce(sbuf, rbuf, count, dt, op, root, comm);
}

/* out of line: the fast path's registers stay its own */
__attribute__((noinline)) static int
reduce_slow(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
            MPI_Op op, int root, MPI_Comm comm, mcm_comm_t *s)
{
    mcm_plan_t p;
    if (root >= 0 && s && root < s->topo->size &&
        mcm_red_routed(s, MC_COLL_REDUCE, count, dt, op))
        return pmpi_reduce(sbuf, rbuf, count, dt, op, root, comm);
    if (plan(s, MC_COLL_REDUCE, sbuf, count, dt, op, root, &p) == MCM_PMPI)
        return mcm_picked(&p, pmpi_reduce(sbuf, rbuf, count, dt,
                                          mcm_right_op(dt, op), root, comm));
    int rc = p.path == MCM_FLAT
                 ? mc_reduce(s->node, mcin(sbuf), rbuf, (size_t)count,
                             p.red.dt, p.red.op, root)
                 : mc_hier_reduce(&s->hier, mcin(sbuf), rbuf, (size_t)count,
                                  p.red.dt, p.red.op, root);
    return mcm_picked(&p, result(s, "MPI_Reduce", rc));
}

/* the fast path as MPI_Allreduce's, with the plan's step 4 (the root)
 * inline: a call through the plan cost the 8-byte MPI_Reduce about 330
 * instructions more than mc_reduce (bench/icount_check.py --mpi) */
static inline __attribute__((always_inline)) int
blk_reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
           MPI_Op op, int root, MPI_Comm comm)
{
    mcm_comm_t *s = mcm_comm(comm);
    const mcm_type_t *t;
    int o;
    if (mcm_plan_fast_red(s, MC_COLL_REDUCE, count, dt, op, &t, &o) &&
        root >= 0 && root < s->topo->size) {
        mcm_count(s, MC_COLL_REDUCE, MCM_BLOCKING, MCM_FLAT, NULL);
        int rc = mc_reduce(s->node, mcin(sbuf), rbuf, (size_t)count,
                           (mc_dtype_t)t->mc, (mc_op_t)o, root);
        if (rc == MC_OK)
            return MPI_SUCCESS;
        return mcm_fail(s, "MPI_Reduce", rc, NULL);
    }
    return reduce_slow(sbuf, rbuf, count, dt, op, root, comm, s);
}

static MCM_TRACED int tr_reduce(const void *sbuf, void *rbuf, int count,
                                MPI_Datatype dt, MPI_Op op, int root,
                                MPI_Comm comm)
{
    MCM_TRACE_BLK(MC_COLL_REDUCE, comm, blk_reduce(sbuf, rbuf, count, dt, op,
                  root, comm), count, 0, dt, MPI_DATATYPE_NULL, op, root,
                  sbuf == MPI_IN_PLACE, .sbuf = sbuf, .rbuf = rbuf,
                  .count = count, .sdt = dt, .op = op, .root = root);
    return blk_reduce(sbuf, rbuf, count, dt, op, root, comm);
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
               MPI_Op op, int root, MPI_Comm comm)
{
    if (MCM_TRACING())
        return tr_reduce(sbuf, rbuf, count, dt, op, root, comm);
    return blk_reduce(sbuf, rbuf, count, dt, op, root, comm);
}

static inline __attribute__((always_inline)) int blk_reduce_scatter_block(const void *sbuf, void *rbuf,
                                           int count, MPI_Datatype dt,
                                           MPI_Op op, MPI_Comm comm)
{
    mcm_comm_t *s = mcm_comm(comm);
    mcm_plan_t p;
    if (plan(s, MC_COLL_REDUCE_SCATTER_BLOCK, sbuf, count, dt, op, 0, &p) ==
        MCM_PMPI)
        return mcm_picked(&p, PMPI_Reduce_scatter_block(sbuf, rbuf, count, dt,
                                                        mcm_right_op(dt, op),
                                                        comm));
    int rc = p.path == MCM_FLAT
                 ? mc_reduce_scatter_block(s->node, mcin(sbuf), rbuf,
                                           (size_t)count, p.red.dt, p.red.op)
                 : mc_hier_reduce_scatter_block(&s->hier, mcin(sbuf), rbuf,
                                                (size_t)count, p.red.dt,
                                                p.red.op);
    return mcm_picked(&p, result(s, "MPI_Reduce_scatter_block", rc));
}

static MCM_TRACED int tr_reduce_scatter_block(const void *sbuf, void *rbuf,
                                              int count, MPI_Datatype dt,
                                              MPI_Op op, MPI_Comm comm)
{
    MCM_TRACE_BLK(MC_COLL_REDUCE_SCATTER_BLOCK, comm,
                  blk_reduce_scatter_block(sbuf, rbuf, count, dt, op, comm),
                  count, 0, dt, MPI_DATATYPE_NULL, op, 0,
                  sbuf == MPI_IN_PLACE, .sbuf = sbuf, .rbuf = rbuf,
                  .count = count, .sdt = dt, .op = op);
    return blk_reduce_scatter_block(sbuf, rbuf, count, dt, op, comm);
}

int MPI_Reduce_scatter_block(const void *sbuf, void *rbuf, int count,
                             MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    if (MCM_TRACING())
        return tr_reduce_scatter_block(sbuf, rbuf, count, dt, op, comm);
    return blk_reduce_scatter_block(sbuf, rbuf, count, dt, op, comm);
}
