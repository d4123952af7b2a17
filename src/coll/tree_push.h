/*
 * Broadcast and reduction on any tree by pushing into the receiver, as a
 * message network's send does (NoCMsg): the mesh trees (coll/mesh.h) and
 * the machine-hierarchy trees (bcast_hier.c, reduce_hier.c) share it.
 *
 * Nothing is pushed into a rank before it has said, in this call, that
 * it is ready: a rank may still be in the previous call, using the MPB
 * and flag lines the push would write (coll/mesh.h says more).
 *
 * Broadcast: a child credits its parent (its bank-1 line at the parent)
 * on entry, the parent puts chunk k into the child's MPB slot k % 2 and
 * raises its bank-0 line at the child; the child forwards the chunk to
 * its own children, copies it out and acknowledges (chunk k+2 may then
 * come). A message that fits a flag line rides in the line.
 *
 *   child                                parent
 *   credit ------------------------->    wait credit
 *                                        put chunk k -> slot k % 2
 *   wait data k  <-------------------    flag data k
 *   forward k, copy out, ack k ----->    wait ack k before chunk k+2
 *
 * Reduction: a receiver says "go" (its bank-0 line at the sender) to the
 * senders of a round, at most two at once (sides 0 and 1: two slots
 * each); a sender waits for go k, pushes its partial result's chunk k
 * into its side's slot k % 2 (or its flag line) and raises its bank-1
 * line at the receiver, which combines it and says go k+2.
 *
 * Flag values are mc_flagval(c, step0 + ...): a second pushed collective
 * in the same call starts its steps after the first one's (the broadcast
 * of allreduce:mesh after its reduction).
 */
#ifndef MC_COLL_TREE_PUSH_H
#define MC_COLL_TREE_PUSH_H

#include "coll/coll.h"

/* the broadcast of a->bytes from a->rbuf, over the tree node (parent: -1
 * at the root; children in the order they are served) */
int mc_push_bcast(mc_team_t *c, const mc_args_t *a, int parent, int nchild,
                  const int *child, size_t chunk_want, uint32_t step0);

typedef struct mc_push_red {
    mc_team_t *c;
    const mc_args_t *a;
    size_t chunk, stride;
    int nch, inl; /* chunks; 1 if the data fits a flag line */
    uint32_t step0;
} mc_push_red_t;

void mc_push_red_init(mc_push_red_t *r, mc_team_t *c, const mc_args_t *a,
                      size_t chunk_want, uint32_t step0);
/* one round: combine the partial results of from[0] (side 0) and from[1]
 * (side 1) into acc (-1: nobody on that side) */
int mc_push_red_receive(mc_push_red_t *r, const int from[2], void *acc);
/* my partial result acc to parent, which receives me on `side` */
int mc_push_red_send(mc_push_red_t *r, int parent, int side, const void *acc);
/* flag steps a reduction of `bytes` uses */
uint32_t mc_push_red_steps(const mc_team_t *c, size_t bytes,
                           size_t chunk_want);

#endif
