/* The generated correctness walk over the registry (walk.c). */
#ifndef MC_WALK_H
#define MC_WALK_H

#include <stdint.h>

/* the oracle's check.h (mc_arrivals_t), not tests/check.h beside this
 * file, which a plain "check.h" finds first */
#include "../tools/check.h"

enum {
    MC_WALK_TINY = -1,  /* count 7 only, root P-1, no in-place (for chips
                           of a thousand cores) */
    MC_WALK_LIGHT = 0,  /* count 7 and just past the chunk; one dtype+op
                           pair per reduction kind; root P-1; no in-place */
    MC_WALK_MEDIUM = 1, /* counts 1, 7, just past the chunk (and around it
                           for reductions); in-place */
    MC_WALK_FULL = 2    /* everything (the shm tests) */
};

/* Cases whose buffers, summed over all ranks, exceed this are skipped
 * (alltoall of 1 MiB blocks on 1024 simulated cores would need 2 TiB). */
#define MC_WALK_MEM_BUDGET ((size_t)512 << 20)

typedef struct mc_walk {
    const char *coll, *algo; /* restrict to one collective / algorithm */
    uint32_t seed;
    int level;
    /* blocking calls only (the non-blocking and persistent forms cost a
     * simulation of a thousand cores a third more: test_sim sets it from
     * 512 ranks; the smaller walks cover those forms) */
    int blocking_only;
    /* skip the v-variants (one generic algorithm each, P^2 blocks in
     * alltoallv: test_sim sets it from 512 ranks, as blocking_only) */
    int skip_v;
    int algos, cases, failures; /* results */
    int skipped; /* cases whose buffers would exceed MC_WALK_MEM_BUDGET */
    /* where barrier cases count arrivals (check.h), set by the caller:
     * without it every barrier case fails */
    mc_arrivals_t *arrivals;
} mc_walk_t;

/* back-to-back barriers per barrier algorithm and variant, each checked:
 * 40, or 6 in the tiny walk (a flat barrier of 1024 simulated cores reads
 * a million flags) */
#define MC_WALK_BARRIERS 40
#define MC_WALK_BARRIERS_TINY 6

/* the level named tiny, light, medium or full; -2 for any other name */
int mc_walk_level(const char *name);

/* 0 if every case of every selected algorithm was right */
int mc_walk(mc_comm_t *c, mc_walk_t *w);

#endif
