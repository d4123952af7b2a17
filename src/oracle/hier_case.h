/* The hierarchical collectives (src/hier) on a generated case: building a
 * hierarchy over manycoll communicators, and running a case through it.
 * Shared by tests/test_hier.c (nodes of a real machine's ranks) and
 * `manycoll sim --hier` (one node per simulated chip). */
#ifndef MC_HIER_CASE_H
#define MC_HIER_CASE_H

#include "oracle/check.h"
#include "hier/hier.h"

/* h for rank mc_comm_rank(w) of w, where rank r is on node node_of[r] as
 * its local_of[r]-th rank (node ids 0..N-1, local indices 0..n-1 on each;
 * the tables stay the caller's and must outlive h): the node communicator
 * and my slice's provider group split from w, manycoll as the provider,
 * the default parameters. Collective over w. */
int mc_hier_case_setup(mc_comm_t *w, const int *node_of, const int *local_of,
                       mc_hier_t *h);
/* frees what setup made */
void mc_hier_case_free(mc_hier_t *h);
/* the blocking case k through h (the caller checked mc_hier_supports);
 * a barrier enters and leaves b->arrivals if set */
int mc_hier_case_run(mc_hier_t *h, const mc_case_t *k, mc_case_bufs_t *b);

#endif
