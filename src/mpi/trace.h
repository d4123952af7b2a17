/*
 * Recording an MPI run as an OTF2 archive: MC_MPI_TRACE=DIR
 * (docs/replay.md; the archive's contract with the replay side is
 * /work/notes/otf2_contract.md).
 *
 *   MPI_Allreduce(...)                 (the program's call)
 *     MCM_TRACE_BLK(...)    tracing off: one load of mcm_trace_on and a
 *                           predictable branch, nothing else
 *                           tracing on, a predefined type on a comm the
 *                           library holds: the ids of the comm, types and
 *                           op from small caches; t0; the wrapper's body
 *                           (mcm_trace_depth = 1: what it calls runs
 *                           untraced); t1; one 48-byte raw record, which
 *                           MPI_Finalize turns into the call's Enter,
 *                           MpiCollectiveBegin/End with the manycoll::*
 *                           attributes and Leave (trace_raw.c)
 *     MCM_TRACE_COLL(...)   any other collective call (non-blocking,
 *                           persistent, v-counts, a derived type): t0; the
 *                           same call again, untraced; t1; one record made
 *                           from its arguments at once, or copied from the
 *                           same call's last record (trace_coll.c)
 *   MPI_Isend / MPI_Irecv   the request's handle -> (requestID, kind,
 *                           peer, tag, comm, length) in a per-rank table;
 *                           the waits and tests (complete.c) write the
 *                           completions (trace_p2p.c)
 *   MPI_Comm_split / dup / split_type / create   a global id agreed by
 *                           the new comm's members (comm rank 0's
 *                           proposal, PMPI_Bcast) and its members in world
 *                           ranks (trace_comm.c)
 *   MPI_Finalize            the event log into OTF2 events (trace_log.c);
 *                           the definitions, gathered to rank 0 over a
 *                           private duplicate of MPI_COMM_WORLD with PMPI
 *                           (trace_defs.c); OTF2's collective callbacks
 *                           over the same duplicate (trace_otf2.c)
 *
 * Built only with OTF2 (cmake MC_OTF2, MCM_HAVE_OTF2); without it the
 * hooks below are empty and MC_MPI_TRACE gives one line at MPI_Init.
 * The recording is one thread's at a time: under MPI_THREAD_MULTIPLE its
 * tables and log are written under a lock (no lock below that level),
 * but the calls of concurrent threads would interleave their Enter/Leave
 * on the one location of the rank.
 */
#ifndef MC_MPI_TRACE_H
#define MC_MPI_TRACE_H

#include <stdint.h>

#include <mpi.h>

/* the arguments of a collective the recording reads (those a collective
 * does not have stay 0; sdt/rdt are read only where the collective has
 * them: a reduction's and bcast's type is sdt) */
typedef struct mcm_targs {
    const void *sbuf, *rbuf; /* rbuf: read for MPI_IN_PLACE at scatter */
    int root, count, scount, rcount;
    const int *scounts, *rcounts;
    MPI_Datatype sdt, rdt;
    MPI_Op op;
} mcm_targs_t;

/* a collective call as it is written: MpiCollectiveEnd's fields and the
 * attributes (string ids of the archive) */
typedef struct mcm_tcoll {
    uint32_t region, comm, root, op_otf2;
    uint64_t sent, recvd, count;
    uint32_t dtype, op, vcounts, path; /* string ids; vcounts 0: none */
    uint8_t in_place, has_vcounts;
} mcm_tcoll_t;

/* one call in flight: its start and what it will write */
typedef struct mcm_tcall {
    uint64_t t0;
    int coll, form;
    void *s;         /* mcm_comm_t of the comm, or NULL */
    long before[3];  /* its counts by path before the call */
    mcm_tcoll_t c;
} mcm_tcall_t;

/* A blocking collective as the hot path records it (MCM_TRACE_BLK): the
 * arguments as small ids, no strings, no byte counts; MPI_Finalize
 * derives the rest (mcm_tr_raw_coll). One record of 48 bytes. */
typedef struct mcm_traw {
    uint32_t kind;           /* MCM_E_RAW (trace_impl.h) */
    uint8_t coll, path, ip, pad; /* path: MCM_P_*; ip: in place */
    uint32_t comm;           /* the comm's global id */
    int32_t count, rcount, root; /* count: count, or the send count */
    uint16_t sdt, rdt, op, pad2; /* ids of the type and op tables */
    uint64_t t0, t1;
} mcm_traw_t;

