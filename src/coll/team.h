/*
 * What an algorithm sees of a communicator: its ranks, its transport, the
 * state the shared machinery keeps between calls (two-sided counters,
 * fast-path progress, scratch memory) and the layout of its MPB and flag
 * area. The API's communicator (src/api/comm.h) embeds one as its first
 * member and adds what only the API needs (selection rules, error state);
 * the algorithms never see that part.
 *
 * MPB of every rank (bytes):
 *
 *   [0, mpb_avail)                 general algorithms (two-sided chunks,
 *                                  OC-Bcast, rsag, the cc-* algorithms)
 *   [mpb_avail, mpb_size)          tails reserved by their owners with
 *                                  mc_team_mpb_tail (the fast paths' slots,
 *                                  coll/fast.c, on cache-coherent machines)
 *
 * Flag area: coll/flags.h.
 */
#ifndef MC_COLL_TEAM_H
#define MC_COLL_TEAM_H

#include <stddef.h>
#include <stdint.h>

#include "tp/tp.h"

typedef struct mc_team {
    int rank;
    int size;
    mc_tp_t *tp;
    uint64_t seq;        /* collective calls so far, equal on all ranks */
    /* two-sided layer (coll/p2p.c): chunks sent to and received from each
     * peer, through mc_team_ctr (dense up to MC_TEAM_DENSE ranks, a map of
     * the peers actually used above: O(1) per rank, not O(size)) */
    uint64_t *p2p_ctr;   /* [2 * size] when dense */
    int32_t *ctr_key;    /* the map: open addressing, key 2 * peer + dir */
    uint64_t *ctr_val;
    uint32_t ctr_cap, ctr_used;
    size_t p2p_chunk;    /* payload bytes per two-sided chunk */
    int p2p_scheme;      /* MC_P2P_*: how chunks reach a peer on another
                            chip (coll/p2p.c); MC_P2P_LP_RG on one chip */
    size_t p2p_land;     /* the landing area of rp_lg and lp_lg in my MPB:
                            [p2p_land, 2 p2p_land) (0: none) */
    uint64_t dma_seq;    /* virtual DMAs I programmed */
    size_t p2p_pipe;     /* lone messages above this many bytes go in half
                            chunks, two in flight (iRCCE's pipelining,
                            MC_P2P_PIPE; 0: off; not with p2p_land) */
    size_t p2p_half;     /* the half chunk: whole lines */
    /* MPB layout (above) */
    size_t mpb_avail;    /* MPB bytes [0, mpb_avail) general algorithms use */
    /* fast paths (coll/fast.c) */
    size_t fast_off;     /* the fast paths' MPB slots start here ... */
    size_t fast_slot;    /* ... each this big (0: none, lines only) */
    uint64_t fast_seq;   /* fast calls so far (coll/fast.h) */
    uint64_t *fast_seen; /* [size] progress seen of each peer (allocated
                            by the first fast call above MC_TEAM_DENSE) */
    size_t fast_line_max; /* payload bytes that ride in a flag line */
    int fast_line0, fast_line_step; /* flag index of slot 0, per slot */
    /* flag layout (coll/flags.h), fixed at creation */
    int fl_per;          /* flag words per line */
    int fl_alg0;         /* first word of the per-writer banks */
    int fl_shared0;      /* first word of the owners' shared lines */
    /* private scratch, grown on demand (mc_scratch) */
    void *scratch;
    size_t scratch_len;
} mc_team_t;

/* The schemes of Reble et al. (vSCC, Fig. 4) between chips (MC_P2P_SCHEME):
 * local put / remote get (RCCE's, with the host's prefetching cache),
 * remote put / local get (through the host's write-combining), local put /
 * local get (the host's virtual DMA copies MPB to MPB). */
enum { MC_P2P_LP_RG = 0, MC_P2P_RP_LG = 1, MC_P2P_LP_LG = 2 };

/* Teams up to this many ranks keep per-peer state in dense arrays from
 * creation; larger ones only for the peers they use, when they use them. */
#define MC_TEAM_DENSE 256

/* The two-sided counter of peer in direction dir (0 sent, 1 received),
 * created at 0 on first use; NULL when out of memory. */
uint64_t *mc_team_ctr_map(mc_team_t *t, int key);
static inline uint64_t *mc_team_ctr(mc_team_t *t, int peer, int dir)
{
    if (t->p2p_ctr)
        return &t->p2p_ctr[2 * peer + dir];
    return mc_team_ctr_map(t, 2 * peer + dir);
}

/* Sets up a team over tp (which it then owns, also on failure): the
 * layouts, the two-sided chunk (MC_P2P_CHUNK). */
int mc_team_init(mc_team_t *t, mc_tp_t *tp);
/* Only the layouts of a team over tp, nothing allocated (tp may be a
 * description: tp/shm.h mc_shm_describe): what the selection needs to
 * resolve automatic parameters, for reports without a communicator. */
int mc_team_layout(mc_team_t *t, mc_tp_t *tp);
/* Frees what mc_team_init made, the transport included. */
void mc_team_fini(mc_team_t *t);

/* Reserves `bytes` at the end of the general MPB area for an owner (at
 * creation only): *off is where they start; MC_ERR_INTERNAL with a
 * message naming `owner` if too little would be left. */
int mc_team_mpb_tail(mc_team_t *t, size_t bytes, const char *owner,
                     size_t *off);

/* Private scratch memory of at least n bytes, 64-byte aligned, valid until
 * the next mc_scratch (grows: the first large call allocates). */
int mc_scratch(mc_team_t *t, size_t n, void **out);
/* heap bytes t holds beyond the struct: per-peer state, scratch */
size_t mc_team_bytes(const mc_team_t *t);

/* Flag value for step `step` of the current call: grows across calls
 * (rule 3 of tp/tp.h). */
static inline uint64_t mc_flagval(const mc_team_t *t, uint32_t step)
{
    return (t->seq << 32) | step;
}

#endif
