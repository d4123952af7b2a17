/*
 * The node structure of an MPI communicator, computed once per
 * communicator (and shared with its duplicates), collectively, from values
 * every rank sees alike:
 *
 *   (1) PMPI_Comm_split_type(MPI_COMM_TYPE_SHARED)   my node's ranks
 *       MC_MPI_NODE_SIZE=k: then split those by MPI_COMM_WORLD rank / k,
 *       so every k consecutive processes are a "node" (tests of several
 *       nodes on one machine)
 *   (2) PMPI_Allgather of (local index, comm rank of my node's first
 *       rank, MC_MPI_NODE_SIZE, MC_MPI_HIER with MC_MPI_HIER_PICK,
 *       MPI_THREAD_MULTIPLE) over
 *       the communicator
 *   (3) every rank derives the same table from it: node index of each
 *       rank (nodes in the order of their first ranks), ranks per node,
 *       uniform (all nodes alike), block (nodes are runs of consecutive
 *       ranks), multi (a rank runs MPI_THREAD_MULTIPLE: MPI lets each
 *       process have its own level, and the plan of a non-blocking call
 *       reads it, so every rank must read the same), and the path:
 *         one node        MCM_FLAT  manycoll on the whole communicator
 *         several nodes   MCM_HIER  src/hier with MPI between nodes
 *         settings differing between ranks, MC_MPI_HIER=0 with several
 *         nodes, an intercommunicator, one rank: MCM_PMPI
 */
#include <stdio.h>
#include <stdlib.h>

#include "mpi/mcmpi.h"

#define ALLG 5 /* ints per rank in step (2) */

static int node_comm(MPI_Comm comm, int rank, MPI_Comm *node)
{
    int rc = PMPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank,
                                  MPI_INFO_NULL, node);
    if (rc != MPI_SUCCESS || mcm_cfg.node_size <= 0)
        return rc;
    /* "nodes" are a property of processes, as real ones are: groups of
     * MPI_COMM_WORLD ranks, whatever order a communicator puts them in */
    MPI_Comm sub;
    int wrank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    rc = PMPI_Comm_split(*node, wrank / mcm_cfg.node_size, rank, &sub);
    PMPI_Comm_free(node);
    *node = sub;
    return rc;
}

/* comm rank of the first rank of my node */
static int first_rank(MPI_Comm comm, MPI_Comm node, int *out)
{
    MPI_Group gn, gc;
    int zero = 0;
    int rc = PMPI_Comm_group(node, &gn);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Comm_group(comm, &gc);
    if (rc == MPI_SUCCESS) {
        rc = PMPI_Group_translate_ranks(gn, 1, &zero, gc, out);
        PMPI_Group_free(&gc);
    }
    PMPI_Group_free(&gn);
    return rc;
}

/* (3): everything from the gathered table */
static int derive(mcm_topo_t *t, const int *all)
{
    int P = t->size;
    int *idx = malloc(sizeof(int) * (size_t)P);
    int *cnt = calloc((size_t)P, sizeof(int));
    t->node_of = malloc(sizeof(int) * (size_t)P);
    t->local_of = malloc(sizeof(int) * (size_t)P);
    if (!idx || !cnt || !t->node_of || !t->local_of) {
        free(idx);
        free(cnt);
        return -1;
    }
    int nn = 0;
    for (int r = 0; r < P; r++)
        if (all[ALLG * r] == 0)
            idx[r] = nn++; /* r is its node's first rank */
    t->uniform = t->block = 1;
    for (int r = 0; r < P; r++) {
        int n = idx[all[ALLG * r + 1]];
        t->node_of[r] = n;
        t->local_of[r] = all[ALLG * r];
        cnt[n]++;
        if (r && !(n == t->node_of[r - 1] ? t->local_of[r] ==
                                                 t->local_of[r - 1] + 1
                                           : n == t->node_of[r - 1] + 1))
            t->block = 0;
    }
    for (int n = 0; n < nn; n++)
        t->uniform &= cnt[n] == cnt[0];
    t->nnodes = nn;
    for (int r = 0; r < P; r++)
        t->multi |= all[ALLG * r + 4];
    t->nodeid = t->node_of[t->rank];
    t->local = t->local_of[t->rank];
    t->node_n = cnt[t->nodeid];
    t->ppn = t->uniform ? cnt[0] : t->node_n;
    if (t->uniform && t->block) {
        free(t->node_of);
        free(t->local_of);
        t->node_of = t->local_of = NULL;
    }
    free(idx);
    free(cnt);
    return 0;
}

static int same_settings(const int *all, int P)
{
    for (int r = 1; r < P; r++)
        if (all[ALLG * r + 2] != all[2] || all[ALLG * r + 3] != all[3])
            return 0;
    return 1;
}

int mcm_topo_compute(MPI_Comm comm, mcm_topo_t **out)
{
    mcm_topo_t *t = calloc(1, sizeof *t);
    if (!t)
        return MPI_ERR_NO_MEM;
    atomic_init(&t->refs, 1);
    *out = t;
    int inter = 0;
    int rc = PMPI_Comm_test_inter(comm, &inter);
    if (rc == MPI_SUCCESS && !inter) {
        PMPI_Comm_rank(comm, &t->rank);
        rc = PMPI_Comm_size(comm, &t->size);
    }
    if (rc != MPI_SUCCESS || inter || t->size < 2) {
        t->why = inter ? "intercommunicator" : "one rank";
        return rc;
    }
    MPI_Comm node;
    int level;
    if (PMPI_Query_thread(&level) != MPI_SUCCESS)
        level = MPI_THREAD_MULTIPLE; /* MPI cannot say: the safe side */
    int mine[ALLG] = {0, 0, mcm_cfg.node_size,
                      mcm_cfg.hier ? 1 + 2 * mcm_cfg.pick_sig : 0,
                      level == MPI_THREAD_MULTIPLE};
    int *all = malloc(sizeof(int) * ALLG * (size_t)t->size);
    if (!all)
        return MPI_ERR_NO_MEM;
    rc = node_comm(comm, t->rank, &node);
    if (rc == MPI_SUCCESS) {
        PMPI_Comm_rank(node, &mine[0]);
        rc = first_rank(comm, node, &mine[1]);
        PMPI_Comm_free(&node);
    }
    if (rc == MPI_SUCCESS)
        rc = PMPI_Allgather(mine, ALLG, MPI_INT, all, ALLG, MPI_INT, comm);
    if (rc == MPI_SUCCESS && !same_settings(all, t->size)) {
        t->why = "MC_MPI_NODE_SIZE, MC_MPI_HIER or MC_MPI_HIER_PICK "
                 "differs between ranks";
    } else if (rc == MPI_SUCCESS && derive(t, all)) {
        rc = MPI_ERR_NO_MEM;
    } else if (rc == MPI_SUCCESS) {
        t->path = t->nnodes == 1 ? MCM_FLAT : mcm_cfg.hier ? MCM_HIER
                                                           : MCM_PMPI;
        if (t->path == MCM_PMPI)
            t->why = "several nodes and MC_MPI_HIER=0";
    }
    free(all);
    return rc;
}

void mcm_topo_put(mcm_topo_t *t)
{
    if (t && atomic_fetch_sub(&t->refs, 1) == 1) {
        free(t->node_of);
        free(t->local_of);
        free(t);
    }
}
