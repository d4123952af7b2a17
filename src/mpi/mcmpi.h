/*
 * libmanycoll_mpi: the PMPI interposition library. One source, compiled
 * once per MPI ABI (Open MPI, MPICH, the MPI-5 standard ABI); nothing here
 * depends on which, except abi.h.
 *
 *   MPI_Allreduce(...)                         (the program's call)
 *     mcm_comm(comm)        cached state of this communicator: its path
 *     mcm_plan(s, coll, form, args)   where the call goes and why, the
 *                           same on every rank, counted (plan.c)
 *     flat: mc_allreduce(node)   one node: manycoll on the whole comm
 *     hier: mc_hier_allreduce    several: src/hier with the PMPI provider
 *     else: PMPI_Allreduce       everything manycoll does not take
 *
 * Per-communicator state is an MPI attribute (comm.c): created at the
 * first collective on the communicator (lazy), shared by its duplicates'
 * topology, released when the communicator is freed. A small cache keyed
 * by the handle finds it without a call into MPI.
 */
#ifndef MC_MPI_MCMPI_H
#define MC_MPI_MCMPI_H

#include <limits.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <mpi.h>

#include "hier/hier.h"
#include "manycoll.h"
#include "mpi/abi.h"
#include "mpi/trace.h"
#include "util/map.h"

#define MCM_API __attribute__((visibility("default")))

/* Where a communicator's collectives go. */
enum { MCM_PMPI = 0, MCM_FLAT = 1, MCM_HIER = 2 };

/* MC_MPI_HIER_AFTER's default: a hierarchy costs about a communicator
 * creation of the MPI's own (the slices' split, the node segment, two
 * collectives) and its pick 16 trial calls per size class before it
 * helps, so a communicator across nodes runs its first 127 collective
 * calls as MPI's own (docs/mpi.md, "Many communicators") */
#define MCM_HIER_AFTER 128

/* ---- configuration (init.c), read once ---- */
typedef struct mcm_config {
    int on;          /* MC_MPI (default 1) */
    int verbose;     /* MC_MPI_VERBOSE */
    int node_size;   /* MC_MPI_NODE_SIZE: k consecutive ranks per "node" */
    int hier;        /* MC_MPI_HIER (default 1): 0 = multi-node comms to MPI */
    int eager;       /* MC_MPI_EAGER: set up at communicator creation */
    int hier_after;  /* MC_MPI_HIER_AFTER: a communicator across nodes
                        builds its hierarchy at this collective call
                        (comm.c); 1: at the first */
    mc_hier_params_t par; /* MC_MPI_SEGMENT, MC_MPI_ML_MIN, MC_MPI_NB */
    unsigned char pick[MC_COLL_COUNT]; /* MC_MPI_HIER_PICK: MCM_PICK_* */
    int pick_skew;   /* MC_MPI_HIER_PICK_SKEW (a test hook): a rank, or -1 */
    int pick_sig;    /* both, as one number the ranks compare (topo.c) */
} mcm_config_t;
extern mcm_config_t mcm_cfg;

/* ---- the topology of a communicator, shared with its duplicates ---- */
typedef struct mcm_topo {
    atomic_int refs;
    int path;              /* MCM_PMPI, MCM_FLAT, MCM_HIER */
    const char *why;       /* for MCM_PMPI: the reason */
    int rank, size, local, ppn, nodeid, nnodes, uniform, block, node_n;
    int multi;             /* a rank runs MPI_THREAD_MULTIPLE */
    int *node_of, *local_of; /* [size], NULL when uniform and block */
    uint64_t node_sig;     /* my node's processes in order, hashed; 0:
                              not known (park.c) */
    uint64_t comm_sig;     /* all of comm's processes in order, hashed; 0:
                              not known (park.c: the slices) */
} mcm_topo_t;

/* the nodes of comm and this rank's place in them (topo.c), shared by the
 * communicators with the same group; released with mcm_topo_put */
int mcm_topo_compute(MPI_Comm comm, mcm_topo_t **out);
void mcm_topo_put(mcm_topo_t *t);
/* the world's table of nodes and settings, collectively at MPI_Init, from
 * which mcm_topo_compute sets up communicators of world ranks without
 * communicating; _free at MPI_Finalize; _from_world: how many were */
void mcm_topo_world(void);
void mcm_topo_world_free(void);
long mcm_topo_from_world(void);

