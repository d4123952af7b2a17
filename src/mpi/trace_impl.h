/*
 * The recording's own state, shared by trace_*.c (trace.h says what each
 * does). One archive writer per rank; everything here is the rank's.
 *
 * Ids the events carry (each rank's local definitions map regions and
 * comms to the archive's dense ids at finalize, trace_defs.c):
 *   regions     fixed: a collective's form coll * MCM_FORMS + form, then
 *               the point-to-point calls and the waits (MCM_R_*)
 *   strings     0 .. base-1: written by rank 0 at finalize (names of
 *               regions, attributes, comms, the system tree); from base:
 *               the strings events refer to (datatype, op, vcounts,
 *               path), rank r's i-th at base + i * P + r, so that no rank
 *               has to ask another for an id during the run
 *   comms       0: MPI_COMM_WORLD; rank w's k-th new comm: w + P * k
 *               (k >= 1), proposed by the new comm's rank 0; a comm made
 *               by a call not intercepted: 0x80000000 | a hash of its
 *               members (the same on every member)
 *   attributes  MCM_A_* below
 */
#ifndef MC_MPI_TRACE_IMPL_H
#define MC_MPI_TRACE_IMPL_H

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include <otf2/otf2.h>

#include "mpi/mcmpi.h"
#include "mpi/trace.h"
#include "util/map.h"
#include "util/tick.h"

/* regions after the collectives' forms */
enum {
    MCM_R_SEND = MC_COLL_COUNT * MCM_FORMS,
    MCM_R_SSEND, MCM_R_RECV, MCM_R_SENDRECV, MCM_R_ISEND, MCM_R_IRECV,
    MCM_R_WAIT, /* + MCM_TW_* */
    MCM_R_START = MCM_R_WAIT + MCM_TW_KINDS,
    MCM_R_STARTALL,
    MCM_R_COUNT
};

/* the attributes of MpiCollectiveEnd */
enum { MCM_A_COUNT, MCM_A_DATATYPE, MCM_A_OP, MCM_A_VCOUNTS, MCM_A_IN_PLACE,
       MCM_A_PATH, MCM_A_N };

#define MCM_T_UNDEF_COMM 0xffffffffu

/* a communicator as the archive describes it */
typedef struct mcm_tcomm {
    uint32_t id, parent;
    int kind;        /* MCM_TC_* */
    int n;
    uint32_t *members; /* world ranks, in the comm's rank order */
} mcm_tcomm_t;

/* the paths of a collective, as manycoll::path names them */
enum { MCM_P_MANYCOLL, MCM_P_HIER, MCM_P_MPI, MCM_P_N };

/* a slot of the string cache: a predefined datatype and an op (handle
 * bits) -> the ids of their manycoll::datatype and manycoll::op strings */
#define MCM_TR_SC_BITS 4
typedef struct mcm_tsc {
    uintptr_t dt, op;
    uint32_t dtype, opname; /* 0: the slot is empty */
} mcm_tsc_t;

/* the event log's records (trace_log.c): each becomes OTF2 events at
 * MPI_Finalize */
enum { MCM_E_ENTER, MCM_E_LEAVE, MCM_E_CBEGIN, MCM_E_SEND, MCM_E_RECV,
       MCM_E_ISEND, MCM_E_IRECV_REQ, MCM_E_ISEND_DONE, MCM_E_IRECV,
       MCM_E_CEND, MCM_E_COLL, MCM_E_RAW };
/* every event but a collective's end: Enter/Leave's region in peer */
typedef struct mcm_tev {
    uint32_t kind, peer, comm, tag;
    uint64_t t, len, id;
} mcm_tev_t;
/* MCM_E_COLL: a whole blocking collective (t0 to t1); MCM_E_CEND: the
 * end of a non-blocking or persistent one (t1) */
