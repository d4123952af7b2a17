/*
 * MPI_Allgatherv, MPI_Alltoallv, MPI_Gatherv, MPI_Scatterv on one node.
 * As for the block collectives (coll_move.c), whether manycoll takes a
 * call depends on the communicator alone (one node, flat) and on counts
 * that MPI requires to be consistent between the ranks (none negative):
 * never on a datatype, which may differ between ranks. Every block moves
 * as cnt * size bytes; a rank whose datatype has gaps packs and unpacks
 * its blocks around the call (stage_v.c). Several nodes go to the MPI
 * library (no hierarchical v-variant), as do big-count (_c) calls, which
 * are not interposed.
 *
 *   MPI_Gatherv(sbuf, 3, MPI_INT, rbuf, {3,0,2}, {4,0,-2}, vec, root)
 *     sender: its 12 bytes (packed if MPI_INT were not contiguous)
 *     root:   mc_gatherv(node, sbuf', 12, p, {12,0,8}, bd, MC_UINT8, root)
 *             p = scratch; afterwards block i unpacked to rbuf + d[i]*ext
 */
#include "mpi/mcmpi.h"

static int result(mcm_comm_t *s, const char *fn, int rc)
{
    return rc == MC_OK ? MPI_SUCCESS : mcm_fail(s, fn, rc, NULL);
}

static int staged(mcm_comm_t *s, const char *fn, int rc)
{
    return rc == MPI_SUCCESS ? rc
                             : mcm_fail(s, fn, MC_ERR_ARG,
                                        "a datatype could not be packed");
}

static int mismatch(mcm_comm_t *s, const char *fn)
{
    return mcm_fail(s, fn, MC_ERR_ARG, "this rank's send and receive "
                    "sizes differ (the type signatures do not match)");
}

static const char *const neg_why = "a negative count";

/* counts significant on this rank: present and none negative */
static int counts_ok(const int *cnt, int n)
{
    return cnt && !mcm_negative(cnt, n);
}

int MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype stype,
                   void *rbuf, const int rcounts[], const int displs[],
                   MPI_Datatype rtype, MPI_Comm comm)
{
    static const char fn[] = "MPI_Allgatherv";
    mcm_comm_t *s = mcm_comm(comm);
    int ok = s && counts_ok(rcounts, s->topo->size) && displs &&
             scount >= 0 && mcm_varrays(s);
    if (mcm_flat_only(s, MCM_ALLGATHERV, ok, neg_why))
        return PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs,
                               rtype, comm);
    int me = s->topo->rank, ip = sbuf == MPI_IN_PLACE;
    mcm_vbuf_t out;
    mcm_buf_t in = {0};
    int rc = mcm_vstage(s, &out, rbuf, rcounts, displs, rtype,
                        ip ? me : MCM_V_OUT, 1, s->v);
    if (rc == MPI_SUCCESS && !ip)
        rc = mcm_stage(s, &in, (void *)sbuf, scount, stype, 1, 0);
    if (rc != MPI_SUCCESS)
        return staged(s, fn, rc);
    if (!ip && in.bytes != out.bc[me])
        return mismatch(s, fn);
    s->stat[MCM_ALLGATHERV].mc++;
    rc = mc_allgatherv(s->node, ip ? MC_IN_PLACE : in.p, out.bc[me], out.p,
                       out.bc, out.bd, MC_UINT8);
    if (rc != MC_OK)
        return result(s, fn, rc);
    return staged(s, fn, mcm_vunstage(s, &out));
}

int MPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[],
                  MPI_Datatype stype, void *rbuf, const int rcounts[],
                  const int rdispls[], MPI_Datatype rtype, MPI_Comm comm)
{
    static const char fn[] = "MPI_Alltoallv";
    mcm_comm_t *s = mcm_comm(comm);
    int ip = sbuf == MPI_IN_PLACE, n = s ? s->topo->size : 0;
    int ok = s && counts_ok(rcounts, n) && rdispls &&
             (ip || (counts_ok(scounts, n) && sdispls)) && mcm_varrays(s);
    if (mcm_flat_only(s, MCM_ALLTOALLV, ok, neg_why))
        return PMPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts,
                              rdispls, rtype, comm);
    int me = s->topo->rank;
    mcm_vbuf_t in = {0}, out;
    int rc = mcm_vstage(s, &out, rbuf, rcounts, rdispls, rtype,
                        ip ? MCM_V_ALL : MCM_V_OUT, 1, s->v);
    if (rc == MPI_SUCCESS && !ip)
        rc = mcm_vstage(s, &in, (void *)sbuf, scounts, sdispls, stype,
                        MCM_V_ALL, 0, s->v + 2 * (size_t)n);
    if (rc != MPI_SUCCESS)
        return staged(s, fn, rc);
    if (!ip && in.bc[me] != out.bc[me])
        return mismatch(s, fn);
    s->stat[MCM_ALLTOALLV].mc++;
    rc = mc_alltoallv(s->node, ip ? MC_IN_PLACE : in.p, ip ? NULL : in.bc,
                      ip ? NULL : in.bd, out.p, out.bc, out.bd, MC_UINT8);
    if (rc != MC_OK)
        return result(s, fn, rc);
    return staged(s, fn, mcm_vunstage(s, &out));
}