/* the forms of a collective, counted apart (MPI_Allreduce,
 * MPI_Iallreduce, MPI_Allreduce_init) */
typedef enum {
    MCM_BLOCKING = 0,
    MCM_NONBLOCKING,
    MCM_PERSISTENT,
    MCM_FORMS
} mcm_form_t;

/* per collective and form: calls by the path the plan gave them, and the
 * reason of the last one that went to MPI */
typedef struct mcm_stat {
    long n[3]; /* [MCM_PMPI], [MCM_FLAT], [MCM_HIER] */
    const char *why;
} mcm_stat_t;

/* ---- the choice across nodes: hierarchy or MPI (pick.c) ---- */
enum { MCM_PICK_MEASURE = 0, MCM_PICK_HIER = 1, MCM_PICK_MPI = 2 };
#define MCM_PICK_COLLS 9   /* the collectives with a hierarchical form */
#define MCM_PICK_CLASSES 8 /* sizes: <= 64 B, then up by 8x, > 16 MiB */
#define MCM_PICK_REPS 7    /* timed trial calls per side, after a warm-up */

/* a (collective, size class) of a communicator spanning nodes: its trial
 * calls so far, then the path all ranks chose */
typedef struct mcm_pick_slot {
    unsigned char n;       /* trial calls planned */
    unsigned char got[2];  /* calls timed: [0] the hierarchy, [1] MPI */
    unsigned char state;   /* 0: in trial; MCM_PICK_HIER; MCM_PICK_MPI */
    unsigned char side;    /* the trial call under way: 0 the hierarchy,
                              1 MPI; 2 | side: a warm-up, not timed */
    double t0;             /* when it started */
    float t[2][MCM_PICK_REPS]; /* this rank's times, seconds */
    float med[2];          /* decided: the slowest rank's median per side */
} mcm_pick_slot_t;
/* a node communicator's name: the job name and ".n<node>" */
#define MCM_NODE_NAME_MAX (MC_JOB_NAME_MAX + 16)

typedef struct mcm_comm {
    uintptr_t key;          /* the handle's bits (0: not known yet) */
    MPI_Comm comm;
    int path;               /* copy of topo->path, or MCM_PMPI */
    unsigned fast;          /* bit per mc_coll_t: the plan of its blocking
                               form is flat for any valid call with a
                               predefined type (and builtin op); set by
                               mcm_plan_setup, read by the fast paths */
    int ready;              /* node communicator and slices built */
    int defer;              /* across nodes, not built yet: the call of
                               one collective that builds it
                               (MC_MPI_HIER_AFTER; plan.c, comm.c) */
    mc_comm_t *node;        /* flat: the whole comm; hier: my node */
    uint8_t to_mpi[MC_COLL_COUNT]; /* across nodes, per mc_coll_t: bit k,
                               the pick sent size class k of its blocking
                               form to MPI (pick.c; mcm_routed) */
    uint32_t tr_comm;       /* MC_MPI_TRACE: the comm's global id, where */
    int tr_known;           /* tr_known (trace_raw.c) */
    int in_use;             /* (the pool recycles states) */
    int has_slice;          /* slice is a communicator of ours */
    int sliced;             /* slice (or its absence) taken back with a
                               parked node communicator (park.c) */
    char node_name[MCM_NODE_NAME_MAX]; /* its name (park.c) */
    mc_hier_t hier;
    MPI_Comm slice;         /* hier: my slice (MPI_COMM_NULL if none) */
    MPI_Request req[MC_HIER_MAX_INFLIGHT];
    mcm_topo_t *topo;
    MPI_Group group;        /* a copy's parent group, until first seen
                               (MPI_GROUP_NULL otherwise) */
    void *scratch[2];       /* packing of non-contiguous datatypes */
    size_t scratch_len[2];
    size_t *v;              /* the v-variants' counts and displacements
                               in bytes: 4 x size entries (stage_v.c) */
    int defer_n[MC_COLL_COUNT]; /* calls per collective while deferred */
    mcm_stat_t stat[MC_COLL_COUNT][MCM_FORMS];
    mcm_pick_slot_t pick[MCM_PICK_COLLS][MCM_PICK_CLASSES]; /* hier only */
    struct mcm_comm *next;  /* live list or free list */
} mcm_comm_t;

