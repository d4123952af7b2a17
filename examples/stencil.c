/*
 * A 1-D heat equation on a line of cells split across the ranks: each
 * rank owns N cells, swaps its edge cells with its neighbours every step
 * (mc_allgather of the two edges: fine at the few dozen ranks of one node;
 * a real code would use its own point-to-point layer), and the ranks agree
 * on the largest change with mc_allreduce(MC_MAX) to stop.
 *
 *   cc stencil.c $(pkg-config --cflags --libs manycoll) -o stencil
 *   manycoll run -n 4 ./stencil
 *
 * Checked against the same sweep done by one rank: prints "stencil: ok".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <manycoll.h>

#define N 64       /* cells per rank */
#define STEPS 2000 /* at most */

/* one sweep over cells [1, n] of u (u[0], u[n + 1]: the neighbours'
 * edge cells, fixed 0 and 1 at the ends of the line); returns the largest
 * change */
static double sweep(const double *u, double *v, int n)
{
    double d = 0;
    for (int i = 1; i <= n; i++) {
        v[i] = u[i] + 0.25 * (u[i - 1] - 2 * u[i] + u[i + 1]);
        d = fmax(d, fabs(v[i] - u[i]));
    }
    return d;
}

/* the whole line swept by one rank, for the check: cells into line[],
 * the number of steps into *steps */
static void serial_line(int p, double *line, int *steps)
{
    int n = p * N, s;
    double *u = calloc((size_t)n + 2, sizeof *u);
    double *v = calloc((size_t)n + 2, sizeof *v);
    u[n + 1] = v[n + 1] = 1;
    for (s = 0; s < STEPS; s++) {
        double d = sweep(u, v, n), *t = u;
        u = v, v = t;
        if (d < 1e-6)
            break;
    }
    *steps = s;
    for (int i = 0; i < n; i++)
        line[i] = u[i + 1];
    free(u), free(v);
}

int main(void)
{
    mc_comm_t *w;
    if (mc_init(&w) != MC_OK) {
        fprintf(stderr, "mc_init: %s\n", mc_last_error());
        return 1;
    }
    int me = mc_comm_rank(w), p = mc_comm_size(w), s;
    double u[N + 2] = {0}, v[N + 2] = {0};
    double *edges = malloc(sizeof(double) * 2 * (size_t)p);
    for (s = 0; s < STEPS; s++) {
        /* everyone's first and last cell; mine from u[1], u[N] */
        double mine[2] = {u[1], u[N]};
        if (mc_allgather(w, mine, edges, 2, MC_FLOAT64) != MC_OK)
            break;
        u[0] = me > 0 ? edges[2 * (me - 1) + 1] : 0;
        u[N + 1] = me < p - 1 ? edges[2 * (me + 1)] : 1;
        double d = sweep(u, v, N), dmax;
        for (int i = 1; i <= N; i++)
            u[i] = v[i];
        if (mc_allreduce(w, &d, &dmax, 1, MC_FLOAT64, MC_MAX) != MC_OK)
            break;
        if (dmax < 1e-6)
            break;
    }
    int ref_steps, bad = 0;
    double *line = malloc(sizeof(double) * (size_t)(p * N));
    serial_line(p, line, &ref_steps);
    bad |= ref_steps != s;
    for (int i = 0; i < N; i++)
        bad |= fabs(line[me * N + i] - u[i + 1]) > 1e-12;
    free(line);
    int any;
    mc_allreduce(w, &bad, &any, 1, MC_INT32, MC_MAX);
    if (me == 0)
        printf("stencil: %s after %d steps on %d ranks\n", any ? "WRONG" : "ok",
               s, p);
    free(edges);
    mc_finalize();
    return any;
}
