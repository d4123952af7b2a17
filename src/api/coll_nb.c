/*
 * The non-blocking (mc_i<coll>) and persistent (mc_<coll>_init) forms of
 * every collective, the v-variants included: the blocking call's checks
 * (mc_prep_<coll>, api/coll.c and api/coll_v.c), then a request
 * (api/nbc.c).
 */
#include "api/nbc.h"
#include "util/error.h"

static int no_req(const char *fn)
{
    return mc_error(MC_ERR_ARG, "%s: argument 'req' is NULL", fn);
}

int mc_ibarrier(mc_comm_t *c, mc_request_t **req)
{
    mc_args_t a;
    if (!req)
        return no_req(__func__);
    int prep = mc_prep_barrier(c, &a);
    return mc_nb_request(c, prep, &a, 0, req);
}

int mc_barrier_init(mc_comm_t *c, mc_request_t **req)
{
    mc_args_t a;
    if (!req)
        return no_req(__func__);
    int prep = mc_prep_barrier(c, &a);
    return mc_nb_request(c, prep, &a, 1, req);
}

int mc_ibcast(mc_comm_t *c, void *buf, size_t count, mc_dtype_t dt, int root,
              mc_request_t **req)
{
    mc_args_t a;
    if (!req)
        return no_req(__func__);
    int prep = mc_prep_bcast(c, buf, count, dt, root, &a);
    return mc_nb_request(c, prep, &a, 0, req);
}

int mc_bcast_init(mc_comm_t *c, void *buf, size_t count, mc_dtype_t dt,
                  int root, mc_request_t **req)
{
    mc_args_t a;
    if (!req)
        return no_req(__func__);
    int prep = mc_prep_bcast(c, buf, count, dt, root, &a);
    return mc_nb_request(c, prep, &a, 1, req);
}

int mc_ireduce(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
               mc_dtype_t dt, mc_op_t op, int root, mc_request_t **req)
{
    mc_args_t a;
    if (!req)
        return no_req(__func__);
    int prep = mc_prep_reduce(c, sbuf, rbuf, count, dt, op, root, &a);
    return mc_nb_request(c, prep, &a, 0, req);
}

int mc_reduce_init(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                   mc_dtype_t dt, mc_op_t op, int root, mc_request_t **req)
{
    mc_args_t a;
    if (!req)
        return no_req(__func__);
    int prep = mc_prep_reduce(c, sbuf, rbuf, count, dt, op, root, &a);
    return mc_nb_request(c, prep, &a, 1, req);
}

int mc_iallreduce(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                  mc_dtype_t dt, mc_op_t op, mc_request_t **req)
{
    mc_args_t a;
    if (!req)
        return no_req(__func__);
    int prep = mc_prep_allreduce(c, sbuf, rbuf, count, dt, op, &a);
    return mc_nb_request(c, prep, &a, 0, req);
}

int mc_allreduce_init(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                      mc_dtype_t dt, mc_op_t op, mc_request_t **req)
{
    mc_args_t a;
    if (!req)
        return no_req(__func__);
    int prep = mc_prep_allreduce(c, sbuf, rbuf, count, dt, op, &a);
    return mc_nb_request(c, prep, &a, 1, req);
}

int mc_iallgather(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                  mc_dtype_t dt, mc_request_t **req)
{
    mc_args_t a;
    if (!req)
        return no_req(__func__);
    int prep = mc_prep_allgather(c, sbuf, rbuf, count, dt, &a);
    return mc_nb_request(c, prep, &a, 0, req);
}

int mc_allgather_init(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                      mc_dtype_t dt, mc_request_t **req)
{
    mc_args_t a;
    if (!req)
        return no_req(__func__);
    int prep = mc_prep_allgather(c, sbuf, rbuf, count, dt, &a);
    return mc_nb_request(c, prep, &a, 1, req);
}

int mc_ialltoall(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                 mc_dtype_t dt, mc_request_t **req)
{
    mc_args_t a;
    if (!req)
        return no_req(__func__);
    int prep = mc_prep_alltoall(c, sbuf, rbuf, count, dt, &a);
    return mc_nb_request(c, prep, &a, 0, req);
}

int mc_alltoall_init(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                     mc_dtype_t dt, mc_request_t **req)
{
    mc_args_t a;
    if (!req)
        return no_req(__func__);
    int prep = mc_prep_alltoall(c, sbuf, rbuf, count, dt, &a);
    return mc_nb_request(c, prep, &a, 1, req);
}