/* ---- the handle cache ----
 * Direct-mapped and lossy: a slot holds the last state put there, and a
 * miss asks MPI (mcm_comm_slow). Not a map (util/map.h): it never grows,
 * never probes, forgets on a collision, and is read without a lock while
 * other threads replace slots (comm.c). */
#define MCM_CACHE_BITS 6
extern _Atomic(mcm_comm_t *) mcm_cache[1 << MCM_CACHE_BITS];

static inline uintptr_t mcm_key(const void *handle, size_t len)
{
    uintptr_t k = 0;
    memcpy(&k, handle, len < sizeof k ? len : sizeof k);
    return k;
}

/* the slot of k in a table of 2^bits: the project's one hash */
static inline unsigned mcm_slot(uintptr_t k, int bits)
{
    return (unsigned)mc_map_hash(k, 64 - bits);
}

mcm_comm_t *mcm_comm_slow(MPI_Comm comm);

/* The state of comm if its collectives may go to manycoll, else NULL
 * (interposition off, MPI_COMM_NULL, ...). Never calls MPI on a hit. */
static inline mcm_comm_t *mcm_comm(MPI_Comm comm)
{
    uintptr_t k = mcm_key(&comm, sizeof comm);
    mcm_comm_t *s = atomic_load_explicit(
        &mcm_cache[mcm_slot(k, MCM_CACHE_BITS)], memory_order_acquire);
    if (s && s->key == k && s->ready)
        return s;
    return mcm_comm_slow(comm);
}

/* ---- datatypes and ops (types.c) ---- */
/* What manycoll takes of a predefined datatype; the maps below are keyed
 * by a handle's bits (mcm_key), filled once by mcm_types_init (at
 * MPI_Init, under its lock) and only read after that, by any thread. */
typedef struct mcm_type {
    int8_t mc;       /* mc dtype for builtin ops, -1 if none */
    int8_t umc;      /* mc dtype for user ops (by size), -1 if none */
    uint16_t ops;    /* builtin mc ops MPI allows on it: bit per mc_op_t */
    uint32_t size;
    MPI_Datatype dt;
} mcm_type_t;

extern mc_map_t mcm_types; /* handle -> mcm_type_t */

/* The predefined type dt, or NULL (derived, or not one manycoll knows). */
static inline const mcm_type_t *mcm_type(MPI_Datatype dt)
{
    return mc_map_get(&mcm_types, mcm_key(&dt, sizeof dt));
}

typedef struct mcm_op {
    int8_t mc;       /* builtin mc op, -1 if none (MPI_MAXLOC, ...) */
    MPI_Op op;
} mcm_op_t;

extern mc_map_t mcm_ops; /* handle -> mcm_op_t */

/* the mc op of a builtin MPI op, or -1 */
static inline int mcm_builtin_op(MPI_Op op)
{
    const mcm_op_t *o = mc_map_get(&mcm_ops, mcm_key(&op, sizeof op));
    return o ? o->mc : -1;
}

void mcm_types_init(void);

/* A reduction's dtype and op for manycoll: 0 and the mc values (a user
 * op of a known commutativity becomes a trampoline, with the MPI function
 * in the thread's context), or -1 with *why set. */
typedef struct mcm_red {
    mc_dtype_t dt;
    mc_op_t op;
    int commutative;
    int user;        /* a user op (through the trampoline) */
} mcm_red_t;
int mcm_reduction(MPI_Datatype dt, MPI_Op op, mcm_red_t *r, const char **why);

/* The thread's current MPI datatype and op, for user-op trampolines and
 * the PMPI provider's reductions. */
typedef struct mcm_ctx {
    MPI_Datatype dt;
    MPI_Op op;
    MPI_User_function *fn;
} mcm_ctx_t;
extern _Thread_local mcm_ctx_t mcm_ctx;

/* ---- the layout of any datatype, for data movement (stage.c) ---- */
typedef struct mcm_buf {
    void *user;             /* the caller's buffer */
    int count;
    MPI_Datatype dt;
    size_t bytes;           /* count * size */
    char *p;                /* contiguous bytes: in the user's buffer or
                               the scratch */
    int packed;             /* p is scratch; unpack output afterwards */
    int owned;              /* p was allocated for this buffer (slot -1) */
} mcm_buf_t;

