/*
 * Every collective once, checked: the README's example. Uses only the
 * public API (manycoll.h).
 *
 *   make install PREFIX=$HOME/mc
 *   cc every_collective.c $(PKG_CONFIG_PATH=$HOME/mc/lib/pkgconfig \
 *        pkg-config --cflags --libs manycoll) -o every_collective
 *   $HOME/mc/bin/manycoll run -n 4 ./every_collective
 */
#include <stdio.h>
#include <stdlib.h>

#include <manycoll.h>

#define N 1000 /* elements per rank */

static int fail(const char *what, int rank)
{
    fprintf(stderr, "rank %d: %s is wrong (%s)\n", rank, what,
            mc_last_error());
    return 1;
}

int main(void)
{
    mc_comm_t *w;
    if (mc_init(&w) != MC_OK) {
        fprintf(stderr, "mc_init: %s\n", mc_last_error());
        return 1;
    }
    int me = mc_comm_rank(w), p = mc_comm_size(w), bad = 0;
    double *x = malloc(sizeof(double) * N * p);
    double *y = malloc(sizeof(double) * N * p);
    double *z = malloc(sizeof(double) * N * p);
    for (int i = 0; i < N * p; i++)
        x[i] = me * 1000.0 + i;

    bad |= mc_barrier(w) != MC_OK;

    for (int i = 0; i < N; i++)
        y[i] = me == 0 ? i : -1;
    mc_bcast(w, y, N, MC_FLOAT64, 0);
    for (int i = 0; i < N; i++)
        if (y[i] != i) { bad |= fail("bcast", me); break; }

    mc_allreduce(w, x, y, N, MC_FLOAT64, MC_SUM);
    for (int i = 0; i < N; i++)
        if (y[i] != 1000.0 * p * (p - 1) / 2 + (double)i * p) {
            bad |= fail("allreduce", me); break; }

    mc_reduce(w, x, y, N, MC_FLOAT64, MC_MAX, p - 1);
    if (me == p - 1)
        for (int i = 0; i < N; i++)
            if (y[i] != (p - 1) * 1000.0 + i) { bad |= fail("reduce", me); break; }

    mc_allgather(w, x, y, N, MC_FLOAT64);
    for (int r = 0; r < p; r++)
        for (int i = 0; i < N; i++)
            if (y[r * N + i] != r * 1000.0 + i) { bad |= fail("allgather", me); r = p; break; }

    mc_alltoall(w, x, y, N, MC_FLOAT64);     /* block r of rank s -> rank r */
    for (int s = 0; s < p; s++)
        for (int i = 0; i < N; i++)
            if (y[s * N + i] != s * 1000.0 + me * N + i) { bad |= fail("alltoall", me); s = p; break; }

    mc_reduce_scatter_block(w, x, y, N, MC_FLOAT64, MC_SUM);
    for (int i = 0; i < N; i++)
        if (y[i] != 1000.0 * p * (p - 1) / 2 + (double)(me * N + i) * p) {
            bad |= fail("reduce_scatter_block", me); break; }

    mc_gather(w, x, y, N, MC_FLOAT64, 0);
    if (me == 0)
        for (int r = 0; r < p; r++)
            for (int i = 0; i < N; i++)
                if (y[r * N + i] != r * 1000.0 + i) { bad |= fail("gather", me); r = p; break; }

    for (int i = 0; i < N * p; i++)
        z[i] = 7.0 * i;
    mc_scatter(w, z, y, N, MC_FLOAT64, 0);
    for (int i = 0; i < N; i++)
        if (y[i] != 7.0 * (me * N + i)) { bad |= fail("scatter", me); break; }

    if (me == 0 && !bad)
        printf("every collective correct on %d ranks\n", p);
    free(x), free(y), free(z);
    mc_finalize();
    return bad;
}
