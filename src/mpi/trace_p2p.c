/*
 * Recorded point to point and completions (MCM_TRACE_CALL in p2p.c and
 * complete.c). Each runs its call with mcm_trace_depth set (the wrapper
 * runs as untraced) and then writes, in time order:
 *
 *   MPI_Send, Ssend   Enter t0, MpiSend t0, Leave t1
 *   MPI_Recv          Enter t0, MpiRecv t1 (the status's source, tag,
 *                     bytes), Leave t1
 *   MPI_Sendrecv      Enter t0, MpiSend t0, MpiRecv t1, Leave t1
 *   MPI_Isend         Enter t0, MpiIsend t0 (requestID), Leave t1
 *   MPI_Irecv         Enter t0, MpiIrecvRequest t0, Leave t1
 *   waits and tests   Enter t0, a completion per request of the table
 *                     that completed (MpiIsendComplete, MpiIrecv, a
 *                     non-blocking collective's MpiCollectiveEnd), Leave t1
 *   MPI_Start(all)    Enter t0, MpiCollectiveBegin t0 per persistent
 *                     collective started, Leave t1
 *
 * The table: request handle -> mcm_treq_t (requestID, kind, comm, and a
 * collective's end), added at the call that returns the handle, removed
 * at its completion (a persistent one at MPI_Request_free). The peer,
 * tag and length of a receive are read from the status at completion:
 * where the program ignores statuses, the call gets ours.
 * A message to or from MPI_PROC_NULL writes no message event.
 */
#include <stdlib.h>
#include <string.h>

#include "mpi/trace.h"

#if MCM_HAVE_OTF2
#include "mpi/trace_impl.h"

#define SMALL 16

static uint64_t key(MPI_Request r)
{
    return mcm_key(&r, sizeof r);
}

mcm_treq_t *mcm_tr_req_add(MPI_Request h)
{
    void *v;
    mcm_treq_t *q = h == MPI_REQUEST_NULL ? NULL : calloc(1, sizeof *q);
    if (!q || mc_map_put(&mcm_tr.reqs, key(h), &v) < 0) {
        free(q);
        return NULL;
    }
    mcm_treq_t **at = v;
    while (*at)
        at = &(*at)->next;
    *at = q;
    return q;
}

mcm_treq_t *mcm_tr_req_find(uint64_t k)
{
    mcm_treq_t **v = mc_map_get(&mcm_tr.reqs, k);
    return v ? *v : NULL;
}

void mcm_tr_req_drop(uint64_t k)
{
    mcm_treq_t **v = mc_map_get(&mcm_tr.reqs, k), *q = v ? *v : NULL;
    if (!q)
        return;
    *v = q->next;
    if (!*v)
        mc_map_remove(&mcm_tr.reqs, k);
    free(q);
}

void mcm_trace_request_free(MPI_Request req)
{
    mcm_tr_lock();
    mcm_tr_req_drop(key(req));
    mcm_tr_unlock();
}

static uint64_t bytes(int count, MPI_Datatype dt)
{
    long long s = mcm_type_size(dt);
    return count > 0 && s > 0 ? (uint64_t)count * (uint64_t)s : 0;
}

static uint64_t received(const MPI_Status *st)
{
    int n = 0;
    PMPI_Get_count(st, MPI_BYTE, &n);
    return n > 0 ? (uint64_t)n : 0;
}

/* runs before the call: t0, and the call untraced */
static uint64_t start(void)
{
    mcm_trace_depth = 1;
    return mcm_tr_now();
}

/* after it: t1; the lock is held, and 0 if recording stopped meanwhile */
static int finish(uint64_t *t1)
{
    *t1 = mcm_tr_now();
    mcm_trace_depth = 0;
    mcm_tr_lock();
    if (mcm_trace_on)
        return 1;
    mcm_tr_unlock();
    return 0;
}

int mcm_tr_send(const void *buf, int count, MPI_Datatype dt, int dest,
                int tag, MPI_Comm comm, int sync)
{
    uint64_t t0 = start(), t1;
    int rc = sync ? MPI_Ssend(buf, count, dt, dest, tag, comm)
                  : MPI_Send(buf, count, dt, dest, tag, comm);
    if (!finish(&t1))
        return rc;
    int r = sync ? MCM_R_SSEND : MCM_R_SEND;
    mcm_tr_enter(r, t0);
    if (dest != MPI_PROC_NULL)
        mcm_tr_ev(MCM_E_SEND, t0, (uint32_t)dest, mcm_tr_comm_id(comm),
                  (uint32_t)tag, bytes(count, dt), 0);
    mcm_tr_leave(r, t1);
    mcm_tr_unlock();
    return rc;
}

