/*
 * Trees with a fan-out per level (Ramos & Hoefler 2013, Section 4.1.2):
 * the root has k_1 children, each of them k_2, ..., each node of level
 * d-1 has k_d (top level first). Levels fill from the top (Eq. 4.3:
 * n_i <= k_1 ... k_i), and vranks are numbered in PREORDER, so every
 * subtree is a contiguous range [v, hi) -- a reduction that combines
 * "me, then my children in order" is in rank order (with vrank = rank).
 *
 *   n = 10, k = (3, 2):            BFS shape       preorder vranks
 *     level 0                          0                  0
 *     level 1                      1   2   3          1   4   7
 *     level 2                     4 5 6 7 8 9        2 3 5 6 8 9
 *
 *   n = 9, same k: level 2 holds 5 nodes, the last parent gets one
 *   (vranks 0; 1 {2 3}; 4 {5 6}; 7 {8}).
 *
 * A node is found from its vrank by walking down from the root, one
 * binary search per level over the sizes of the siblings' subtrees, all
 * closed forms: O(d^2 log k), no tables, no allocation.
 *
 * If k_1..k_d reach fewer than n ranks, the last fan-out is raised until
 * they do (k = (2) for 8 ranks is k = (7)); fan-outs of levels the ranks
 * do not reach are ignored. Pure functions of (n, k, vrank).
 */
#ifndef MC_SCHED_KTREE_H
#define MC_SCHED_KTREE_H

#define MC_KTREE_MAX_LEVELS 16

typedef struct mc_ktree {
    int n;                           /* ranks */
    int d;                           /* levels below the root that hold ranks */
    int k[MC_KTREE_MAX_LEVELS];      /* k[i]: children of a level-i node */
    int nlev[MC_KTREE_MAX_LEVELS + 1]; /* ranks on level i (nlev[0] = 1) */
} mc_ktree_t;

/* A node of the tree. Children are mc_ktree_child(t, node, c), c <
 * nchildren, in increasing vrank order; the subtree is [vrank, hi). */
typedef struct mc_ktree_node {
    int vrank;
    int level;      /* 0 at the root */
    int bfs;        /* index of the node within its level */
    int parent;     /* vrank, -1 at the root */
    int pos;        /* index among the parent's children */
    int nchildren;
    int hi;
} mc_ktree_node_t;

/* Shapes the tree for n >= 1 ranks from fan-outs k[0..d) (top level
 * first, each >= 1, 1 <= d <= MC_KTREE_MAX_LEVELS). 0, or -1 if the
 * arguments are invalid. */
int mc_ktree_init(mc_ktree_t *t, int n, int d, const int *k);

/* The node of vrank v (0 <= v < n). */
void mc_ktree_node(const mc_ktree_t *t, int v, mc_ktree_node_t *out);

/* The vrank of child c (0 <= c < nd->nchildren) of node nd. */
int mc_ktree_child(const mc_ktree_t *t, const mc_ktree_node_t *nd, int c);

/* Ranks a tree of fan-outs k[0..d) reaches, 1 + sum_i k_1 ... k_i
 * (Eq. 4.4), saturating at `cap`. */
long mc_ktree_reach(int d, const int *k, long cap);

#endif
