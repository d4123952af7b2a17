/*
 * The recording's own state, shared by trace_*.c (trace.h says what each
 * does). One archive writer per rank; everything here is the rank's.
 *
 * Ids in the archive:
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

#include <otf2/otf2.h>

#include "mpi/mcmpi.h"
#include "mpi/trace.h"
#include "util/map.h"

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
    uint64_t first, last;    /* first and last timestamps written */
    uint64_t nev;            /* events written (at finalize) */
    uint64_t regions[(MCM_R_COUNT + 63) / 64]; /* bit per region used */
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
} mcm_trace_t;

extern mcm_trace_t mcm_tr;

/* now, in the archive's clock (ns) */
uint64_t mcm_tr_now(void);
/* the id of an event string (interned); 0 if there is no memory */
uint32_t mcm_tr_str(const char *s);
/* the global id of comm (made known if a call we do not intercept made
 * it) */
uint32_t mcm_tr_comm_id(MPI_Comm comm);

/* the entry of a new request with handle h (zeroed, at the end of h's
 * list), or NULL if no memory; caller holds the lock */
mcm_treq_t *mcm_tr_req_add(MPI_Request h);
/* the oldest entry of handle bits k, or NULL */
mcm_treq_t *mcm_tr_req_find(uint64_t k);
/* removes the oldest entry of handle bits k */
void mcm_tr_req_drop(uint64_t k);

/* events: under mcm_tr.lock, in time order */
void mcm_tr_lock(void);
void mcm_tr_unlock(void);
void mcm_tr_enter(int region, uint64_t t);
void mcm_tr_leave(int region, uint64_t t);
/* MpiCollectiveEnd of c with its attributes at t */
void mcm_tr_coll_end(const mcm_tcoll_t *c, uint64_t t);

/* the world communicator: id 0, members 0..P-1; 0 or -1 (no memory) */
int mcm_tr_comm_world(void);
/* rank 0 at finalize: the group of all locations, then a group and a
 * Comm per distinct comm of every rank's words (id, parent, kind, n,
 * members), parents first; str gives a fixed string's id */
void mcm_tr_write_comms(OTF2_GlobalDefWriter *w, const uint32_t *words,
                        size_t n, uint32_t (*str)(void *, const char *),
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
