/*
 * MPI_Allgatherv, MPI_Alltoallv, MPI_Gatherv, MPI_Scatterv on one node.
 * As for the block collectives (coll_move.c), whether manycoll takes a
 * call (the plan, plan.c) depends on the communicator alone (one node,
 * flat), the root and on counts that MPI requires to be consistent
 * between the ranks (none negative): never on a datatype, which may
 * differ between ranks. Every block moves as cnt * size bytes; a rank
 * whose datatype has gaps packs and unpacks its blocks around the call
 * (stage_v.c). Several nodes go to the MPI
 * library (no hierarchical v-variant), as do big-count (_c) calls, which
 * are not interposed. The non-blocking forms (MPI_Iallgatherv...) and,
 * with MPI 4, the persistent ones (MPI_Allgatherv_init...) run the same
 * code with a request record (nbreq.c) that owns the byte counts and the
 * staging: input blocks packed at each start, output blocks unpacked at
 * each completion.
 *
 *   MPI_Gatherv(sbuf, 3, MPI_INT, rbuf, {3,0,2}, {4,0,-2}, vec, root)
 *     sender: its 12 bytes (packed if MPI_INT were not contiguous)
 *     root:   mc_gatherv(node, sbuf', 12, p, {12,0,8}, bd, MC_UINT8, root)
 *             p = scratch; afterwards block i unpacked to rbuf + d[i]*ext
 */
#include <stdlib.h>

#include "mpi/mcmpi.h"

/* Where a call keeps its state: blocking (req NULL), the communicator's
 * arrays and scratch slots; non-blocking, a record of its own with its
 * own arrays and staging memory (slot -1). */
typedef struct vctx {
    mcm_comm_t *s;
    mcm_nb_t *x;
    int pers;
    size_t *a;
    mcm_vbuf_t lin, lout; /* blocking: the sides, on the stack */
    mcm_buf_t bin, bout;
    mcm_vbuf_t *vin, *vout;
    mcm_buf_t *in, *out;
} vctx_t;

/* The plan of the call (form: blocking if req is NULL) and, on
 * manycoll's path, v ready: MPI_SUCCESS; MCM_NOT_TAKEN (MPI's), or the
 * error handler's code (no memory: this rank's error, not a way to MPI
 * that its peers would not take). p->root and p->ip: the call's. */
static int vbegin(vctx_t *v, mcm_comm_t *s, mc_coll_t coll, const char *fn,
                  const mcm_call_t *a, MPI_Request *req, int pers,
                  mcm_plan_t *p)
{
    v->s = s;
    v->x = NULL;
    v->pers = pers;
    if (!req) {
        if (mcm_plan(s, coll, MCM_BLOCKING, a, p) == MCM_PMPI)
            return MCM_NOT_TAKEN;
        if (!(v->a = mcm_varrays(s)))
            return mcm_fail(s, fn, MC_ERR_NOMEM, "no memory for the counts");
        v->vin = &v->lin;
        v->vout = &v->lout;
        v->in = &v->bin;
        v->out = &v->bout;
        v->lin = v->lout = (mcm_vbuf_t){0};
        v->bin = v->bout = (mcm_buf_t){0};
        return MPI_SUCCESS;
    }
    int rc = mcm_nb_take(s, coll, fn, pers, a, p, &v->x);
    if (rc != MPI_SUCCESS)
        return rc;
    v->a = v->x->v = malloc(4 * (size_t)s->topo->size * sizeof *v->a);
    if (!v->a) {
        mcm_nb_drop(v->x);
        v->x = NULL;
        return mcm_fail(s, fn, MC_ERR_NOMEM, "no memory for a request");
    }
    v->vin = &v->x->vin;
    v->vout = &v->x->vout;
    v->in = &v->x->in;
    v->out = &v->x->out;
    return MPI_SUCCESS;
}

static int slot(const vctx_t *v, int k)
{
    return v->x ? -1 : k;
}

