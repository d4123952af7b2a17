/*
 * What an algorithm sees of a communicator: its ranks, its transport, and
 * the state the shared machinery keeps between calls, in parts, each
 * declared by the header of the file that owns it and written by that
 * file alone (its *_init and *_fini, called by mc_team_init and
 * mc_team_fini, and its own operations); the others only read it:
 *
 *   part      type              owner (writes it)      holds
 *   (members) rank size tp seq  team_init.c; seq: the  who, and the calls
 *                               API's dispatch         so far
 *   fast      mc_fast_state_t   coll/fast.c            fast-path progress
 *   fl        mc_flags_state_t  coll/flags.c           the flag layout
 *   mpb       mc_mpb_state_t    coll/team.c            the MPB layout
 *   p2p       mc_p2p_state_t    coll/p2p.c             two-sided counters
 *   vscc      mc_vscc_state_t   coll/p2p.c             schemes between chips
 *   scratch   mc_scratch_t      coll/team.c            private scratch
 *
 * The API's communicator (src/api/comm.h) embeds a team as its first
 * member and adds what only the API needs (selection rules, error
 * state); the algorithms never see that part.
 *
 * MPB of every rank (bytes):
 *
 *   [0, mpb.avail)                 general algorithms (two-sided chunks,
 *                                  OC-Bcast, rsag, the cc-* algorithms)
 *   [mpb.avail, mpb_size)          tails reserved by their owners with
 *                                  mc_team_mpb_tail (the fast paths' slots,
 *                                  coll/fast.c, on cache-coherent machines)
 *
 * Flag area: coll/flags.h.
 */
#ifndef MC_COLL_TEAM_H
#define MC_COLL_TEAM_H

#include <stddef.h>
#include <stdint.h>

#include "coll/fast_state.h"
#include "coll/flags_state.h"
#include "coll/p2p_state.h"
#include "tp/tp.h"
#include "util/assert.h"

/* the MPB layout (above), fixed at creation */
typedef struct mc_mpb_state {
    size_t avail; /* MPB bytes [0, avail) general algorithms use */
} mc_mpb_state_t;

/* private scratch, grown on demand (mc_scratch) */
typedef struct mc_scratch {
    void *p;
    size_t len;
} mc_scratch_t;

typedef struct mc_team {
    int rank;
    int size;
    mc_tp_t *tp;
    uint64_t seq;          /* collective calls so far, equal on all ranks */
    mc_fast_state_t fast;  /* first: the fast paths' hot fields */
    mc_flags_state_t fl;
    mc_mpb_state_t mpb;
    mc_p2p_state_t p2p;
    mc_vscc_state_t vscc;
    mc_scratch_t scratch;
} mc_team_t;

/* An 8-byte flat call reads rank, size, tp, seq and the fast part's
 * first fields: one cache line where the team starts on one. */
_Static_assert(offsetof(mc_team_t, fast.line_max) + sizeof(size_t) <= 64,
               "the fast path's fields leave the team's first 64 bytes");

/* Teams up to this many ranks keep per-peer state in dense arrays from
 * creation; larger ones only for the peers they use, when they use them. */
#define MC_TEAM_DENSE 256

/* What the parts' *_init make: the layouts only (nothing allocated; tp
 * may be a description, tp/shm.h mc_shm_describe), or memory too. */
enum { MC_TEAM_LAYOUT = 0, MC_TEAM_FULL = 1 };

/* Sets up a team over tp (which it then owns, also on failure): each
 * part's *_init in turn (flags, fast, p2p and vscc), MC_TEAM_FULL. */
int mc_team_init(mc_team_t *t, mc_tp_t *tp);
/* Only the layouts of a team over tp (MC_TEAM_LAYOUT): what the
 * selection needs to resolve automatic parameters, for reports without a
 * communicator; nothing to free. */
int mc_team_layout(mc_team_t *t, mc_tp_t *tp);
/* Each part's *_fini, then the transport. */
void mc_team_fini(mc_team_t *t);

/* The MPB layout of a new team: all of it general (mc_team_init, before
 * the other parts reserve their tails). */
void mc_team_mpb_init(mc_team_t *t);
/* Reserves `bytes` at the end of the general MPB area for an owner (at
 * creation only): *off is where they start; MC_ERR_INTERNAL with a
 * message naming `owner` if too little would be left. */
int mc_team_mpb_tail(mc_team_t *t, size_t bytes, const char *owner,
                     size_t *off);

/* Private scratch memory of at least n bytes, 64-byte aligned, valid until
 * the next mc_scratch (grows: the first large call allocates). */
int mc_scratch(mc_team_t *t, size_t n, void **out);
void mc_scratch_fini(mc_team_t *t);
/* heap bytes t holds beyond the struct: per-peer state, scratch */
size_t mc_team_bytes(const mc_team_t *t);

/* Flag value for step `step` of the current call: grows across calls
 * (rule 3 of tp/tp.h). */
static inline uint64_t mc_flagval(const mc_team_t *t, uint32_t step)
{
    return (t->seq << 32) | step;
}

#endif
