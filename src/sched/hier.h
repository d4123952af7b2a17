/*
 * A tree that follows the machine's hierarchy (NoCMsg's idea without a
 * mesh: keep each message inside the part of the machine it must reach).
 * Every rank has a group id at each of `d` levels, coarsest first
 * (package, NUMA node, L3 cache: tp/hwtopo.h); a group is the set of
 * ranks that agree on ids 0..l. Each group's leader is the root if it is
 * in the group, else the group's lowest rank. A rank hangs off the leader
 * of the finest group it does not lead; a package leader hangs off the
 * root. Children are listed coarsest first (the far ones are served
 * first). Pure functions of (n, d, ids, root, rank).
 *
 *   2 packages x 2 L3 x 2 cores, root 0:      0           package leaders
 *                                           / | \
 *   ranks:  P0: L3 {0,1} {2,3}             4  2  1       L3 leaders, cores
 *           P1: L3 {4,5} {6,7}            / \  \
 *                                        6   5  3
 *                                        |
 *                                        7
 *
 * So exactly one edge enters each group from outside it (none enters the
 * root's groups), and a rank is at most d + 1 edges from the root.
 */
#ifndef MC_SCHED_HIER_H
#define MC_SCHED_HIER_H

#define MC_HIER_MAX_LEVELS 4

/* ids[r * d + l]: group id of rank r at level l. low[r * d + l]: the
 * lowest rank of r's group at level l, worked out once (O(n^2 d)). */
void mc_hier_lowest(int n, int d, const int *ids, int *low);

/* Writes the parent (-1 at the root) and up to `cap` children of `rank`;
 * returns the number of children (which may exceed cap: then only cap
 * are written). O(n d). */
int mc_hier_node(int n, int d, const int *ids, const int *low, int root,
                 int rank, int *parent, int *children, int cap);

/* The number of groups at the finest level (1: the ranks share every
 * group, a tree has no boundary to keep to). */
int mc_hier_groups(int n, int d, const int *low);

/* The level of the coarsest group `rank` leads (d if none): its parent
 * is the leader of its group one level up (the root for level 0). */
int mc_hier_level(int n, int d, const int *ids, const int *low, int root,
                  int rank);

#endif