/* bytes per element of any datatype (its type signature's size), or -1 */
long long mcm_type_size(MPI_Datatype dt);
/* Sets b->p to count elements of dt at buf as contiguous bytes: in place
 * for contiguous layouts, else packed into scratch slot `slot` (0 or 1) if
 * `input`; MPI_SUCCESS or an MPI error code. */
int mcm_stage(mcm_comm_t *s, mcm_buf_t *b, void *buf, int count,
              MPI_Datatype dt, int input, int slot);
/* Packs a staged input again (a persistent call's start). */
int mcm_repack(mcm_comm_t *s, mcm_buf_t *b);
/* Frees an owned staging buffer (slot -1). */
void mcm_buf_free(mcm_buf_t *b);
/* n bytes of the state's scratch slot (0 or 1), or NULL */
void *mcm_scratch(mcm_comm_t *s, size_t n, int slot);
/* a freed state's scratch: kept (the larger per slot) for the next state
 * that needs one; _drain frees what is kept (MPI_Finalize) */
void mcm_scratch_release(mcm_comm_t *s);
void mcm_scratch_drain(void);
/* Unpacks a staged output (no-op when it was in place). */
int mcm_unstage(mcm_comm_t *s, mcm_buf_t *b);

/* Offset of the data if count elements of dt are one contiguous run of
 * bytes (size bytes per element), else -1. */
MPI_Aint mcm_contiguous_at(MPI_Datatype dt, int count, long long size);

/* ---- the v-variants' blocks (stage_v.c) ---- */
/* n blocks of cnt[i] elements of dt at user + dsp[i] * extent, for
 * manycoll: bytes from p, block i bc[i] bytes at p + bd[i] */
typedef struct mcm_vbuf {
    char *user;
    const int *cnt, *dsp;
    MPI_Datatype dt;
    int n, packed;
    MPI_Aint extent;
    size_t *bc, *bd;
    char *p;
} mcm_vbuf_t;

enum { MCM_V_OUT = -2, MCM_V_ALL = -1 }; /* mcm_vstage's `input` */

/* 4 x size entries for the byte counts and displacements, or NULL */
size_t *mcm_varrays(mcm_comm_t *s);
/* Stages a side: in the user's buffer if dt is contiguous, else packed
 * into scratch slot `slot`, packing every block (MCM_V_ALL), block
 * `input` only (>= 0), or none (MCM_V_OUT). `arrays`: 2 x size entries.
 * MPI_SUCCESS or an MPI error code. */
int mcm_vstage(mcm_comm_t *s, mcm_vbuf_t *v, void *buf, const int *cnt,
               const int *dsp, MPI_Datatype dt, int input, int slot,
               size_t *arrays);
/* Packs the blocks `input` selects (as mcm_vstage) of a packed side. */
int mcm_vpack(mcm_comm_t *s, const mcm_vbuf_t *v, int input);
/* Unpacks an output side's blocks (no-op when it was in place). */
int mcm_vunstage(mcm_comm_t *s, const mcm_vbuf_t *v);

/* ---- the plan (plan.c) ---- */
/* The arguments of a call that its plan reads (those a collective does
 * not have stay 0): all of them MPI requires to agree between the ranks,
 * or reads only where they are significant (plan.c's table). */
typedef struct mcm_call {
    const void *sbuf, *rbuf;       /* for MPI_IN_PLACE */
    int root;                      /* rooted collectives */
    int count;                     /* bcast and the reductions */
    int scount, rcount;            /* a side of one count */
    const int *scounts, *rcounts;  /* a side of P counts */
    const int *sdispls, *rdispls;
    MPI_Datatype dt;               /* reductions, bcast; data movement:
                                      the send side's type */
    MPI_Op op;
    MPI_Datatype rdt;              /* data movement: the receive side's */
} mcm_call_t;

/* where a call goes: the path, why it goes to MPI, and what the plan
 * learnt on the way that the call needs */
typedef struct mcm_plan {
    int path;         /* MCM_PMPI, MCM_FLAT, MCM_HIER */
    const char *why;  /* MCM_PMPI: the reason */
    int root;         /* this rank is the root (rooted collectives) */
    int ip;           /* MPI_IN_PLACE where the collective has it, here */
    mcm_red_t red;    /* reductions taken: manycoll's dtype and op */
    mcm_pick_slot_t *trial; /* a trial call of the pick (pick.c): timed */
} mcm_plan_t;

