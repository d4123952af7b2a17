/*
 * manycoll — collective communication for many-core chips.
 *
 * Public C API. Every function returns a status: MC_OK (0) on success or a
 * negative MC_ERR_* code (mc_comm_rank and mc_comm_size return the rank
 * or size instead); after an error, mc_last_error() gives a message
 * naming the bad argument or the failed peer.
 *
 * Collectives are blocking and follow MPI semantics: every rank of the
 * communicator calls the same collectives in the same order, with
 * matching count, datatype, op and root. `count` is in elements. A call
 * returns when this rank's part is done: its output is complete and its
 * input buffers may be reused; other ranks may still be in the call.
 * A call with count 0 returns at once on every rank, without
 * communicating. Buffers that a collective does not read on a rank (the
 * receive buffer of reduce and gather away from the root, the send buffer
 * of scatter away from the root) are ignored there and may be NULL.
 *
 * Errors. An argument error (MC_ERR_ARG) is found before anything is
 * sent. On a communicator of one rank it leaves the communicator usable.
 * With peers, they are waiting for this rank in the same call: their call
 * fails within a second with the same status and a message naming this
 * rank and its error, and the communicator is unusable on every rank. A
 * call that fails while communicating (a dead peer, a timeout) likewise
 * leaves the communicator unusable: every later collective on it fails
 * with the same status.
 *
 * Threads. mc_init, mc_finalize, mc_comm_create_shm, mc_comm_split and
 * mc_comm_free are not meant to race with each other or with calls on
 * the communicators they create or free. Calls on one communicator must
 * not overlap (use one communicator per thread, e.g. from mc_comm_split);
 * calls on different communicators share no state but read-only tables,
 * so different threads may use different communicators at once.
 * mc_last_error() is per thread. mc_op_create and mc_op_free may be
 * called from any thread.
 */
#ifndef MANYCOLL_H
#define MANYCOLL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this header; mc_version() gives the library's. */
#define MANYCOLL_VERSION_MAJOR 0
#define MANYCOLL_VERSION_MINOR 1
#define MANYCOLL_VERSION_PATCH 0
#define MANYCOLL_VERSION                                                     \
    (MANYCOLL_VERSION_MAJOR * 10000 + MANYCOLL_VERSION_MINOR * 100 +         \
     MANYCOLL_VERSION_PATCH)

/* what the shared library exports (everything else is hidden) */
#if defined(__GNUC__)
#define MC_API __attribute__((visibility("default")))
#else
#define MC_API
#endif

typedef struct mc_comm mc_comm_t;

/* Status codes. */
enum {
    MC_OK = 0,
    MC_ERR_ARG = -1,         /* an argument is invalid (also an op that is
                                not defined on the datatype, such as a
                                bitwise op on floats); the message names it */
    MC_ERR_NOMEM = -2,       /* out of memory */
    MC_ERR_TIMEOUT = -3,     /* a wait exceeded MC_TIMEOUT */
    MC_ERR_PEER_DEAD = -4,   /* a peer process exited or crashed */
    MC_ERR_UNSUPPORTED = -5, /* valid, but not supported here (e.g. a
                                simulated platform the simulator cannot run) */
    MC_ERR_SYS = -6,         /* a system call failed; the message says which */
    MC_ERR_INTERNAL = -7     /* a bug in manycoll */
};

/* A fixed name of a status ("invalid argument"). */
MC_API const char *mc_strerror(int status);
/* The message of this thread's last error; valid until its next error. */
MC_API const char *mc_last_error(void);

/* The library's version, as MANYCOLL_VERSION (major * 10000 + minor * 100
 * + patch): compare it with the header's to detect a mismatch. */
MC_API int mc_version(void);

