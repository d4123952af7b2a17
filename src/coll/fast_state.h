/*
 * The fast paths' part of a team (coll/fast.h): written by coll/fast.c
 * alone (mc_fast_init, mc_fast_fini, and every fast call), read by the
 * flat algorithms. Apart from fast.h so that team.h can embed it, right
 * after the members: the fields an 8-byte flat call touches come first,
 * and with rank, size, tp and seq they fill the team's first 64 bytes
 * (team.h checks it).
 */
#ifndef MC_COLL_FAST_STATE_H
#define MC_COLL_FAST_STATE_H

#include <stddef.h>
#include <stdint.h>

typedef struct mc_fast_state {
    /* every fast call */
    uint64_t seq;         /* fast calls so far (coll/fast.h) */
    uint64_t *seen;       /* [size] progress seen of each peer (allocated
                             by the first fast call above MC_TEAM_DENSE
                             ranks) */
    uint64_t free_upto;   /* calls up to this one find their line slot
                             free without reading seen[] (MC_FAST_LINES
                             more than the least progress seen) */
    int line0, line_step; /* flag index of line slot 0, per slot */
    size_t line_max;      /* payload bytes that ride in a flag line */
    /* payloads beyond a line */
    size_t off;           /* the MPB slots start here ... */
    size_t slot;          /* ... each this big (0: none, lines only) */
} mc_fast_state_t;

#endif
