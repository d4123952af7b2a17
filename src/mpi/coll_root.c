/*
 * MPI_Gather and MPI_Scatter: like coll_move.c, bytes whatever the
 * datatypes. The block size comes from the arguments each rank has:
 * the send side on a gather's non-roots and a scatter's root, the receive
 * side elsewhere (MPI requires them equal; MPI_IN_PLACE at the root leaves
 * only the root's other side).
 */
#include "mpi/mcmpi.h"

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

/* 1 if the call goes to MPI: communicator, root or the counts significant
 * here (ip: the root's side is MPI_IN_PLACE) */
static int to_pmpi(mcm_comm_t *s, int coll, int scount, int rcount, int root,
                   const void *ip)
{
    const char *why = NULL;
    if (!s || s->path == MCM_PMPI)
        why = s && s->topo && s->topo->why ? s->topo->why
                                           : "not a communicator manycoll "
                                             "takes";
    else if (s->path == MCM_HIER && !mc_hier_supports(&s->hier, coll, 1))
        why = mcm_shape_why;
    else if (root < 0 || root >= s->topo->size)
        why = "root out of range";
    else if (!mcm_counts_ok(coll == MC_COLL_GATHER ? MCM_GATHER : MCM_SCATTER,
                            s->topo->rank == root, s->topo->size,
                            s->topo->rank == root && ip == MPI_IN_PLACE,
                            scount, rcount))
        why = "a negative count, or more than INT_MAX elements";
    if (why)
        mcm_count_pmpi(s, coll, why);
    return why != NULL;
}

int MPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
               int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
    static const char fn[] = "MPI_Gather";
    mcm_comm_t *s = mcm_comm(comm);
    if (to_pmpi(s, MC_COLL_GATHER, scount, rcount, root, sbuf))
        return PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root,
                           comm);
    int me = s->topo->rank == root, P = s->topo->size;
    int ip = me && sbuf == MPI_IN_PLACE;
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
    s->stat[MC_COLL_GATHER].mc++;
    rc = s->path == MCM_FLAT
             ? mc_gather(s->node, sin, out.p, block, MC_UINT8, root)
             : mc_hier_gather(&s->hier, sin, out.p, block, MC_UINT8, root);
    if (rc != MC_OK)
        return done(s, fn, rc);
    if (me && mcm_unstage(s, &out) != MPI_SUCCESS)
        return fail(s, fn, MC_ERR_ARG, "a datatype could not be unpacked");
    return MPI_SUCCESS;
}

int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
    static const char fn[] = "MPI_Scatter";
    mcm_comm_t *s = mcm_comm(comm);
    if (to_pmpi(s, MC_COLL_SCATTER, scount, rcount, root, rbuf))
        return PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root,
                            comm);
    int me = s->topo->rank == root, P = s->topo->size;
    int ip = me && rbuf == MPI_IN_PLACE;
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
    s->stat[MC_COLL_SCATTER].mc++;
    rc = s->path == MCM_FLAT
             ? mc_scatter(s->node, in.p, rout, block, MC_UINT8, root)
             : mc_hier_scatter(&s->hier, in.p, rout, block, MC_UINT8, root);
    if (rc != MC_OK)
        return done(s, fn, rc);
    if (!ip && mcm_unstage(s, &out) != MPI_SUCCESS)
        return fail(s, fn, MC_ERR_ARG, "a datatype could not be unpacked");
    return MPI_SUCCESS;
}
