/*
 * MPI_Ibcast, MPI_Iallgather, MPI_Ialltoall, MPI_Igather, MPI_Iscatter
 * and (MPI 4) their persistent forms, on one node. As for the blocking
 * calls (coll_move.c), the plan (plan.c) reads the communicator, the root
 * and the counts alone, never the datatypes: a rank whose datatype has
 * gaps stages its buffers in memory of the request's own (packed at the
 * start, and at every start of a persistent request; unpacked at the
 * completion), since several calls may be outstanding at once.
 */
#include <limits.h>

#include "mpi/mcmpi.h"

typedef int (*move_fn)(mc_comm_t *, const void *, void *, size_t,
                       mc_dtype_t, mc_request_t **);
typedef int (*move_root_fn)(mc_comm_t *, const void *, void *, size_t,
                            mc_dtype_t, int, mc_request_t **);

static int bad_stage(mcm_nb_t *x, const char *what)
{
    mcm_comm_t *s = x->s;
    const char *fn = x->fn;
    mcm_nb_drop(x);
    return mcm_fail(s, fn, MC_ERR_ARG, what);
}

static int ibcast(void *buf, int count, MPI_Datatype dt, int root,
                  MPI_Comm comm, MPI_Request *req, int pers)
{
    mcm_comm_t *s = mcm_comm(comm);
    mcm_plan_t p;
    mcm_nb_t *x;
    int rc = mcm_nb_take(s, MC_COLL_BCAST,
                         pers ? "MPI_Bcast_init" : "MPI_Ibcast", pers,
                         &(mcm_call_t){.root = root, .count = count}, &p,
                         &x);
    if (rc != MPI_SUCCESS)
        return rc;
    int me = p.root;
    mcm_buf_t *b = me ? &x->in : &x->out;
    if (mcm_stage(s, b, buf, count, dt, me && !pers, -1) != MPI_SUCCESS)
        return bad_stage(x, "a datatype could not be packed");
    rc = pers ? mc_bcast_init(s->node, b->p, b->bytes, MC_UINT8, root, &x->r)
              : mc_ibcast(s->node, b->p, b->bytes, MC_UINT8, root, &x->r);
    return mcm_nb_started(x, rc, req);
}

/* stages the sides of a block collective that this rank has: out (n
 * elements of rtype, read too when in place), in; MPI_SUCCESS or not */
typedef struct sides {
    int have_in, have_out, ip;
} sides_t;

static int stage2(mcm_nb_t *x, sides_t h, const void *sbuf, int scount,
                  MPI_Datatype stype, void *rbuf, int rcount,
                  MPI_Datatype rtype)
{
    int pers = x->persistent, rc = MPI_SUCCESS;
    x->out_in = h.ip && h.have_out && pers;
    if (h.have_out)
        rc = mcm_stage(x->s, &x->out, rbuf, rcount, rtype, h.ip && !pers,
                       -1);
    if (rc == MPI_SUCCESS && h.have_in)
        rc = mcm_stage(x->s, &x->in, (void *)sbuf, scount, stype, !pers, -1);
    return rc;
}

enum { AG, A2A };

static int iall(const void *sbuf, int scount, MPI_Datatype stype,
                void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm,
                MPI_Request *req, int pers, int kind)
{
    static const char *const fns[2][2] = {
        {"MPI_Iallgather", "MPI_Allgather_init"},
        {"MPI_Ialltoall", "MPI_Alltoall_init"}};
    mcm_comm_t *s = mcm_comm(comm);
    long long rsize = mcm_type_size(rtype);
    mcm_plan_t p;
    mcm_nb_t *x;
    /* a datatype of unknown size is an invalid one: MPI reports it */
    if (rsize < 0)
        return MCM_NOT_TAKEN;
    int rc = mcm_nb_take(s, kind == AG ? MC_COLL_ALLGATHER : MC_COLL_ALLTOALL,
                         fns[kind][pers], pers,
                         &(mcm_call_t){.sbuf = sbuf, .scount = scount,
                                       .rcount = rcount},
                         &p, &x);
    if (rc != MPI_SUCCESS)
        return rc;
    int P = s->topo->size, ip = p.ip;
    if (stage2(x, (sides_t){!ip, 1, ip}, sbuf,
               kind == AG ? scount : scount * P, stype, rbuf, rcount * P,
               rtype) != MPI_SUCCESS)
        return bad_stage(x, "a datatype could not be packed");
    size_t block = (size_t)rcount * (size_t)rsize;
    if (!ip && x->in.bytes != (kind == AG ? block : block * (size_t)P))
        return bad_stage(x, "send and receive sizes differ (the type "
                            "signatures do not match)");
    const void *sin = ip ? MC_IN_PLACE : x->in.p;
    move_fn f = kind == AG ? (pers ? mc_allgather_init : mc_iallgather)
                           : (pers ? mc_alltoall_init : mc_ialltoall);
    return mcm_nb_started(x, f(s->node, sin, x->out.p, block, MC_UINT8,
                               &x->r),
                          req);
}

enum { GA, SC };

