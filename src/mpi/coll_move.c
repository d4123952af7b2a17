/*
 * MPI_Barrier, MPI_Bcast, MPI_Allgather, MPI_Alltoall, MPI_Gather,
 * MPI_Scatter: collectives that move bytes. Whether manycoll takes one
 * depends only on the communicator (and a valid root and count): never on
 * the datatypes, whose type signatures alone must match between ranks.
 * Every rank moves count * size bytes; a rank whose datatype is not one
 * contiguous run of bytes packs and unpacks around the call (stage.c).
 * The plan (plan.c) decides where each call goes; barrier and bcast on
 * one node read its answer cached per communicator (s->fast).
 */
#include "mpi/mcmpi.h"
#include "mpi/trace_hot.h"

static int result(mcm_comm_t *s, const char *fn, int rc)
{
    if (rc == MC_OK)
        return MPI_SUCCESS;
    return mcm_fail(s, fn, rc, s->path == MCM_HIER ? mc_hier_last_error()
                                                   : NULL);
}

static int staged(mcm_comm_t *s, const char *fn, int rc)
{
    return rc == MPI_SUCCESS ? rc
                             : mcm_fail(s, fn, MC_ERR_ARG,
                                        "a datatype could not be packed");
}

static int mismatch(mcm_comm_t *s, const char *fn)
{
    return mcm_fail(s, fn, MC_ERR_ARG, "send and receive sizes differ "
                                       "(the type signatures do not match)");
}

static inline __attribute__((always_inline)) int blk_barrier(MPI_Comm comm)
{
    mcm_comm_t *s = mcm_comm(comm);
    mcm_plan_t p;
    if (s && (s->fast >> MC_COLL_BARRIER & 1)) {
        mcm_count(s, MC_COLL_BARRIER, MCM_BLOCKING, MCM_FLAT, NULL);
        return result(s, "MPI_Barrier", mc_barrier(s->node));
    }
    if (s && mcm_routed(s, MC_COLL_BARRIER, 0)) /* decided for MPI */
        return PMPI_Barrier(comm);
    if (mcm_plan(s, MC_COLL_BARRIER, MCM_BLOCKING, &(mcm_call_t){0}, &p) ==
        MCM_PMPI)
        return mcm_picked(&p, PMPI_Barrier(comm));
    int rc = p.path == MCM_FLAT ? mc_barrier(s->node)
                                : mc_hier_barrier(&s->hier);
    return mcm_picked(&p, result(s, "MPI_Barrier", rc));
}

static MCM_TRACED int tr_barrier(MPI_Comm comm)
{
    MCM_TRACE_BLK(MC_COLL_BARRIER, comm, blk_barrier(comm), 0, 0,
                  MPI_DATATYPE_NULL, MPI_DATATYPE_NULL, MPI_OP_NULL, 0, 0,
                  .root = 0);
    return blk_barrier(comm);
}

int MPI_Barrier(MPI_Comm comm)
{
    if (MCM_TRACING())
        return tr_barrier(comm);
    return blk_barrier(comm);
}

static inline __attribute__((always_inline)) int blk_bcast(void *buf, int count, MPI_Datatype dt, int root,
                            MPI_Comm comm)
{
    mcm_comm_t *s = mcm_comm(comm);
    const mcm_type_t *t;
    mcm_plan_t p;
    /* the plan's steps 4 and 5 for a predefined type, inline */
    if (s && (s->fast >> MC_COLL_BCAST & 1) && count >= 0 &&
        (t = mcm_type(dt)) && root >= 0 && root < s->topo->size) {
        mcm_count(s, MC_COLL_BCAST, MCM_BLOCKING, MCM_FLAT, NULL);
        return result(s, "MPI_Bcast",
                      mc_bcast(s->node, buf, (size_t)count * t->size,
                               MC_UINT8, root));
    }
    if (s && s->to_mpi[MC_COLL_BCAST] && count >= 0 && (t = mcm_type(dt)) &&
        root >= 0 && root < s->topo->size &&
        mcm_routed(s, MC_COLL_BCAST, (long long)count * t->size))
        return PMPI_Bcast(buf, count, dt, root, comm); /* decided for MPI */
    if (mcm_plan(s, MC_COLL_BCAST, MCM_BLOCKING,
                 &(mcm_call_t){.root = root, .count = count, .dt = dt},
                 &p) == MCM_PMPI)
        return mcm_picked(&p, PMPI_Bcast(buf, count, dt, root, comm));
    mcm_buf_t b;
    int me = p.root;
    int rc = mcm_stage(s, &b, buf, count, dt, me, 0);
    if (rc != MPI_SUCCESS)
        return staged(s, "MPI_Bcast", rc);
    rc = p.path == MCM_FLAT
             ? mc_bcast(s->node, b.p, b.bytes, MC_UINT8, root)
             : mc_hier_bcast(&s->hier, b.p, b.bytes, MC_UINT8, root);
    if (rc != MC_OK)
        return result(s, "MPI_Bcast", rc);
    return mcm_picked(&p, staged(s, "MPI_Bcast",
                                 me ? MPI_SUCCESS : mcm_unstage(s, &b)));
}