static void recv_event(const MPI_Status *st, MPI_Comm comm, uint64_t t)
{
    if (st->MPI_SOURCE != MPI_PROC_NULL)
        mcm_tr_ev(MCM_E_RECV, t, (uint32_t)st->MPI_SOURCE,
                  mcm_tr_comm_id(comm), (uint32_t)st->MPI_TAG, received(st),
                  0);
}

int mcm_tr_recv(void *buf, int count, MPI_Datatype dt, int src, int tag,
                MPI_Comm comm, MPI_Status *st)
{
    MPI_Status mine;
    if (st == MPI_STATUS_IGNORE)
        st = &mine;
    uint64_t t0 = start(), t1;
    int rc = MPI_Recv(buf, count, dt, src, tag, comm, st);
    if (!finish(&t1))
        return rc;
    mcm_tr_enter(MCM_R_RECV, t0);
    if (rc == MPI_SUCCESS)
        recv_event(st, comm, t1);
    mcm_tr_leave(MCM_R_RECV, t1);
    mcm_tr_unlock();
    return rc;
}

int mcm_tr_sendrecv(const void *sbuf, int scount, MPI_Datatype stype,
                    int dest, int stag, void *rbuf, int rcount,
                    MPI_Datatype rtype, int src, int rtag, MPI_Comm comm,
                    MPI_Status *st)
{
    MPI_Status mine;
    if (st == MPI_STATUS_IGNORE)
        st = &mine;
    uint64_t t0 = start(), t1;
    int rc = MPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount,
                          rtype, src, rtag, comm, st);
    if (!finish(&t1))
        return rc;
    mcm_tr_enter(MCM_R_SENDRECV, t0);
    if (dest != MPI_PROC_NULL)
        mcm_tr_ev(MCM_E_SEND, t0, (uint32_t)dest, mcm_tr_comm_id(comm),
                  (uint32_t)stag, bytes(scount, stype), 0);
    if (rc == MPI_SUCCESS)
        recv_event(st, comm, t1);
    mcm_tr_leave(MCM_R_SENDRECV, t1);
    mcm_tr_unlock();
    return rc;
}

int mcm_tr_isend(const void *buf, int count, MPI_Datatype dt, int dest,
                 int tag, MPI_Comm comm, MPI_Request *req)
{
    uint64_t t0 = start(), t1;
    int rc = PMPI_Isend(buf, count, dt, dest, tag, comm, req);
    if (!finish(&t1))
        return rc;
    mcm_tr_enter(MCM_R_ISEND, t0);
    mcm_treq_t *q = rc == MPI_SUCCESS && dest != MPI_PROC_NULL
                        ? mcm_tr_req_add(*req)
                        : NULL;
    if (q) {
        q->kind = MCM_Q_ISEND;
        q->id = mcm_tr.next_req++;
        q->comm = mcm_tr_comm_id(comm);
        mcm_tr_ev(MCM_E_ISEND, t0, (uint32_t)dest, q->comm, (uint32_t)tag,
                  bytes(count, dt), q->id);
    }
    mcm_tr_leave(MCM_R_ISEND, t1);
    mcm_tr_unlock();
    return rc;
}

int mcm_tr_irecv(void *buf, int count, MPI_Datatype dt, int src, int tag,
                 MPI_Comm comm, MPI_Request *req)
{
    uint64_t t0 = start(), t1;
    int rc = PMPI_Irecv(buf, count, dt, src, tag, comm, req);
    if (!finish(&t1))
        return rc;
    mcm_tr_enter(MCM_R_IRECV, t0);
    mcm_treq_t *q = rc == MPI_SUCCESS && src != MPI_PROC_NULL
                        ? mcm_tr_req_add(*req)
                        : NULL;
    if (q) {
        q->kind = MCM_Q_IRECV;
        q->id = mcm_tr.next_req++;
        q->comm = mcm_tr_comm_id(comm);
        mcm_tr_ev(MCM_E_IRECV_REQ, t0, 0, 0, 0, 0, q->id);
    }
    mcm_tr_leave(MCM_R_IRECV, t1);
    mcm_tr_unlock();
    return rc;
}

/* ---- completions ---- */

/* the completion of the request that was h, with status st */
static void complete(uint64_t h, const MPI_Status *st, uint64_t t)
{
    mcm_treq_t *q = mcm_tr_req_find(h);
    if (!q)
        return;
    if (q->kind == MCM_Q_ISEND)
        mcm_tr_ev(MCM_E_ISEND_DONE, t, 0, 0, 0, 0, q->id);
    else if (q->kind == MCM_Q_IRECV && st->MPI_SOURCE != MPI_PROC_NULL)
        mcm_tr_ev(MCM_E_IRECV, t, (uint32_t)st->MPI_SOURCE, q->comm,
                  (uint32_t)st->MPI_TAG, received(st), q->id);
    else if (q->kind == MCM_Q_COLL)
        mcm_tr_coll(MCM_E_CEND, 0, t, &q->c);
    if (!q->persistent)
        mcm_tr_req_drop(h);
}

