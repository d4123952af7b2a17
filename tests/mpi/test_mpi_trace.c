/*
 * A plain MPI program with a known sequence of calls, for the recording's
 * test (tests/mpi/check_trace.py reads the archive MC_MPI_TRACE wrote and
 * checks each event against this sequence; keep the two in step):
 *
 *   1  MPI_Allreduce   world, 4 doubles, sum; then max twice on the same
 *                      buffers (the recording keeps a call's record for
 *                      the next same call: the op must tell them apart)
 *   2  MPI_Bcast       world, 3 ints, root P-1
 *   3  MPI_Comm_split  color rank % 2, key rank -> half
 *      MPI_Allgatherv  half, rank i of half gives i + 1 ints
 *      MPI_Bcast       half, root 0, 3 of a derived pair of ints, which is
 *                      freed; then 1 of a derived triple (its handle may
 *                      be the pair's again: each call must say its own)
 *      MPI_Gather      world, 1 int each, root 0
 *   4  MPI_Reduce      world, 2 int64, max, root 1 % P, MPI_IN_PLACE at it
 *   5  MPI_Iallreduce  world, 1 float, max; MPI_Wait
 *   6  halo on a ring: MPI_Irecv from left and right (tag 1, 2), MPI_Isend
 *      to right and left (2 and 1 doubles... see below), MPI_Waitall
 *   7  MPI_Send rank 0 -> 1 (5 ints, tag 7), MPI_Recv at rank 1
 *   8  MPI_Comm_free(half)
 *   9  at 2 ranks: MANY times MPI_Allreduce (1 double, sum) and
 *      MPI_Sendrecv (1 double, tag 3, to the right, from the left): more
 *      than the recording's 1 MiB event log holds, so that it goes to
 *      its file and is read back at MPI_Finalize, records across the
 *      reads' boundaries (src/mpi/trace_log.c)
 *
 * Checks its own results (exit 1 on a wrong one), so a recording that
 * changed what the program computes fails here too.
 */
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

static int fail(int rank, const char *what)
{
    fprintf(stderr, "test_mpi_trace: rank %d: %s is wrong\n", rank, what);
    return 1;
}

/* step 3's derived types on half (hr: this rank's place in it), then a
 * gather on the world */
static int derived(int rank, int P, MPI_Comm half, int hr)
{
    int pb[6] = {0}, tb[3] = {0}, v = rank, all[8] = {0};
    for (int i = 0; hr == 0 && i < 6; i++)
        pb[i] = 7, tb[i % 3] = 8;
    MPI_Datatype pair, tri;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    MPI_Bcast(pb, 3, pair, 0, half);
    MPI_Type_free(&pair);
    MPI_Type_contiguous(3, MPI_INT, &tri);
    MPI_Type_commit(&tri);
    MPI_Bcast(tb, 1, tri, 0, half);
    MPI_Type_free(&tri);
    if (pb[5] != 7 || tb[2] != 8)
        return fail(rank, "bcast of a derived type");
    MPI_Gather(&v, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0 && all[P - 1] != P - 1)
        return fail(rank, "gather");
    return 0;
}

static int collectives(int rank, int P)
{
    double x[4] = {rank, 1, 2, 3}, y[4];
    MPI_Allreduce(x, y, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (y[0] != P * (P - 1) / 2.0 || y[1] != P)
        return fail(rank, "allreduce");
    for (int i = 0; i < 2; i++) {
        MPI_Allreduce(x, y, 4, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (y[0] != P - 1 || y[1] != 1)
            return fail(rank, "allreduce max");
    }
    int b[3] = {0, 0, 0};
    if (rank == P - 1)
        b[0] = b[1] = b[2] = 42;
    MPI_Bcast(b, 3, MPI_INT, P - 1, MPI_COMM_WORLD);
    if (b[2] != 42)
        return fail(rank, "bcast");
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    int hr, hp;
    MPI_Comm_rank(half, &hr);
    MPI_Comm_size(half, &hp);
    int mine[8], all[64], counts[8], displs[8], at = 0;
    for (int i = 0; i < hp; i++) {
        counts[i] = i + 1;
        displs[i] = at;
        at += i + 1;
    }
    for (int i = 0; i <= hr; i++)
        mine[i] = rank;
    MPI_Allgatherv(mine, hr + 1, MPI_INT, all, counts, displs, MPI_INT,
                   half);
    if (all[at - 1] != (hp - 1) * 2 + rank % 2)
        return fail(rank, "allgatherv");
    if (derived(rank, P, half, hr))
        return 1;
    long long r[2] = {rank, -rank}, rr[2];
    int root = 1 % P;
    MPI_Reduce(rank == root ? MPI_IN_PLACE : r, rank == root ? r : rr, 2,
               MPI_INT64_T, MPI_MAX, root, MPI_COMM_WORLD);
    if (rank == root && (r[0] != P - 1 || r[1] != 0))
        return fail(rank, "reduce");
    float f = (float)rank, g = -1;
    MPI_Request req;
    MPI_Iallreduce(&f, &g, 1, MPI_FLOAT, MPI_MAX, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (g != (float)(P - 1))
        return fail(rank, "iallreduce");
    MPI_Comm_free(&half);
    return 0;
}

/* halo on a ring: 2 doubles to the right (tag 1), 1 to the left (tag 2) */
static int point_to_point(int rank, int P)
{
    int left = (rank + P - 1) % P, right = (rank + 1) % P;
    double to_r[2] = {rank, rank}, to_l = rank, from_l[2], from_r;
    MPI_Request q[4];
    MPI_Status st[4]; /* not MPI_STATUSES_IGNORE: MPICH's (MPI_Status *)1
                         trips gcc's -Wstringop-overflow */
    MPI_Irecv(from_l, 2, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &q[0]);
    MPI_Irecv(&from_r, 1, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &q[1]);
    MPI_Isend(to_r, 2, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &q[2]);
    MPI_Isend(&to_l, 1, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &q[3]);
    MPI_Waitall(4, q, st);
    if (from_l[1] != left || from_r != right)
        return fail(rank, "halo");
    int m[5] = {1, 2, 3, 4, 5};
    if (rank == 0)
        MPI_Send(m, 5, MPI_INT, 1, 7, MPI_COMM_WORLD);
    if (rank == 1) {
        MPI_Recv(m, 5, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (m[4] != 5)
            return fail(rank, "send/recv");
    }
    return 0;
}

#define MANY 6000

static int many(int rank, int P)
{
    int left = (rank + P - 1) % P, right = (rank + 1) % P;
    for (int i = 0; i < MANY; i++) {
        double x = i, y = -1, s = rank, r = -1;
        MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        MPI_Sendrecv(&s, 1, MPI_DOUBLE, right, 3, &r, 1, MPI_DOUBLE, left,
                     3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (y != (double)i * P || r != left)
            return fail(rank, "the loop");
    }
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, P;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    if (P < 2 || P > 8) {
        if (rank == 0)
            fprintf(stderr, "test_mpi_trace: run it at 2 to 8 ranks\n");
        MPI_Finalize();
        return 2;
    }
    int bad = collectives(rank, P) || point_to_point(rank, P) ||
              (P == 2 && many(rank, P));
    MPI_Finalize();
    return bad;
}