/* The plan of a call of collective coll in form f on s (NULL: MPI, not
 * counted), computed alike on every rank, and counted in s->stat:
 * returns p->path. */
int mcm_plan(mcm_comm_t *s, mc_coll_t coll, mcm_form_t f,
             const mcm_call_t *a, mcm_plan_t *p);
/* Sets s->fast from the plan, once s->path is known (comm.c). */
void mcm_plan_setup(mcm_comm_t *s);

/* The pick (pick.c), the plan's last step for a call the steps gave the
 * hierarchy: NULL (the hierarchy) or why it goes to MPI. MC_MPI_HIER_PICK
 * forces a side; otherwise the first calls of each (collective, size
 * class) alternate between the sides and are timed, and then one
 * PMPI_Allreduce of the slowest rank's medians decides for every rank. */
const char *mcm_pick(mcm_comm_t *s, mc_coll_t coll, const mcm_call_t *a,
                     mcm_plan_t *p);
/* times a trial call (mcm_picked) */
void mcm_pick_time(mcm_plan_t *p);
/* After a call of the hierarchy's blocking collectives, with its MPI
 * return code: a trial call is timed; returns rc. */
static inline int mcm_picked(mcm_plan_t *p, int rc)
{
    if (p->trial)
        mcm_pick_time(p);
    return rc;
}
/* the pick's size class of a call of `bytes` bytes (pick.c's header):
 * <= 64 B is 0, then one more per 8x, at most MCM_PICK_CLASSES - 1 */
static inline int mcm_size_class(long long bytes)
{
    int c = 0;
    for (long long lim = 64; bytes > lim && c < MCM_PICK_CLASSES - 1;
         lim <<= 3)
        c++;
    return c;
}
/* MC_MPI_HIER_PICK and MC_MPI_HIER_PICK_SKEW into mcm_cfg (either may be
 * NULL); -1 if one is not valid, with *bad the variable's name */
int mcm_pick_config(const char *pick, const char *skew, const char **bad);
/* the report's line of coll's choices at line + n (report.c); new n */
int mcm_pick_report(const mcm_comm_t *s, int coll, char *line, int n,
                    size_t len);

/* Counts a call; every call is counted here, with its plan's path. */
static inline void mcm_count(mcm_comm_t *s, int coll, int form, int path,
                             const char *why)
{
    mcm_stat_t *x = &s->stat[coll][form];
    x->n[path]++;
    if (path == MCM_PMPI)
        x->why = why;
}

/* why a call the pick sent to MPI went there, by mcm_cfg.pick's mode */
extern const char *const mcm_pick_why[3];
/* The pick's answer without the plan, for a valid blocking call of coll
 * of `bytes` bytes (the pick's bytes: pick.c's call_bytes) on a
 * communicator across nodes, which the plan would give the hierarchy but
 * for the pick: 1 if the pick sent its class to MPI (the call counted
 * there), else 0 (ask the plan). A reduction's caller first checks that
 * it is not one the MPI gets wrong, which the pick never sends. */
static inline int mcm_routed(mcm_comm_t *s, int coll, long long bytes)
{
    unsigned m = s->to_mpi[coll];
    if (__builtin_expect(!m, 1) || !(m >> mcm_size_class(bytes) & 1))
        return 0;
    mcm_count(s, coll, MCM_BLOCKING, MCM_PMPI,
              mcm_pick_why[mcm_cfg.pick[coll]]);
    return 1;
}

/* 1 if an MPI library is known to get this reduction wrong (provider.c:
 * between nodes it then runs manycoll's kernel as a user op) */
int mcm_mpi_op_wrong(mc_dtype_t dt, mc_op_t op);
/* The op to hand the MPI with a reduction it runs whole (every call the
 * plan sends to MPI: deferred, no hierarchical form, the pick's, ...): op,
 * or, where the MPI gets (dt, op) wrong, manycoll's kernel as the same
 * user op the hierarchy's phase between nodes uses, so that a call left
 * to MPI gives what a call manycoll takes gives. MC_MPI=0: op. */
MPI_Op mcm_right_op(MPI_Datatype dt, MPI_Op op);

/* The plan's steps 5 and 6 inline for a reduction of a predefined type:
 * 1 if count is valid, dt predefined (*t: its entry) and op a builtin op
 * (*o: the mc op) that MPI defines on it; 0: ask mcm_plan */
