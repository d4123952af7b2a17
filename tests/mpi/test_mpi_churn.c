/*
 * Many communicators made and freed (issue 44): what setting each up
 * costs, counted, not timed. MPI_Comm_dup of MPI_COMM_WORLD 5 times, then
 * MPI_Comm_split in halves 5 times (odd sizes: a half of one rank goes to
 * MPI), each with a checked MPI_Allreduce and two checked MPI_Allgather
 * and freed, a PMPI_Barrier on
 * the world after each free (so every rank has freed it before the next
 * is made). Then, from mc_mpi_setup_counts (libmanycoll_mpi, dlsym):
 *
 *   node communicators made     1 for the dups + 1 for the halves
 *   reused (parked ones)        4 + 4: every later one (src/mpi/park.c)
 *   topologies without MPI      10: all, from the world's table made at
 *   communication               MPI_Init (src/mpi/topo.c)
 *
 * (a half of one rank goes to MPI: no node communicator, no topology)
 * Between the two, the world with its second half first, 5 times: flat,
 * one node communicator more (its processes are in another order), reused
 * 4 times; as 2x2 "nodes", each node's processes are in the same order,
 * so the dups' node communicators serve it, but not their slices (the
 * nodes are in another order).
 * Then the world without rank 1, 5 times, and 5 dups again. As 2x2
 * "nodes", the world without rank 1 takes back node 1's parked
 * communicator (its ranks 2 and 3 are the dups' node 1) while rank 0,
 * alone on node 0, makes one; the next dup then finds the two nodes'
 * parked communicators from different jobs and takes back each node's
 * own (src/mpi/comm.c: nodes agree one by one). Flat, the world without
 * rank 1 is one node communicator more.
 * And from mc_mpi_slice_counts, the hierarchy's slices (its
 * PMPI_Comm_split across nodes) taken back with a parked node
 * communicator: 12 as 2x2 "nodes" (every dup and every rotated world
 * after the first of its run; never the dups' for a rotated world, which
 * the checked allgather would see), 0 flat
 *
 * The same numbers flat and as 2x2 "nodes" (MC_MPI_NODE_SIZE=2), where
 * the dups are hierarchical and each half is one node, except that the
 * half of ranks 0 and 1 is then the dups' node 0 and reuses its parked
 * communicator from the start (one made, nine reused).
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

#define ROUNDS 5

typedef int (*counts_fn)(long *, long *, long *);

static int one(MPI_Comm c, int wrank)
{
    int size, in = wrank + 1, out = -1, want = 0, ranks[64];
    MPI_Group g, w;
    MPI_Comm_size(c, &size);
    MPI_Comm_group(c, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &w);
    for (int i = 0; i < size && i < 64; i++)
        ranks[i] = i;
    int wr[64];
    MPI_Group_translate_ranks(g, size < 64 ? size : 64, ranks, w, wr);
    for (int i = 0; i < size && i < 64; i++)
        want += wr[i] + 1;
    MPI_Group_free(&g);
    MPI_Group_free(&w);
    MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, c);
    if (out != want) {
        fprintf(stderr, "rank %d: allreduce gave %d, expected %d\n", wrank,
                out, want);
        return 1;
    }
    /* in rank order: a slice of another order (a parked one taken for
     * the wrong communicator) puts the nodes' blocks in the wrong places.
     * Twice: across nodes the first call of a size goes to MPI's own
     * collective, the second to the hierarchy (docs/mpi.md, the pick) */
    for (int k = 0; k < 2 && size <= 64; k++) {
        int got[64];
        MPI_Allgather(&wrank, 1, MPI_INT, got, 1, MPI_INT, c);
        for (int i = 0; i < size; i++)
            if (got[i] != wr[i]) {
                fprintf(stderr, "rank %d: allgather %d gave %d at %d, "
                                "expected %d\n", wrank, k, got[i], i, wr[i]);
                return 1;
            }
    }
    return 0;
}

int main(int argc, char **argv)
{
    int rank, size, bad = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    counts_fn counts =
        (counts_fn)(uintptr_t)dlsym(RTLD_DEFAULT, "mc_mpi_setup_counts");
    if (!counts) {
        fprintf(stderr, "libmanycoll_mpi is not loaded "
                        "(no mc_mpi_setup_counts)\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int kind = 0; kind < 5; kind++)
        for (int i = 0; i < ROUNDS; i++) {
            MPI_Comm c;
            if (kind == 0 || kind == 4)
                MPI_Comm_dup(MPI_COMM_WORLD, &c);
            else if (kind == 3) /* the world without rank 1 */
                MPI_Comm_split(MPI_COMM_WORLD, rank == 1 ? MPI_UNDEFINED : 0,
                               rank, &c);
            else if (kind == 1) /* the world, its second half first */
                MPI_Comm_split(MPI_COMM_WORLD, 0, (rank + size / 2) % size,
                               &c);
            else
                MPI_Comm_split(MPI_COMM_WORLD, rank < size / 2, rank, &c);
            if (c != MPI_COMM_NULL) {
                bad |= one(c, rank);
                MPI_Comm_free(&c);
            }
            PMPI_Barrier(MPI_COMM_WORLD);
        }
    long made = -1, reused = -1, local = -1;
    counts(&made, &reused, &local);
    long (*slices)(void) =
        (long (*)(void))(uintptr_t)dlsym(RTLD_DEFAULT, "mc_mpi_slice_counts");
    const char *ns = getenv("MC_MPI_NODE_SIZE");
    int per = ns ? atoi(ns) : 0;
    int hier = per > 0 && per < size, in_w1 = rank != 1 && size > 2;
    /* the world without rank 1 spans both "nodes": 4 more, on its ranks */
    long want_slices = hier ? 3 * (ROUNDS - 1) + (in_w1 ? ROUNDS - 1 : 0)
                            : 0;
    long got_slices = slices ? slices() : -1;
    if (got_slices != want_slices) {
        fprintf(stderr, "rank %d: slices reused %ld (expected %ld)\n", rank,
                got_slices, want_slices);
        bad = 1;
    }
    /* a half of one rank goes to MPI: no node, no topology */
    int half = rank < size / 2 ? size / 2 : size - size / 2;
    int alone = half == 1;
    long comms = (alone ? 3 : 4) * ROUNDS + (in_w1 ? ROUNDS : 0);
    /* at most: flat, the dups, the rotated world, the halves and the
     * world without rank 1 make one each (the last dups reuse); as 2x2
     * "nodes" the rotated world, the halves and the last dups take back
     * the dups' (node by node), and the world without rank 1 takes node
     * 1's, so only rank 0, alone on node 0 there, makes one more */
    long want_made = hier ? 2 + (rank == 0)
                          : (alone ? 2 : 3) + (in_w1 ? 1 : 0);
    long want_reused = comms - want_made;
    long want_local = comms;
    if (made + reused != want_made + want_reused || made > want_made ||
        local != want_local) {
        fprintf(stderr, "rank %d: node communicators made %ld (expected "
                        "at most %ld), reused %ld (expected at least %ld, "
                        "%ld in all); topologies from the world's table %ld "
                        "(expected %ld)\n",
                rank, made, want_made, reused, want_reused,
                want_made + want_reused, local, want_local);
        bad = 1;
    }
    int any = 0;
    PMPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%s: %d communicators made and freed at %d ranks\n",
               any ? "FAIL" : "ok", 5 * ROUNDS, size);
    MPI_Finalize();
    return any;
}
