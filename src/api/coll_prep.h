/*
 * The two steps of every collective call (api/coll.c), shared by the
 * blocking calls and the non-blocking and persistent ones (api/nbc.c):
 * mc_prep_<coll> checks the arguments and resolves MC_IN_PLACE into an
 * mc_args_t (an argument error fails the communicator as the blocking
 * call would); mc_run_call selects and runs the algorithm.
 */
#ifndef MC_API_COLL_PREP_H
#define MC_API_COLL_PREP_H

#include "api/comm.h"

/* mc_prep_*: MC_OK (run *a), MC_PREP_EMPTY (count 0: run mc_run_empty)
 * or a negative status */
#define MC_PREP_EMPTY 1

int mc_prep_barrier(mc_comm_t *c, mc_args_t *a);
int mc_prep_bcast(mc_comm_t *c, void *buf, size_t count, mc_dtype_t dt,
                  int root, mc_args_t *a);
int mc_prep_reduce(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                   mc_dtype_t dt, mc_op_t op, int root, mc_args_t *a);
int mc_prep_allreduce(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                      mc_dtype_t dt, mc_op_t op, mc_args_t *a);
int mc_prep_scan(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                 mc_dtype_t dt, mc_op_t op, mc_args_t *a);
int mc_prep_exscan(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                   mc_dtype_t dt, mc_op_t op, mc_args_t *a);
int mc_prep_allgather(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                      mc_dtype_t dt, mc_args_t *a);
int mc_prep_alltoall(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                     mc_dtype_t dt, mc_args_t *a);
int mc_prep_reduce_scatter_block(mc_comm_t *c, const void *sbuf, void *rbuf,
                                 size_t count, mc_dtype_t dt, mc_op_t op,
                                 mc_args_t *a);
int mc_prep_gather(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                   mc_dtype_t dt, int root, mc_args_t *a);
int mc_prep_scatter(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                    mc_dtype_t dt, int root, mc_args_t *a);

int mc_prep_allgatherv(mc_comm_t *c, const void *sbuf, size_t scount,
                       void *rbuf, const size_t *rcounts,
                       const size_t *displs, mc_dtype_t dt, mc_args_t *a);
int mc_prep_alltoallv(mc_comm_t *c, const void *sbuf, const size_t *scounts,
                      const size_t *sdispls, void *rbuf,
                      const size_t *rcounts, const size_t *rdispls,
                      mc_dtype_t dt, mc_args_t *a);
int mc_prep_gatherv(mc_comm_t *c, const void *sbuf, size_t scount,
                    void *rbuf, const size_t *rcounts, const size_t *displs,
                    mc_dtype_t dt, int root, mc_args_t *a);
int mc_prep_scatterv(mc_comm_t *c, const void *sbuf, const size_t *scounts,
                     const size_t *displs, void *rbuf, size_t rcount,
                     mc_dtype_t dt, int root, mc_args_t *a);
int mc_prep_reduce_scatter(mc_comm_t *c, const void *sbuf, void *rbuf,
                           const size_t *rcounts, mc_dtype_t dt, mc_op_t op,
                           mc_args_t *a);

/* Runs the call: the next call number, the in-place alltoall's copy,
 * the selection (given, or the rules' when NULL), the algorithm, and
 * the selections after it if it declines the call; a failure breaks the
 * communicator. Not after the communicator's non-blocking
 * calls: the caller orders them (mc_nb_drain). */
int mc_run_call(mc_comm_t *c, const mc_args_t *a, const mc_sel_t *given);
/* A call with count 0: the arguments compared (MC_CHECK_ARGS) or
 * nothing. */
int mc_run_empty(mc_comm_t *c, const mc_args_t *a);
/* Completes every non-blocking call started on c (api/nbc.c). */
int mc_nb_drain(mc_comm_t *c);

#endif