/* Datatypes. Integers are two's complement and wrap on overflow.
 *
 * MC_FLOAT16 (IEEE 754 binary16) and MC_BFLOAT16 (the upper half of a
 * binary32) are stored as uint16_t. A SUM or PROD of them keeps its
 * partial results in float32 (every collective that reduces, in every
 * form) and rounds once to 16 bits at the end (to nearest, ties to even):
 * a SUM over p ranks is within u * sum(|x_i|) of the exact sum, plus
 * float32's own (p - 1) * 2^-24 * sum(|x_i|), u = 2^-11 for float16 and
 * 2^-8 for bfloat16 (the once-rounded exact sum whenever float32 holds the
 * partial sums exactly, as for 256 + 1 + 1 = 258 in bfloat16). A PROD's
 * relative error is at most u plus float32's (1 + 2^-24)^(p - 1) - 1; MIN
 * and MAX are exact. The same holds through the hierarchy across chips
 * (src/hier); user ops see 16-bit elements.
 * MC_COMPLEX64 and MC_COMPLEX128 are C's float complex and double complex
 * ({re, im}); they take SUM and PROD, the product by the textbook formula
 * (no special handling of infinities, as Fortran's).
 * The pair types, for MC_MINLOC and MC_MAXLOC only, are laid out as MPI's:
 * MC_FLOAT_INT struct { float v; int i; }, MC_DOUBLE_INT struct { double v;
 * int i; } (16 bytes), MC_2INT struct { int v; int i; }, MC_LONG_INT
 * struct { long v; int i; } (16 bytes on LP64). MINLOC keeps the smaller
 * value, MAXLOC the larger; on equal values both keep the smaller index. */
typedef enum {
    MC_INT8 = 0,
    MC_INT16,
    MC_INT32,
    MC_INT64,
    MC_UINT8,
    MC_UINT16,
    MC_UINT32,
    MC_UINT64,
    MC_FLOAT32,
    MC_FLOAT64,
    MC_FLOAT16,
    MC_BFLOAT16,
    MC_COMPLEX64,
    MC_COMPLEX128,
    MC_FLOAT_INT,
    MC_DOUBLE_INT,
    MC_2INT,
    MC_LONG_INT,
    MC_DTYPE_COUNT
} mc_dtype_t;

/* Reduction operations. Values >= MC_OP_USER_BASE come from mc_op_create. */
typedef enum {
    MC_SUM = 0,
    MC_PROD,
    MC_MIN,
    MC_MAX,
    MC_BAND,
    MC_BOR,
    MC_BXOR,
    MC_LAND,
    MC_LOR,
    MC_MINLOC, /* pair types only: (value, index), as MPI_MINLOC */
    MC_MAXLOC,
    MC_OP_BUILTIN_COUNT,
    MC_OP_USER_BASE = 64
} mc_op_t;

/* Size in bytes of one element of dt, or 0 if dt is invalid. */
MC_API size_t mc_dtype_size(mc_dtype_t dt);

/* User-defined op, MPI style: inout[i] = in[i] op inout[i], where `in` holds
 * the contribution of the lower ranks. Non-commutative ops are reduced in
 * rank order. At most 64 user ops per process; an op is the same number
 * on every rank only if the ranks create their ops in the same order.
 * mc_op_free must not race with a collective that uses the op. */
typedef void (*mc_user_fn)(const void *in, void *inout, size_t count,
                           mc_dtype_t dt);
MC_API int mc_op_create(mc_user_fn fn, int commutative, mc_op_t *op);
MC_API int mc_op_free(mc_op_t *op);

/* Communicators. */

/* The communicator of every rank of the job that `manycoll run` started
 * (MC_JOB, MC_RANK, MC_SIZE in the environment); run any other way, a
 * communicator of this process alone. Collective over the job. A second
 * call gives the same communicator. */
MC_API int mc_init(mc_comm_t **world);
/* Frees every communicator of this process, the world included. */
MC_API int mc_finalize(void);
/* The communicator of `size` processes started by another launcher that
 * all pass the same job name (mc_job_name on one of them, shared by the
 * launcher), each its own rank. Collective: returns when all have joined
 * (or fails after MC_TIMEOUT). */
MC_API int mc_comm_create_shm(const char *job, int rank, int size, mc_comm_t **comm);
/* Ranks with the same color form a communicator, ordered by (key, rank);
 * a rank passing MC_UNDEFINED as color gets *out = NULL. Collective over
 * comm. */
#define MC_UNDEFINED (-32766)
MC_API int mc_comm_split(mc_comm_t *comm, int color, int key, mc_comm_t **out);
/* A communicator of the same ranks in the same order, whose calls do not
 * mix with c's (as MPI_Comm_dup; the algorithm choices of
 * mc_comm_set_algo are not copied). Collective over comm. */
MC_API int mc_comm_dup(mc_comm_t *comm, mc_comm_t **out);
/* Frees this rank's communicator. Not collective and not synchronising:
 * call it on every rank once none will call a collective on it again. */