/* a blocking collective in flight on the hot path */
typedef struct mcm_trcall {
    mcm_traw_t r;
    const long *n;           /* the comm's counts of it by path (plan.c) */
    long flat, hier;         /* n[MCM_FLAT] and n[MCM_HIER] before */
} mcm_trcall_t;

/* how a communicator was made (comm.c passes it in every build) */
enum { MCM_TC_WORLD, MCM_TC_SPLIT, MCM_TC_SHARED, MCM_TC_DUP, MCM_TC_CREATE,
       MCM_TC_OTHER, MCM_TC_KINDS };

#if MCM_HAVE_OTF2

/* 1 while this process records (set once at MPI_Init, cleared at
 * MPI_Finalize): the only thing the untraced path reads */
extern int mcm_trace_on;
/* 1 inside a recorded call: the call it makes again runs untraced.
 * Read three times per recorded call: initial-exec, one load, not a
 * call to __tls_get_addr (4 bytes of the static TLS glibc keeps for
 * libraries loaded later, should a program dlopen this one) */
extern _Thread_local int mcm_trace_depth
    __attribute__((tls_model("initial-exec")));

#define MCM_TRACING() (__builtin_expect(mcm_trace_on, 0) && !mcm_trace_depth)

/* In a collective's wrapper: when recording, run the call (`again`, the
 * wrapper's own call with the same arguments) between a begin and an end
 * and return its result. req: the request of a non-blocking or persistent
 * form (NULL: blocking). The rest: the mcm_targs_t fields. */
#define MCM_TRACE_COLL(coll, form, comm, req, again, ...)                   \
    do {                                                                    \
        if (MCM_TRACING()) {                                                \
            mcm_tcall_t tc_;                                                \
            mcm_trace_begin(&tc_, coll, form, comm,                         \
                            &(mcm_targs_t){__VA_ARGS__});                   \
            return mcm_trace_end(&tc_, (again), req);                       \
        }                                                                   \
    } while (0)

/* A blocking collective's wrapper, whose body is `body` (the wrapper's
 * code as a function, not the wrapper again): when recording, the call
 * runs between a begin and an end and its result is returned. The hot
 * path (trace_raw.c) takes a call on a comm the library holds state for,
 * with predefined types (or MPI_DATATYPE_NULL) and any op: it stores the
 * ids of the comm, the types and the op from small caches and the two
 * times, one 48-byte record; anything else (a derived type) goes to
 * MCM_TRACE_COLL, which describes it at once. cnt: count, or the send
 * count; rcnt: the receive count; sdt/rdt: the types
 * (MPI_DATATYPE_NULL where there is none); op: MPI_OP_NULL where there
 * is none; ip: the call is in place; the rest: MCM_TRACE_COLL's mcm_targs_t
 * fields. The file includes mpi/trace_hot.h. */
#define MCM_TRACE_BLK(coll_, comm_, body_, cnt_, rcnt_, sdt_, rdt_, op_,  \
                      root_, ip_, ...)                                      \
    do {                                                                    \
        if (MCM_TRACING()) {                                                \
            mcm_trcall_t tb_;                                               \
            tb_.r = (mcm_traw_t){.coll = (uint8_t)(coll_),                  \
                                 .ip = (uint8_t)(ip_), .count = (cnt_),     \
                                 .rcount = (rcnt_), .root = (root_)};       \
            if (mcm_trace_raw_begin(&tb_, comm_, sdt_, rdt_, op_))          \
                return mcm_trace_raw_end(&tb_, (body_));                    \
            MCM_TRACE_COLL(coll_, MCM_BLOCKING, comm_, NULL, body_,         \
                           __VA_ARGS__);                                    \
        }                                                                   \
    } while (0)

/* the traced twin of a blocking wrapper (MPI_X: if MCM_TRACING(), return
 * tr_x(...), whose MCM_TRACE_BLK runs the body between the begin and the
 * end): out of line, so that the untraced call keeps its own code and
 * registers */
#define MCM_TRACED __attribute__((noinline, unused))

