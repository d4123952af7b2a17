/*
 * The reader's state, shared by its two halves: defs.c (the global
 * definitions) and read.c (the events, and the reading itself).
 */
#ifndef MC_REPLAY_READ_INT_H
#define MC_REPLAY_READ_INT_H

#include <otf2/otf2.h>

#include "replay/replay.h"

enum { A_COUNT, A_DTYPE, A_OP, A_VCOUNTS, A_INPLACE, A_N };

typedef struct group {
    uint32_t id;
    int type, n;
    uint64_t *m;
} group_t;

typedef struct loc {
    uint64_t id;
    int rank;
    int depth;             /* MPI regions entered */
    uint64_t enter, last_leave;
    int started;
    size_t first;          /* records when the MPI call began */
    int completions;       /* requests completed in this call */
    int coll_begun;        /* MpiCollectiveBegin without its end */
    uint64_t nb_ns;        /* non-blocking collective calls' time */
    uint32_t waits;
} loc_t;

typedef struct rd {
    mc_rp_trace_t *t;
    char **str;
    uint32_t nstr;
    uint8_t *mpi_region;   /* [region] 1: paradigm MPI */
    uint32_t nregion;
    uint32_t attr[A_N];    /* attribute ids (UINT32_MAX: absent) */
    group_t *g;
    int ng;
    loc_t *loc;
    int nloc;
    int locs_group;        /* index in g of COMM_LOCATIONS, -1 */
    loc_t *cur;
    int err;
    char msg[300];
} rd_t;


/* the global definitions' callbacks (defs.c) */
void mc_rp_def_callbacks(OTF2_GlobalDefReaderCallbacks *cb);
/* locations -> world ranks, groups -> communicators' members */
int mc_rp_resolve_comms(rd_t *d);
/* OTF2's message of the current read (read.c), or a placeholder */
const char *mc_rp_otf2_msg(void);
/* a string definition ("" if none) */
const char *mc_rp_str(const rd_t *d, uint32_t id);

#endif
