/*
 * MPI_Gather and MPI_Scatter: like coll_move.c, bytes whatever the
 * datatypes. The block size comes from the arguments each rank has:
 * the send side on a gather's non-roots and a scatter's root, the receive
 * side elsewhere (MPI requires them equal; MPI_IN_PLACE at the root leaves
 * only the root's other side).
 */
#include "mpi/mcmpi.h"
#include "mpi/trace_hot.h"

static int fail(mcm_comm_t *s, const char *fn, int rc, const char *why)
{
    return mcm_fail(s, fn, rc, why);
}

static int done(mcm_comm_t *s, const char *fn, int rc)
{
    if (rc == MC_OK)
        return MPI_SUCCESS;
    return fail(s, fn, rc, s->path == MCM_HIER ? mc_hier_last_error() : NULL);
}

/* the plan of a gather or scatter (MCM_PMPI, MCM_FLAT, MCM_HIER) */
static int plan(mcm_comm_t *s, mc_coll_t coll, const void *sbuf, int scount,
                MPI_Datatype stype, void *rbuf, int rcount,
                MPI_Datatype rtype, int root, mcm_plan_t *p)
{
    return mcm_plan(s, coll, MCM_BLOCKING,
                    &(mcm_call_t){.sbuf = sbuf, .rbuf = rbuf, .root = root,
                                  .scount = scount, .rcount = rcount,
                                  .dt = stype, .rdt = rtype},
                    p);
}

static inline __attribute__((always_inline)) int blk_gather(const void *sbuf, int scount, MPI_Datatype stype,
                             void *rbuf, int rcount, MPI_Datatype rtype,
                             int root, MPI_Comm comm)
{
    static const char fn[] = "MPI_Gather";
    mcm_comm_t *s = mcm_comm(comm);
    mcm_plan_t p;
    if (plan(s, MC_COLL_GATHER, sbuf, scount, stype, rbuf, rcount, rtype,
             root, &p) == MCM_PMPI)
        return mcm_picked(&p, PMPI_Gather(sbuf, scount, stype, rbuf, rcount,
                                          rtype, root, comm));
    int me = p.root, P = s->topo->size, ip = p.ip;
    mcm_buf_t in = {0}, out = {0};
    int rc = MPI_SUCCESS;
    if (me)
        rc = mcm_stage(s, &out, rbuf, rcount * P, rtype, ip, 1);
    if (rc == MPI_SUCCESS && !ip)
        rc = mcm_stage(s, &in, (void *)sbuf, scount, stype, 1, 0);
    if (rc != MPI_SUCCESS)
        return fail(s, fn, MC_ERR_ARG, "a datatype could not be packed");
    size_t block = me ? out.bytes / (size_t)P : in.bytes;
    if (!ip && in.bytes != block)
        return fail(s, fn, MC_ERR_ARG, "send and receive sizes differ");
    const void *sin = ip ? MC_IN_PLACE : in.p;
    rc = p.path == MCM_FLAT
             ? mc_gather(s->node, sin, out.p, block, MC_UINT8, root)
             : mc_hier_gather(&s->hier, sin, out.p, block, MC_UINT8, root);
    if (rc != MC_OK)
        return done(s, fn, rc);
    if (me && mcm_unstage(s, &out) != MPI_SUCCESS)
        return fail(s, fn, MC_ERR_ARG, "a datatype could not be unpacked");
    return mcm_picked(&p, MPI_SUCCESS);
}

static MCM_TRACED int tr_gather(const void *sbuf, int scount,
                                MPI_Datatype stype, void *rbuf, int rcount,
                                MPI_Datatype rtype, int root, MPI_Comm comm)
{
    MCM_TRACE_BLK(MC_COLL_GATHER, comm, blk_gather(sbuf, scount, stype, rbuf,
                  rcount, rtype, root, comm), scount, rcount, stype, rtype,
                  MPI_OP_NULL, root, sbuf == MPI_IN_PLACE, .sbuf = sbuf,
                  .scount = scount, .sdt = stype, .rbuf = rbuf,
                  .rcount = rcount, .rdt = rtype, .root = root);
    return blk_gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
}

int MPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
               int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
    if (MCM_TRACING())
        return tr_gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
    return blk_gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
}

static inline __attribute__((always_inline)) int blk_scatter(const void *sbuf, int scount,
                              MPI_Datatype stype, void *rbuf, int rcount,
                              MPI_Datatype rtype, int root, MPI_Comm comm)
{
    static const char fn[] = "MPI_Scatter";
    mcm_comm_t *s = mcm_comm(comm);
    mcm_plan_t p;
    if (plan(s, MC_COLL_SCATTER, sbuf, scount, stype, rbuf, rcount, rtype,
             root, &p) == MCM_PMPI)
        return mcm_picked(&p, PMPI_Scatter(sbuf, scount, stype, rbuf, rcount,
                                           rtype, root, comm));
    int me = p.root, P = s->topo->size, ip = p.ip;
    mcm_buf_t in = {0}, out = {0};
    int rc = MPI_SUCCESS;
    if (me)
        rc = mcm_stage(s, &in, (void *)sbuf, scount * P, stype, 1, 0);
    if (rc == MPI_SUCCESS && !ip)
        rc = mcm_stage(s, &out, rbuf, rcount, rtype, 0, 1);
    if (rc != MPI_SUCCESS)
        return fail(s, fn, MC_ERR_ARG, "a datatype could not be packed");
    size_t block = me ? in.bytes / (size_t)P : out.bytes;
    if (!ip && out.bytes != block)
        return fail(s, fn, MC_ERR_ARG, "send and receive sizes differ");
    void *rout = ip ? MC_IN_PLACE : out.p;
    rc = p.path == MCM_FLAT
             ? mc_scatter(s->node, in.p, rout, block, MC_UINT8, root)
             : mc_hier_scatter(&s->hier, in.p, rout, block, MC_UINT8, root);
    if (rc != MC_OK)
        return done(s, fn, rc);
    if (!ip && mcm_unstage(s, &out) != MPI_SUCCESS)
        return fail(s, fn, MC_ERR_ARG, "a datatype could not be unpacked");
    return mcm_picked(&p, MPI_SUCCESS);
}

static MCM_TRACED int tr_scatter(const void *sbuf, int scount,
                                 MPI_Datatype stype, void *rbuf, int rcount,
                                 MPI_Datatype rtype, int root, MPI_Comm comm)
{
    MCM_TRACE_BLK(MC_COLL_SCATTER, comm, blk_scatter(sbuf, scount, stype,
                  rbuf, rcount, rtype, root, comm), scount, rcount, stype,
                  rtype, MPI_OP_NULL, root, rbuf == MPI_IN_PLACE,
                  .sbuf = sbuf, .scount = scount, .sdt = stype, .rbuf = rbuf,
                  .rcount = rcount, .rdt = rtype, .root = root);
    return blk_scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
}

int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
    if (MCM_TRACING())
        return tr_scatter(sbuf, scount, stype, rbuf, rcount, rtype, root,
                          comm);
    return blk_scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
}
