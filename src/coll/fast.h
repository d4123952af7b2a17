/*
 * Small-message fast paths (barrier, bcast, reduce, allreduce "flat"):
 * every rank publishes its contribution in slots it alone writes, and the
 * ranks that need it read it straight from there, one cache-line transfer
 * when data and flag share a line (the "notification with payload" of
 * Ramos & Hoefler). No acknowledgement round trips: a slot is reused only
 * after every peer has finished the fast call that read it.
 *
 *   rank r's own lines:   slot 0 | slot 1 | ... | slot 31 | progress
 *   fast call f:          publish in line slot f % 32 (flag = f, payload
 *                         after it in the line, or in the MPB slot f % 4
 *                         of the reserved tail when it does not fit), read
 *                         peers' slot f % 32, then progress = f
 *
 * Reuse: before writing line slot f % 32 a rank needs every peer's
 * progress >= f - 32 (they are done with call f - 32, the last one that
 * read it), and before writing MPB slot f % 4, >= f - 4. It keeps what it
 * has seen of each peer's progress; reading a peer's slot for call f
 * shows that peer finished f - 1, so symmetric collectives never read a
 * progress line, and a broadcast root reads them about once every 31
 * calls. It also keeps the last call whose line slot that shows free
 * (fast.free_upto), so it looks at what it has seen once in 32 calls. 32 line slots let a root run that far ahead of the other ranks
 * in a loop of small calls: with more ranks than CPUs, a rank that waits
 * gives up its CPU, and with four slots each waiting rank's turn carried
 * only four calls (8-byte MPI_Bcast at 4 ranks on 2 CPUs, back to back,
 * mpi_compare --loop 100: 0.47 us a call with 4 line slots, 0.19-0.21
 * with 16, 0.14-0.16 with 32; Open MPI 0.11-0.17).
 *
 * All ranks count fast calls alike (the selection depends only on the
 * arguments, which are equal on every rank), so f is the same everywhere.
 * The lines are the shared range MC_FL_FAST of coll/flags.h, each
 * written by its owner only (rule 4 of tp/tp.h); the MPB slots are the
 * tail this file reserves (mc_team_mpb_tail).
 */
#ifndef MC_COLL_FAST_H
#define MC_COLL_FAST_H

#include "coll/coll.h"

#define MC_FAST_LINES 32 /* line slots: calls a rank may run ahead */
#define MC_FAST_SLOTS 4  /* MPB slots, for payloads beyond a line */
#define MC_FAST_MAX_SLOT 2048 /* bytes of the largest MPB slot */

/* Sets up the part fast of a new team (mc_team_init; state in
 * fast_state.h, written by fast.c alone): the line indices, the MPB
 * slots (reserved with mc_team_mpb_tail), and with MC_TEAM_FULL the
 * progress seen of up to MC_TEAM_DENSE peers. */
int mc_fast_init(mc_team_t *c, int what);
void mc_fast_fini(mc_team_t *c);
/* largest payload a fast call can carry per rank on this communicator */
size_t mc_fast_max(const mc_team_t *c);
/* usable hook (mc_algo_impl_t.usable) of the algorithms that publish a
 * piece for every rank in their slot: 1 if a slot has a byte per rank,
 * else 0 and *why */
int mc_fast_usable(const mc_team_t *t, const mc_params_t *p,
                   const char **why);

/* starts fast call f; if `publishes`, waits until the slot is free */
int mc_fast_begin(mc_team_t *c, int publishes, uint64_t *f);
/* ends fast call f: my progress is f */
void mc_fast_end(mc_team_t *c, uint64_t f);
/* waits until every peer has ended fast call f (mc_fast_end) */
int mc_fast_wait_done(mc_team_t *c, uint64_t f);
/* ... until peer p has (at once if p is me) */
int mc_fast_wait_peer(mc_team_t *c, uint64_t f, int p);
/* publishes n bytes (n <= mc_fast_max) in my slot of call f */
int mc_fast_publish(mc_team_t *c, uint64_t f, const void *data, size_t n);
/* waits for peer's slot of call f and copies its n bytes to out */
int mc_fast_fetch(mc_team_t *c, uint64_t f, int peer, void *out, size_t n);
/* ... or combines its count elements into inout (peer's data on the left
 * if in_left) */
int mc_fast_fetch_reduce(mc_team_t *c, uint64_t f, int peer, void *inout,
                         size_t count, const mc_args_t *a, int in_left);

/* the same for n bytes at offset off of a publication of `total` bytes */
int mc_fast_fetch_part(mc_team_t *c, uint64_t f, int peer, size_t off,
                       void *out, size_t n, size_t total);
/* mc_fast_fetch_part for collectives whose ranks publish up to `ahead`
 * calls before ending the first of them (alltoall:flat): a publication of
 * f shows only that its publisher has ended f - ahead */
int mc_fast_fetch_ahead(mc_team_t *c, uint64_t f, int ahead, int peer,
                        size_t off, void *out, size_t n, size_t total);
int mc_fast_fetch_reduce_part(mc_team_t *c, uint64_t f, int peer, size_t off,
                              void *inout, size_t count, const mc_args_t *a,
                              int in_left, size_t total);

/* out = x_0 op x_1 op ... op x_{P-1} of fast call f, in rank order (my own
 * x from `in`, or from my slot when the call is in place) */
int mc_fast_combine(mc_team_t *c, uint64_t f, const mc_args_t *a,
                    const void *in, void *out, size_t count);

#endif