MC_API int mc_comm_free(mc_comm_t *comm);
/* This rank's number in c, 0 .. size - 1 (or a negative status). */
MC_API int mc_comm_rank(const mc_comm_t *c);
/* The number of ranks of c (or a negative status). */
MC_API int mc_comm_size(const mc_comm_t *c);

/* Writes a fresh, unpredictable job name (for mc_comm_create_shm under
 * another launcher) into buf; len must be at least MC_JOB_NAME_MAX. */
#define MC_JOB_NAME_MAX 64
MC_API int mc_job_name(char *buf, size_t len);

/* Pass as a buffer where MPI allows in-place operation (each collective
 * below says where). Elsewhere it is an argument error. */
#define MC_IN_PLACE ((void *)1)

/* Collectives. P is mc_comm_size(c), r this rank; "block q" of a buffer
 * is its elements [q * count, (q + 1) * count). Input and output buffers
 * must not overlap except through MC_IN_PLACE. */

/* Returns once every rank has entered the barrier. */
MC_API int mc_barrier(mc_comm_t *c);
/* buf (count elements) of the root goes to buf of every rank. */
MC_API int mc_bcast(mc_comm_t *c, void *buf, size_t count, mc_dtype_t dt, int root);
/* rbuf of the root = sbuf of rank 0 op sbuf of rank 1 op ... (count
 * elements each); rbuf is ignored on the other ranks. In place: the root
 * passes sbuf = MC_IN_PLACE and its input in rbuf. */
MC_API int mc_reduce(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
              mc_dtype_t dt, mc_op_t op, int root);
/* rbuf of every rank = the reduction of every rank's sbuf (count elements);
 * every rank gets the same bits. In place: sbuf = MC_IN_PLACE, the input
 * in rbuf. */
MC_API int mc_allreduce(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                 mc_dtype_t dt, mc_op_t op);
/* Block q of rbuf (P * count elements) of every rank = sbuf (count) of
 * rank q. In place: sbuf = MC_IN_PLACE, this rank's input already in
 * block r of rbuf. */
MC_API int mc_allgather(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                 mc_dtype_t dt);
/* Block q of rbuf of rank r = block r of sbuf of rank q (both P * count
 * elements). In place: sbuf = MC_IN_PLACE, the input in rbuf (the call
 * then copies it to scratch memory, which it may allocate). */
MC_API int mc_alltoall(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                mc_dtype_t dt);
/* rbuf (count) of rank r = the reduction of block r of every rank's sbuf
 * (P * count). In place: sbuf = MC_IN_PLACE, the input (P * count) in
 * rbuf, the result in its first block. */
MC_API int mc_reduce_scatter_block(mc_comm_t *c, const void *sbuf, void *rbuf,
                            size_t count, mc_dtype_t dt, mc_op_t op);
/* Block q of rbuf (P * count) of the root = sbuf (count) of rank q; rbuf
 * is ignored on the other ranks. In place: the root passes sbuf =
 * MC_IN_PLACE, its own input already in block root of rbuf. */
MC_API int mc_gather(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
              mc_dtype_t dt, int root);
/* rbuf (count) of rank q = block q of sbuf (P * count) of the root; sbuf
 * is ignored on the other ranks. In place: the root passes rbuf =
 * MC_IN_PLACE and keeps its block in sbuf. */
MC_API int mc_scatter(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
               mc_dtype_t dt, int root);

/* rbuf (count) of rank r = sbuf of rank 0 op sbuf of rank 1 op ... op
 * sbuf of rank r (an inclusive prefix reduction, in rank order for any
 * op). In place: sbuf = MC_IN_PLACE, the input in rbuf. */
MC_API int mc_scan(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                   mc_dtype_t dt, mc_op_t op);
/* The same, exclusive: rbuf of rank r = the reduction of ranks 0 .. r-1;
 * rbuf of rank 0 is not written (MPI: undefined). In place as mc_scan. */
MC_API int mc_exscan(mc_comm_t *c, const void *sbuf, void *rbuf,
                     size_t count, mc_dtype_t dt, mc_op_t op);

/* The v-variants (MPI's): counts and displacements per rank, in elements
 * of dt, with zero counts allowed anywhere. The arrays are read during
 * the call (until its completion for the non-blocking forms). A rank's
 * own count must equal its entry in the other side's array (MC_ERR_ARG
 * otherwise); the rest must match between ranks as in MPI.
 *
 * allgatherv: block r (scount elements of rank r's sbuf) lands at
 * rbuf + displs[r] on every rank, rcounts[r] == scount of rank r. In
 * place: sbuf = MC_IN_PLACE, the own block already at displs[rank]. */