/* what a v-side (0: in, 1: out) packs now: all that `input` selects, or
 * for a persistent call nothing, with `input` kept for every start */
static int now(const vctx_t *v, int input, int out)
{
    if (!v->pers)
        return input;
    *(out ? &v->x->vout_pack : &v->x->vin_pack) = input;
    return MCM_V_OUT;
}

/* a failure before the call: the record (if any) dropped */
static int vfail(vctx_t *v, const char *fn, const char *what)
{
    if (v->x)
        mcm_nb_drop(v->x);
    return mcm_fail(v->s, fn, MC_ERR_ARG, what);
}

static int staged(vctx_t *v, const char *fn, int rc)
{
    return rc == MPI_SUCCESS ? rc
                             : vfail(v, fn, "a datatype could not be "
                                            "packed");
}

static int mismatch(vctx_t *v, const char *fn)
{
    return vfail(v, fn, "this rank's send and receive sizes differ (the "
                        "type signatures do not match)");
}

/* after the call (blocking: rc its result) or its start (non-blocking:
 * rc of mc_i<coll>, the record in *req) */
static int vend(vctx_t *v, const char *fn, int rc, MPI_Request *req)
{
    if (v->x)
        return mcm_nb_started(v->x, rc, req);
    if (rc != MC_OK)
        return mcm_fail(v->s, fn, rc, NULL);
    if (v->lout.packed)
        rc = mcm_vunstage(v->s, &v->lout);
    else if (v->bout.packed)
        rc = mcm_unstage(v->s, &v->bout);
    return rc == MPI_SUCCESS ? rc
                             : mcm_fail(v->s, fn, MC_ERR_ARG,
                                        "a datatype could not be unpacked");
}

static int allgatherv(const void *sbuf, int scount, MPI_Datatype stype,
                      void *rbuf, const int rcounts[], const int displs[],
                      MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req,
                      int pers)
{
    const char *fn = !req  ? "MPI_Allgatherv"
                     : pers ? "MPI_Allgatherv_init"
                            : "MPI_Iallgatherv";
    mcm_comm_t *s = mcm_comm(comm);
    vctx_t v;
    mcm_plan_t p;
    int rc = vbegin(&v, s, MC_COLL_ALLGATHERV, fn,
                    &(mcm_call_t){.sbuf = sbuf, .scount = scount,
                                  .rcounts = rcounts, .rdispls = displs},
                    req, pers, &p);
    if (rc != MPI_SUCCESS)
        return rc;
    int me = s->topo->rank, ip = p.ip;
    rc = mcm_vstage(s, v.vout, rbuf, rcounts, displs, rtype,
                    now(&v, ip ? me : MCM_V_OUT, 1), slot(&v, 1), v.a);
    if (rc == MPI_SUCCESS && !ip)
        rc = mcm_stage(s, v.in, (void *)sbuf, scount, stype, !pers,
                       slot(&v, 0));
    if (rc != MPI_SUCCESS)
        return staged(&v, fn, rc);
    if (!ip && v.in->bytes != v.vout->bc[me])
        return mismatch(&v, fn);
    const void *sin = ip ? MC_IN_PLACE : v.in->p;
    rc = req ? (pers ? mc_allgatherv_init : mc_iallgatherv)(
                   s->node, sin, v.vout->bc[me], v.vout->p,
                   v.vout->bc, v.vout->bd, MC_UINT8, &v.x->r)
             : mc_allgatherv(s->node, sin, v.vout->bc[me], v.vout->p,
                             v.vout->bc, v.vout->bd, MC_UINT8);
    return vend(&v, fn, rc, req);
}

