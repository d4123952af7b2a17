/*
 * manycoll — collective communication for many-core chips.
 *
 * Public C API. Every function returns a status: MC_OK (0) on success or a
 * negative MC_ERR_* code; after an error, mc_last_error() gives a message
 * naming the bad argument or the failed peer (per thread).
 *
 * Collectives are blocking and follow MPI semantics: every rank of the
 * communicator calls the same collective with matching count, datatype, op
 * and root. `count` is in elements.
 */
#ifndef MANYCOLL_H
#define MANYCOLL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MANYCOLL_VERSION_MAJOR 0
#define MANYCOLL_VERSION_MINOR 1

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
    MC_ERR_ARG = -1,         /* an argument is invalid; the message names it */
    MC_ERR_NOMEM = -2,       /* out of memory */
    MC_ERR_TIMEOUT = -3,     /* a wait exceeded MC_TIMEOUT */
    MC_ERR_PEER_DEAD = -4,   /* a peer process exited or crashed */
    MC_ERR_UNSUPPORTED = -5, /* valid, but not supported (e.g. op on dtype) */
    MC_ERR_SYS = -6,         /* a system call failed; the message says which */
    MC_ERR_INTERNAL = -7     /* a bug in manycoll */
};

MC_API const char *mc_strerror(int status);
MC_API const char *mc_last_error(void);

/* Datatypes. Integers are two's complement and wrap on overflow. */
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
    MC_OP_BUILTIN_COUNT,
    MC_OP_USER_BASE = 64
} mc_op_t;

/* Size in bytes of one element of dt, or 0 if dt is invalid. */
MC_API size_t mc_dtype_size(mc_dtype_t dt);

/* User-defined op, MPI style: inout[i] = in[i] op inout[i], where `in` holds
 * the contribution of the lower ranks. Non-commutative ops are reduced in
 * rank order. At most 64 user ops per process. */
typedef void (*mc_user_fn)(const void *in, void *inout, size_t count,
                           mc_dtype_t dt);
MC_API int mc_op_create(mc_user_fn fn, int commutative, mc_op_t *op);
MC_API int mc_op_free(mc_op_t *op);

/* Communicators. */
MC_API int mc_init(mc_comm_t **world);
MC_API int mc_finalize(void);
MC_API int mc_comm_create_shm(const char *job, int rank, int size, mc_comm_t **comm);
/* Ranks with the same color form a communicator, ordered by (key, rank);
 * a rank passing MC_UNDEFINED as color gets *out = NULL. Collective. */
#define MC_UNDEFINED (-32766)
MC_API int mc_comm_split(mc_comm_t *comm, int color, int key, mc_comm_t **out);
MC_API int mc_comm_free(mc_comm_t *comm);
MC_API int mc_comm_rank(const mc_comm_t *c);
MC_API int mc_comm_size(const mc_comm_t *c);

/* Writes a fresh, unpredictable job name (for mc_comm_create_shm under
 * another launcher) into buf; len must be at least MC_JOB_NAME_MAX. */
#define MC_JOB_NAME_MAX 64
MC_API int mc_job_name(char *buf, size_t len);

/* Pass as the send buffer where MPI allows in-place operation. */
#define MC_IN_PLACE ((void *)1)

/* Collectives. */
MC_API int mc_barrier(mc_comm_t *c);
MC_API int mc_bcast(mc_comm_t *c, void *buf, size_t count, mc_dtype_t dt, int root);
MC_API int mc_reduce(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
              mc_dtype_t dt, mc_op_t op, int root);
MC_API int mc_allreduce(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                 mc_dtype_t dt, mc_op_t op);
MC_API int mc_allgather(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                 mc_dtype_t dt);
MC_API int mc_alltoall(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                mc_dtype_t dt);
MC_API int mc_reduce_scatter_block(mc_comm_t *c, const void *sbuf, void *rbuf,
                            size_t count, mc_dtype_t dt, mc_op_t op);
MC_API int mc_gather(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
              mc_dtype_t dt, int root);
MC_API int mc_scatter(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
               mc_dtype_t dt, int root);

/* Algorithm selection for one collective on one communicator, overriding
 * the environment and the tuning file: spec is "name[:k=v,...]" as listed by
 * `manycoll info`, or NULL to return to automatic selection. */
MC_API int mc_comm_set_algo(mc_comm_t *c, const char *coll, const char *spec);

#ifdef __cplusplus
}
#endif

#endif /* MANYCOLL_H */
