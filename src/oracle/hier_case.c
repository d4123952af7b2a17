/* Hierarchies over manycoll communicators, and cases run through them
 * (hier_case.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/hier_case.h"

int mc_hier_case_setup(mc_comm_t *w, const int *node_of, const int *local_of,
                       mc_hier_t *h)
{
    int P = mc_comm_size(w), me = mc_comm_rank(w), nn = 0;
    int *count = calloc((size_t)P, sizeof(int));
    if (!count)
        return MC_ERR_NOMEM;
    for (int r = 0; r < P; r++) {
        count[node_of[r]]++;
        nn = node_of[r] + 1 > nn ? node_of[r] + 1 : nn;
    }
    memset(h, 0, sizeof *h);
    h->rank = me;
    h->size = P;
    h->nodeid = node_of[me];
    h->local = local_of[me];
    h->nnodes = nn;
    h->uniform = 1;
    for (int n = 0; n < nn; n++)
        h->uniform &= count[n] == count[0];
    h->block = 1;
    for (int r = 1; r < P; r++)
        h->block &= node_of[r] == node_of[r - 1]
                        ? local_of[r] == local_of[r - 1] + 1
                        : (node_of[r] == node_of[r - 1] + 1 && !local_of[r]);
    h->ppn = h->uniform ? count[0] : count[node_of[me]];
    free(count);
    h->node_of = node_of;
    h->local_of = local_of;
    h->prov = &mc_hier_provider_manycoll;
    mc_hier_default_params(&h->par);
    int rc = mc_comm_split(w, h->nodeid, me, &h->node);
    if (rc == MC_OK) {
        int color = h->uniform ? h->local : (h->local ? MC_UNDEFINED : 0);
        rc = mc_comm_split(w, color, h->nodeid, (mc_comm_t **)&h->peers);
    }
    if (rc == MC_OK)
        rc = mc_hier_check(h);
    return rc;
}

void mc_hier_case_free(mc_hier_t *h)
{
    mc_hier_release(h);
    if (h->node)
        mc_comm_free(h->node);
    if (h->peers)
        mc_comm_free(h->peers);
    h->node = NULL;
    h->peers = NULL;
}

static int call(mc_hier_t *h, const mc_case_t *k, mc_case_bufs_t *b)
{
    const void *s = k->in_place ? MC_IN_PLACE : b->sbuf;
    int root = h->rank == k->root;
    mc_op_t op = mc_case_op(k);
    size_t n = k->count;
    switch (k->coll) {
    case MC_COLL_BARRIER: return mc_hier_barrier(h);
    case MC_COLL_BCAST: return mc_hier_bcast(h, b->rbuf, n, k->dt, k->root);
    case MC_COLL_REDUCE:
        return mc_hier_reduce(h, root ? s : b->sbuf, b->rbuf, n, k->dt, op,
                              k->root);
    case MC_COLL_ALLREDUCE:
        return mc_hier_allreduce(h, s, b->rbuf, n, k->dt, op);
    case MC_COLL_ALLGATHER: return mc_hier_allgather(h, s, b->rbuf, n, k->dt);
    case MC_COLL_ALLTOALL: return mc_hier_alltoall(h, s, b->rbuf, n, k->dt);
    case MC_COLL_REDUCE_SCATTER_BLOCK:
        return mc_hier_reduce_scatter_block(h, s, b->rbuf, n, k->dt, op);
    case MC_COLL_GATHER:
        return mc_hier_gather(h, root ? s : b->sbuf, b->rbuf, n, k->dt,
                              k->root);
    case MC_COLL_SCATTER:
        return mc_hier_scatter(h, b->sbuf,
                               (root && k->in_place) ? MC_IN_PLACE : b->rbuf,
                               n, k->dt, k->root);
    default: return MC_ERR_ARG;
    }
}

int mc_hier_case_run(mc_hier_t *h, const mc_case_t *k, mc_case_bufs_t *b)
{
    mc_arrivals_t *a = k->coll == MC_COLL_BARRIER ? b->arrivals : NULL;
    if (a)
        mc_arrivals_enter(a);
    int rc = call(h, k, b);
    if (a)
        mc_arrivals_exit(a);
    return rc;
}