MC_API int mc_allgatherv(mc_comm_t *c, const void *sbuf, size_t scount,
                         void *rbuf, const size_t *rcounts,
                         const size_t *displs, mc_dtype_t dt);
/* scounts[d] elements from sbuf + sdispls[d] go to rank d, where they
 * land as rcounts[s] elements at rbuf + rdispls[s] (s the sender). In
 * place: sbuf = MC_IN_PLACE, scounts and sdispls ignored, the input laid
 * out in rbuf by rcounts and rdispls. */
MC_API int mc_alltoallv(mc_comm_t *c, const void *sbuf,
                        const size_t *scounts, const size_t *sdispls,
                        void *rbuf, const size_t *rcounts,
                        const size_t *rdispls, mc_dtype_t dt);
/* The root receives rank r's scount elements at rbuf + displs[r]
 * (rcounts[r]); rbuf, rcounts and displs are read on the root only. In
 * place: the root passes sbuf = MC_IN_PLACE, its block already there. */
MC_API int mc_gatherv(mc_comm_t *c, const void *sbuf, size_t scount,
                      void *rbuf, const size_t *rcounts,
                      const size_t *displs, mc_dtype_t dt, int root);
/* The root sends scounts[r] elements from sbuf + displs[r] to rank r,
 * which receives rcount of them in rbuf; sbuf, scounts and displs are
 * read on the root only. In place: the root passes rbuf = MC_IN_PLACE
 * and keeps its block in sbuf. */
MC_API int mc_scatterv(mc_comm_t *c, const void *sbuf,
                       const size_t *scounts, const size_t *displs,
                       void *rbuf, size_t rcount, mc_dtype_t dt, int root);
/* The elementwise reduction of every rank's sbuf (sum of rcounts
 * elements), split in blocks back to back: rank r gets block r
 * (rcounts[r] elements) in rbuf. In rank order for any op. In place:
 * sbuf = MC_IN_PLACE, the input in rbuf, the result at its start. */
MC_API int mc_reduce_scatter(mc_comm_t *c, const void *sbuf, void *rbuf,
                             const size_t *rcounts, mc_dtype_t dt,
                             mc_op_t op);

/* Non-blocking and persistent collectives (MPI 3 and 4).
 *
 * mc_i<coll> takes the arguments of mc_<coll>, then `req`: it starts the
 * collective and returns at once with *req; the call completes in a
 * later mc_test, mc_wait or mc_waitall on it. Until then its buffers
 * belong to the library (do not read the output or change the input).
 * Several calls may be outstanding on a communicator and on several
 * communicators; the calls of a communicator, blocking ones included,
 * must be made in the same order on every rank and complete in that
 * order (a blocking call first completes the outstanding ones).
 * Persistent calls match as in MPI 4: mc_<coll>_init is collective
 * (every rank initialises a communicator's persistent calls in the same
 * order, among its other calls; it may communicate), and ranks may then
 * start them in any order: each runs on one of 8 private duplicates of
 * its communicator, by init number (made by the init that first needs
 * it). Two requests initialised a multiple of 8 apart share one, and
 * must be started in the same order on every rank. A blocking call
 * still first completes the started ones.
 *
 * Progress: an outstanding call advances inside mc_test, mc_wait,
 * mc_waitall and blocking calls of this process (of any communicator),
 * and by itself up to its first wait when it starts. The algorithm is
 * the one the blocking call would run, in a coroutine of its own; with
 * no other work, waiting costs what the blocking call's wait costs.
 * Requests are not thread-safe: one thread per request, and a process's
 * requests are progressed by the thread that waits for them.
 *
 * Errors of the call (a dead peer, a timeout, a failed peer) are returned
 * by the test or wait that completes it; argument errors are returned by
 * the mc_i<coll> or mc_<coll>_init call itself, as by mc_<coll>. */
typedef struct mc_request mc_request_t;

MC_API int mc_ibarrier(mc_comm_t *c, mc_request_t **req);
MC_API int mc_ibcast(mc_comm_t *c, void *buf, size_t count, mc_dtype_t dt,
                     int root, mc_request_t **req);