/* a wait or test's call, untraced; *sts: the statuses (ours if the
 * program ignores them) */
static int call(int kind, int n, MPI_Request *reqs, int *flag, int *idx,
                int *idxs, MPI_Status *sts)
{
    switch (kind) {
    case MCM_TW_WAIT: return MPI_Wait(reqs, sts);
    case MCM_TW_TEST: return MPI_Test(reqs, flag, sts);
    case MCM_TW_WAITANY: return MPI_Waitany(n, reqs, idx, sts);
    case MCM_TW_TESTANY: return MPI_Testany(n, reqs, idx, flag, sts);
    case MCM_TW_WAITALL: return MPI_Waitall(n, reqs, sts);
    case MCM_TW_TESTALL: return MPI_Testall(n, reqs, flag, sts);
    case MCM_TW_WAITSOME: return MPI_Waitsome(n, reqs, idx, idxs, sts);
    default: return MPI_Testsome(n, reqs, idx, idxs, sts);
    }
}

/* the completions of a call that returned rc; old: the handles before */
static void completions(int kind, int rc, int n, const MPI_Request *reqs,
                        const uint64_t *old, const int *flag, const int *idx,
                        const int *idxs, const MPI_Status *sts, uint64_t t)
{
    int any = kind == MCM_TW_WAITANY || kind == MCM_TW_TESTANY;
    int some = kind == MCM_TW_WAITSOME || kind == MCM_TW_TESTSOME;
    int test = kind == MCM_TW_TEST || kind == MCM_TW_TESTANY ||
               kind == MCM_TW_TESTALL;
    if ((rc != MPI_SUCCESS && kind != MCM_TW_WAITALL) || (test && !*flag))
        return;
    if (any) {
        if (*idx != MPI_UNDEFINED)
            complete(old[*idx], sts, t);
    } else if (some) {
        for (int k = 0; *idx != MPI_UNDEFINED && k < *idx; k++)
            complete(old[idxs[k]], &sts[k], t);
    } else {
        for (int i = 0; i < n; i++)
            if (rc == MPI_SUCCESS || reqs[i] == MPI_REQUEST_NULL)
                complete(old[i], &sts[i], t);
    }
}

int mcm_tr_done(int kind, int n, MPI_Request *reqs, int *flag, int *idx,
                int *idxs, MPI_Status *sts)
{
    if (n < 0 || (n > 0 && !reqs)) /* invalid: MPI says so */
        return call(kind, n, reqs, flag, idx, idxs, sts);
    int many = kind == MCM_TW_WAITALL || kind == MCM_TW_TESTALL ||
               kind == MCM_TW_WAITSOME || kind == MCM_TW_TESTSOME;
    uint64_t small[SMALL], *old = n <= SMALL ? small
                                             : malloc((size_t)n * sizeof *old);
    MPI_Status st1, sts_small[SMALL], *mine = NULL;
    if (!many && sts == MPI_STATUS_IGNORE)
        sts = &st1;
    else if (many && sts == MPI_STATUSES_IGNORE)
        sts = mine = n <= SMALL ? sts_small : malloc((size_t)n * sizeof *sts);
    if (!old || !sts) { /* no memory: the call, unrecorded */
        if (old != small)
            free(old);
        return call(kind, n, reqs, flag, idx, idxs,
                    many ? MPI_STATUSES_IGNORE : MPI_STATUS_IGNORE);
    }
    for (int i = 0; i < n; i++)
        old[i] = key(reqs[i]);
    uint64_t t0 = start(), t1;
    int rc = call(kind, n, reqs, flag, idx, idxs, sts);
    if (finish(&t1)) {
        mcm_tr_enter(MCM_R_WAIT + kind, t0);
        completions(kind, rc, n, reqs, old, flag, idx, idxs, sts, t1);
        mcm_tr_leave(MCM_R_WAIT + kind, t1);
        mcm_tr_unlock();
    }
    if (old != small)
        free(old);
    if (mine && mine != sts_small)
        free(mine);
    return rc;
}

int mcm_tr_start(int all, int n, MPI_Request *reqs)
{
    uint64_t t0 = start(), t1;
    int rc = all ? MPI_Startall(n, reqs) : MPI_Start(reqs);
    if (!finish(&t1))
        return rc;
    int r = all ? MCM_R_STARTALL : MCM_R_START;
    mcm_tr_enter(r, t0);
    for (int i = 0; rc == MPI_SUCCESS && i < n; i++) {
        const mcm_treq_t *q = mcm_tr_req_find(key(reqs[i]));
        if (q && q->kind == MCM_Q_COLL)
            mcm_tr_ev(MCM_E_CBEGIN, t0, 0, 0, 0, 0, 0);
    }
    mcm_tr_leave(r, t1);
    mcm_tr_unlock();
    return rc;
}

#endif /* MCM_HAVE_OTF2 */