static inline int mcm_builtin_red(int count, MPI_Datatype dt, MPI_Op op,
                                  const mcm_type_t **t, int *o)
{
    return count >= 0 && (*t = mcm_type(dt)) &&
           (*o = mcm_builtin_op(op)) >= 0 && ((*t)->ops >> *o & 1);
}

/* The fast paths' plan of a blocking reduction (coll_reduce.c): 1 when
 * the plan is flat and known without mcm_plan, because s->fast says the
 * communicator's plan is flat for a predefined type and a builtin op and
 * the call has a valid count and such a type and op (*t and *o: the
 * type's entry and the mc op); 0: ask mcm_plan. */
static inline int mcm_plan_fast_red(const mcm_comm_t *s, int coll, int count,
                                    MPI_Datatype dt, MPI_Op op,
                                    const mcm_type_t **t, int *o)
{
    return s && (s->fast >> coll & 1) && mcm_builtin_red(count, dt, op, t, o);
}

/* P blocks of n elements, usable: the plan's count step (plan.c) */
static inline int mcm_blocks_ok(int n, int P)
{
    return n >= 0 && (long long)n * P <= INT_MAX;
}

/* mcm_routed for a blocking reduction of count elements of dt (the plan's
 * steps 5 and 6 inline: a valid count, a predefined type, a builtin op MPI
 * defines on it that the MPI gets right); the caller checks the root */
static inline int mcm_red_routed(mcm_comm_t *s, int coll, int count,
                                 MPI_Datatype dt, MPI_Op op)
{
    const mcm_type_t *t;
    int o;
    return s && s->to_mpi[coll] && mcm_builtin_red(count, dt, op, &t, &o) &&
           !mcm_mpi_op_wrong((mc_dtype_t)t->mc, (mc_op_t)o) &&
           mcm_routed(s, coll, (long long)count * t->size);
}


/* A form's name, "allreduce", "iallreduce", "allreduce_init" (the
 * MC_MPI_VERBOSE report's and mc_mpi_query's), into buf */
const char *mcm_form_name(int coll, int form, char *buf, size_t len);
/* The collective (*coll) and form (*form; -1: the plain name, which
 * stands for every form) that name names; -1 if none. */
int mcm_form_lookup(const char *name, int *coll, int *form);

/* ---- non-blocking and persistent calls (nbreq.c, complete.c) ----
 * A call manycoll takes gets a generalized MPI request as its handle, so
 * that the program (and any MPI call not interposed) holds a real one;
 * the interposed completion calls find the record by the handle. */
typedef struct mcm_nb {
    uintptr_t key;          /* the handle's bits */
    MPI_Request h;
    mc_request_t *r;
    mcm_comm_t *s;
    const char *fn;         /* "MPI_Iallreduce", for errors */
    int persistent, active, done, err;
    int out_in;             /* out is read too (in place): packed at start */
    mcm_buf_t in, out;      /* staged (packed) input and output */
    mcm_vbuf_t vin, vout;   /* the v-variants' sides (packed: owned) */
    int vin_pack, vout_pack; /* what each start packs (mcm_vstage's input) */
    size_t *v;              /* their byte counts and displacements */
    char msg[200];          /* err's message, kept until the wait */
    struct mcm_nb *next;
} mcm_nb_t;

extern int mcm_nb_live; /* active records */

/* a record for a call on s, or NULL (no memory) */
mcm_nb_t *mcm_nb_new(mcm_comm_t *s, const char *fn, int persistent);
/* After mc_i<coll> / mc_<coll>_init returned rc into x->r: the handle in
 * *req (MPI_SUCCESS), or the error through the error handler */
int mcm_nb_started(mcm_nb_t *x, int rc, MPI_Request *req);
/* frees a record that never started (and its staging) */
void mcm_nb_drop(mcm_nb_t *x);
/* the record of a handle, or NULL */
mcm_nb_t *mcm_nb_find(MPI_Request h);
/* Tests x (done: *flag = 1, status set, a non-persistent record freed and
 * *hp set to MPI_REQUEST_NULL); MPI_SUCCESS or an MPI error code. */
