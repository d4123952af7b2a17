#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int r, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    double a[128], b[128], s = 0, t;
    int c[64] = {0}, d[64];
    for (int i = 0; i < 128; i++) a[i] = r + i;
    for (int it = 0; it < 3; it++) {
        MPI_Request q[2];
        MPI_Isend(a, 128, MPI_DOUBLE, (r + 1) % p, 7, MPI_COMM_WORLD, &q[0]);
        MPI_Irecv(b, 128, MPI_DOUBLE, (r + p - 1) % p, 7, MPI_COMM_WORLD, &q[1]);
        MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
        for (int i = 0; i < 128; i++) s += b[i] * a[i];
        MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    MPI_Bcast(c, 64, MPI_INT, 2, MPI_COMM_WORLD);
    MPI_Alltoall(c, 16, MPI_INT, d, 16, MPI_INT, MPI_COMM_WORLD);
    if (r == 0) MPI_Send(a, 10, MPI_DOUBLE, 1, 3, MPI_COMM_WORLD);
    if (r == 1) MPI_Recv(b, 10, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
