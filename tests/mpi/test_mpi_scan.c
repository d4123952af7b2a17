/*
 * MPI_Scan and MPI_Exscan in test_mpi, blocking (also in place, and with
 * the non-commutative user op op_affine on uint64: rank order matters)
 * and non-blocking, each compared with PMPI_Scan / PMPI_Exscan on the
 * same inputs. Exscan's output on rank 0 is undefined and not compared.
 */
#include <stdint.h>
#include <string.h>

#include "test_mpi.h"

enum { N = 29 };

static void one(MPI_Comm c, MPI_Datatype dt, MPI_Op op, const char *what,
                int ex, int mode)
{
    int me;
    MPI_Comm_rank(c, &me);
    uint64_t in[N], x[N], y[N];
    for (int i = 0; i < N; i++) {
        uint32_t a = (uint32_t)(3 + 2 * ((me + i) % 5)), b = (uint32_t)me;
        in[i] = dt == MPI_UINT64_T ? ((uint64_t)a << 32 | b)
                                   : (uint64_t)(me * 7 + i);
        x[i] = y[i] = 0;
    }
    if (dt == MPI_DOUBLE)
        for (int i = 0; i < N; i++) {
            double d = me * 0.5 + i;
            memcpy(&in[i], &d, sizeof d);
        }
    const void *s = in;
    if (mode == 1) { /* in place */
        memcpy(x, in, sizeof in);
        memcpy(y, in, sizeof in);
        s = MPI_IN_PLACE;
    }
    int n = dt == MPI_INT ? 2 * N : N; /* ints: two per uint64 */
    if (mode == 2) {
        MPI_Request r;
        (ex ? MPI_Iexscan : MPI_Iscan)(s, x, n, dt, op, c, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else {
        (ex ? MPI_Exscan : MPI_Scan)(s, x, n, dt, op, c);
    }
    (ex ? PMPI_Exscan : PMPI_Scan)(mode == 1 ? MPI_IN_PLACE : in, y, n, dt,
                                   op, c);
    cases++;
    if ((!ex || me > 0) && memcmp(x, y, sizeof x))
        FAIL("%s %s%s: MPI_ and PMPI_ results differ", ex ? "exscan" : "scan",
             what, mode == 1 ? " in place" : mode == 2 ? " non-blocking" : "");
}

void scans(MPI_Comm c)
{
    for (int ex = 0; ex < 2; ex++)
        for (int mode = 0; mode < 3; mode++) {
            one(c, MPI_INT, MPI_SUM, "int sum", ex, mode);
            one(c, MPI_DOUBLE, MPI_MAX, "double max", ex, mode);
            one(c, MPI_UINT64_T, op_affine, "affine (non-commutative)", ex,
                mode);
        }
}
