/*
 * cg: a conjugate-gradient solve of the 2-D Poisson problem -lap(u) = 1 on
 * an N x N grid (5-point stencil, zero boundary), plain MPI. The mini-
 * application of the record-and-replay docs (docs/replay.md): its
 * communication is that of many real solvers.
 *
 * Rows are split in strips over the ranks (rank r holds rows
 * N*r/P .. N*(r+1)/P - 1), each strip with a halo row above and below:
 *
 *        +-------------------+
 *        |  rank 0's rows    |  its last row  -> rank 1's upper halo
 *        +-------------------+  rank 1's first row -> rank 0's lower halo
 *        |  rank 1's rows    |
 *        +-------------------+  (the same with rank 2, and so on)
 *        |  rank 2's rows    |
 *        +-------------------+
 *
 * Once:           MPI_Bcast   N, iterations, tolerance from rank 0
 * Each iteration: halo of p   MPI_Irecv from rank-1 and rank+1,
 *                             MPI_Isend to rank-1 and rank+1 (one row of N
 *                             doubles each), MPI_Waitall
 *                 q = A p     local
 *                 p.q         MPI_Allreduce (1 double, sum)
 *                 x, r update local
 *                 r.r         MPI_Allreduce (1 double, sum)
 * At the end:     MPI_Gather  of (iterations, |r| part, |x| of the strip)
 *                             to rank 0, which prints the residual and
 *                             exits 1 if the solve did not converge
 *
 *   mpirun -n 4 ./cg [N [iterations [tolerance]]]   (default 48 1000 1e-8)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

typedef struct grid {
    int n, lo, hi, rows; /* rows lo..hi-1 of n, rows = hi - lo */
    int up, down;        /* neighbour ranks or MPI_PROC_NULL */
} grid_t;

/* the halo rows of v (rows 0 and rows + 1 of a (rows + 2) x n array) */
static void halo(const grid_t *g, double *v)
{
    int n = g->n;
    MPI_Request q[4];
    MPI_Status st[4];
    MPI_Irecv(v, n, MPI_DOUBLE, g->up, 1, MPI_COMM_WORLD, &q[0]);
    MPI_Irecv(v + (size_t)(g->rows + 1) * n, n, MPI_DOUBLE, g->down, 0,
              MPI_COMM_WORLD, &q[1]);
    MPI_Isend(v + n, n, MPI_DOUBLE, g->up, 0, MPI_COMM_WORLD, &q[2]);
    MPI_Isend(v + (size_t)g->rows * n, n, MPI_DOUBLE, g->down, 1,
              MPI_COMM_WORLD, &q[3]);
    MPI_Waitall(4, q, st);
}

/* q = A p on the strip (p with its halo) */
static void apply(const grid_t *g, const double *p, double *q)
{
    int n = g->n;
    for (int i = 1; i <= g->rows; i++)
        for (int j = 0; j < n; j++) {
            const double *c = p + (size_t)i * n + j;
            double l = j > 0 ? c[-1] : 0, r = j < n - 1 ? c[1] : 0;
            q[(size_t)i * n + j] = 4 * c[0] - l - r - c[-n] - c[n];
        }
}

static double dot(const grid_t *g, const double *a, const double *b)
{
    double s = 0, all = 0;
    for (size_t k = (size_t)g->n; k < (size_t)(g->rows + 1) * g->n; k++)
        s += a[k] * b[k];
    MPI_Allreduce(&s, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return all;
}

/* the solve; returns the iterations, *rr the final r.r */
static int solve(const grid_t *g, int maxit, double tol, double *x,
                 double *rr_out)
{
    size_t len = (size_t)(g->rows + 2) * g->n;
    double *r = calloc(len, sizeof *r), *p = calloc(len, sizeof *p);
    double *q = calloc(len, sizeof *q);
    if (!r || !p || !q) {
        fprintf(stderr, "cg: no memory for a strip of %zu doubles\n", len);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (size_t k = (size_t)g->n; k < len - (size_t)g->n; k++)
        r[k] = p[k] = 1; /* b = 1, x = 0 */
    double rr = dot(g, r, r), stop = tol * tol * rr;
    int it = 0;
    while (it < maxit && rr > stop) {
        halo(g, p);
        apply(g, p, q);
        double alpha = rr / dot(g, p, q);
        for (size_t k = (size_t)g->n; k < len - (size_t)g->n; k++) {
            x[k] += alpha * p[k];
            r[k] -= alpha * q[k];
        }
        double rr2 = dot(g, r, r);
        for (size_t k = (size_t)g->n; k < len - (size_t)g->n; k++)
            p[k] = r[k] + rr2 / rr * p[k];
        rr = rr2;
        it++;
    }
    free(r);
    free(p);
    free(q);
    *rr_out = rr;
    return it;
}

/* rank 0 reads the parameters, every rank gets them */
static void parameters(int argc, char **argv, int rank, int *n, int *maxit,
                       double *tol)
{
    double par[3] = {48, 1000, 1e-8};
    for (int i = 1; rank == 0 && i < argc && i <= 3; i++)
        par[i - 1] = atof(argv[i]);
    MPI_Bcast(par, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    *n = (int)par[0];
    *maxit = (int)par[1];
    *tol = par[2];
}

/* rank 0: the gathered (iterations, r.r, |x|^2 of the strip) */
static int report(const double *all, int P, int n, double tol)
{
    double rr = all[1], xx = 0;
    for (int r = 0; r < P; r++)
        xx += all[3 * r + 2];
    double rel = sqrt(rr / ((double)n * n));
    int ok = rel <= tol;
    printf("cg: %d x %d grid on %d ranks: %d iterations, relative residual "
           "%.3g (tolerance %.3g), |x| %.6g: %s\n",
           n, n, P, (int)all[0], rel, tol, sqrt(xx),
           ok ? "converged" : "NOT converged");
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, P, n, maxit;
    double tol;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    parameters(argc, argv, rank, &n, &maxit, &tol);
    if (n < P || maxit < 1 || !(tol > 0)) {
        if (rank == 0)
            fprintf(stderr, "cg: N %d must be at least the ranks (%d), "
                            "iterations >= 1, tolerance > 0\n", n, P);
        MPI_Finalize();
        return 2;
    }
    grid_t g = {.n = n, .lo = (int)((long)n * rank / P),
                .hi = (int)((long)n * (rank + 1) / P),
                .up = rank > 0 ? rank - 1 : MPI_PROC_NULL,
                .down = rank < P - 1 ? rank + 1 : MPI_PROC_NULL};
    g.rows = g.hi - g.lo;
    double *x = calloc((size_t)(g.rows + 2) * n, sizeof *x), rr;
    if (!x)
        MPI_Abort(MPI_COMM_WORLD, 2);
    int it = solve(&g, maxit, tol, x, &rr);
    double mine[3] = {it, rr, 0}, *all = malloc(3 * (size_t)P * sizeof *all);
    for (size_t k = (size_t)n; k < (size_t)(g.rows + 1) * n; k++)
        mine[2] += x[k] * x[k];
    MPI_Gather(mine, 3, MPI_DOUBLE, all, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    int bad = rank == 0 ? report(all, P, n, tol) : 0;
    free(x);
    free(all);
    MPI_Finalize();
    return bad;
}