static int alltoallv(const void *sbuf, const int scounts[],
                     const int sdispls[], MPI_Datatype stype, void *rbuf,
                     const int rcounts[], const int rdispls[],
                     MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req,
                      int pers)
{
    const char *fn = !req  ? "MPI_Alltoallv"
                     : pers ? "MPI_Alltoallv_init"
                            : "MPI_Ialltoallv";
    mcm_comm_t *s = mcm_comm(comm);
    vctx_t v;
    mcm_plan_t p;
    int rc = vbegin(&v, s, MC_COLL_ALLTOALLV, fn,
                    &(mcm_call_t){.sbuf = sbuf, .scounts = scounts,
                                  .sdispls = sdispls, .rcounts = rcounts,
                                  .rdispls = rdispls},
                    req, pers, &p);
    if (rc != MPI_SUCCESS)
        return rc;
    int me = s->topo->rank, n = s->topo->size, ip = p.ip;
    rc = mcm_vstage(s, v.vout, rbuf, rcounts, rdispls, rtype,
                    now(&v, ip ? MCM_V_ALL : MCM_V_OUT, 1), slot(&v, 1),
                    v.a);
    if (rc == MPI_SUCCESS && !ip)
        rc = mcm_vstage(s, v.vin, (void *)sbuf, scounts, sdispls, stype,
                        now(&v, MCM_V_ALL, 0), slot(&v, 0),
                        v.a + 2 * (size_t)n);
    if (rc != MPI_SUCCESS)
        return staged(&v, fn, rc);
    if (!ip && v.vin->bc[me] != v.vout->bc[me])
        return mismatch(&v, fn);
    const void *sin = ip ? MC_IN_PLACE : v.vin->p;
    const size_t *sc = ip ? NULL : v.vin->bc, *sd = ip ? NULL : v.vin->bd;
    rc = req ? (pers ? mc_alltoallv_init : mc_ialltoallv)(
                   s->node, sin, sc, sd, v.vout->p, v.vout->bc,
                   v.vout->bd, MC_UINT8, &v.x->r)
             : mc_alltoallv(s->node, sin, sc, sd, v.vout->p, v.vout->bc,
                            v.vout->bd, MC_UINT8);
    return vend(&v, fn, rc, req);
}

static int gatherv(const void *sbuf, int scount, MPI_Datatype stype,
                   void *rbuf, const int rcounts[], const int displs[],
                   MPI_Datatype rtype, int root, MPI_Comm comm,
                   MPI_Request *req, int pers)
{
    const char *fn = !req  ? "MPI_Gatherv"
                     : pers ? "MPI_Gatherv_init"
                            : "MPI_Igatherv";
    mcm_comm_t *s = mcm_comm(comm);
    vctx_t v;
    mcm_plan_t p;
    int rc = vbegin(&v, s, MC_COLL_GATHERV, fn,
                    &(mcm_call_t){.sbuf = sbuf, .root = root,
                                  .scount = scount, .rcounts = rcounts,
                                  .rdispls = displs},
                    req, pers, &p);
    if (rc != MPI_SUCCESS)
        return rc;
    int r = p.root, ip = p.ip;
    if (r)
        rc = mcm_vstage(s, v.vout, rbuf, rcounts, displs, rtype,
                        now(&v, ip ? root : MCM_V_OUT, 1),
                        slot(&v, 1), v.a);
    if (rc == MPI_SUCCESS && !ip)
        rc = mcm_stage(s, v.in, (void *)sbuf, scount, stype, !pers,
                       slot(&v, 0));
    if (rc != MPI_SUCCESS)
        return staged(&v, fn, rc);
    if (r && !ip && v.in->bytes != v.vout->bc[root])
        return mismatch(&v, fn);
    const void *sin = ip ? MC_IN_PLACE : v.in->p;
    size_t own = ip ? v.vout->bc[root] : v.in->bytes;
    rc = req ? (pers ? mc_gatherv_init : mc_igatherv)(
                   s->node, sin, own, v.vout->p, v.vout->bc,
                   v.vout->bd, MC_UINT8, root, &v.x->r)
             : mc_gatherv(s->node, sin, own, v.vout->p, v.vout->bc,
                          v.vout->bd, MC_UINT8, root);
    return vend(&v, fn, rc, req);
}