MC_API int mc_ireduce(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                      mc_dtype_t dt, mc_op_t op, int root, mc_request_t **req);
MC_API int mc_iallreduce(mc_comm_t *c, const void *sbuf, void *rbuf,
                         size_t count, mc_dtype_t dt, mc_op_t op,
                         mc_request_t **req);
MC_API int mc_iallgather(mc_comm_t *c, const void *sbuf, void *rbuf,
                         size_t count, mc_dtype_t dt, mc_request_t **req);
MC_API int mc_ialltoall(mc_comm_t *c, const void *sbuf, void *rbuf,
                        size_t count, mc_dtype_t dt, mc_request_t **req);
MC_API int mc_ireduce_scatter_block(mc_comm_t *c, const void *sbuf, void *rbuf,
                                    size_t count, mc_dtype_t dt, mc_op_t op,
                                    mc_request_t **req);
MC_API int mc_igather(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                      mc_dtype_t dt, int root, mc_request_t **req);
MC_API int mc_iscatter(mc_comm_t *c, const void *sbuf, void *rbuf,
                       size_t count, mc_dtype_t dt, int root,
                       mc_request_t **req);

MC_API int mc_iscan(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                    mc_dtype_t dt, mc_op_t op, mc_request_t **req);
MC_API int mc_iexscan(mc_comm_t *c, const void *sbuf, void *rbuf,
                      size_t count, mc_dtype_t dt, mc_op_t op,
                      mc_request_t **req);

/* Persistent collectives: mc_<coll>_init takes the same arguments, checks
 * them, selects the algorithm once and returns an inactive request;
 * mc_start starts it (as mc_i<coll> would), test or wait completes it,
 * and it can be started again; mc_request_free frees it. Every rank must
 * start its requests of a communicator in the same order. */
MC_API int mc_barrier_init(mc_comm_t *c, mc_request_t **req);
MC_API int mc_bcast_init(mc_comm_t *c, void *buf, size_t count, mc_dtype_t dt,
                         int root, mc_request_t **req);
MC_API int mc_reduce_init(mc_comm_t *c, const void *sbuf, void *rbuf,
                          size_t count, mc_dtype_t dt, mc_op_t op, int root,
                          mc_request_t **req);
MC_API int mc_allreduce_init(mc_comm_t *c, const void *sbuf, void *rbuf,
                             size_t count, mc_dtype_t dt, mc_op_t op,
                             mc_request_t **req);
MC_API int mc_allgather_init(mc_comm_t *c, const void *sbuf, void *rbuf,
                             size_t count, mc_dtype_t dt, mc_request_t **req);
MC_API int mc_alltoall_init(mc_comm_t *c, const void *sbuf, void *rbuf,
                            size_t count, mc_dtype_t dt, mc_request_t **req);
MC_API int mc_reduce_scatter_block_init(mc_comm_t *c, const void *sbuf,
                                        void *rbuf, size_t count,
                                        mc_dtype_t dt, mc_op_t op,
                                        mc_request_t **req);
MC_API int mc_gather_init(mc_comm_t *c, const void *sbuf, void *rbuf,
                          size_t count, mc_dtype_t dt, int root,
                          mc_request_t **req);
MC_API int mc_scatter_init(mc_comm_t *c, const void *sbuf, void *rbuf,
                           size_t count, mc_dtype_t dt, int root,
                           mc_request_t **req);
MC_API int mc_scan_init(mc_comm_t *c, const void *sbuf, void *rbuf,
                        size_t count, mc_dtype_t dt, mc_op_t op,
                        mc_request_t **req);
MC_API int mc_exscan_init(mc_comm_t *c, const void *sbuf, void *rbuf,
                          size_t count, mc_dtype_t dt, mc_op_t op,
                          mc_request_t **req);
MC_API int mc_iallgatherv(mc_comm_t *c, const void *sbuf, size_t scount,
                          void *rbuf, const size_t *rcounts,
                          const size_t *displs, mc_dtype_t dt,
                          mc_request_t **req);
MC_API int mc_allgatherv_init(mc_comm_t *c, const void *sbuf, size_t scount,
                              void *rbuf, const size_t *rcounts,
                              const size_t *displs, mc_dtype_t dt,
                              mc_request_t **req);
MC_API int mc_ialltoallv(mc_comm_t *c, const void *sbuf,
                         const size_t *scounts, const size_t *sdispls,
                         void *rbuf, const size_t *rcounts,
                         const size_t *rdispls, mc_dtype_t dt,
                         mc_request_t **req);
