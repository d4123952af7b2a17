/*
 * 16-bit floats through the hierarchy: a SUM or PROD of MC_FLOAT16 or
 * MC_BFLOAT16 runs as the float32 call on a widened copy and is rounded
 * once at the end, so neither the intra-node phases nor the inter-node
 * one round a partial result to 16 bits (the flat call does the same,
 * src/api/coll.c: run_wide). The copies are the call's own (not
 * hier_scratch, which the float32 call uses).
 *
 * The MPI provider never sees this: libmanycoll_mpi maps no MPI datatype
 * to a 16-bit float, so such a reduction reaches MPI as the MPI's own.
 */
#include <stdlib.h>

#include "hier/hier_impl.h"
#include "ops/half.h"

int hier_is_wide(mc_dtype_t dt, mc_op_t op)
{
    return (dt == MC_FLOAT16 || dt == MC_BFLOAT16) &&
           (op == MC_SUM || op == MC_PROD);
}

int hier_wide(mc_hier_t *h, mc_coll_t coll, const void *sbuf, void *rbuf,
              size_t count, mc_dtype_t dt, mc_op_t op, int root)
{
    int in_place = sbuf == MC_IN_PLACE;
    size_t nin = count, nout = count;
    if (coll == MC_COLL_REDUCE_SCATTER_BLOCK)
        nin = count * (size_t)h->size;
    if (coll == MC_COLL_REDUCE && h->rank != root)
        nout = 0;
    const void *src = in_place ? rbuf : sbuf;
    float *in = malloc((nin + (in_place ? 0 : nout)) * sizeof(float) + 1);
    if (!in)
        return mc_hier_fail(MC_ERR_NOMEM, "out of memory: float32 copies of "
                            "%zu 16-bit floats", nin);
    float *out = in_place ? in : in + nin;
    mc_half_widen(dt, src, in, nin);
    const void *s = in_place ? MC_IN_PLACE : (const void *)in;
    int rc;
    switch (coll) {
    case MC_COLL_REDUCE:
        rc = mc_hier_reduce(h, s, nout ? out : NULL, count, MC_FLOAT32, op,
                            root);
        break;
    case MC_COLL_ALLREDUCE:
        rc = mc_hier_allreduce(h, s, out, count, MC_FLOAT32, op);
        break;
    default:
        rc = mc_hier_reduce_scatter_block(h, s, out, count, MC_FLOAT32, op);
        break;
    }
    if (rc == MC_OK && nout)
        mc_half_narrow(dt, out, rbuf, nout);
    free(in);
    return rc;
}
