/*
 * Single-copy machinery for large messages (the "direct" algorithms):
 * ranks read each other's user buffers straight from the other process
 * (tp_get_direct: process_vm_readv on shm) instead of staging them through
 * the MPBs, one copy instead of two.
 *
 *   rank r:  begin   publish {sbuf, rbuf} addresses, the byte range of
 *                    each that peers may read, and my count, in my fast
 *                    slot
 *            ...     read peers' buffers at those addresses, each read
 *                    checked against the owner's published range: a rank
 *                    whose count is larger than its peer's fails with
 *                    MC_ERR_ARG naming both counts instead of reading
 *                    past the peer's buffer
 *            end     my progress = f; wait every peer's progress >= f
 *                    (nobody reads my buffers any more: I may return);
 *                    only the reader's, or no one's, where the
 *                    algorithm lets one rank, or none, read me
 *
 * A call is a fast call (coll/fast.h), so the addresses ride in one flag
 * line and need no acknowledgement of their own; a second fast call with
 * no payload ("signal") orders two phases (reduce-scatter, then
 * allgather). These algorithms need single copy and two ranks or more
 * (MC_ALGO_SINGLE_COPY): without (the simulator, MC_SINGLE_COPY=0, a
 * kernel that forbids it, one rank) the selection runs the MPB algorithm
 * each names as its fallback, with that algorithm's own parameters.
 */
#ifndef MC_COLL_DIRECT_H
#define MC_COLL_DIRECT_H

#include "coll/coll.h"

typedef struct mc_direct {
    uint64_t f;          /* the fast call that published the addresses */
    const mc_args_t *a;
    /* of the peer last fetched: sbuf, rbuf addresses, and the bytes
     * [lo, hi) of each that it lets peers read; its count */
    uintptr_t addr[2];
    size_t lo[2], hi[2];
    uint64_t count;
    int peer;            /* whose addresses addr holds; -1 none */
    /* set by the caller after begin: mc_direct_reduce ends the call
     * (mc_fast_end) right after its last read, before its last combine,
     * and the caller only waits (mc_fast_wait_done) */
    int release;
} mc_direct_t;

/* The usable hook of these algorithms (mc_algo_impl_t.usable): 1 if
 * team t has single copy and 2 ranks or more, else 0 and *why */
int mc_direct_usable(const mc_team_t *t, const mc_params_t *p,
                     const char **why);
/* MC_OK if the team has single copy and 2 ranks or more (the selection
 * sees to it), else MC_ERR_INTERNAL */
int mc_direct_require(const mc_team_t *c);
/* publishes my sbuf and rbuf (the whole buffers the call passes); d->f is
 * the call */
int mc_direct_begin(mc_team_t *c, const mc_args_t *a, mc_direct_t *d);
/* ... or two other addresses of mine: peers may read bytes [0, s_len) at
 * s and [r_lo, r_hi) at r */
int mc_direct_begin_at(mc_team_t *c, const mc_args_t *a, mc_direct_t *d,
                       uintptr_t s, size_t s_len, uintptr_t r, size_t r_lo,
                       size_t r_hi);
/* reads n bytes at byte off of peer's sbuf (which = 0) or rbuf (1) into
 * dst; MC_ERR_ARG, naming both ranks' counts, if the peer's published
 * range does not cover them */
int mc_direct_get(mc_team_t *c, mc_direct_t *d, int peer, int which,
                  size_t off, void *dst, size_t n);
/* writes n bytes of src at byte off of peer's rbuf, which the peer
 * published for it (peers may write the same range they may read);
 * MC_ERR_ARG as mc_direct_get */
int mc_direct_put(mc_team_t *c, mc_direct_t *d, int peer, size_t off,
                  const void *src, size_t n);
/* a fast call without payload: I reached this point; *f is its number */
int mc_direct_signal(mc_team_t *c, uint64_t *f);
/* waits until peer reached signal f */
int mc_direct_wait_signal(mc_team_t *c, uint64_t f, int peer);
/* ends call f: returns once no peer reads my buffers any more */
int mc_direct_end(mc_team_t *c, uint64_t f);
/* ... where only `reader` reads them (MC_DIRECT_ALL: any peer may, as
 * mc_direct_end; MC_DIRECT_NOBODY: none does, as a broadcast's or a
 * scatter's receivers, who then return as soon as they have their data,
 * not when the slowest receiver has: that matters most when ranks
 * outnumber the CPUs) */
#define MC_DIRECT_ALL (-1)
#define MC_DIRECT_NOBODY (-2)
int mc_direct_end_for(mc_team_t *c, uint64_t f, int reader);

/* out[0..count) = x_0 op x_1 op ... op x_{P-1}, in rank order, where x_q
 * is count elements at byte off of rank q's sbuf (mine from `mine`, which
 * may be a copy); in pieces of `chunk` bytes through scratch `tmp` */
int mc_direct_reduce(mc_team_t *c, mc_direct_t *d, size_t off, size_t count,
                     const char *mine, char *out, char *tmp, size_t chunk);

/* The rest of a call whose output is rbuf = count elements combined as
 * mc_direct_reduce does from byte off of every rank's input: into rbuf,
 * or, in place (my input is rbuf, which peers read until the end), into
 * scratch copied to rbuf after the end; then ends call d. chunk as
 * mc_direct_chunk. */
int mc_direct_reduce_end(mc_team_t *c, mc_direct_t *d, size_t off,
                         size_t count, size_t chunk);
/* the chunk parameter (bytes, 0 = 64K) rounded to whole elements */
size_t mc_direct_chunk(const mc_args_t *a, int64_t chunk);

/* the chunk: the first parameter of the direct algorithms that combine
 * (mc_direct_params below; the registry check holds every algorithm
 * whose resolver is mc_direct_resolve to it) */
enum { MC_DIRECT_CHUNK = 0 };
/* their resolver: chunk 0 becomes the 64K that runs */
int mc_direct_resolve(const mc_team_t *t, mc_params_t *p);
/* ... and their parameter table (direct.c): the chunk alone */
extern const mc_param_desc_t mc_direct_params[];

#endif