typedef struct mcm_tevc {
    uint32_t kind, pad;
    uint64_t t0, t1;
    mcm_tcoll_t c;
} mcm_tevc_t;
#define MCM_TR_LOG (1u << 20) /* bytes of the log's buffer */
_Static_assert(sizeof(mcm_tev_t) % 8 == 0 && sizeof(mcm_tevc_t) % 8 == 0 &&
                   sizeof(mcm_traw_t) % 8 == 0,
               "the log's records stay 8-byte aligned");

/* The hot path's ids (trace_raw.c): a type seen in a raw record is an
 * entry of mcm_tr.types, described when it is first seen (its string and
 * size); only predefined types and MPI_DATATYPE_NULL get one, as their
 * handles are never freed, so an id stays true until MPI_Finalize (a
 * derived type is described by the call itself, MCM_TRACE_COLL). An op
 * is an entry of mcm_tr.ops (its string: a user op's is "user" whatever
 * its handle). The caches map a handle's bits to the id: direct-mapped,
 * lossy. */
typedef struct mcm_ttype {
    uint32_t str;            /* manycoll::datatype */
    uint32_t size;           /* bytes */
} mcm_ttype_t;
#define MCM_TR_TC_BITS 5
typedef struct mcm_tslot {
    uintptr_t k;             /* handle bits */
    uint32_t id;             /* 0: empty */
} mcm_tslot_t;

/* the last call of each blocking collective on the hot path: its types'
 * and op's handle bits and their ids, as mcm_traw_t has them from sdt to
 * pad2 (id[0] 0: none yet) */
typedef struct mcm_tmemo {
    uintptr_t sdt, rdt, op;
    uint16_t id[4];
} mcm_tmemo_t;

/* where this rank stands in a call: which of its sides MPI reads (a
 * type is looked at only there: elsewhere it may be anything) */
typedef struct mcm_twhere {
    int P, me, root, ip;
    int ssig, rsig; /* the send / receive side is significant here */
} mcm_twhere_t;

/* an outstanding request (trace_p2p.c) */
enum { MCM_Q_ISEND, MCM_Q_IRECV, MCM_Q_COLL };
typedef struct mcm_treq {
    struct mcm_treq *next; /* the next entry of the same handle */
    uint64_t id;       /* requestID (point to point) */
    int kind, persistent;
    uint32_t comm;
    mcm_tcoll_t c;     /* MCM_Q_COLL: what its end writes */
} mcm_treq_t;

typedef struct mcm_trace {
    OTF2_Archive *ar;
    OTF2_EvtWriter *ev;
    pthread_mutex_t lock;
    MPI_Comm comm;           /* private duplicate of MPI_COMM_WORLD */
    int rank, size;
    int64_t shift;           /* added to CLOCK_MONOTONIC: rank 0's clock */
    int tsc;                 /* ticks are the TSC's (else ns) */
    uint64_t tick0, ns0;     /* a tick and CLOCK_MONOTONIC's ns at it */
    double ns_per_tick;      /* (measured at MPI_Init and MPI_Finalize) */
    uint64_t first, last;    /* first and last times written (ns; set
                                as the log becomes events) */
    uint64_t nev;            /* events written (at finalize) */
    uint64_t regions[(MCM_R_COUNT + 63) / 64]; /* bit per region used
                                (set as the log becomes events) */
    uint32_t str_base;       /* id of the first event string */
    char **strs;             /* event strings, in order of their index */
    size_t nstr, capstr;
    mc_map_t str_ids;        /* hash of a string -> index + 1 */
    mcm_tcomm_t *comms;      /* every comm known here */
    size_t ncomm, capcomm;
    mc_map_t comm_of;        /* handle bits -> index into comms */
    uint32_t next_comm;      /* this rank's k of its next proposal */
    mc_map_t reqs;           /* handle bits -> its mcm_treq_t list (MPI
                                may give one handle to several requests
                                that are complete at once: Open MPI's
                                empty request for an immediate send),
                                oldest first */
    uint64_t next_req;
    OTF2_AttributeList *al;
    int mt;                  /* the MPI runs MPI_THREAD_MULTIPLE: events
                                are written under the lock; otherwise
                                there is no lock to take */
    uint32_t s_none;         /* the id of "" */
    uint32_t s_path[MCM_P_N]; /* the ids of the paths' names */
    mcm_tsc_t sc[1 << MCM_TR_SC_BITS];
    mcm_tslot_t tc[1 << MCM_TR_TC_BITS]; /* type cache (trace_raw.c) */
    mcm_tslot_t oc[1 << MCM_TR_TC_BITS]; /* op cache */
    mcm_tmemo_t memo[MC_COLL_COUNT]; /* each collective's last types */
    mcm_ttype_t *types;      /* type id - 1 -> its description */
    uint32_t *ops;           /* op id - 1 -> its string */
    size_t ntype, captype, nop, capop;
    mc_map_t raw_comm;       /* at finalize: comm id -> this rank's place
                                and the comm's size (trace_raw.c) */
    unsigned char *log;      /* the event log's buffer (trace_log.c) */
    size_t lused;            /* its bytes in use */
    int fd;                  /* its file */
    int log_err;             /* errno of a failed write: events lost */
} mcm_trace_t;