static MCM_TRACED int tr_bcast(void *buf, int count, MPI_Datatype dt, int root,
                               MPI_Comm comm)
{
    MCM_TRACE_BLK(MC_COLL_BCAST, comm, blk_bcast(buf, count, dt, root, comm),
                  count, 0, dt, MPI_DATATYPE_NULL, MPI_OP_NULL, root, 0,
                  .count = count, .sdt = dt, .root = root);
    return blk_bcast(buf, count, dt, root, comm);
}

int MPI_Bcast(void *buf, int count, MPI_Datatype dt, int root,
              MPI_Comm comm)
{
    if (MCM_TRACING())
        return tr_bcast(buf, count, dt, root, comm);
    return blk_bcast(buf, count, dt, root, comm);
}

/* The receive side (n elements of rtype at rbuf, read too when in place)
 * and the send side (unless in place), checked to carry `block` bytes. */
typedef struct sides {
    mcm_buf_t in, out;
    const void *sin; /* for manycoll: MC_IN_PLACE or in.p */
} sides_t;

static int stage_both(mcm_comm_t *s, sides_t *x, const void *sbuf, int scount,
                      MPI_Datatype stype, void *rbuf, int rcount,
                      MPI_Datatype rtype, int in_place)
{
    int rc = mcm_stage(s, &x->out, rbuf, rcount, rtype, in_place, 1);
    x->sin = MC_IN_PLACE;
    if (rc == MPI_SUCCESS && !in_place) {
        rc = mcm_stage(s, &x->in, (void *)sbuf, scount, stype, 1, 0);
        x->sin = x->in.p;
    }
    return rc;
}

static inline __attribute__((always_inline)) int blk_allgather(const void *sbuf, int scount,
                                MPI_Datatype stype, void *rbuf, int rcount,
                                MPI_Datatype rtype, MPI_Comm comm)
{
    static const char fn[] = "MPI_Allgather";
    mcm_comm_t *s = mcm_comm(comm);
    long long rsize = mcm_type_size(rtype);
    mcm_plan_t p;
    /* a datatype of unknown size is an invalid one: MPI reports it */
    if (rsize < 0)
        return PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    if (mcm_plan(s, MC_COLL_ALLGATHER, MCM_BLOCKING,
                 &(mcm_call_t){.sbuf = sbuf, .scount = scount,
                               .rcount = rcount, .dt = stype, .rdt = rtype},
                 &p) == MCM_PMPI)
        return mcm_picked(&p, PMPI_Allgather(sbuf, scount, stype, rbuf,
                                             rcount, rtype, comm));
    int P = s->topo->size, ip = p.ip;
    sides_t x;
    int rc = stage_both(s, &x, sbuf, scount, stype, rbuf, rcount * P, rtype,
                        ip);
    if (rc != MPI_SUCCESS)
        return staged(s, fn, rc);
    size_t block = (size_t)rcount * (size_t)rsize;
    if (!ip && x.in.bytes != block)
        return mismatch(s, fn);
    rc = p.path == MCM_FLAT
             ? mc_allgather(s->node, x.sin, x.out.p, block, MC_UINT8)
             : mc_hier_allgather(&s->hier, x.sin, x.out.p, block, MC_UINT8);
    if (rc != MC_OK)
        return result(s, fn, rc);
    return mcm_picked(&p, staged(s, fn, mcm_unstage(s, &x.out)));
}

