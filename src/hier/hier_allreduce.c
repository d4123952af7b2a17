/*
 * Hierarchical allreduce.
 *
 * Leaders (short vectors, or nodes of different sizes), in segments:
 *
 *   node 0: 0 1 2    node 1: 3 4 5
 *   (1) mc_reduce to l0          0 = x0+x1+x2      3 = x3+x4+x5
 *   (2) leaders: prov->allreduce (in place)   0, 3 = total
 *   (3) mc_bcast from l0         all = total
 *
 * Multi-leader (uniform, long): every local rank carries the inter-node
 * traffic of 1/L of the vector, as MPICH and the literature do it. Each
 * segment of S elements (a multiple of L, so chunks are whole) runs
 *
 *   (1) mc_reduce_scatter_block   l0:A  l1:B  l2:C   node sums of chunks
 *   (2) slice j: prov->allreduce of chunk j (in place)   totals of chunks
 *   (3) mc_allgather (in place)   all: A B C
 *
 * and with a provider that has iallreduce, segment k's step (2) is in
 * flight while the node does step (3) of segment k-1 and step (1) of
 * segment k+1:
 *
 *   time -->   [1:k][start 2:k][wait 2:k-1][3:k-1][1:k+1][start 2:k+1]...
 *
 * The last count % L elements go the leaders' way.
 *
 * Order: in-node reductions are in local order, the slices in node order:
 * rank order for blocks of consecutive ranks (non-commutative ops need
 * h->block, see mc_hier_supports).
 */
#include "hier/hier_impl.h"

static int leaders(mc_hier_t *h, const char *in, char *out, size_t count,
                   mc_dtype_t dt, mc_op_t op)
{
    size_t ds = mc_dtype_size(dt);
    size_t seg = h->par.seg_bytes / ds ? h->par.seg_bytes / ds : 1;
    for (size_t i = 0; i < count; i += seg) {
        size_t n = count - i < seg ? count - i : seg, b = i * ds;
        int lead = h->local == 0;
        const void *s = (lead && in == out) ? MC_IN_PLACE : in + b;
        INTRA(mc_reduce(h->node, s, lead ? out + b : NULL, n, dt, op, 0),
              "reduce to the leader");
        if (lead)
            INTER(h, h->prov->allreduce(h->peers, MC_IN_PLACE, out + b, n,
                                        dt, op),
                  "allreduce of the leaders");
        INTRA(mc_bcast(h->node, out + b, n, dt, 0), "bcast from the leader");
    }
    return MC_OK;
}

/* step (1) of one segment: this rank's chunk of the node's sum lands at
 * out + local * q */
static int ml_reduce_scatter(mc_hier_t *h, const char *in, char *out,
                             size_t q, mc_dtype_t dt, mc_op_t op)
{
    size_t cb = q * mc_dtype_size(dt);
    char *mine = out + (size_t)h->local * cb;
    if (in != out) {
        INTRA(mc_reduce_scatter_block(h->node, in, mine, q, dt, op),
              "reduce-scatter");
        return MC_OK;
    }
    /* in place: the chunk arrives at the start of the segment */
    INTRA(mc_reduce_scatter_block(h->node, MC_IN_PLACE, out, q, dt, op),
          "reduce-scatter");
    if (mine != out)
        memmove(mine, out, cb);
    return MC_OK;
}

static int multi_leader(mc_hier_t *h, const char *in, char *out, size_t body,
                        mc_dtype_t dt, mc_op_t op)
{
    size_t ds = mc_dtype_size(dt), L = (size_t)h->ppn;
    size_t seg = h->par.seg_bytes / ds / L * L;
    if (seg < L)
        seg = L;
    int nb = h->par.nonblocking && h->prov->iallreduce;
    size_t prev_off = 0, prev_q = 0;
    int have_prev = 0, slot = 0;
    for (size_t off = 0; off < body; off += seg) {
        size_t n = body - off < seg ? body - off : seg, q = n / L;
        size_t b = off * ds;
        char *mine = out + b + (size_t)h->local * q * ds;
        TRY(ml_reduce_scatter(h, in + b, out + b, q, dt, op));
        if (nb)
            INTER(h, h->prov->iallreduce(h->peers, MC_IN_PLACE, mine, q, dt,
                                         op, slot),
                  "allreduce of a chunk (start)");
        else
            INTER(h, h->prov->allreduce(h->peers, MC_IN_PLACE, mine, q, dt,
                                        op),
                  "allreduce of a chunk");
        if (have_prev) {
            if (nb)
                INTER(h, h->prov->wait(h->peers, slot ^ 1),
                      "allreduce of a chunk (wait)");
            INTRA(mc_allgather(h->node, MC_IN_PLACE, out + prev_off * ds,
                               prev_q, dt),
                  "allgather of the chunks");
        }
        have_prev = 1;
        prev_off = off;
        prev_q = q;
        slot ^= 1;
    }
    if (have_prev) {
        if (nb)
            INTER(h, h->prov->wait(h->peers, slot ^ 1),
                  "allreduce of a chunk (wait)");
        INTRA(mc_allgather(h->node, MC_IN_PLACE, out + prev_off * ds, prev_q,
                           dt),
              "allgather of the chunks");
    }
    return MC_OK;
}

int mc_hier_allreduce(mc_hier_t *h, const void *sbuf, void *rbuf,
                      size_t count, mc_dtype_t dt, mc_op_t op)
{
    if (count == 0)
        return MC_OK;
    if (hier_is_wide(dt, op))
        return hier_wide(h, MC_COLL_ALLREDUCE, sbuf, rbuf, count, dt, op, 0);
    const char *in = sbuf == MC_IN_PLACE ? rbuf : sbuf;
    char *out = rbuf;
    size_t ds = mc_dtype_size(dt), L = (size_t)h->ppn;
    if (!h->uniform || L == 1 || count < L ||
        count * ds < h->par.ml_min_bytes)
        return leaders(h, in, out, count, dt, op);
    size_t body = count / L * L;
    TRY(multi_leader(h, in, out, body, dt, op));
    if (body < count)
        return leaders(h, in + body * ds, out + body * ds, count - body, dt,
                       op);
    return MC_OK;
}