int mc_ireduce_scatter_block(mc_comm_t *c, const void *sbuf, void *rbuf,
                             size_t count, mc_dtype_t dt, mc_op_t op,
                             mc_request_t **req)
{
    mc_args_t a;
    if (!req)
        return no_req(__func__);
    int prep = mc_prep_reduce_scatter_block(c, sbuf, rbuf, count, dt, op, &a);
    return mc_nb_request(c, prep, &a, 0, req);
}

int mc_reduce_scatter_block_init(mc_comm_t *c, const void *sbuf, void *rbuf,
                                 size_t count, mc_dtype_t dt, mc_op_t op,
                                 mc_request_t **req)
{
    mc_args_t a;
    if (!req)
        return no_req(__func__);
    int prep = mc_prep_reduce_scatter_block(c, sbuf, rbuf, count, dt, op, &a);
    return mc_nb_request(c, prep, &a, 1, req);
}

int mc_igather(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
               mc_dtype_t dt, int root, mc_request_t **req)
{
    mc_args_t a;
    if (!req)
        return no_req(__func__);
    int prep = mc_prep_gather(c, sbuf, rbuf, count, dt, root, &a);
    return mc_nb_request(c, prep, &a, 0, req);
}

int mc_gather_init(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                   mc_dtype_t dt, int root, mc_request_t **req)
{
    mc_args_t a;
    if (!req)
        return no_req(__func__);
    int prep = mc_prep_gather(c, sbuf, rbuf, count, dt, root, &a);
    return mc_nb_request(c, prep, &a, 1, req);
}

int mc_iscatter(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                mc_dtype_t dt, int root, mc_request_t **req)
{
    mc_args_t a;
    if (!req)
        return no_req(__func__);
    int prep = mc_prep_scatter(c, sbuf, rbuf, count, dt, root, &a);
    return mc_nb_request(c, prep, &a, 0, req);
}

int mc_scatter_init(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                    mc_dtype_t dt, int root, mc_request_t **req)
{
    mc_args_t a;
    if (!req)
        return no_req(__func__);
    int prep = mc_prep_scatter(c, sbuf, rbuf, count, dt, root, &a);
    return mc_nb_request(c, prep, &a, 1, req);
}

int mc_iscan(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
             mc_dtype_t dt, mc_op_t op, mc_request_t **req)
{
    mc_args_t a;
    if (!req)
        return no_req(__func__);
    int prep = mc_prep_scan(c, sbuf, rbuf, count, dt, op, &a);
    return mc_nb_request(c, prep, &a, 0, req);
}

int mc_scan_init(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                 mc_dtype_t dt, mc_op_t op, mc_request_t **req)
{
    mc_args_t a;
    if (!req)
        return no_req(__func__);
    int prep = mc_prep_scan(c, sbuf, rbuf, count, dt, op, &a);
    return mc_nb_request(c, prep, &a, 1, req);
}

int mc_iexscan(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
               mc_dtype_t dt, mc_op_t op, mc_request_t **req)
{
    mc_args_t a;
    if (!req)
        return no_req(__func__);
    int prep = mc_prep_exscan(c, sbuf, rbuf, count, dt, op, &a);
    return mc_nb_request(c, prep, &a, 0, req);
}

int mc_exscan_init(mc_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                   mc_dtype_t dt, mc_op_t op, mc_request_t **req)
{
    mc_args_t a;
    if (!req)
        return no_req(__func__);
    int prep = mc_prep_exscan(c, sbuf, rbuf, count, dt, op, &a);
    return mc_nb_request(c, prep, &a, 1, req);
}

int mc_iallgatherv(mc_comm_t *c, const void *sbuf, size_t scount, void *rbuf,
                   const size_t *rcounts, const size_t *displs, mc_dtype_t dt,
                   mc_request_t **req)
{
    mc_args_t a;
    if (!req)
        return no_req(__func__);
    int prep = mc_prep_allgatherv(c, sbuf, scount, rbuf, rcounts, displs, dt,
                                  &a);
    return mc_nb_request(c, prep, &a, 0, req);
}

