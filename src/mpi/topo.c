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
 *       rank, MC_MPI_NODE_SIZE, MC_MPI_HIER, MPI_THREAD_MULTIPLE) over
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
 *
 * Steps (1) and (2) are done once, for MPI_COMM_WORLD, at MPI_Init
 * (mcm_topo_world): the table of every world rank's node and settings.
 * A communicator whose ranks are all in MPI_COMM_WORLD then builds the
 * same table as (2) would gather, from its group alone: no call that
 * communicates (a program that makes and frees many communicators paid
 * a split_type and an allgather for each). Only a communicator with a
 * process outside MPI_COMM_WORLD (spawned, connected) or a library whose
 * MPI_Init was not seen (no table) takes steps (1) and (2) itself; every
 * rank of a communicator finds the same, from the same group.
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

/* ---- the world's table (MPI_Init) ---- */

static int *world_tab;   /* ALLG ints per world rank, as step (2) */
static int world_n;
static MPI_Group world_group = MPI_GROUP_NULL;
static atomic_long from_world_n; /* communicators set up from the table */

static int thread_multiple(void)
{
    int level;
    if (PMPI_Query_thread(&level) != MPI_SUCCESS)
        level = MPI_THREAD_MULTIPLE; /* MPI cannot say: the safe side */
    return level == MPI_THREAD_MULTIPLE;
}

void mcm_topo_world(void)
{
    int rank = 0, size = 0, ok, all_ok = 0;
    MPI_Comm node;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    int mine[ALLG] = {0, 0, mcm_cfg.node_size,
                      mcm_cfg.hier ? 1 + 2 * mcm_cfg.pick_sig : 0,
                      thread_multiple()};
    int *all = malloc(sizeof(int) * ALLG * (size_t)size);
    ok = all && node_comm(MPI_COMM_WORLD, rank, &node) == MPI_SUCCESS;
    if (ok) {
        ok = first_rank(MPI_COMM_WORLD, node, &mine[1]) == MPI_SUCCESS;
        PMPI_Comm_free(&node);
    }
    /* every rank has a table, or none has */
    if (PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD) !=
            MPI_SUCCESS || !all_ok ||
        PMPI_Allgather(mine, ALLG, MPI_INT, all, ALLG, MPI_INT,
                       MPI_COMM_WORLD) != MPI_SUCCESS ||
        PMPI_Comm_group(MPI_COMM_WORLD, &world_group) != MPI_SUCCESS) {
        free(all);
        return;
    }
    world_tab = all;
    world_n = size;
}

void mcm_topo_world_free(void)
{
    if (world_group != MPI_GROUP_NULL)
        PMPI_Group_free(&world_group);
    free(world_tab);
    world_tab = NULL;
}

long mcm_topo_from_world(void)
{
    return atomic_load(&from_world_n);
}

/* the processes of my node in comm, in their order there: a hash of
 * their world ranks (park.c's choice among parked node communicators) */
static uint64_t node_sig(const int *w, const int *all, int P, int me)
{
    uint64_t h = 0x9e3779b97f4a7c15u;
    for (int r = 0; r < P; r++)
        if (all[ALLG * r + 1] == all[ALLG * me + 1])
            h = (h ^ (uint64_t)(w[r] + 1)) * 0x100000001b3u;
    return h ? h : 1;
}

/* all of comm's processes in their order there (park.c: a parked
 * communicator's slices serve a new one only if this is the same) */
static uint64_t comm_sig(const int *w, int P)
{
    uint64_t h = 0xcbf29ce484222325u ^ (uint64_t)P;
    for (int r = 0; r < P; r++)
        h = (h ^ (uint64_t)(w[r] + 1)) * 0x100000001b3u;
    return h ? h : 1;
}

/* step (2)'s table of comm from the world's, and t->node_sig: 0, or -1
 * (a rank outside MPI_COMM_WORLD, no table, no memory: gather it) */
static int from_world(MPI_Comm comm, mcm_topo_t *t, int *all)
{
    int P = t->size;
    MPI_Group g;
    if (!world_tab || PMPI_Comm_group(comm, &g) != MPI_SUCCESS)
        return -1;
    int *w = malloc(sizeof(int) * 2 * (size_t)P);
    int *first = malloc(sizeof(int) * 2 * (size_t)world_n);
    int rc = w && first ? 0 : -1;
    for (int r = 0; r < P && !rc; r++)
        w[P + r] = r;
    if (!rc && PMPI_Group_translate_ranks(g, P, w + P, world_group, w) !=
                   MPI_SUCCESS)
        rc = -1;
    PMPI_Group_free(&g);
    for (int i = 0; i < world_n && !rc; i++)
        first[i] = -1, first[world_n + i] = 0; /* first rank, count */
    for (int r = 0; r < P && !rc; r++) {
        if (w[r] == MPI_UNDEFINED || w[r] < 0 || w[r] >= world_n) {
            rc = -1;
            break;
        }
        const int *me = world_tab + ALLG * w[r];
        int key = me[1]; /* the world rank of its node's first rank */
        if (first[key] < 0)
            first[key] = r;
        int *out = all + ALLG * r;
        out[0] = first[world_n + key]++;
        out[1] = first[key];
        out[2] = me[2], out[3] = me[3], out[4] = me[4];
    }
    if (!rc) {
        t->node_sig = node_sig(w, all, P, t->rank);
        t->comm_sig = comm_sig(w, P);
    }
    free(w);
    free(first);
    if (!rc)
        atomic_fetch_add(&from_world_n, 1);
    return rc;
}

/* steps (1) and (2) on comm itself */
static int gather(MPI_Comm comm, mcm_topo_t *t, int *all)
{
    MPI_Comm node;
    int mine[ALLG] = {0, 0, mcm_cfg.node_size,
                      mcm_cfg.hier ? 1 + 2 * mcm_cfg.pick_sig : 0,
                      thread_multiple()};
    int rc = node_comm(comm, t->rank, &node);
    if (rc == MPI_SUCCESS) {
        PMPI_Comm_rank(node, &mine[0]);
        rc = first_rank(comm, node, &mine[1]);
        PMPI_Comm_free(&node);
    }
    if (rc == MPI_SUCCESS)
        rc = PMPI_Allgather(mine, ALLG, MPI_INT, all, ALLG, MPI_INT, comm);
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
    int *all = malloc(sizeof(int) * ALLG * (size_t)t->size);
    if (!all)
        return MPI_ERR_NO_MEM;
    if (from_world(comm, t, all))
        rc = gather(comm, t, all);
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
