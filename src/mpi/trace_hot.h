/*
 * The hot path of a recorded blocking collective, inline in its wrapper
 * (MCM_TRACE_BLK, trace.h; trace_raw.c has the picture and the slow
 * parts). Included by the files whose wrappers use MCM_TRACE_BLK.
 *
 *   begin  the comm's state (mcm_comm: a hit of the library's handle
 *          cache); the types and op: the collective's last call's (three
 *          compares), else mcm_tr_raw_slow; the comm's id from its state;
 *          its counts by path; mcm_trace_depth = 1; t0
 *   end    t1; mcm_trace_depth = 0; the path whose count grew; the record
 *          stored at the log's end (mcm_tr_raw_put where the log is full
 *          or other threads may write it)
 */
#ifndef MC_MPI_TRACE_HOT_H
#define MC_MPI_TRACE_HOT_H

#include "mpi/trace.h"

#if MCM_HAVE_OTF2
#include "mpi/trace_impl.h"

/* the rest of a begin: the comm's id and counts, t0; 1 */
static inline int mcm_tr_raw_start(mcm_trcall_t *tc, mcm_comm_t *s)
{
    tc->r.kind = MCM_E_RAW;
    tc->r.comm = s->tr_comm;
    const long *n = s->stat[tc->r.coll][MCM_BLOCKING].n;
    tc->n = n;
    tc->flat = n[MCM_FLAT];
    tc->hier = n[MCM_HIER];
    mcm_trace_depth = 1;
    tc->r.t0 = mcm_tr_now();
    return 1;
}

/* a call whose types or op differ from its collective's last, the first
 * on its comm, or any under MPI_THREAD_MULTIPLE: the caches and the
 * comm's id, under the lock; 0: the call is not one for this path */
int mcm_tr_raw_slow(mcm_trcall_t *tc, mcm_comm_t *s, MPI_Comm comm,
                    MPI_Datatype sdt, MPI_Datatype rdt, MPI_Op op);
/* the record into the log, under the lock, unless recording has ended */
void mcm_tr_raw_put(const mcm_traw_t *r);

/* tc->r has the call's coll, ip, count, rcount and root; 1: record it
 * (mcm_trace_raw_end after the body), 0: MCM_TRACE_COLL's way */
static inline __attribute__((always_inline)) int
mcm_trace_raw_begin(mcm_trcall_t *tc, MPI_Comm comm,
                                      MPI_Datatype sdt, MPI_Datatype rdt,
                                      MPI_Op op)
{
    mcm_comm_t *s = mcm_comm(comm);
    if (!s)
        return 0;
    const mcm_tmemo_t *m = &mcm_tr.memo[tc->r.coll];
    if (__builtin_expect(mcm_tr.mt || !s->tr_known || !m->id[0] ||
                             m->sdt != mcm_key(&sdt, sizeof sdt) ||
                             m->rdt != mcm_key(&rdt, sizeof rdt) ||
                             m->op != mcm_key(&op, sizeof op),
                         0))
        return mcm_tr_raw_slow(tc, s, comm, sdt, rdt, op);
    memcpy(&tc->r.sdt, m->id, sizeof m->id);
    return mcm_tr_raw_start(tc, s);
}

/* Below MPI_THREAD_MULTIPLE no other thread is in MPI, so recording
 * cannot end during the call (MPI_Finalize is not called from inside
 * one): the record goes to the log without a lock or a check. */
static inline __attribute__((always_inline)) int
mcm_trace_raw_end(mcm_trcall_t *tc, int rc)
{
    uint64_t t1 = mcm_tr_now();
    mcm_trace_depth = 0;
    const long *n = tc->n;
    tc->r.path = n[MCM_FLAT] > tc->flat   ? MCM_P_MANYCOLL
                 : n[MCM_HIER] > tc->hier ? MCM_P_HIER
                                          : MCM_P_MPI;
    tc->r.t1 = t1;
    if (__builtin_expect(mcm_tr.mt || mcm_tr.lused + sizeof(mcm_traw_t) >
                                          MCM_TR_LOG,
                         0)) {
        mcm_tr_raw_put(&tc->r);
        return rc;
    }
    memcpy(mcm_tr.log + mcm_tr.lused, &tc->r, sizeof tc->r);
    mcm_tr.lused += sizeof tc->r;
    return rc;
}

#endif /* MCM_HAVE_OTF2 */

#endif /* MC_MPI_TRACE_HOT_H */
