/*
 * A communicator's memory on a simulated chip: the MPBs and flag words of
 * its ranks, as the simulator's transport (tp/sim.c) reads and writes
 * them, and the coherence states of a cache-coherent chip's lines
 * (cost_cc.c). Made by the first member to ask (mc_sim_domain), freed
 * with the simulation.
 */
#ifndef MC_SIM_DOMAIN_H
#define MC_SIM_DOMAIN_H

#include "sim/engine.h"

/* A message the static network delivers (tp/sim.c mcast): kept until
 * every receiver has copied it. */
typedef struct mc_sim_stage {
    struct mc_sim_stage *next;
    uint64_t seq;   /* the communicator's multicast number */
    int refs;       /* receivers still to copy it */
    size_t n;
    unsigned char data[];
} mc_sim_stage_t;

/* MPB bytes are stored in blocks of this many, block k of every rank
 * side by side (sim/mpbmem.c) */
#define MC_SIM_MPB_BLOCK ((size_t)256)

/* Flag words of a large domain, only those used (sim/flagmap.c). */
typedef struct mc_sim_flagmap mc_sim_flagmap_t;
/* a dense flag area up to this many bytes, sparse above */
#define MC_SIM_DENSE_FLAGS ((size_t)64 << 20)

/* A communicator's memory: MPBs and flag words of its ranks. */
typedef struct mc_sim_domain {
    int n;
    int *cores;          /* rank -> core */
    unsigned char *mpb;  /* n * mpb_bytes, block-major (sim/mpbmem.c) */
    size_t mpb_bytes;    /* per rank */
    unsigned char *mpb_scratch; /* 2 * mpb_bytes (sim/mpbmem.c) */
    uint64_t *flags;     /* n * nflags, or NULL: fmap */
    mc_sim_flagmap_t *fmap;
    int nflags;
    int line_words;      /* flag words per line (fmap stores lines) */
    uint64_t key;        /* (parent, split id) for lookup by members */
    uint64_t uid;        /* unique in the process, never reused */
    int grid_state;      /* 0 not worked out yet, 1 a grid, -1 not one */
    int span_state;      /* 0 not worked out yet, 1 on several chips, -1
                            on one */
    mc_plat_grid_t grid; /* where the ranks sit, if a grid (sim/grid.h) */
    uint64_t *mcast_word;   /* per rank: multicasts arrived (tp/sim.c) */
    mc_sim_stage_t *stages; /* multicasts not yet copied by everyone */
    mc_cc_line_t *mpb_st;   /* coherent chips: per line of mpb */
    mc_cc_line_t *flag_st;  /* ... of flags */
    struct mc_sim_domain *parent, *next;
    mc_sim_t *sim;          /* fails when fmap cannot grow */
    uint64_t sink[32];      /* a flag line for writes after that */
} mc_sim_domain_t;

/* coherence state of the MPB line at byte `off` of `rank` (NULL when the
 * platform is not cache-coherent) */
mc_cc_line_t *mc_sim_cc_mpb(const mc_sim_t *s, mc_sim_domain_t *d, int rank,
                            size_t off);

/* copies between a private buffer and bytes [off, off + n) of the MPB
 * of `rank` (inside it: the caller checks) */
void mc_sim_mpb_read(const mc_sim_domain_t *d, int rank, size_t off,
                     void *dst, size_t n);
void mc_sim_mpb_write(mc_sim_domain_t *d, int rank, size_t off,
                      const void *src, size_t n);
/* n bytes from one MPB range to another (they may overlap) */
void mc_sim_mpb_move(mc_sim_domain_t *d, int dst, size_t dst_off, int src,
                     size_t src_off, size_t n);
/* scratch buffer 0 or 1 of the domain, mpb_bytes each (one core's
 * operation at a time; mc_sim_mpb_move uses 0) */
unsigned char *mc_sim_mpb_scratch(mc_sim_domain_t *d, int which);

/* the words of flag line `key` of sparse domain d (zero at first; the
 * address is stable); without memory for them the simulation fails
 * (MC_ERR_NOMEM, naming what it asked for) and d->sink stands in */
uint64_t *mc_sim_flagmap_slot(mc_sim_domain_t *d, uint64_t key);
void mc_sim_flagmap_free(mc_sim_flagmap_t *m);
/* bytes m takes (0 for none) */
size_t mc_sim_flagmap_bytes(const mc_sim_flagmap_t *m);
/* flag word idx of rank in d (a stable address; 0 until written); the
 * words of a flag line are consecutive, dense or sparse */
static inline uint64_t *mc_sim_flag_word(mc_sim_domain_t *d, int rank,
                                         int idx)
{
    uint64_t k = (uint64_t)rank * (uint64_t)d->nflags + (uint64_t)idx;
    if (d->flags)
        return d->flags + k;
    uint64_t per = (uint64_t)d->line_words;
    return mc_sim_flagmap_slot(d, k / per) + k % per;
}

/* the domain of a communicator, `nflags` flag words per rank: created by
 * the first member to ask */
int mc_sim_domain(mc_sim_t *s, mc_sim_domain_t *parent, uint64_t key,
                  const int *cores, int n, int nflags,
                  mc_sim_domain_t **out);

#endif