static int scatterv(const void *sbuf, const int scounts[], const int displs[],
                    MPI_Datatype stype, void *rbuf, int rcount,
                    MPI_Datatype rtype, int root, MPI_Comm comm,
                    MPI_Request *req, int pers)
{
    const char *fn = !req  ? "MPI_Scatterv"
                     : pers ? "MPI_Scatterv_init"
                            : "MPI_Iscatterv";
    mcm_comm_t *s = mcm_comm(comm);
    vctx_t v;
    mcm_plan_t p;
    int rc = vbegin(&v, s, MC_COLL_SCATTERV, fn,
                    &(mcm_call_t){.rbuf = rbuf, .root = root,
                                  .rcount = rcount, .scounts = scounts,
                                  .sdispls = displs},
                    req, pers, &p);
    if (rc != MPI_SUCCESS)
        return rc;
    int r = p.root, ip = p.ip;
    if (r)
        rc = mcm_vstage(s, v.vin, (void *)sbuf, scounts, displs, stype,
                        now(&v, MCM_V_ALL, 0), slot(&v, 0),
                        v.a);
    if (rc == MPI_SUCCESS && !ip)
        rc = mcm_stage(s, v.out, rbuf, rcount, rtype, 0, slot(&v, 1));
    if (rc != MPI_SUCCESS)
        return staged(&v, fn, rc);
    if (r && !ip && v.out->bytes != v.vin->bc[root])
        return mismatch(&v, fn);
    void *rout = ip ? MC_IN_PLACE : v.out->p;
    size_t own = ip ? v.vin->bc[root] : v.out->bytes;
    rc = req ? (pers ? mc_scatterv_init : mc_iscatterv)(
                   s->node, v.vin->p, v.vin->bc, v.vin->bd, rout,
                   own, MC_UINT8, root, &v.x->r)
             : mc_scatterv(s->node, v.vin->p, v.vin->bc, v.vin->bd, rout,
                           own, MC_UINT8, root);
    return vend(&v, fn, rc, req);
}

int MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype stype,
                   void *rbuf, const int rcounts[], const int displs[],
                   MPI_Datatype rtype, MPI_Comm comm)
{
    MCM_TRACE_COLL(MC_COLL_ALLGATHERV, MCM_BLOCKING, comm, NULL,
                   MPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm),
                   .sbuf = sbuf, .scount = scount, .sdt = stype, .rbuf = rbuf, .rcounts = rcounts, .rdt = rtype);
    int rc = allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype,
                        comm, NULL, 0);
    return rc != MCM_NOT_TAKEN ? rc
                               : PMPI_Allgatherv(sbuf, scount, stype, rbuf,
                                                 rcounts, displs, rtype,
                                                 comm);
}

int MPI_Iallgatherv(const void *sbuf, int scount, MPI_Datatype stype,
                    void *rbuf, const int rcounts[], const int displs[],
                    MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req)
{
    MCM_TRACE_COLL(MC_COLL_ALLGATHERV, MCM_NONBLOCKING, comm, req,
                   MPI_Iallgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, req),
                   .sbuf = sbuf, .scount = scount, .sdt = stype, .rbuf = rbuf, .rcounts = rcounts, .rdt = rtype);
    int rc = allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype,
                        comm, req, 0);
    return rc != MCM_NOT_TAKEN ? rc
                               : PMPI_Iallgatherv(sbuf, scount, stype, rbuf,
                                                  rcounts, displs, rtype,
                                                  comm, req);
}

int MPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[],
                  MPI_Datatype stype, void *rbuf, const int rcounts[],
                  const int rdispls[], MPI_Datatype rtype, MPI_Comm comm)
{
    MCM_TRACE_COLL(MC_COLL_ALLTOALLV, MCM_BLOCKING, comm, NULL,
                   MPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm),
                   .sbuf = sbuf, .scounts = scounts, .sdt = stype, .rbuf = rbuf, .rcounts = rcounts, .rdt = rtype);
    int rc = alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts,
                       rdispls, rtype, comm, NULL, 0);
    return rc != MCM_NOT_TAKEN ? rc
                               : PMPI_Alltoallv(sbuf, scounts, sdispls, stype,
                                                rbuf, rcounts, rdispls, rtype,
                                                comm);
}