static int irooted(const void *sbuf, int scount, MPI_Datatype stype,
                   void *rbuf, int rcount, MPI_Datatype rtype, int root,
                   MPI_Comm comm, MPI_Request *req, int pers, int kind)
{
    static const char *const fns[2][2] = {
        {"MPI_Igather", "MPI_Gather_init"},
        {"MPI_Iscatter", "MPI_Scatter_init"}};
    mcm_comm_t *s = mcm_comm(comm);
    mcm_plan_t p;
    mcm_nb_t *x;
    int rc = mcm_nb_take(s, kind == GA ? MC_COLL_GATHER : MC_COLL_SCATTER,
                         fns[kind][pers], pers,
                         &(mcm_call_t){.sbuf = sbuf, .rbuf = rbuf,
                                       .root = root, .scount = scount,
                                       .rcount = rcount},
                         &p, &x);
    if (rc != MPI_SUCCESS)
        return rc;
    int P = s->topo->size, r = p.root, ip = p.ip;
    if (kind == GA) /* out: the root's P blocks; in: my block */
        rc = stage2(x, (sides_t){!ip, r, ip}, sbuf, scount, stype, rbuf,
                    rcount * P, rtype);
    else /* in: the root's P blocks; out: my block */
        rc = stage2(x, (sides_t){r, !ip, 0}, sbuf, scount * P, stype, rbuf,
                    rcount, rtype);
    if (rc != MPI_SUCCESS)
        return bad_stage(x, "a datatype could not be packed");
    size_t block = kind == GA ? (ip ? x->out.bytes / (size_t)P : x->in.bytes)
                              : (ip ? x->in.bytes / (size_t)P
                                    : x->out.bytes);
    if (r && !ip && (kind == GA ? x->out.bytes : x->in.bytes) !=
                        block * (size_t)P)
        return bad_stage(x, "send and receive sizes differ (the type "
                            "signatures do not match)");
    const void *sin = kind == GA ? (ip ? MC_IN_PLACE : x->in.p) : x->in.p;
    void *rout = kind == SC && ip ? MC_IN_PLACE : x->out.p;
    move_root_fn f = kind == GA ? (pers ? mc_gather_init : mc_igather)
                                : (pers ? mc_scatter_init : mc_iscatter);
    return mcm_nb_started(x, f(s->node, sin, rout, block, MC_UINT8, root,
                               &x->r),
                          req);
}

int MPI_Ibcast(void *buf, int count, MPI_Datatype dt, int root,
               MPI_Comm comm, MPI_Request *req)
{
    MCM_TRACE_COLL(MC_COLL_BCAST, MCM_NONBLOCKING, comm, req,
                   MPI_Ibcast(buf, count, dt, root, comm, req),
                   .count = count, .sdt = dt, .root = root);
    int rc = ibcast(buf, count, dt, root, comm, req, 0);
    return rc != MCM_NOT_TAKEN ? rc
                               : PMPI_Ibcast(buf, count, dt, root, comm, req);
}

int MPI_Iallgather(const void *sbuf, int scount, MPI_Datatype stype,
                   void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm,
                   MPI_Request *req)
{
    MCM_TRACE_COLL(MC_COLL_ALLGATHER, MCM_NONBLOCKING, comm, req,
                   MPI_Iallgather(sbuf, scount, stype, rbuf, rcount, rtype, comm, req),
                   .sbuf = sbuf, .scount = scount, .sdt = stype, .rbuf = rbuf, .rcount = rcount, .rdt = rtype);
    int rc = iall(sbuf, scount, stype, rbuf, rcount, rtype, comm, req, 0, AG);
    return rc != MCM_NOT_TAKEN ? rc
                               : PMPI_Iallgather(sbuf, scount, stype, rbuf,
                                                 rcount, rtype, comm, req);
}

int MPI_Ialltoall(const void *sbuf, int scount, MPI_Datatype stype,
                  void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm,
                  MPI_Request *req)
{
    MCM_TRACE_COLL(MC_COLL_ALLTOALL, MCM_NONBLOCKING, comm, req,
                   MPI_Ialltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm, req),
                   .sbuf = sbuf, .scount = scount, .sdt = stype, .rbuf = rbuf, .rcount = rcount, .rdt = rtype);
    int rc = iall(sbuf, scount, stype, rbuf, rcount, rtype, comm, req, 0,
                  A2A);
    return rc != MCM_NOT_TAKEN ? rc
                               : PMPI_Ialltoall(sbuf, scount, stype, rbuf,
                                                rcount, rtype, comm, req);
}

int MPI_Igather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                int rcount, MPI_Datatype rtype, int root, MPI_Comm comm,
                MPI_Request *req)
{
    MCM_TRACE_COLL(MC_COLL_GATHER, MCM_NONBLOCKING, comm, req,
                   MPI_Igather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req),
                   .sbuf = sbuf, .scount = scount, .sdt = stype, .rbuf = rbuf, .rcount = rcount, .rdt = rtype, .root = root);
    int rc = irooted(sbuf, scount, stype, rbuf, rcount, rtype, root, comm,
                     req, 0, GA);
    return rc != MCM_NOT_TAKEN ? rc
                               : PMPI_Igather(sbuf, scount, stype, rbuf,
                                              rcount, rtype, root, comm, req);
}

