# The C declarations the extension uses: the public API (manycoll.h) and,
# from the command's code (tools/data.h), the simulator, the models and the
# registry as data.

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

cdef extern from "data.h" nogil:
    ctypedef struct mc_sim_spec_t:
        const char *platform
        const char *coll
        const char *algo
        const char *dtype
        const char *op
        const char *contention
        const size_t *sizes
        int nsizes
        int ranks
        int root
        int iters
        int check
        long long jitter
    ctypedef struct mc_sim_row_t:
        char platform[64]
        char coll[32]
        char algo[160]
        char ran[160]
        char why[400]
        char contention[16]
        char grid[48]
        int ranks, root, check, iters, warmup, chips
        size_t bytes
        double lat_us, bw_MBps, done_min_us, done_max_us, done_stdev_us
        unsigned long long events, ops, lines, jitter
        double events_per_s, wall_s, rank0_avg_us, iter_mean_us, iter_var_us2
        unsigned long long link_waits, flag_link_waits, start_events
        double link_wait_us, flag_link_wait_us, port_wait_us, start_wall_s
        double host_wait_us
    int mc_sim_data(const mc_sim_spec_t *s, mc_sim_row_t *rows, int *nrows)
    long long mc_data_size(const char *s)

    ctypedef struct mc_ocb_spec_t:
        const char *platform
        const char *coll
        const char *algo
        const char *sizes
        int ranks, root, layout
    ctypedef struct mc_ocb_row_t:
        char platform[64]
        char algo[128]
        char mode[8]
        int ranks, root
        size_t bytes
        double lat_us, bw_MBps, done_min_us, done_max_us, done_stdev_us
        double peak_MBps
    int mc_ocb_data(const mc_ocb_spec_t *s, mc_ocb_row_t **rows, int *nrows)

    ctypedef struct mc_cc_spec_t:
        const char *profile
        const char *coll
        const char *ranks
        int optimize
        const char *k
        const char *m
        const char *lines
        const char *state
        const char *contention
        const char *reduce_copy
        const char *rounds
        const char *order
        const char *c
        const char *dmax
    enum:
        MC_CC_MROUNDS, MC_CC_LINES, MC_CC_CHILDREN, MC_CC_TREE
    ctypedef struct mc_cc_row_t:
        char coll[32]
        int ranks, kind, m, rounds, children, d, ties
        int k[16]
        double lines, min_ns, max_ns
    int mc_cc_data(const mc_cc_spec_t *s, mc_cc_row_t **rows, int *nrows)

    ctypedef struct mc_algo_row_t:
        const char *coll
        const char *algo
        const char *desc
        const char *fallback
        const char *declines
        int commutative_only, single_copy, nparams, nvariants
        const char *variants[5]
    ctypedef struct mc_param_row_t:
        const char *name
        const char *help
        long long def_ "def"
        long long min, max
    int mc_algo_data(int i, mc_algo_row_t *r)
    int mc_algo_param_data(int i, int j, mc_param_row_t *p)