int MPI_Ialltoallv(const void *sbuf, const int scounts[],
                   const int sdispls[], MPI_Datatype stype, void *rbuf,
                   const int rcounts[], const int rdispls[],
                   MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req)
{
    MCM_TRACE_COLL(MC_COLL_ALLTOALLV, MCM_NONBLOCKING, comm, req,
                   MPI_Ialltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, req),
                   .sbuf = sbuf, .scounts = scounts, .sdt = stype, .rbuf = rbuf, .rcounts = rcounts, .rdt = rtype);
    int rc = alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts,
                       rdispls, rtype, comm, req, 0);
    return rc != MCM_NOT_TAKEN
               ? rc
               : PMPI_Ialltoallv(sbuf, scounts, sdispls, stype, rbuf,
                                 rcounts, rdispls, rtype, comm, req);
}

int MPI_Gatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                const int rcounts[], const int displs[], MPI_Datatype rtype,
                int root, MPI_Comm comm)
{
    MCM_TRACE_COLL(MC_COLL_GATHERV, MCM_BLOCKING, comm, NULL,
                   MPI_Gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm),
                   .sbuf = sbuf, .scount = scount, .sdt = stype, .rbuf = rbuf, .rcounts = rcounts, .rdt = rtype, .root = root);
    int rc = gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root,
                     comm, NULL, 0);
    return rc != MCM_NOT_TAKEN ? rc
                               : PMPI_Gatherv(sbuf, scount, stype, rbuf,
                                              rcounts, displs, rtype, root,
                                              comm);
}

int MPI_Igatherv(const void *sbuf, int scount, MPI_Datatype stype,
                 void *rbuf, const int rcounts[], const int displs[],
                 MPI_Datatype rtype, int root, MPI_Comm comm,
                 MPI_Request *req)
{
    MCM_TRACE_COLL(MC_COLL_GATHERV, MCM_NONBLOCKING, comm, req,
                   MPI_Igatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm, req),
                   .sbuf = sbuf, .scount = scount, .sdt = stype, .rbuf = rbuf, .rcounts = rcounts, .rdt = rtype, .root = root);
    int rc = gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root,
                     comm, req, 0);
    return rc != MCM_NOT_TAKEN ? rc
                               : PMPI_Igatherv(sbuf, scount, stype, rbuf,
                                               rcounts, displs, rtype, root,
                                               comm, req);
}

int MPI_Scatterv(const void *sbuf, const int scounts[], const int displs[],
                 MPI_Datatype stype, void *rbuf, int rcount,
                 MPI_Datatype rtype, int root, MPI_Comm comm)
{
    MCM_TRACE_COLL(MC_COLL_SCATTERV, MCM_BLOCKING, comm, NULL,
                   MPI_Scatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm),
                   .sbuf = sbuf, .scounts = scounts, .sdt = stype, .rbuf = rbuf, .rcount = rcount, .rdt = rtype, .root = root);
    int rc = scatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype,
                      root, comm, NULL, 0);
    return rc != MCM_NOT_TAKEN ? rc
                               : PMPI_Scatterv(sbuf, scounts, displs, stype,
                                               rbuf, rcount, rtype, root,
                                               comm);
}

int MPI_Iscatterv(const void *sbuf, const int scounts[], const int displs[],
                  MPI_Datatype stype, void *rbuf, int rcount,
                  MPI_Datatype rtype, int root, MPI_Comm comm,
                  MPI_Request *req)
{
    MCM_TRACE_COLL(MC_COLL_SCATTERV, MCM_NONBLOCKING, comm, req,
                   MPI_Iscatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm, req),
                   .sbuf = sbuf, .scounts = scounts, .sdt = stype, .rbuf = rbuf, .rcount = rcount, .rdt = rtype, .root = root);
    int rc = scatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype,
                      root, comm, req, 0);
    return rc != MCM_NOT_TAKEN ? rc
                               : PMPI_Iscatterv(sbuf, scounts, displs, stype,
                                                rbuf, rcount, rtype, root,
                                                comm, req);
}