int MPI_Iscatter(const void *sbuf, int scount, MPI_Datatype stype,
                 void *rbuf, int rcount, MPI_Datatype rtype, int root,
                 MPI_Comm comm, MPI_Request *req)
{
    MCM_TRACE_COLL(MC_COLL_SCATTER, MCM_NONBLOCKING, comm, req,
                   MPI_Iscatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req),
                   .sbuf = sbuf, .scount = scount, .sdt = stype, .rbuf = rbuf, .rcount = rcount, .rdt = rtype, .root = root);
    int rc = irooted(sbuf, scount, stype, rbuf, rcount, rtype, root, comm,
                     req, 0, SC);
    return rc != MCM_NOT_TAKEN ? rc
                               : PMPI_Iscatter(sbuf, scount, stype, rbuf,
                                               rcount, rtype, root, comm, req);
}

#if MPI_VERSION >= 4
int MPI_Bcast_init(void *buf, int count, MPI_Datatype dt, int root,
                   MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    MCM_TRACE_COLL(MC_COLL_BCAST, MCM_PERSISTENT, comm, req,
                   MPI_Bcast_init(buf, count, dt, root, comm, info, req),
                   .count = count, .sdt = dt, .root = root);
    int rc = ibcast(buf, count, dt, root, comm, req, 1);
    return rc != MCM_NOT_TAKEN
               ? rc
               : PMPI_Bcast_init(buf, count, dt, root, comm, info, req);
}

int MPI_Allgather_init(const void *sbuf, int scount, MPI_Datatype stype,
                       void *rbuf, int rcount, MPI_Datatype rtype,
                       MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    MCM_TRACE_COLL(MC_COLL_ALLGATHER, MCM_PERSISTENT, comm, req,
                   MPI_Allgather_init(sbuf, scount, stype, rbuf, rcount, rtype, comm, info, req),
                   .sbuf = sbuf, .scount = scount, .sdt = stype, .rbuf = rbuf, .rcount = rcount, .rdt = rtype);
    int rc = iall(sbuf, scount, stype, rbuf, rcount, rtype, comm, req, 1, AG);
    return rc != MCM_NOT_TAKEN
               ? rc
               : PMPI_Allgather_init(sbuf, scount, stype, rbuf, rcount,
                                     rtype, comm, info, req);
}

int MPI_Alltoall_init(const void *sbuf, int scount, MPI_Datatype stype,
                      void *rbuf, int rcount, MPI_Datatype rtype,
                      MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    MCM_TRACE_COLL(MC_COLL_ALLTOALL, MCM_PERSISTENT, comm, req,
                   MPI_Alltoall_init(sbuf, scount, stype, rbuf, rcount, rtype, comm, info, req),
                   .sbuf = sbuf, .scount = scount, .sdt = stype, .rbuf = rbuf, .rcount = rcount, .rdt = rtype);
    int rc = iall(sbuf, scount, stype, rbuf, rcount, rtype, comm, req, 1,
                  A2A);
    return rc != MCM_NOT_TAKEN
               ? rc
               : PMPI_Alltoall_init(sbuf, scount, stype, rbuf, rcount, rtype,
                                    comm, info, req);
}

int MPI_Gather_init(const void *sbuf, int scount, MPI_Datatype stype,
                    void *rbuf, int rcount, MPI_Datatype rtype, int root,
                    MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    MCM_TRACE_COLL(MC_COLL_GATHER, MCM_PERSISTENT, comm, req,
                   MPI_Gather_init(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, info, req),
                   .sbuf = sbuf, .scount = scount, .sdt = stype, .rbuf = rbuf, .rcount = rcount, .rdt = rtype, .root = root);
    int rc = irooted(sbuf, scount, stype, rbuf, rcount, rtype, root, comm,
                     req, 1, GA);
    return rc != MCM_NOT_TAKEN
               ? rc
               : PMPI_Gather_init(sbuf, scount, stype, rbuf, rcount, rtype,
                                  root, comm, info, req);
}

int MPI_Scatter_init(const void *sbuf, int scount, MPI_Datatype stype,
                     void *rbuf, int rcount, MPI_Datatype rtype, int root,
                     MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    MCM_TRACE_COLL(MC_COLL_SCATTER, MCM_PERSISTENT, comm, req,
                   MPI_Scatter_init(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, info, req),
                   .sbuf = sbuf, .scount = scount, .sdt = stype, .rbuf = rbuf, .rcount = rcount, .rdt = rtype, .root = root);
    int rc = irooted(sbuf, scount, stype, rbuf, rcount, rtype, root, comm,
                     req, 1, SC);
    return rc != MCM_NOT_TAKEN
               ? rc
               : PMPI_Scatter_init(sbuf, scount, stype, rbuf, rcount, rtype,
                                   root, comm, info, req);
}
#endif
