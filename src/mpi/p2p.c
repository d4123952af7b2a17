/*
 * The blocking point-to-point calls while one of manycoll's non-blocking
 * collectives is active in this process: the MPI library would block
 * without ever running manycoll's progress, and a peer that waits for
 * that collective before it sends would never send (MPI requires the
 * program to complete). So MPI_Recv, MPI_Send, MPI_Ssend, MPI_Sendrecv
 * and MPI_Probe become their non-blocking twin and a wait that polls
 * both (complete.c). With none active (the common case) each is its PMPI
 * twin after one load.
 *
 * MPI_Isend and MPI_Irecv are intercepted for the recording only
 * (MC_MPI_TRACE, trace_p2p.c): otherwise each is its PMPI twin after one
 * load and a predictable branch (MCM_TRACE_CALL). With MC_MPI_TRACE the
 * blocking calls are recorded too.
 */
#include <sched.h>

#include "mpi/mcmpi.h"

int MPI_Recv(void *buf, int count, MPI_Datatype dt, int src, int tag,
             MPI_Comm comm, MPI_Status *st)
{
    MCM_TRACE_CALL(mcm_tr_recv(buf, count, dt, src, tag, comm, st));
    if (!mcm_nb_live)
        return PMPI_Recv(buf, count, dt, src, tag, comm, st);
    MPI_Request r;
    int rc = PMPI_Irecv(buf, count, dt, src, tag, comm, &r);
    return rc != MPI_SUCCESS ? rc : mcm_wait_req(&r, st);
}

int MPI_Send(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
             MPI_Comm comm)
{
    MCM_TRACE_CALL(mcm_tr_send(buf, count, dt, dest, tag, comm, 0));
    if (!mcm_nb_live)
        return PMPI_Send(buf, count, dt, dest, tag, comm);
    MPI_Request r;
    int rc = PMPI_Isend(buf, count, dt, dest, tag, comm, &r);
    return rc != MPI_SUCCESS ? rc : mcm_wait_req(&r, MPI_STATUS_IGNORE);
}

int MPI_Ssend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
              MPI_Comm comm)
{
    MCM_TRACE_CALL(mcm_tr_send(buf, count, dt, dest, tag, comm, 1));
    if (!mcm_nb_live)
        return PMPI_Ssend(buf, count, dt, dest, tag, comm);
    MPI_Request r;
    int rc = PMPI_Issend(buf, count, dt, dest, tag, comm, &r);
    return rc != MPI_SUCCESS ? rc : mcm_wait_req(&r, MPI_STATUS_IGNORE);
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest,
                 int stag, void *rbuf, int rcount, MPI_Datatype rtype,
                 int src, int rtag, MPI_Comm comm, MPI_Status *st)
{
    MCM_TRACE_CALL(mcm_tr_sendrecv(sbuf, scount, stype, dest, stag, rbuf,
                                   rcount, rtype, src, rtag, comm, st));
    if (!mcm_nb_live)
        return PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount,
                             rtype, src, rtag, comm, st);
    MPI_Request r[2];
    int rc = PMPI_Irecv(rbuf, rcount, rtype, src, rtag, comm, &r[0]);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = PMPI_Isend(sbuf, scount, stype, dest, stag, comm, &r[1]);
    if (rc != MPI_SUCCESS) {
        PMPI_Cancel(&r[0]);
        PMPI_Request_free(&r[0]);
        return rc;
    }
    rc = mcm_wait_req(&r[1], MPI_STATUS_IGNORE);
    int rc2 = mcm_wait_req(&r[0], st);
    return rc != MPI_SUCCESS ? rc : rc2;
}

int MPI_Isend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
              MPI_Comm comm, MPI_Request *req)
{
    MCM_TRACE_CALL(mcm_tr_isend(buf, count, dt, dest, tag, comm, req));
    return PMPI_Isend(buf, count, dt, dest, tag, comm, req);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype dt, int src, int tag,
              MPI_Comm comm, MPI_Request *req)
{
    MCM_TRACE_CALL(mcm_tr_irecv(buf, count, dt, src, tag, comm, req));
    return PMPI_Irecv(buf, count, dt, src, tag, comm, req);
}

int MPI_Probe(int src, int tag, MPI_Comm comm, MPI_Status *st)
{
    if (!mcm_nb_live)
        return PMPI_Probe(src, tag, comm, st);
    for (;;) {
        int flag = 0, rc = PMPI_Iprobe(src, tag, comm, &flag, st);
        if (rc != MPI_SUCCESS || flag)
            return rc;
        mcm_nb_progress();
        sched_yield();
    }
}