#if MPI_VERSION >= 4
int MPI_Allgatherv_init(const void *sbuf, int scount, MPI_Datatype stype,
                        void *rbuf, const int rcounts[], const int displs[],
                        MPI_Datatype rtype, MPI_Comm comm, MPI_Info info,
                        MPI_Request *req)
{
    MCM_TRACE_COLL(MC_COLL_ALLGATHERV, MCM_PERSISTENT, comm, req,
                   MPI_Allgatherv_init(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, info, req),
                   .sbuf = sbuf, .scount = scount, .sdt = stype, .rbuf = rbuf, .rcounts = rcounts, .rdt = rtype);
    int rc = allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype,
                        comm, req, 1);
    return rc != MCM_NOT_TAKEN
               ? rc
               : PMPI_Allgatherv_init(sbuf, scount, stype, rbuf, rcounts,
                                      displs, rtype, comm, info, req);
}

int MPI_Alltoallv_init(const void *sbuf, const int scounts[],
                       const int sdispls[], MPI_Datatype stype, void *rbuf,
                       const int rcounts[], const int rdispls[],
                       MPI_Datatype rtype, MPI_Comm comm, MPI_Info info,
                       MPI_Request *req)
{
    MCM_TRACE_COLL(MC_COLL_ALLTOALLV, MCM_PERSISTENT, comm, req,
                   MPI_Alltoallv_init(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, info, req),
                   .sbuf = sbuf, .scounts = scounts, .sdt = stype, .rbuf = rbuf, .rcounts = rcounts, .rdt = rtype);
    int rc = alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts,
                       rdispls, rtype, comm, req, 1);
    return rc != MCM_NOT_TAKEN
               ? rc
               : PMPI_Alltoallv_init(sbuf, scounts, sdispls, stype, rbuf,
                                     rcounts, rdispls, rtype, comm, info,
                                     req);
}

int MPI_Gatherv_init(const void *sbuf, int scount, MPI_Datatype stype,
                     void *rbuf, const int rcounts[], const int displs[],
                     MPI_Datatype rtype, int root, MPI_Comm comm,
                     MPI_Info info, MPI_Request *req)
{
    MCM_TRACE_COLL(MC_COLL_GATHERV, MCM_PERSISTENT, comm, req,
                   MPI_Gatherv_init(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm, info, req),
                   .sbuf = sbuf, .scount = scount, .sdt = stype, .rbuf = rbuf, .rcounts = rcounts, .rdt = rtype, .root = root);
    int rc = gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root,
                     comm, req, 1);
    return rc != MCM_NOT_TAKEN
               ? rc
               : PMPI_Gatherv_init(sbuf, scount, stype, rbuf, rcounts, displs,
                                   rtype, root, comm, info, req);
}

int MPI_Scatterv_init(const void *sbuf, const int scounts[],
                      const int displs[], MPI_Datatype stype, void *rbuf,
                      int rcount, MPI_Datatype rtype, int root, MPI_Comm comm,
                      MPI_Info info, MPI_Request *req)
{
    MCM_TRACE_COLL(MC_COLL_SCATTERV, MCM_PERSISTENT, comm, req,
                   MPI_Scatterv_init(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm, info, req),
                   .sbuf = sbuf, .scounts = scounts, .sdt = stype, .rbuf = rbuf, .rcount = rcount, .rdt = rtype, .root = root);
    int rc = scatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype,
                      root, comm, req, 1);
    return rc != MCM_NOT_TAKEN
               ? rc
               : PMPI_Scatterv_init(sbuf, scounts, displs, stype, rbuf,
                                    rcount, rtype, root, comm, info, req);
}
#endif
