/*
 * The ring of the bucket algorithm (Barnett et al.; RCCE_comm; Kohler et
 * al., Fig. 2), shared by the ring allreduce, reduce-scatter and reduce:
 * a vector of `count` elements in n blocks (balanced, or RCCE_comm's
 * split), rank r sends to r+1 and receives from r-1, one block per step,
 * each step one round of the two-sided layer in the ring's flavour
 * (p2p.h). Blocks are numbered from `shift`: with shift 0, P = 3:
 *
 *   reduce-scatter, step s = 0..P-2: rank r sends block r-s, combines
 *   block r-s-1 from r-1 into its own copy
 *
 *            rank 0      rank 1      rank 2
 *     s=0    b0 -> 1     b1 -> 2     b2 -> 0
 *     s=1    b2 -> 1     b0 -> 2     b1 -> 0
 *     now    owns b1     owns b2     owns b0   (fully reduced)
 *
 *   allgather, step s: rank r sends block r+1-s, receives block r-s
 *   (it starts owning block r+1, as the reduce-scatter leaves it).
 *
 * With shift k every block number is k more (shift -1: rank r ends the
 * reduce-scatter owning block r, as MPI's reduce-scatter wants it).
 */
#ifndef MC_COLL_RING_H
#define MC_COLL_RING_H

#include "coll/p2p.h"

typedef struct mc_ring {
    mc_p2p_mode_t mode;
    int balance;  /* 1 balanced blocks, 0 RCCE_comm's split */
    int shift;    /* block numbering, see above */
    size_t count; /* elements of the whole vector */
    size_t dsize;
} mc_ring_t;

/* byte offset and length of block b (any integer, taken mod P) */
size_t mc_ring_off(const mc_team_t *c, const mc_ring_t *g, int b);
size_t mc_ring_len(const mc_team_t *c, const mc_ring_t *g, int b);
/* bytes of the largest block */
size_t mc_ring_max(const mc_team_t *c, const mc_ring_t *g);

/* In place in buf (the whole vector): afterwards block r+1+shift of buf
 * is the reduction of everyone's (in ring order: commutative ops only).
 * red->tmp, if set, must hold mc_ring_max() bytes. */
int mc_ring_reduce_scatter(mc_team_t *c, const mc_ring_t *g,
                           unsigned char *buf, const mc_red_t *red);
/* rank r holds block r+1+shift of buf; afterwards every rank all blocks */
int mc_ring_allgather(mc_team_t *c, const mc_ring_t *g, unsigned char *buf);

#endif
