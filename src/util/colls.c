/*
 * The collectives, each described once. Everything that lists or tells
 * collectives apart reads this table: the API's checks, the selection
 * and its variables (MC_ALGO_<COLL>), `manycoll info`, the hierarchy,
 * libmanycoll_mpi's report and the tests' walks. Adding a collective is
 * a row here (and its API call, its algorithms and its selection rules).
 */
#include <stdio.h>
#include <string.h>

#include "util/colls.h"
#include "util/error.h"

enum {
    ALL_FORMS = MC_COLL_BLOCKING | MC_COLL_NONBLOCKING | MC_COLL_PERSISTENT
};

#define COLL(k, nm, up, mpiname, pr, ip)                                     \
    [k] = {.coll = k, .name = nm, .var = "MC_ALGO_" up, .mpi = mpiname,      \
           .props = pr, .in_place = ip, .forms = ALL_FORMS}

/* clang-format off */
const mc_coll_info_t mc_colls[MC_COLL_COUNT] = {
    COLL(MC_COLL_BARRIER, "barrier", "BARRIER", "MPI_Barrier", 0,
         MC_IN_PLACE_NONE),
    COLL(MC_COLL_BCAST, "bcast", "BCAST", "MPI_Bcast", MC_COLL_ROOTED,
         MC_IN_PLACE_NONE),
    COLL(MC_COLL_REDUCE, "reduce", "REDUCE", "MPI_Reduce",
         MC_COLL_ROOTED | MC_COLL_REDUCES, MC_IN_PLACE_ROOT_SEND),
    COLL(MC_COLL_ALLREDUCE, "allreduce", "ALLREDUCE", "MPI_Allreduce",
         MC_COLL_REDUCES, MC_IN_PLACE_SEND),
    COLL(MC_COLL_ALLGATHER, "allgather", "ALLGATHER", "MPI_Allgather",
         MC_COLL_BLOCKS, MC_IN_PLACE_SEND),
    COLL(MC_COLL_ALLTOALL, "alltoall", "ALLTOALL", "MPI_Alltoall",
         MC_COLL_BLOCKS, MC_IN_PLACE_SEND),
    COLL(MC_COLL_REDUCE_SCATTER_BLOCK, "reduce_scatter_block",
         "REDUCE_SCATTER_BLOCK", "MPI_Reduce_scatter_block",
         MC_COLL_REDUCES | MC_COLL_BLOCKS, MC_IN_PLACE_SEND),
    COLL(MC_COLL_GATHER, "gather", "GATHER", "MPI_Gather",
         MC_COLL_ROOTED | MC_COLL_BLOCKS, MC_IN_PLACE_ROOT_SEND),
    COLL(MC_COLL_SCATTER, "scatter", "SCATTER", "MPI_Scatter",
         MC_COLL_ROOTED | MC_COLL_BLOCKS, MC_IN_PLACE_ROOT_RECV),
    COLL(MC_COLL_SCAN, "scan", "SCAN", "MPI_Scan", MC_COLL_REDUCES,
         MC_IN_PLACE_SEND),
    COLL(MC_COLL_EXSCAN, "exscan", "EXSCAN", "MPI_Exscan", MC_COLL_REDUCES,
         MC_IN_PLACE_SEND),
    COLL(MC_COLL_ALLGATHERV, "allgatherv", "ALLGATHERV", "MPI_Allgatherv",
         MC_COLL_VECTOR, MC_IN_PLACE_SEND),
    COLL(MC_COLL_ALLTOALLV, "alltoallv", "ALLTOALLV", "MPI_Alltoallv",
         MC_COLL_VECTOR, MC_IN_PLACE_SEND),
    COLL(MC_COLL_GATHERV, "gatherv", "GATHERV", "MPI_Gatherv",
         MC_COLL_ROOTED | MC_COLL_VECTOR, MC_IN_PLACE_ROOT_SEND),
    COLL(MC_COLL_SCATTERV, "scatterv", "SCATTERV", "MPI_Scatterv",
         MC_COLL_ROOTED | MC_COLL_VECTOR, MC_IN_PLACE_ROOT_RECV),
    COLL(MC_COLL_REDUCE_SCATTER, "reduce_scatter", "REDUCE_SCATTER",
         "MPI_Reduce_scatter", MC_COLL_REDUCES | MC_COLL_VECTOR,
         MC_IN_PLACE_SEND),
};
/* clang-format on */

const mc_coll_info_t *mc_coll_info(mc_coll_t coll)
{
    return (unsigned)coll < MC_COLL_COUNT ? &mc_colls[coll] : NULL;
}

const char *mc_coll_name(mc_coll_t coll)
{
    return (unsigned)coll < MC_COLL_COUNT ? mc_colls[coll].name : "?";
}

int mc_coll_lookup(const char *name, mc_coll_t *out)
{
    if (!out)
        return mc_error(MC_ERR_ARG, "mc_coll_lookup: argument 'out' is NULL");
    for (int i = 0; name && i < MC_COLL_COUNT; i++)
        if (strcmp(mc_colls[i].name, name) == 0) {
            *out = (mc_coll_t)i;
            return MC_OK;
        }
    char valid[400];
    size_t n = 0;
    for (int i = 0; i < MC_COLL_COUNT; i++)
        n += (size_t)snprintf(valid + n, sizeof valid - n, "%s%s",
                              i ? ", " : "", mc_colls[i].name);
    return mc_error(MC_ERR_ARG, "unknown collective '%s'; valid: %s",
                    name ? name : "(null)", valid);
}

int mc_coll_from_name(const char *name, mc_coll_t *out)
{
    return mc_coll_lookup(name, out);
}

int mc_coll_from_var(const char *var, size_t len)
{
    for (int i = 0; i < MC_COLL_COUNT; i++)
        if (strlen(mc_colls[i].var) == len &&
            !strncmp(mc_colls[i].var, var, len))
            return i;
    return -1;
}
