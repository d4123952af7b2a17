/*
 * A distributed matrix transpose: an M x M matrix (M = P * B) split by
 * rows, B rows per rank, becomes its transpose split the same way, with
 * one mc_alltoall and local reshuffles before and after (the core of a
 * parallel 2-D FFT).
 *
 *   cc transpose.c $(pkg-config --cflags --libs manycoll) -o transpose
 *   manycoll run -n 4 ./transpose
 *
 * Element (i, j) of the matrix is i * M + j, so every rank can check its
 * rows of the transpose: prints "transpose: ok".
 */
#include <stdio.h>
#include <stdlib.h>

#include <manycoll.h>

#define B 8 /* rows per rank */

int main(void)
{
    mc_comm_t *w;
    if (mc_init(&w) != MC_OK) {
        fprintf(stderr, "mc_init: %s\n", mc_last_error());
        return 1;
    }
    int me = mc_comm_rank(w), p = mc_comm_size(w);
    int m = p * B;
    double *a = malloc(sizeof(double) * (size_t)(B * m));    /* my rows */
    double *send = malloc(sizeof(double) * (size_t)(B * m)); /* by dest */
    double *recv = malloc(sizeof(double) * (size_t)(B * m));
    double *t = malloc(sizeof(double) * (size_t)(B * m));    /* my rows of A^T */
    for (int r = 0; r < B; r++)
        for (int j = 0; j < m; j++)
            a[r * m + j] = (double)(me * B + r) * m + j;
    /* block q of send: my B x B tile of columns q*B..q*B+B-1, transposed */
    for (int q = 0; q < p; q++)
        for (int c = 0; c < B; c++)
            for (int r = 0; r < B; r++)
                send[q * B * B + c * B + r] = a[r * m + q * B + c];
    if (mc_alltoall(w, send, recv, B * B, MC_FLOAT64) != MC_OK) {
        fprintf(stderr, "rank %d: %s\n", me, mc_last_error());
        return 1;
    }
    /* block q of recv: rows of A^T (my columns) from rank q's rows */
    for (int q = 0; q < p; q++)
        for (int c = 0; c < B; c++)
            for (int r = 0; r < B; r++)
                t[c * m + q * B + r] = recv[q * B * B + c * B + r];
    int bad = 0, any;
    for (int i = 0; i < B; i++) /* row me*B+i of A^T = column of A */
        for (int j = 0; j < m; j++)
            bad |= t[i * m + j] != (double)j * m + (me * B + i);
    mc_allreduce(w, &bad, &any, 1, MC_INT32, MC_MAX);
    if (me == 0)
        printf("transpose: %s (%d x %d on %d ranks)\n", any ? "WRONG" : "ok",
               m, m, p);
    free(a), free(send), free(recv), free(t);
    mc_finalize();
    return any;
}