static MCM_TRACED int tr_allgather(const void *sbuf, int scount,
                                   MPI_Datatype stype, void *rbuf, int rcount,
                                   MPI_Datatype rtype, MPI_Comm comm)
{
    MCM_TRACE_BLK(MC_COLL_ALLGATHER, comm, blk_allgather(sbuf, scount, stype,
                  rbuf, rcount, rtype, comm), scount, rcount, stype, rtype,
                  MPI_OP_NULL, 0, sbuf == MPI_IN_PLACE, .sbuf = sbuf,
                  .scount = scount, .sdt = stype, .rbuf = rbuf,
                  .rcount = rcount, .rdt = rtype);
    return blk_allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
}

int MPI_Allgather(const void *sbuf, int scount, MPI_Datatype stype,
                  void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
    if (MCM_TRACING())
        return tr_allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    return blk_allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
}

static inline __attribute__((always_inline)) int blk_alltoall(const void *sbuf, int scount,
                               MPI_Datatype stype, void *rbuf, int rcount,
                               MPI_Datatype rtype, MPI_Comm comm)
{
    static const char fn[] = "MPI_Alltoall";
    mcm_comm_t *s = mcm_comm(comm);
    const mcm_type_t *t;
    if (s && s->to_mpi[MC_COLL_ALLTOALL] && sbuf != MPI_IN_PLACE &&
        (t = mcm_type(stype)) && mcm_blocks_ok(scount, s->topo->size) &&
        mcm_blocks_ok(rcount, s->topo->size) &&
        mcm_routed(s, MC_COLL_ALLTOALL, (long long)scount * t->size))
        return PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype,
                             comm); /* decided for MPI */
    long long rsize = mcm_type_size(rtype);
    mcm_plan_t p = {.trial = NULL};
    if (rsize < 0 ||
        mcm_plan(s, MC_COLL_ALLTOALL, MCM_BLOCKING,
                 &(mcm_call_t){.sbuf = sbuf, .scount = scount,
                               .rcount = rcount, .dt = stype, .rdt = rtype},
                 &p) == MCM_PMPI)
        return mcm_picked(&p, PMPI_Alltoall(sbuf, scount, stype, rbuf,
                                            rcount, rtype, comm));
    int P = s->topo->size, ip = p.ip;
    sides_t x;
    int rc = stage_both(s, &x, sbuf, scount * P, stype, rbuf, rcount * P,
                        rtype, ip);
    if (rc != MPI_SUCCESS)
        return staged(s, fn, rc);
    size_t block = (size_t)rcount * (size_t)rsize;
    if (!ip && x.in.bytes != block * (size_t)P)
        return mismatch(s, fn);
    rc = p.path == MCM_FLAT
             ? mc_alltoall(s->node, x.sin, x.out.p, block, MC_UINT8)
             : mc_hier_alltoall(&s->hier, x.sin, x.out.p, block, MC_UINT8);
    if (rc != MC_OK)
        return result(s, fn, rc);
    return mcm_picked(&p, staged(s, fn, mcm_unstage(s, &x.out)));
}

static MCM_TRACED int tr_alltoall(const void *sbuf, int scount,
                                  MPI_Datatype stype, void *rbuf, int rcount,
                                  MPI_Datatype rtype, MPI_Comm comm)
{
    MCM_TRACE_BLK(MC_COLL_ALLTOALL, comm, blk_alltoall(sbuf, scount, stype,
                  rbuf, rcount, rtype, comm), scount, rcount, stype, rtype,
                  MPI_OP_NULL, 0, sbuf == MPI_IN_PLACE, .sbuf = sbuf,
                  .scount = scount, .sdt = stype, .rbuf = rbuf,
                  .rcount = rcount, .rdt = rtype);
    return blk_alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
}

int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype,
                 void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
    if (MCM_TRACING())
        return tr_alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    return blk_alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
}
