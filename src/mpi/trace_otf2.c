/*
 * OTF2's collective callbacks, over PMPI on the recording's private
 * duplicate of MPI_COMM_WORLD (mcm_tr.comm). OTF2 ships its own
 * (OTF2_MPI_Collectives.h), but those call MPI_*, which this library
 * intercepts and records; these call PMPI_* only. The archive uses them
 * to agree on the files and, at OTF2_Archive_Close, on what rank 0 (the
 * archive's primary) writes.
 */
#include <stdlib.h>

#include "mpi/trace.h"

#if MCM_HAVE_OTF2
#include "mpi/trace_impl.h"

/* OTF2 declares this type and leaves it to us */
struct OTF2_CollectiveContext {
    MPI_Comm comm;
};

static OTF2_CollectiveContext world_ctx;

static MPI_Datatype mpi_type(OTF2_Type t)
{
    switch (t) {
    case OTF2_TYPE_UINT8: return MPI_UINT8_T;
    case OTF2_TYPE_INT8: return MPI_INT8_T;
    case OTF2_TYPE_UINT16: return MPI_UINT16_T;
    case OTF2_TYPE_INT16: return MPI_INT16_T;
    case OTF2_TYPE_UINT32: return MPI_UINT32_T;
    case OTF2_TYPE_INT32: return MPI_INT32_T;
    case OTF2_TYPE_UINT64: return MPI_UINT64_T;
    case OTF2_TYPE_INT64: return MPI_INT64_T;
    case OTF2_TYPE_FLOAT: return MPI_FLOAT;
    case OTF2_TYPE_DOUBLE: return MPI_DOUBLE;
    default: return MPI_DATATYPE_NULL;
    }
}

static OTF2_CallbackCode code(int rc)
{
    return rc == MPI_SUCCESS ? OTF2_CALLBACK_SUCCESS : OTF2_CALLBACK_ERROR;
}

static OTF2_CallbackCode get_size(void *u, OTF2_CollectiveContext *c,
                                  uint32_t *size)
{
    int n = 0, rc = PMPI_Comm_size(c->comm, &n);
    *size = (uint32_t)n;
    return code(rc);
}

static OTF2_CallbackCode get_rank(void *u, OTF2_CollectiveContext *c,
                                  uint32_t *rank)
{
    int r = 0, rc = PMPI_Comm_rank(c->comm, &r);
    *rank = (uint32_t)r;
    return code(rc);
}

static OTF2_CallbackCode create_local(void *u, OTF2_CollectiveContext **out,
                                      OTF2_CollectiveContext *g,
                                      uint32_t grank, uint32_t gsize,
                                      uint32_t lrank, uint32_t lsize,
                                      uint32_t file, uint32_t nfiles)
{
    OTF2_CollectiveContext *c = malloc(sizeof *c);
    if (!c)
        return OTF2_CALLBACK_ERROR;
    int rc = PMPI_Comm_split(g->comm, (int)file, (int)lrank, &c->comm);
    if (rc != MPI_SUCCESS) {
        free(c);
        return OTF2_CALLBACK_ERROR;
    }
    *out = c;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode free_local(void *u, OTF2_CollectiveContext *c)
{
    int rc = PMPI_Comm_free(&c->comm);
    free(c);
    return code(rc);
}

static OTF2_CallbackCode barrier(void *u, OTF2_CollectiveContext *c)
{
    return code(PMPI_Barrier(c->comm));
}

static OTF2_CallbackCode bcast(void *u, OTF2_CollectiveContext *c,
                               void *data, uint32_t n, OTF2_Type t,
                               uint32_t root)
{
    return code(PMPI_Bcast(data, (int)n, mpi_type(t), (int)root, c->comm));
}

static OTF2_CallbackCode gather(void *u, OTF2_CollectiveContext *c,
                                const void *in, void *out, uint32_t n,
                                OTF2_Type t, uint32_t root)
{
    return code(PMPI_Gather(in, (int)n, mpi_type(t), out, (int)n,
                            mpi_type(t), (int)root, c->comm));
}

/* displacements of counts, at the root only: NULL if no memory */
static int *displs(OTF2_CollectiveContext *c, const uint32_t *counts,
                   uint32_t root, int **cnt)
{
    int me = 0, n = 0;
    PMPI_Comm_rank(c->comm, &me);
    PMPI_Comm_size(c->comm, &n);
    int *d = calloc(2 * (size_t)n + 1, sizeof *d);
    if (!d)
        return NULL;
    *cnt = d + n;
    if ((uint32_t)me == root)
        for (int i = 0, off = 0; i < n; i++) {
            (*cnt)[i] = (int)counts[i];
            d[i] = off;
            off += (int)counts[i];
        }
    return d;
}

static OTF2_CallbackCode gatherv(void *u, OTF2_CollectiveContext *c,
                                 const void *in, uint32_t nin, void *out,
                                 const uint32_t *nout, OTF2_Type t,
                                 uint32_t root)
{
    int *cnt, *d = displs(c, nout, root, &cnt);
    if (!d)
        return OTF2_CALLBACK_ERROR;
    int rc = PMPI_Gatherv(in, (int)nin, mpi_type(t), out, cnt, d,
                          mpi_type(t), (int)root, c->comm);
    free(d);
    return code(rc);
}

static OTF2_CallbackCode scatter(void *u, OTF2_CollectiveContext *c,
                                 const void *in, void *out, uint32_t n,
                                 OTF2_Type t, uint32_t root)
{
    return code(PMPI_Scatter(in, (int)n, mpi_type(t), out, (int)n,
                             mpi_type(t), (int)root, c->comm));
}

static OTF2_CallbackCode scatterv(void *u, OTF2_CollectiveContext *c,
                                  const void *in, const uint32_t *nin,
                                  void *out, uint32_t nout, OTF2_Type t,
                                  uint32_t root)
{
    int *cnt, *d = displs(c, nin, root, &cnt);
    if (!d)
        return OTF2_CALLBACK_ERROR;
    int rc = PMPI_Scatterv(in, cnt, d, mpi_type(t), out, (int)nout,
                           mpi_type(t), (int)root, c->comm);
    free(d);
    return code(rc);
}

static void release(void *u, OTF2_CollectiveContext *g,
                    OTF2_CollectiveContext *l)
{
    (void)u, (void)g, (void)l;
}

static const OTF2_CollectiveCallbacks cbs = {
    .otf2_release = release,
    .otf2_get_size = get_size,
    .otf2_get_rank = get_rank,
    .otf2_create_local_comm = create_local,
    .otf2_free_local_comm = free_local,
    .otf2_barrier = barrier,
    .otf2_bcast = bcast,
    .otf2_gather = gather,
    .otf2_gatherv = gatherv,
    .otf2_scatter = scatter,
    .otf2_scatterv = scatterv,
};

OTF2_ErrorCode mcm_tr_set_collectives(OTF2_Archive *ar)
{
    world_ctx.comm = mcm_tr.comm;
    return OTF2_Archive_SetCollectiveCallbacks(ar, &cbs, NULL, &world_ctx,
                                               NULL);
}

#endif /* MCM_HAVE_OTF2 */
