/*
 * How libmanycoll_mpi fails:
 *   --call    first a reduce to a root past the communicator's size under
 *             MPI_ERRORS_RETURN: the MPI library's own error (class
 *             MPI_ERR_ROOT), and the communicator still works; then a
 *             manycoll error during a call (send and receive sizes of an
 *             allgather differ): the call returns an error code whose
 *             string names the rank and the cause, and the communicator's
 *             error handler saw it
 *   --setup   run with MC_ALGO_BARRIER=bogus: setting up the manycoll
 *             communicator fails on every rank; under MPI_ERRORS_RETURN the
 *             collectives still complete through MPI
 *   --dead    rank 1 dies (SIGKILL) while the others wait in a collective:
 *             the job must end, not hang (run under a time limit)
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>

static int handled;

static void count_errors(MPI_Comm *c, int *code, ...)
{
    (void)c;
    (void)code;
    handled++;
}

/* a root out of range is the MPI library's to refuse, on the fast path
 * too (coll_reduce.c): manycoll never sees the call, so its communicator
 * stays usable */
static int bad_root(int rank)
{
    int size, v = 1, w = 0, cls = -1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = MPI_Reduce(&v, &w, 1, MPI_INT, MPI_SUM, size, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    int rc2 = MPI_Allreduce(&v, &w, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d: reduce to root %d: rc %d class %d; then allreduce "
           "%d = %d\n", rank, size, rc, cls, rc2, w);
    return cls == MPI_ERR_ROOT && rc2 == MPI_SUCCESS && w == size ? 0 : 1;
}

static int call_error(int rank)
{
    if (bad_root(rank))
        return 1;
    MPI_Errhandler eh;
    MPI_Comm_create_errhandler(count_errors, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    int x[4] = {rank}, y[16];
    /* one int sent, two expected: the type signatures do not match */
    int rc = MPI_Allgather(x, 1, MPI_INT, y, 2, MPI_INT, MPI_COMM_WORLD);
    char s[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    MPI_Error_string(rc, s, &len);
    char want[64];
    snprintf(want, sizeof want, "rank %d", rank);
    int ok = rc != MPI_SUCCESS && handled == 1 && strstr(s, want) &&
             strstr(s, "differ");
    printf("rank %d: rc %d, handler called %d time(s): %s\n", rank, rc,
           handled, s);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);
    return ok ? 0 : 1;
}

static int setup_error(int rank)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int x = rank + 1, y = 0;
    int rc = MPI_Barrier(MPI_COMM_WORLD);
    int rc2 = MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int ok = rc == MPI_SUCCESS && rc2 == MPI_SUCCESS &&
             y == size * (size + 1) / 2;
    printf("rank %d: barrier %d, allreduce %d = %d\n", rank, rc, rc2, y);
    return ok ? 0 : 1;
}

static int dead(int rank)
{
    MPI_Barrier(MPI_COMM_WORLD); /* the manycoll communicator exists */
    if (rank == 1) {
        usleep(200000);
        raise(SIGKILL);
    }
    for (int i = 0; i < 1000000; i++)
        MPI_Barrier(MPI_COMM_WORLD);
    return 1; /* not reached: rank 1 never arrives */
}

int main(int argc, char **argv)
{
    int rank, rc = 2;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc > 1 && !strcmp(argv[1], "--call"))
        rc = call_error(rank);
    else if (argc > 1 && !strcmp(argv[1], "--setup"))
        rc = setup_error(rank);
    else if (argc > 1 && !strcmp(argv[1], "--dead"))
        rc = dead(rank);
    MPI_Finalize();
    return rc;
}