int MPI_Gatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                const int rcounts[], const int displs[], MPI_Datatype rtype,
                int root, MPI_Comm comm)
{
    static const char fn[] = "MPI_Gatherv";
    mcm_comm_t *s = mcm_comm(comm);
    int n = s ? s->topo->size : 0, r = s && s->topo->rank == root;
    int ip = r && sbuf == MPI_IN_PLACE;
    int ok = s && root >= 0 && root < n && (ip || scount >= 0) &&
             (!r || (counts_ok(rcounts, n) && displs)) && mcm_varrays(s);
    if (mcm_flat_only(s, MCM_GATHERV, ok, "a negative count or a root "
                                          "out of range"))
        return PMPI_Gatherv(sbuf, scount, stype, rbuf, rcounts, displs,
                            rtype, root, comm);
    mcm_vbuf_t out = {0};
    mcm_buf_t in = {0};
    int rc = MPI_SUCCESS;
    if (r)
        rc = mcm_vstage(s, &out, rbuf, rcounts, displs, rtype,
                        ip ? root : MCM_V_OUT, 1, s->v);
    if (rc == MPI_SUCCESS && !ip)
        rc = mcm_stage(s, &in, (void *)sbuf, scount, stype, 1, 0);
    if (rc != MPI_SUCCESS)
        return staged(s, fn, rc);
    if (r && !ip && in.bytes != out.bc[root])
        return mismatch(s, fn);
    s->stat[MCM_GATHERV].mc++;
    rc = mc_gatherv(s->node, ip ? MC_IN_PLACE : in.p,
                    ip ? out.bc[root] : in.bytes, out.p, out.bc, out.bd,
                    MC_UINT8, root);
    if (rc != MC_OK)
        return result(s, fn, rc);
    return staged(s, fn, r ? mcm_vunstage(s, &out) : MPI_SUCCESS);
}

int MPI_Scatterv(const void *sbuf, const int scounts[], const int displs[],
                 MPI_Datatype stype, void *rbuf, int rcount,
                 MPI_Datatype rtype, int root, MPI_Comm comm)
{
    static const char fn[] = "MPI_Scatterv";
    mcm_comm_t *s = mcm_comm(comm);
    int n = s ? s->topo->size : 0, r = s && s->topo->rank == root;
    int ip = r && rbuf == MPI_IN_PLACE;
    int ok = s && root >= 0 && root < n && (ip || rcount >= 0) &&
             (!r || (counts_ok(scounts, n) && displs)) && mcm_varrays(s);
    if (mcm_flat_only(s, MCM_SCATTERV, ok, "a negative count or a root "
                                           "out of range"))
        return PMPI_Scatterv(sbuf, scounts, displs, stype, rbuf, rcount,
                             rtype, root, comm);
    mcm_vbuf_t in = {0};
    mcm_buf_t out = {0};
    int rc = MPI_SUCCESS;
    if (r)
        rc = mcm_vstage(s, &in, (void *)sbuf, scounts, displs, stype,
                        MCM_V_ALL, 0, s->v);
    if (rc == MPI_SUCCESS && !ip)
        rc = mcm_stage(s, &out, rbuf, rcount, rtype, 0, 1);
    if (rc != MPI_SUCCESS)
        return staged(s, fn, rc);
    if (r && !ip && out.bytes != in.bc[root])
        return mismatch(s, fn);
    s->stat[MCM_SCATTERV].mc++;
    rc = mc_scatterv(s->node, in.p, in.bc, in.bd, ip ? MC_IN_PLACE : out.p,
                     ip ? in.bc[root] : out.bytes, MC_UINT8, root);
    if (rc != MC_OK)
        return result(s, fn, rc);
    return staged(s, fn, ip ? MPI_SUCCESS : mcm_unstage(s, &out));
}