int mc_allgatherv_init(mc_comm_t *c, const void *sbuf, size_t scount,
                       void *rbuf, const size_t *rcounts, const size_t *displs,
                       mc_dtype_t dt, mc_request_t **req)
{
    mc_args_t a;
    if (!req)
        return no_req(__func__);
    int prep = mc_prep_allgatherv(c, sbuf, scount, rbuf, rcounts, displs, dt,
                                  &a);
    return mc_nb_request(c, prep, &a, 1, req);
}

int mc_ialltoallv(mc_comm_t *c, const void *sbuf, const size_t *scounts,
                  const size_t *sdispls, void *rbuf, const size_t *rcounts,
                  const size_t *rdispls, mc_dtype_t dt, mc_request_t **req)
{
    mc_args_t a;
    if (!req)
        return no_req(__func__);
    int prep = mc_prep_alltoallv(c, sbuf, scounts, sdispls, rbuf, rcounts,
                                 rdispls, dt, &a);
    return mc_nb_request(c, prep, &a, 0, req);
}

int mc_alltoallv_init(mc_comm_t *c, const void *sbuf, const size_t *scounts,
                      const size_t *sdispls, void *rbuf, const size_t *rcounts,
                      const size_t *rdispls, mc_dtype_t dt, mc_request_t **req)
{
    mc_args_t a;
    if (!req)
        return no_req(__func__);
    int prep = mc_prep_alltoallv(c, sbuf, scounts, sdispls, rbuf, rcounts,
                                 rdispls, dt, &a);
    return mc_nb_request(c, prep, &a, 1, req);
}

int mc_igatherv(mc_comm_t *c, const void *sbuf, size_t scount, void *rbuf,
                const size_t *rcounts, const size_t *displs, mc_dtype_t dt,
                int root, mc_request_t **req)
{
    mc_args_t a;
    if (!req)
        return no_req(__func__);
    int prep = mc_prep_gatherv(c, sbuf, scount, rbuf, rcounts, displs, dt,
                               root, &a);
    return mc_nb_request(c, prep, &a, 0, req);
}

int mc_gatherv_init(mc_comm_t *c, const void *sbuf, size_t scount, void *rbuf,
                    const size_t *rcounts, const size_t *displs, mc_dtype_t dt,
                    int root, mc_request_t **req)
{
    mc_args_t a;
    if (!req)
        return no_req(__func__);
    int prep = mc_prep_gatherv(c, sbuf, scount, rbuf, rcounts, displs, dt,
                               root, &a);
    return mc_nb_request(c, prep, &a, 1, req);
}

int mc_iscatterv(mc_comm_t *c, const void *sbuf, const size_t *scounts,
                 const size_t *displs, void *rbuf, size_t rcount,
                 mc_dtype_t dt, int root, mc_request_t **req)
{
    mc_args_t a;
    if (!req)
        return no_req(__func__);
    int prep = mc_prep_scatterv(c, sbuf, scounts, displs, rbuf, rcount, dt,
                                root, &a);
    return mc_nb_request(c, prep, &a, 0, req);
}

int mc_scatterv_init(mc_comm_t *c, const void *sbuf, const size_t *scounts,
                     const size_t *displs, void *rbuf, size_t rcount,
                     mc_dtype_t dt, int root, mc_request_t **req)
{
    mc_args_t a;
    if (!req)
        return no_req(__func__);
    int prep = mc_prep_scatterv(c, sbuf, scounts, displs, rbuf, rcount, dt,
                                root, &a);
    return mc_nb_request(c, prep, &a, 1, req);
}

int mc_ireduce_scatter(mc_comm_t *c, const void *sbuf, void *rbuf,
                       const size_t *rcounts, mc_dtype_t dt, mc_op_t op,
                       mc_request_t **req)
{
    mc_args_t a;
    if (!req)
        return no_req(__func__);
    int prep = mc_prep_reduce_scatter(c, sbuf, rbuf, rcounts, dt, op, &a);
    return mc_nb_request(c, prep, &a, 0, req);
}

int mc_reduce_scatter_init(mc_comm_t *c, const void *sbuf, void *rbuf,
                           const size_t *rcounts, mc_dtype_t dt, mc_op_t op,
                           mc_request_t **req)
{
    mc_args_t a;
    if (!req)
        return no_req(__func__);
    int prep = mc_prep_reduce_scatter(c, sbuf, rbuf, rcounts, dt, op, &a);
    return mc_nb_request(c, prep, &a, 1, req);
}