MC_API int mc_alltoallv_init(mc_comm_t *c, const void *sbuf,
                             const size_t *scounts, const size_t *sdispls,
                             void *rbuf, const size_t *rcounts,
                             const size_t *rdispls, mc_dtype_t dt,
                             mc_request_t **req);
MC_API int mc_igatherv(mc_comm_t *c, const void *sbuf, size_t scount,
                       void *rbuf, const size_t *rcounts,
                       const size_t *displs, mc_dtype_t dt, int root,
                       mc_request_t **req);
MC_API int mc_gatherv_init(mc_comm_t *c, const void *sbuf, size_t scount,
                           void *rbuf, const size_t *rcounts,
                           const size_t *displs, mc_dtype_t dt, int root,
                           mc_request_t **req);
MC_API int mc_iscatterv(mc_comm_t *c, const void *sbuf,
                        const size_t *scounts, const size_t *displs,
                        void *rbuf, size_t rcount, mc_dtype_t dt, int root,
                        mc_request_t **req);
MC_API int mc_scatterv_init(mc_comm_t *c, const void *sbuf,
                            const size_t *scounts, const size_t *displs,
                            void *rbuf, size_t rcount, mc_dtype_t dt,
                            int root, mc_request_t **req);
MC_API int mc_ireduce_scatter(mc_comm_t *c, const void *sbuf, void *rbuf,
                              const size_t *rcounts, mc_dtype_t dt,
                              mc_op_t op, mc_request_t **req);
MC_API int mc_reduce_scatter_init(mc_comm_t *c, const void *sbuf,
                                  void *rbuf, const size_t *rcounts,
                                  mc_dtype_t dt, mc_op_t op,
                                  mc_request_t **req);
/* Starts an inactive persistent request (MC_ERR_ARG if it is active). */
MC_API int mc_start(mc_request_t *req);

/* *done = 1 if the call of req has completed, else 0 after progressing
 * every outstanding call once. Completed: returns the call's status, and
 * a non-persistent req is freed (do not use it again); a persistent one
 * becomes inactive. An inactive persistent request is done. */
MC_API int mc_test(mc_request_t *req, int *done);
/* Waits until req's call has completed; as mc_test on completion. */
MC_API int mc_wait(mc_request_t *req);
/* Waits for every request of reqs[0 .. n-1] (NULL entries are skipped)
 * and sets the freed (non-persistent) ones to NULL; returns MC_OK or the
 * first failed call's status (the others still complete). */
MC_API int mc_waitall(int n, mc_request_t **reqs);
/* Frees an inactive persistent request (or a non-persistent one that has
 * not been started: none can be) and sets *req = NULL. MC_ERR_ARG if it
 * is active: there is no cancel. */
MC_API int mc_request_free(mc_request_t **req);

/* Progress of another library while manycoll waits.
 *
 * A library that progresses only inside its own calls (an MPI, a
 * communication runtime) stalls while this process waits in manycoll: a
 * peer that waits for that library's progress (a send larger than its
 * eager limit to a receive this rank posted) may then never reach the
 * collective this rank waits in. With fn set, every wait of this process
 * inside manycoll calls fn(arg) once it has lasted 20 microseconds, then
 * again every 20 microseconds for as long as it lasts (checked every 256
 * polls of the flag while spinning and at every yield after that), and
 * so do the waits of a communicator being joined and the idle rounds of
 * mc_wait. So fn's pending work cannot be what keeps a wait waiting: it
 * turns again and again until the wait ends. The short waits of a call
 * whose peers are on time never call it (their cost is unchanged). Inside
 * a non-blocking call's coroutine the wait yields instead: the mc_test or
 * mc_wait that resumed it calls fn, not the coroutine.
 *
 * fn runs on the waiting thread, possibly in several threads at once
 * (one per thread waiting); it must not call manycoll. fn == NULL
 * removes it. Process-wide; set it while no call of this process waits.
 * libmanycoll_mpi sets one that turns the MPI library's progress engine. */
typedef void (*mc_progress_fn)(void *arg);
MC_API int mc_set_progress(mc_progress_fn fn, void *arg);

