/*
 * Hierarchical collectives: manycoll inside a node, a provider between
 * nodes. Written once, above the public API (it includes manycoll.h, and
 * ops/half.h for 16-bit float conversions: hier_half.c), so the same code
 * serves two worlds:
 *
 *   - MPI programs (src/mpi): the node is the ranks of one machine, a
 *     manycoll shm communicator; the provider is the MPI library (PMPI_*
 *     on an MPI communicator of the ranks with my local index on every node);
 *   - multi-chip simulations (vSCC): the node is one chip, a simulated
 *     manycoll communicator; the provider is manycoll's own algorithms on a
 *     communicator of one core per chip over the simulated host link.
 *
 * Vocabulary, for a communicator of P = N nodes x L ranks:
 *
 *         node 0            node 1            node 2
 *     +-----------+     +-----------+     +-----------+
 *     | 0   1   2 |     | 3   4   5 |     | 6   7   8 |     comm ranks
 *     | l0  l1  l2|     | l0  l1  l2|     | l0  l1  l2|     local index
 *     +-|---|---|-+     +-|---|---|-+     +-|---|---|-+
 *       |   |   +---------|---|---------------|---|---+    slice 2
 *       |   +-------------|---+---------------|---+        slice 1
 *       +-----------------+-------------------+            slice 0 = leaders
 *
 *   node      the ranks of one node, a manycoll communicator (intra phases);
 *   slice j   the ranks with local index j on every node, ordered by node:
 *             a provider group ("peers"; slice 0 is the usual leaders).
 *             Several leaders per node -- one per slice of a large vector --
 *             is the same code with every slice active (multi-leader).
 *
 * Shapes. "uniform": every node has L ranks, so every slice has N members
 * and rank r's node and local index are node_of(r), local_of(r). "block":
 * also r == node * L + local (the usual mpirun placement); data that lands
 * in rank order (allgather, gather, scatter, reduce_scatter_block) and
 * non-commutative reductions need it. Not uniform: only slice 0 (the
 * leaders) exists, and barrier, bcast, reduce and allreduce go through it.
 * mc_hier_supports() says which collective runs on which shape; the caller
 * takes its flat path for the others. Every rank computes the same answer
 * because the shape and the call's arguments are the same everywhere.
 *
 * The provider (mc_hier_provider_t) is a table of blocking collectives on
 * an opaque group handle, with manycoll's argument conventions (count in
 * elements of mc_dtype_t, MC_IN_PLACE). Data-movement collectives pass
 * bytes (MC_UINT8); reductions pass the caller's dtype and op, and a
 * provider that must translate a user op (mc_op_create) keeps its own
 * mapping. Optional non-blocking forms (iallreduce, ibcast + wait) let
 * long vectors overlap the inter-node phase of one segment with the
 * intra-node phases of the next; NULL entries mean blocking only.
 *
 * Errors: every function returns MC_OK or a negative MC_ERR_*;
 * mc_hier_last_error() gives a message naming the phase and the cause.
 */
#ifndef MC_HIER_H
#define MC_HIER_H

#include <stddef.h>

#include "manycoll.h"

/* requests a provider may have in flight per group */
#define MC_HIER_MAX_INFLIGHT 4

typedef struct mc_hier_provider {
    const char *name;
    int (*barrier)(void *g);
    int (*bcast)(void *g, void *buf, size_t count, mc_dtype_t dt, int root);
    int (*reduce)(void *g, const void *sbuf, void *rbuf, size_t count,
                  mc_dtype_t dt, mc_op_t op, int root);
    int (*allreduce)(void *g, const void *sbuf, void *rbuf, size_t count,
                     mc_dtype_t dt, mc_op_t op);
    int (*allgather)(void *g, const void *sbuf, void *rbuf, size_t count,
                     mc_dtype_t dt);
    int (*gather)(void *g, const void *sbuf, void *rbuf, size_t count,
                  mc_dtype_t dt, int root);
    int (*scatter)(void *g, const void *sbuf, void *rbuf, size_t count,
                   mc_dtype_t dt, int root);
    int (*reduce_scatter_block)(void *g, const void *sbuf, void *rbuf,
                                size_t count, mc_dtype_t dt, mc_op_t op);
    /* optional: NULL, and an alltoall takes the caller's flat path */
    int (*alltoall)(void *g, const void *sbuf, void *rbuf, size_t count,
                    mc_dtype_t dt);
    /* optional: start into request slot `slot` (< MC_HIER_MAX_INFLIGHT),
     * then wait for it; both NULL if the provider has none */
    int (*iallreduce)(void *g, const void *sbuf, void *rbuf, size_t count,
                      mc_dtype_t dt, mc_op_t op, int slot);
    int (*ibcast)(void *g, void *buf, size_t count, mc_dtype_t dt, int root,
                  int slot);
    int (*wait)(void *g, int slot);
} mc_hier_provider_t;

