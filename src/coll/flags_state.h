/*
 * The flag layout's part of a team (coll/flags.h): written by coll/flags.c
 * alone, in mc_flags_init, and read by every user of flag lines. Apart
 * from flags.h so that team.h can embed it.
 */
#ifndef MC_COLL_FLAGS_STATE_H
#define MC_COLL_FLAGS_STATE_H

/* The users of the shared lines (their sizes: mc_flag_users, flags.c) */
typedef enum {
    MC_FL_FAST = 0,   /* coll/fast.c: one line per slot, then progress */
    MC_FL_RSAG,       /* coll/allreduce_rsag.c: "in" and "out" */
    MC_FL_CC_ACK,     /* coll/cc.h: acknowledgement words of the cc-*
                       * algorithms (several writers, one per word) */
    MC_FL_CHECK_ARGS, /* api/check_args.c: MC_CHECK_ARGS, two lines */
    MC_FL_P2P_DMA,    /* coll/p2p.c: my virtual DMAs are done (the agent
                         writes it for me, house rule 4) */
    MC_FL_COUNT
} mc_flag_owner_t;

typedef struct mc_flags_state {
    int per;               /* flag words per line */
    int alg0;              /* first word of the per-writer banks */
    int shared0;           /* first word of the shared lines */
    int first[MC_FL_COUNT]; /* first word of each user's lines */
} mc_flags_state_t;

#endif