/* The collectives, each described once: the API, the selection, the
 * variables, `manycoll info`, the hierarchy, libmanycoll_mpi and the tests
 * all read this table. mc_coll_info(k) describes collective k of
 * [0, MC_COLL_COUNT) (NULL out of range); mc_coll_lookup finds one by
 * name (MC_ERR_ARG, naming the valid ones, if there is none). */
typedef enum {
    MC_COLL_BARRIER = 0,
    MC_COLL_BCAST,
    MC_COLL_REDUCE,
    MC_COLL_ALLREDUCE,
    MC_COLL_ALLGATHER,
    MC_COLL_ALLTOALL,
    MC_COLL_REDUCE_SCATTER_BLOCK,
    MC_COLL_GATHER,
    MC_COLL_SCATTER,
    MC_COLL_SCAN,
    MC_COLL_EXSCAN,
    MC_COLL_ALLGATHERV,
    MC_COLL_ALLTOALLV,
    MC_COLL_GATHERV,
    MC_COLL_SCATTERV,
    MC_COLL_REDUCE_SCATTER,
    MC_COLL_COUNT
} mc_coll_t;

/* mc_coll_info_t.props */
enum {
    MC_COLL_ROOTED = 1u << 0,  /* has a root */
    MC_COLL_REDUCES = 1u << 1, /* combines the inputs with an op */
    MC_COLL_BLOCKS = 1u << 2,  /* a buffer holds one block of `count`
                                  elements per rank */
    MC_COLL_VECTOR = 1u << 3,  /* counts (and displacements) per rank: the
                                  v-variants and reduce_scatter */
};

/* where MC_IN_PLACE may go (mc_coll_info_t.in_place) */
typedef enum {
    MC_IN_PLACE_NONE = 0,  /* nowhere (barrier, bcast) */
    MC_IN_PLACE_SEND,      /* sbuf, on every rank */
    MC_IN_PLACE_ROOT_SEND, /* sbuf, on the root only */
    MC_IN_PLACE_ROOT_RECV  /* rbuf, on the root only */
} mc_in_place_t;

/* mc_coll_info_t.forms: the calls that exist */
enum {
    MC_COLL_BLOCKING = 1u << 0,    /* mc_<coll> */
    MC_COLL_NONBLOCKING = 1u << 1, /* mc_i<coll> */
    MC_COLL_PERSISTENT = 1u << 2,  /* mc_<coll>_init */
};

typedef struct mc_coll_info {
    mc_coll_t coll;
    const char *name; /* "reduce_scatter_block": mc_comm_set_algo's */
    const char *var;  /* "MC_ALGO_REDUCE_SCATTER_BLOCK" */
    const char *mpi;  /* "MPI_Reduce_scatter_block" */
    unsigned props;   /* MC_COLL_ROOTED, ... */
    mc_in_place_t in_place;
    unsigned forms;   /* MC_COLL_BLOCKING, ... */
} mc_coll_info_t;

MC_API const mc_coll_info_t *mc_coll_info(mc_coll_t coll);
MC_API int mc_coll_lookup(const char *name, mc_coll_t *out);

/* Algorithm selection for one collective ("bcast", "allreduce", ...) on
 * one communicator, overriding the environment and the tuning file: spec
 * is "name[:k=v,...]" as listed by `manycoll info`, or NULL to return to
 * automatic selection. It changes only this rank's choice and does not
 * communicate, so every rank must make the same call, between the same
 * two collectives: ranks that run different algorithms in one collective
 * hang or compute garbage. */
MC_API int mc_comm_set_algo(mc_comm_t *c, const char *coll, const char *spec);
/* What a call of coll with `bytes` (a rank's block, where the call has
 * blocks) and op runs on c, as `manycoll info --tuning` says it: the
 * algorithm with every parameter's value ("pairwise:sync=2,tail=0") into
 * algo (len bytes); into why (wlen bytes; NULL: not wanted) the rule that
 * chose it and, where the algorithm it names cannot serve c, each
 * fallback and why ("...; fallback of alltoall mesh-rounds: more tiles
 * than its maxtiles"); into *upto (NULL: not wanted) the largest message
 * of that rule, so that the next rule starts at *upto + 1. Local: it
 * does not communicate. */
MC_API int mc_comm_get_algo(const mc_comm_t *c, const char *coll,
                            size_t bytes, mc_op_t op, char *algo, size_t len,
                            char *why, size_t wlen, size_t *upto);

#ifdef __cplusplus
}
#endif

#endif /* MANYCOLL_H */