extern mcm_trace_t mcm_tr;

/* now, in ticks: the TSC where it counts at a constant rate, the same
 * on every core (the kernel's clocksource is tsc), else CLOCK_MONOTONIC
 * in ns. Reading the TSC costs a fraction of clock_gettime, and a
 * recorded call reads the clock twice; the log holds ticks, and
 * MPI_Finalize turns them into the archive's ns (mcm_tr_ns) */
static inline uint64_t mcm_tr_now(void)
{
    return mc_tick(mcm_tr.tsc); /* util/tick.h */
}
/* MPI_Finalize: measures the ticks' rate against CLOCK_MONOTONIC since
 * MPI_Init; then mcm_tr_ns turns a tick into the archive's time (ns) */
void mcm_tr_clock_end(void);
uint64_t mcm_tr_ns(uint64_t tick);
/* the id of an event string (interned); 0 if there is no memory */
uint32_t mcm_tr_str(const char *s);
/* the global id of comm (made known if a call we do not intercept made
 * it) */
uint32_t mcm_tr_comm_id(MPI_Comm comm);

/* the calls on comm kept by trace_coll.c, forgotten (MPI_Comm_free: the
 * handle may come back for another comm); caller holds the lock */
void mcm_trace_comm_forget(MPI_Comm comm);

/* the entry of a new request with handle h (zeroed, at the end of h's
 * list), or NULL if no memory; caller holds the lock */
mcm_treq_t *mcm_tr_req_add(MPI_Request h);
/* the oldest entry of handle bits k, or NULL */
mcm_treq_t *mcm_tr_req_find(uint64_t k);
/* removes the oldest entry of handle bits k */
void mcm_tr_req_drop(uint64_t k);

/* events: in time order, under mcm_tr.lock where other threads may
 * call MPI at the same time (mcm_tr.mt) */
static inline void mcm_tr_lock(void)
{
    if (mcm_tr.mt)
        pthread_mutex_lock(&mcm_tr.lock);
}

static inline void mcm_tr_unlock(void)
{
    if (mcm_tr.mt)
        pthread_mutex_unlock(&mcm_tr.lock);
}
/* the log (trace_log.c): opened in DIR at MPI_Init (0 or -1); its
 * buffer written to its file; at MPI_Finalize, every record into the
 * OTF2 event writer (0, or the errno that lost events) */
int mcm_tr_log_open(const char *dir);
void mcm_tr_log_spill(void);
int mcm_tr_log_write(void);

/* room for a record of n bytes (a multiple of 8) at the log's end: the
 * buffer is malloc's and every record's size a multiple of 8, so the
 * record is written in place, aligned */
