/* Names of the collectives (args.h). */
#include <string.h>

#include "coll/args.h"
#include "util/error.h"

static const char *const coll_names[MC_COLL_COUNT] = {
    [MC_COLL_BARRIER] = "barrier",
    [MC_COLL_BCAST] = "bcast",
    [MC_COLL_REDUCE] = "reduce",
    [MC_COLL_ALLREDUCE] = "allreduce",
    [MC_COLL_ALLGATHER] = "allgather",
    [MC_COLL_ALLTOALL] = "alltoall",
    [MC_COLL_REDUCE_SCATTER_BLOCK] = "reduce_scatter_block",
    [MC_COLL_GATHER] = "gather",
    [MC_COLL_SCATTER] = "scatter",
    [MC_COLL_SCAN] = "scan",
    [MC_COLL_EXSCAN] = "exscan",
    [MC_COLL_ALLGATHERV] = "allgatherv",
    [MC_COLL_ALLTOALLV] = "alltoallv",
    [MC_COLL_GATHERV] = "gatherv",
    [MC_COLL_SCATTERV] = "scatterv",
    [MC_COLL_REDUCE_SCATTER] = "reduce_scatter",
};

const char *mc_coll_name(mc_coll_t coll)
{
    return (unsigned)coll < MC_COLL_COUNT ? coll_names[coll] : "?";
}

int mc_coll_from_name(const char *name, mc_coll_t *out)
{
    for (int i = 0; i < MC_COLL_COUNT; i++)
        if (strcmp(coll_names[i], name) == 0) {
            *out = (mc_coll_t)i;
            return MC_OK;
        }
    return mc_error(MC_ERR_ARG,
                    "unknown collective '%s'; valid: barrier, bcast, reduce, "
                    "allreduce, allgather, alltoall, reduce_scatter_block, "
                    "gather, scatter, scan, exscan",
                    name);
}