int mcm_nb_test(mcm_nb_t *x, MPI_Request *hp, int *flag, MPI_Status *st);
/* 1 if x is inactive or its call is done (one mc_test if not known) */
int mcm_nb_poll(mcm_nb_t *x);
/* waits for x as mcm_nb_test completes it */
int mcm_nb_wait(mcm_nb_t *x, MPI_Request *hp, MPI_Status *st);
/* MPI_Wait: ours by manycoll; MPI's polled with ours while any is
 * active (complete.c) */
int mcm_wait_req(MPI_Request *req, MPI_Status *st);
/* advances MPI (a probe) and every active record (each one's mc_test):
 * every wait loop calls it, so that neither library's requests starve */
void mcm_nb_progress(void);
/* advances the MPI library's own requests (a test of a private request
 * that is never complete); _begin makes every wait inside manycoll call
 * it (mc_set_progress, at initialisation); _end stops that and frees the
 * request (MPI_Finalize) */
void mcm_mpi_progress(void);
void mcm_mpi_progress_begin(void);
void mcm_mpi_progress_end(void);
/* starts a persistent record; frees one (inactive) */
int mcm_nb_start(mcm_nb_t *x);
int mcm_nb_free(mcm_nb_t *x, MPI_Request *hp);

/* what the wrappers' helpers return when the plan gives the call to MPI
 * (the caller then calls its PMPI twin) */
#define MCM_NOT_TAKEN (-0x4d43)
/* The plan of a non-blocking (pers 0) or persistent (1) call: MCM_NOT_TAKEN
 * (MPI's), or manycoll's with *x its record: MPI_SUCCESS, or the error
 * handler's code if there is no memory for one (an error, not a fallback
 * to MPI, which this rank alone would take while its peers wait) */
int mcm_nb_take(mcm_comm_t *s, mc_coll_t coll, const char *fn, int pers,
                const mcm_call_t *a, mcm_plan_t *p, mcm_nb_t **x);

/* ---- parked node communicators, for the next communicator of the same
 * processes (park.c) ---- */
/* where a node communicator is: its name, this rank's place (local of
 * n) and its processes (sig: mcm_topo_t's node_sig) */
typedef struct mcm_place {
    int local, n, nodeid;
    uint64_t sig;
    uint64_t comm_sig; /* the whole communicator's (mcm_topo_t) */
} mcm_place_t;
/* what the hierarchy splits off a communicator spanning nodes: this
 * rank's slice (MPI_COMM_NULL where it has none); kept = 1 if it was */
typedef struct mcm_slice {
    MPI_Comm comm;
    int kept;
} mcm_slice_t;
/* keeps node communicator c, named name, at place p, with the slice of
 * the communicator it served (kept = 0: none) */
void mcm_park(const char *name, const mcm_place_t *p, mc_comm_t *c,
              mcm_slice_t slice);
/* takes the newest parked communicator at place p (of the same processes
 * where both know them) if it was node p->nodeid's of its job (the job's
 * name into job), or NULL; its slice into *slice if the communicator it
 * served had the same processes in the same order (p->comm_sig), else
 * frees it */
mc_comm_t *mcm_unpark(const mcm_place_t *p, char *job, size_t len,
                      mcm_slice_t *slice);
/* counts a node communicator made (0) or reused (1) */
void mcm_park_count(int was_reused);
/* counts slices reused from the parked ones */
void mcm_park_count_slices(void);
/* frees every parked communicator (MPI_Finalize) */
void mcm_park_drain(void);

/* ---- communicators (comm.c) ---- */
int mcm_setup(MPI_Comm comm, mcm_comm_t **out);
/* a communicator whose hierarchy was deferred (s->defer), at the call
 * that builds it: every rank at the same call (comm.c) */
void mcm_build_deferred(mcm_comm_t *s);
int mcm_comm_init(void);
/* comm's state if it has one already (for queries: never sets one up) */
const mcm_comm_t *mcm_comm_peek(MPI_Comm comm);
void mcm_release_all(void);

/* ---- results (report.c) ---- */
/* Turns a manycoll failure into the communicator's error handler call
 * with a message naming the rank and the cause; returns the MPI code. */
int mcm_fail(mcm_comm_t *s, const char *fn, int rc, const char *detail);
void mcm_report(const mcm_comm_t *s);

/* ---- the PMPI provider (provider.c) ---- */
extern const mc_hier_provider_t mcm_provider;

/* init.c */
void mcm_lazy_init(void);
extern atomic_int mcm_inited;

#endif /* MC_MPI_MCMPI_H */