static inline void *mcm_tr_log_put(size_t n)
{
    if (mcm_tr.lused + n > MCM_TR_LOG)
        mcm_tr_log_spill();
    void *p = mcm_tr.log + mcm_tr.lused;
    mcm_tr.lused += n;
    return p;
}

/* the record of one event but a collective's end */
static inline void mcm_tr_ev(uint32_t kind, uint64_t t, uint32_t peer,
                             uint32_t comm, uint32_t tag, uint64_t len,
                             uint64_t id)
{
    mcm_tev_t *e = mcm_tr_log_put(sizeof *e);
    *e = (mcm_tev_t){kind, peer, comm, tag, t, len, id};
}

static inline void mcm_tr_enter(int region, uint64_t t)
{
    mcm_tr_ev(MCM_E_ENTER, t, (uint32_t)region, 0, 0, 0, 0);
}

static inline void mcm_tr_leave(int region, uint64_t t)
{
    mcm_tr_ev(MCM_E_LEAVE, t, (uint32_t)region, 0, 0, 0, 0);
}

/* a raw record (MCM_E_RAW) as the collective it records, at MPI_Finalize
 * (trace_coll.c): what MCM_TRACE_COLL would have made of its call */
void mcm_tr_raw_coll(const mcm_traw_t *r, mcm_tcoll_t *c);
/* where this rank stood in comm id's call: me and P from the comm's
 * members (trace_raw.c; at MPI_Finalize); 0, or -1 if the comm is not
 * known */
int mcm_tr_raw_place(uint32_t id, int *me, int *P);
/* a type's string and size, an op's string, by their raw ids */
const mcm_ttype_t *mcm_tr_raw_type(unsigned id);
uint32_t mcm_tr_raw_op(unsigned id);
/* the string of a predefined type (the contract's short name, else
 * "bytes:EXTENT") and of an op ("" for MPI_OP_NULL) (trace_coll.c) */
uint32_t mcm_tr_dtype_str(MPI_Datatype dt);
uint32_t mcm_tr_op_str(MPI_Op op);
/* the tables of trace_raw.c, freed at finalize */
void mcm_tr_raw_free(void);

/* a blocking collective (MCM_E_COLL, t0 to t1) or a collective's end
 * (MCM_E_CEND at t1) */
static inline void mcm_tr_coll(uint32_t kind, uint64_t t0, uint64_t t1,
                               const mcm_tcoll_t *c)
{
    mcm_tevc_t *e = mcm_tr_log_put(sizeof *e);
    e->kind = kind;
    e->pad = 0;
    e->t0 = t0;
    e->t1 = t1;
    e->c = *c;
}

/* the world communicator: id 0, members 0..P-1; 0 or -1 (no memory) */
int mcm_tr_comm_world(void);
/* rank 0 at finalize: the distinct comms of every rank's words (id,
 * parent, kind, n, members, each), parents first, as pointers into
 * words (a new array, NULL if no memory); their number */
size_t mcm_tr_comm_order(const uint32_t *words, size_t n,
                         const uint32_t ***order);
/* then the group of all locations, and comm i of order as the archive's
 * comm i (group 1 + i); str gives a fixed string's id */
void mcm_tr_write_comms(OTF2_GlobalDefWriter *w, const uint32_t **order,
                        size_t k, uint32_t (*str)(void *, const char *),
                        void *u);

/* the archive's definitions at MPI_Finalize (trace_defs.c) */
void mcm_tr_write_defs(void);
/* the name of a region */
const char *mcm_tr_region_name(int r, char *buf, size_t len);
/* a region's OTF2 role */
OTF2_RegionRole mcm_tr_region_role(int r);

/* OTF2's collective callbacks over PMPI on mcm_tr.comm (trace_otf2.c) */
OTF2_ErrorCode mcm_tr_set_collectives(OTF2_Archive *ar);

#endif /* MC_MPI_TRACE_IMPL_H */
