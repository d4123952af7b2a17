/*
 * The hierarchical communicator: parameters, validation, which collective
 * runs on which shape, scratch memory and error messages. The algorithms
 * are in hier_<coll>.c, one per file, each with its schedule drawn.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "hier/hier_impl.h"

static _Thread_local char last_error[512];

const char *mc_hier_last_error(void)
{
    return last_error;
}

int mc_hier_fail(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return status;
}

int hier_intra_failed(int rc, const char *phase)
{
    return mc_hier_fail(rc, "intra-node %s: %s", phase, mc_last_error());
}

int hier_inter_failed(const mc_hier_t *h, int rc, const char *phase)
{
    char prev[sizeof last_error];
    snprintf(prev, sizeof prev, "%s", last_error);
    return mc_hier_fail(rc, "inter-node %s (%s): %s", phase, h->prov->name,
                        *prev ? prev : mc_strerror(rc));
}

void mc_hier_default_params(mc_hier_params_t *p)
{
    p->seg_bytes = 1 << 20;
    p->ml_min_bytes = 64 << 10;
    p->nonblocking = 1;
}

int hier_scratch(mc_hier_t *h, size_t n, void **out)
{
    if (n > h->scratch_len) {
        size_t len = n < 2 * h->scratch_len ? 2 * h->scratch_len : n;
        len = (len + 63) / 64 * 64;
        void *p = aligned_alloc(64, len);
        if (!p)
            return mc_hier_fail(MC_ERR_NOMEM,
                                "out of memory: %zu bytes of scratch", len);
        free(h->scratch);
        h->scratch = p;
        h->scratch_len = len;
    }
    *out = h->scratch;
    return MC_OK;
}

void mc_hier_release(mc_hier_t *h)
{
    free(h->scratch);
    h->scratch = NULL;
    h->scratch_len = 0;
}

static int bad(const char *what)
{
    return mc_hier_fail(MC_ERR_ARG, "mc_hier_check: %s", what);
}

int mc_hier_check(const mc_hier_t *h)
{
    if (!h || !h->node || !h->prov)
        return bad("the hierarchy, its node or its provider is NULL");
    const mc_hier_provider_t *p = h->prov;
    if (!p->barrier || !p->bcast || !p->reduce || !p->allreduce ||
        !p->allgather || !p->gather || !p->scatter ||
        !p->reduce_scatter_block)
        return bad("the provider lacks a blocking collective");
    if (!p->wait != (!p->iallreduce && !p->ibcast))
        return bad("the provider's non-blocking entries are incomplete");
    if (h->size < 1 || h->rank < 0 || h->rank >= h->size)
        return bad("rank or size out of range");
    if (mc_comm_rank(h->node) != h->local)
        return bad("'local' is not the rank in the node communicator");
    if (h->nnodes < 1 || h->nodeid < 0 || h->nodeid >= h->nnodes)
        return bad("node index out of range");
    if (h->uniform) {
        if (mc_comm_size(h->node) != h->ppn || h->ppn * h->nnodes != h->size)
            return bad("uniform, but the node sizes do not add up");
        if (!h->peers)
            return bad("uniform, but this rank has no slice group");
    } else if (h->local == 0 && !h->peers) {
        return bad("a node leader has no leaders' group");
    }
    if (!(h->uniform && h->block) && (!h->node_of || !h->local_of))
        return bad("the rank-to-node tables are missing");
    if (!(h->uniform && h->block) &&
        (h->node_of[h->rank] != h->nodeid || h->local_of[h->rank] != h->local))
        return bad("the tables disagree with this rank's node and index");
    if (h->par.seg_bytes < 64)
        return bad("segment smaller than 64 bytes");
    return MC_OK;
}

int mc_hier_supports(const mc_hier_t *h, mc_coll_t coll,
                     int commutative)
{
    switch (coll) {
    case MC_COLL_BARRIER:
    case MC_COLL_BCAST:
        return 1;
    case MC_COLL_REDUCE:
    case MC_COLL_ALLREDUCE:
        /* in-node order, then node order, is rank order only in blocks */
        return commutative || h->block;
    case MC_COLL_ALLGATHER:
    case MC_COLL_GATHER:
    case MC_COLL_SCATTER:
    case MC_COLL_REDUCE_SCATTER_BLOCK:
        return h->uniform && h->block;
    case MC_COLL_ALLTOALL: /* and a provider with one (none yet: any) */
        return h->uniform && h->block && (!h->prov || h->prov->alltoall);
    default:
        return 0;
    }
}
