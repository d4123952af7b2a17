/*
 * A call as an algorithm sees it: which collective, the arguments with
 * MC_IN_PLACE resolved (mc_args_t), and the algorithm's parameters
 * (mc_params_t, named by the algorithm's own table, coll.h).
 */
#ifndef MC_COLL_ARGS_H
#define MC_COLL_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "manycoll.h"
#include "util/colls.h"

/* the collectives (mc_coll_t) and their names: util/colls.h */

/* Arguments as an algorithm sees them. The API layer has resolved
 * MC_IN_PLACE: sbuf always points at this rank's input (it may alias rbuf,
 * e.g. sbuf == rbuf for in-place allreduce, or sbuf == rbuf + rank * bytes
 * for in-place allgather), and rbuf at its output. Buffers that MPI says are
 * not significant on this rank are NULL. `bytes` is count * dsize, the
 * per-rank block for allgather, alltoall, gather, scatter and
 * reduce_scatter_block. */
typedef struct mc_args {
    mc_coll_t coll;
    const void *sbuf;
    void *rbuf;
    size_t count;
    size_t bytes;
    size_t dsize;
    mc_dtype_t dt;
    mc_op_t op;
    int root;
    int in_place;
    /* The v-variants: counts and displacements in elements, one per rank,
     * NULL where MPI says they are not significant on this rank. count is
     * 0 for them (it differs between ranks) and bytes is this rank's own
     * block: what it sends in allgatherv and gatherv, receives in scatterv
     * and reduce_scatter (rcounts[rank]); 0 in alltoallv. */
    const size_t *scounts, *sdispls, *rcounts, *rdispls;
    /* The size the selection sees where `bytes` differs between ranks
     * and the choice must not: reduce_scatter's mean block (the sum of
     * rcounts over P, in bytes). 0: `bytes`. */
    size_t sel_bytes;
} mc_args_t;

/* Values of an algorithm's parameters, in the order of its parameter
 * table (coll.h: mc_param_desc_t); the selection fills them. */
#define MC_MAX_PARAMS 6
typedef struct mc_params {
    int64_t v[MC_MAX_PARAMS];
} mc_params_t;

#endif
