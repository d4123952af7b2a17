/*
 * Hierarchical broadcast. Root r lives on node n_r with local index l_r.
 *
 * Two levels, in segments (every shape). The inter-node step runs on the
 * slice of the root's local index, so no extra hop to a leader is needed
 * when every node has that index (uniform); otherwise on the leaders,
 * after the root's node has handed the data to its leader:
 *
 *   uniform, r = 4 (node 1, l1), 3 nodes x 3:
 *     seg k:  (1) slice 1: 4 --prov->bcast--> 1, 7
 *             (2) every node: mc_bcast from l1    (1 -> 0,2  4 -> 3,5  7 -> 6,8)
 *   not uniform, r = 4 (node 1, l1):
 *     seg k:  (0) node 1: mc_bcast from l1        (4 -> 3, 5)
 *             (1) leaders: 3 --prov->bcast--> 0, 6
 *             (2) nodes 0 and 2: mc_bcast from l0
 *
 * A segment's step (2) on one node overlaps the next segment's step (1)
 * on the others: the segments pipeline across nodes.
 *
 * Multi-leader, uniform and long (>= par.ml_min_bytes): scatter on the
 * root's node, every slice broadcasts its chunk, allgather on every node.
 * Every local rank carries 1/L of the inter-node traffic:
 *
 *   r = 4, L = 3, chunks A B C (+ a tail of bytes % L, two-level):
 *     (1) node 1: mc_scatter from 4       3:A 4:B 5:C
 *     (2) slice j bcasts chunk j from node 1   slice0: A  slice1: B  slice2: C
 *     (3) every node: mc_allgather (in place)  all: A B C
 *
 * Bytes, not elements, move: the datatype only sets the size.
 */
#include "hier/hier_impl.h"

static int two_level(mc_hier_t *h, char *buf, size_t bytes, int n_r, int l_r)
{
    int lead = h->uniform ? l_r : 0;
    int pre = h->nodeid == n_r && lead != l_r;
    size_t seg = h->par.seg_bytes;
    for (size_t off = 0; off < bytes; off += seg) {
        size_t n = bytes - off < seg ? bytes - off : seg;
        if (pre)
            INTRA(mc_bcast(h->node, buf + off, n, MC_UINT8, l_r),
                  "bcast to the leader");
        if (h->local == lead)
            INTER(h, h->prov->bcast(h->peers, buf + off, n, MC_UINT8, n_r),
                  "bcast");
        if (!pre)
            INTRA(mc_bcast(h->node, buf + off, n, MC_UINT8, lead), "bcast");
    }
    return MC_OK;
}

static int multi_leader(mc_hier_t *h, char *buf, size_t bytes, int n_r,
                        int l_r)
{
    size_t q = bytes / (size_t)h->ppn, body = q * (size_t)h->ppn;
    char *mine = buf + (size_t)h->local * q;
    if (h->nodeid == n_r)
        INTRA(mc_scatter(h->node, buf, h->local == l_r ? MC_IN_PLACE : mine,
                         q, MC_UINT8, l_r),
              "scatter of the root's chunks");
    INTER(h, h->prov->bcast(h->peers, mine, q, MC_UINT8, n_r),
          "bcast of a chunk");
    INTRA(mc_allgather(h->node, MC_IN_PLACE, buf, q, MC_UINT8),
          "allgather of the chunks");
    if (body < bytes)
        return two_level(h, buf + body, bytes - body, n_r, l_r);
    return MC_OK;
}

int mc_hier_bcast(mc_hier_t *h, void *buf, size_t count, mc_dtype_t dt,
                  int root)
{
    size_t bytes = count * mc_dtype_size(dt);
    if (bytes == 0)
        return MC_OK;
    int n_r = hier_node_of(h, root), l_r = hier_local_of(h, root);
    if (h->uniform && h->ppn > 1 && bytes >= h->par.ml_min_bytes)
        return multi_leader(h, buf, bytes, n_r, l_r);
    return two_level(h, buf, bytes, n_r, l_r);
}
