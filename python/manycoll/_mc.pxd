# The C declarations the extension uses: the public API (manycoll.h) and,
# from the command's code (tools/tools.h), the in-process command call.

cdef extern from "manycoll.h" nogil:
    ctypedef struct mc_comm_t:
        pass
    ctypedef int mc_dtype_t
    ctypedef int mc_op_t
    ctypedef void (*mc_user_fn)(const void *inp, void *inout, size_t count,
                                mc_dtype_t dt) noexcept

    enum:
        MC_OK, MC_ERR_ARG, MC_ERR_NOMEM, MC_ERR_TIMEOUT, MC_ERR_PEER_DEAD,
        MC_ERR_UNSUPPORTED, MC_ERR_SYS, MC_ERR_INTERNAL
    enum:
        MC_INT8, MC_INT16, MC_INT32, MC_INT64, MC_UINT8, MC_UINT16,
        MC_UINT32, MC_UINT64, MC_FLOAT32, MC_FLOAT64, MC_FLOAT16,
        MC_BFLOAT16, MC_COMPLEX64, MC_COMPLEX128, MC_DTYPE_COUNT
    enum:
        MC_SUM, MC_PROD, MC_MIN, MC_MAX, MC_BAND, MC_BOR, MC_BXOR, MC_LAND,
        MC_LOR, MC_OP_BUILTIN_COUNT, MC_OP_USER_BASE
    enum:
        MC_UNDEFINED, MC_JOB_NAME_MAX
    void *MC_IN_PLACE

    const char *mc_strerror(int status)
    const char *mc_last_error()
    size_t mc_dtype_size(mc_dtype_t dt)
    int mc_op_create(mc_user_fn fn, int commutative, mc_op_t *op)

    int mc_init(mc_comm_t **world)
    int mc_finalize()
    int mc_comm_create_shm(const char *job, int rank, int size,
                           mc_comm_t **comm)
    int mc_comm_split(mc_comm_t *comm, int color, int key, mc_comm_t **out)
    int mc_comm_free(mc_comm_t *comm)
    int mc_comm_rank(const mc_comm_t *c)
    int mc_comm_size(const mc_comm_t *c)
    int mc_job_name(char *buf, size_t len)
    int mc_comm_set_algo(mc_comm_t *c, const char *coll, const char *spec)

    int mc_barrier(mc_comm_t *c)
    int mc_bcast(mc_comm_t *c, void *buf, size_t count, mc_dtype_t dt,
                 int root)
    int mc_reduce(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                  mc_dtype_t dt, mc_op_t op, int root)
    int mc_allreduce(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                     mc_dtype_t dt, mc_op_t op)
    int mc_allgather(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                     mc_dtype_t dt)
    int mc_alltoall(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                    mc_dtype_t dt)
    int mc_reduce_scatter_block(mc_comm_t *c, const void *sbuf, void *rbuf,
                                size_t count, mc_dtype_t dt, mc_op_t op)
    int mc_gather(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                  mc_dtype_t dt, int root)
    int mc_scatter(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                   mc_dtype_t dt, int root)

    ctypedef int mc_coll_t
    enum:
        MC_COLL_COUNT, MC_COLL_ROOTED, MC_COLL_REDUCES, MC_COLL_BLOCKS,
        MC_COLL_VECTOR, MC_COLL_BLOCKING, MC_COLL_NONBLOCKING,
        MC_COLL_PERSISTENT
    ctypedef struct mc_coll_info_t:
        mc_coll_t coll
        const char *name
        const char *var
        const char *mpi
        unsigned props
        int in_place
        unsigned forms
    const mc_coll_info_t *mc_coll_info(mc_coll_t coll)

cdef extern from "tools.h" nogil:
    int mc_cmd_capture(int argc, char **argv, char **out, char **err)
