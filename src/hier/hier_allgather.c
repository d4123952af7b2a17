/*
 * Hierarchical allgather (uniform nodes of consecutive ranks: rank
 * r = node * L + local, so node n's blocks are contiguous in the result).
 * b = bytes per rank; B_n = node n's L blocks.
 *
 * Leaders (short):
 *   (1) mc_gather to l0, straight into rbuf at n * L * b
 *   (2) leaders: prov->allgather of B_n (in place)    leaders hold B_0..B_N-1
 *   (3) mc_bcast of all P * b bytes from l0
 *
 * Multi-leader (long, P * b >= par.ml_min_bytes): every local rank moves
 * 1/L of the inter-node data; one local transpose puts blocks in place.
 *
 *   2 nodes x 3: ranks 0 1 2 | 3 4 5, blocks a..f
 *   (1) slice j: prov->allgather of my block   l0: a d   l1: b e   l2: c f
 *   (2) mc_allgather of those columns          all: [a d][b e][c f]
 *   (3) transpose into rank order              all: a b c d e f
 */
#include "hier/hier_impl.h"

static int leaders(mc_hier_t *h, const char *in, char *out, size_t b)
{
    size_t nb = (size_t)h->ppn * b;
    char *mine = out + (size_t)h->nodeid * nb;
    int lead = h->local == 0;
    /* the leader's block is where the gather puts it when in place */
    INTRA(mc_gather(h->node, lead && in == mine ? MC_IN_PLACE : in,
                    lead ? mine : NULL, b, MC_UINT8, 0),
          "gather to the leader");
    if (lead)
        INTER(h, h->prov->allgather(h->peers, MC_IN_PLACE, out, nb,
                                    MC_UINT8),
              "allgather of the leaders");
    INTRA(mc_bcast(h->node, out, (size_t)h->size * b, MC_UINT8, 0),
          "bcast from the leader");
    return MC_OK;
}

static int multi_leader(mc_hier_t *h, const char *in, char *out, size_t b)
{
    size_t N = (size_t)h->nnodes, L = (size_t)h->ppn;
    char *col, *cols;
    TRY(hier_scratch(h, (N + N * L) * b, (void **)&col));
    cols = col + N * b;
    INTER(h, h->prov->allgather(h->peers, in, col, b, MC_UINT8),
          "allgather of a slice");
    INTRA(mc_allgather(h->node, col, cols, N * b, MC_UINT8),
          "allgather of the slices");
    for (size_t j = 0; j < L; j++)
        for (size_t n = 0; n < N; n++)
            memcpy(out + (n * L + j) * b, cols + (j * N + n) * b, b);
    return MC_OK;
}

int mc_hier_allgather(mc_hier_t *h, const void *sbuf, void *rbuf,
                      size_t count, mc_dtype_t dt)
{
    size_t b = count * mc_dtype_size(dt);
    if (b == 0)
        return MC_OK;
    const char *in = sbuf == MC_IN_PLACE
                         ? hier_at(rbuf, (size_t)h->rank * b) : sbuf;
    if (h->ppn > 1 && (size_t)h->size * b >= h->par.ml_min_bytes)
        return multi_leader(h, in, rbuf, b);
    return leaders(h, in, rbuf, b);
}