/* mcm_trace_raw_begin and _end are inline: trace_hot.h, which a file
 * whose wrappers use MCM_TRACE_BLK includes */

void mcm_trace_begin(mcm_tcall_t *tc, int coll, int form, MPI_Comm comm,
                     const mcm_targs_t *a);
int mcm_trace_end(mcm_tcall_t *tc, int rc, MPI_Request *req);

/* MPI_Init: opens the archive if MC_MPI_TRACE is set (collective over
 * MPI_COMM_WORLD); MPI_Finalize: writes and closes it */
void mcm_trace_init(void);
void mcm_trace_finalize(void);

/* communicators (trace_comm.c; the kinds: above, in every build) */
void mcm_trace_comm_new(MPI_Comm parent, MPI_Comm c, int kind);
void mcm_trace_comm_free(MPI_Comm c);
#define MCM_TRACE_COMM(parent, c, kind)                                     \
    do {                                                                    \
        if (__builtin_expect(mcm_trace_on, 0))                              \
            mcm_trace_comm_new(parent, c, kind);                            \
    } while (0)
#define MCM_TRACE_COMM_FREE(c)                                              \
    do {                                                                    \
        if (__builtin_expect(mcm_trace_on, 0))                              \
            mcm_trace_comm_free(c);                                         \
    } while (0)

/* point to point and completions (trace_p2p.c): each runs the call it
 * stands for (with mcm_trace_depth set) and records it */
int mcm_tr_send(const void *buf, int count, MPI_Datatype dt, int dest,
                int tag, MPI_Comm comm, int sync);
int mcm_tr_recv(void *buf, int count, MPI_Datatype dt, int src, int tag,
                MPI_Comm comm, MPI_Status *st);
int mcm_tr_sendrecv(const void *sbuf, int scount, MPI_Datatype stype,
                    int dest, int stag, void *rbuf, int rcount,
                    MPI_Datatype rtype, int src, int rtag, MPI_Comm comm,
                    MPI_Status *st);
int mcm_tr_isend(const void *buf, int count, MPI_Datatype dt, int dest,
                 int tag, MPI_Comm comm, MPI_Request *req);
int mcm_tr_irecv(void *buf, int count, MPI_Datatype dt, int src, int tag,
                 MPI_Comm comm, MPI_Request *req);

/* the waits and tests: which one (trace_p2p.c) */
enum { MCM_TW_WAIT, MCM_TW_TEST, MCM_TW_WAITANY, MCM_TW_TESTANY,
       MCM_TW_WAITALL, MCM_TW_TESTALL, MCM_TW_WAITSOME, MCM_TW_TESTSOME,
       MCM_TW_KINDS };
/* one of them: n requests (1 for wait/test), the outputs it has (NULL
 * where it has none) */
int mcm_tr_done(int kind, int n, MPI_Request *reqs, int *flag, int *idx,
                int *idxs, MPI_Status *sts);
/* MPI_Start (all 0, n 1) or MPI_Startall */
int mcm_tr_start(int all, int n, MPI_Request *reqs);
void mcm_trace_request_free(MPI_Request req);

/* In a wrapper: when recording, return the recorded twin's result */
#define MCM_TRACE_CALL(call)                                                \
    do {                                                                    \
        if (MCM_TRACING())                                                  \
            return call;                                                    \
    } while (0)
#define MCM_TRACE_REQ_FREE(req)                                             \
    do {                                                                    \
        if (__builtin_expect(mcm_trace_on, 0))                              \
            mcm_trace_request_free(req);                                    \
    } while (0)

#else /* no OTF2: nothing is recorded, and nothing is read */

#define MCM_TRACING() 0
#define MCM_TRACE_COLL(coll, form, comm, req, again, ...) ((void)0)
#define MCM_TRACE_BLK(coll, comm, body, ...) ((void)0)
#define MCM_TRACED __attribute__((unused))
#define MCM_TRACE_COMM(parent, c, kind) ((void)0)
#define MCM_TRACE_COMM_FREE(c) ((void)0)
#define MCM_TRACE_CALL(call) ((void)0)
#define MCM_TRACE_REQ_FREE(req) ((void)0)

#endif

#endif /* MC_MPI_TRACE_H */
