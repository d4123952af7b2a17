/*
 * MPI_Reduce_scatter on one node (a communicator manycoll takes flat):
 * what MPI_Reduce_scatter_block takes (mcm_reduction decides from the
 * datatype and op, which MPI requires to be the same on every rank),
 * with the counts copied into the communicator's state (made at the
 * first call). Several nodes (no hierarchical form yet) and negative
 * counts go to the MPI library, which reports the latter.
 */
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
    int ok = s && s->path == MCM_FLAT && mcm_reduction(dt, op, &r, &why) == 0 &&
             counts(s, rcounts) == 0;
    if (mcm_flat_only(s, MCM_REDUCE_SCATTER, ok, why))
        return PMPI_Reduce_scatter(sbuf, rbuf, rcounts, dt, op, comm);
    s->stat[MCM_REDUCE_SCATTER].mc++;
    return result(s, "MPI_Reduce_scatter",
                  mc_reduce_scatter(s->node, mcin(sbuf), rbuf, s->v,
                                    r.dt, r.op));
}