/* Collectives: mc_coll_t and mc_coll_info (manycoll.h). The hierarchy has
 * a form of the first nine (MC_COLL_BARRIER .. MC_COLL_SCATTER); alltoall
 * only where the provider has one. */

/* Tunables, with their defaults in mc_hier_default_params(). */
typedef struct mc_hier_params {
    size_t seg_bytes;       /* pipeline segment of bcast/reduce/allreduce */
    size_t ml_min_bytes;    /* multi-leader allreduce/reduce from here on */
    int nonblocking;        /* overlap with the provider's i* forms */
} mc_hier_params_t;

/* One rank's view of a hierarchical communicator. The caller builds the
 * node communicator and the provider groups, fills this in, and keeps it
 * alive; mc_hier_check validates it. */
typedef struct mc_hier {
    mc_comm_t *node;        /* my node's ranks (manycoll) */
    void *peers;            /* my slice's provider group, or NULL (not
                             * uniform and not a leader) */
    const mc_hier_provider_t *prov;
    int rank, size;         /* in the whole communicator */
    int local, ppn;         /* my index on my node; ranks per node if
                             * uniform, else my node's size */
    int nodeid, nnodes;     /* my node's index (order of the nodes' first
                             * ranks), number of nodes */
    int uniform, block;     /* the shapes above */
    const int *node_of;     /* [size] node of each rank (NULL if block) */
    const int *local_of;    /* [size] local index of each rank (ditto) */
    mc_hier_params_t par;
    void *scratch;          /* private scratch, grown on demand */
    size_t scratch_len;
} mc_hier_t;

void mc_hier_default_params(mc_hier_params_t *p);
int mc_hier_check(const mc_hier_t *h);
/* Frees the scratch memory (the caller owns node and peers). */
void mc_hier_release(mc_hier_t *h);

/* 1 if `coll` runs hierarchically on this shape (commutative: the op's),
 * the same on every rank; 0 if the caller must take its flat path. */
int mc_hier_supports(const mc_hier_t *h, mc_coll_t coll,
                     int commutative);

/* The collectives: manycoll's signatures with mc_hier_t for mc_comm_t.
 * Callers check mc_hier_supports first. */
int mc_hier_barrier(mc_hier_t *h);
int mc_hier_bcast(mc_hier_t *h, void *buf, size_t count, mc_dtype_t dt,
                  int root);
int mc_hier_reduce(mc_hier_t *h, const void *sbuf, void *rbuf, size_t count,
                   mc_dtype_t dt, mc_op_t op, int root);
int mc_hier_allreduce(mc_hier_t *h, const void *sbuf, void *rbuf,
                      size_t count, mc_dtype_t dt, mc_op_t op);
int mc_hier_allgather(mc_hier_t *h, const void *sbuf, void *rbuf,
                      size_t count, mc_dtype_t dt);
int mc_hier_gather(mc_hier_t *h, const void *sbuf, void *rbuf, size_t count,
                   mc_dtype_t dt, int root);
int mc_hier_scatter(mc_hier_t *h, const void *sbuf, void *rbuf, size_t count,
                    mc_dtype_t dt, int root);
int mc_hier_reduce_scatter_block(mc_hier_t *h, const void *sbuf, void *rbuf,
                                 size_t count, mc_dtype_t dt, mc_op_t op);
int mc_hier_alltoall(mc_hier_t *h, const void *sbuf, void *rbuf,
                     size_t count, mc_dtype_t dt);

/* A provider of manycoll's own collectives: the group is an mc_comm_t. */
extern const mc_hier_provider_t mc_hier_provider_manycoll;

/* The message of the last failure on this thread. */
const char *mc_hier_last_error(void);
/* For providers: records a failure's message, returns `status`. */
int mc_hier_fail(int status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif /* MC_HIER_H */
