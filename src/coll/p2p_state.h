/*
 * The two-sided layer's parts of a team (coll/p2p.h): written by
 * coll/p2p.c alone (mc_p2p_init, mc_p2p_fini, and every send and
 * receive). Apart from p2p.h so that team.h can embed them.
 */
#ifndef MC_COLL_P2P_STATE_H
#define MC_COLL_P2P_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "util/map.h"

/* chunks and their counters, on every machine */
typedef struct mc_p2p_state {
    /* chunks sent to and received from each peer, through mc_p2p_ctr:
     * dense up to MC_TEAM_DENSE ranks, above a map of the peers actually
     * used (O(1) per rank, not O(size)) */
    uint64_t *ctr;   /* [2 * size] when dense: 2 * peer + dir */
    mc_map_t ctr_map; /* otherwise: key 2 * peer + dir, a uint64_t */
    size_t chunk;    /* payload bytes per two-sided chunk: whole lines of
                        8 bytes (every datatype splits evenly) */
    size_t pipe;     /* lone messages above this many bytes go in half
                        chunks, two in flight (iRCCE's pipelining,
                        MC_P2P_PIPE; 0: off; not with a landing area) */
    size_t half;     /* the half chunk: whole lines */
} mc_p2p_state_t;

/* The schemes of Reble et al. (vSCC, Fig. 4) between chips (MC_P2P_SCHEME):
 * local put / remote get (RCCE's, with the host's prefetching cache),
 * remote put / local get (through the host's write-combining), local put /
 * local get (the host's virtual DMA copies MPB to MPB). */
enum { MC_P2P_LP_RG = 0, MC_P2P_RP_LG = 1, MC_P2P_LP_LG = 2 };

/* between chips behind a host link (tp->host_link), the vSCC */
typedef struct mc_vscc_state {
    int scheme;       /* MC_P2P_*: how chunks reach a peer on another chip;
                         MC_P2P_LP_RG on one chip */
    size_t land;      /* the landing area of rp_lg and lp_lg in my MPB:
                         [land, 2 land) (0: none) */
    uint64_t dma_seq; /* virtual DMAs I programmed */
} mc_vscc_state_t;

#endif
