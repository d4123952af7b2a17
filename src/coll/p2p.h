/*
 * Two-sided send/receive over the MPBs, as RCCE built it: the sender puts
 * a chunk into its OWN MPB and raises "sent" at the receiver; the receiver
 * gets the chunk from the sender's MPB and raises "ready" at the sender,
 * which may then reuse its MPB. Messages larger than the chunk size
 * (c->p2p.chunk: the whole MPB by default, RCCE's 251 lines on the SCC,
 * always a multiple of 8 bytes so every datatype splits evenly) go chunk
 * by chunk. Sends are synchronous: mc_p2p_send returns when the receiver
 * has the data.
 *
 *   sender s                           receiver r
 *   put chunk -> MPB[s]
 *   flag sent[s]@r = ++n  ---------->  wait sent[s]@r >= n
 *                                      get MPB[s] -> buf
 *   wait ready[r]@s >= n  <----------  flag ready[r]@s = n
 *
 * The flavours of Kohler et al. (a mode, mc_p2p_mode_t; the `sync` and
 * `tail` parameters of the ring algorithms):
 *
 *   sync = 0  RCCE_comm on RCCE: a round of a ring is a blocking send and
 *             a blocking receive, even ranks send first (odd-even order):
 *
 *               even:  [send ......][recv ......]
 *               odd:   [recv ......][send ......]   two synchronisations
 *
 *   sync = 1  iRCCE: isend and irecv posted together, one wait for both
 *             (relaxed synchronisation); each request pays o_req_ircce
 *             (list keeping, malloc/free; charged in the simulator)
 *   sync = 2  lightweight: the same round, at most one send and one
 *             receive in flight, each request pays o_req_light
 *
 *               all:   [post send][recv ......][wait ready]   one
 *
 *   tail = 1  RCCE_send_general: a message whose length is not a whole
 *             number of lines sends its whole lines, then the last partial
 *             line, padded, as a round of its own (put, sent, ready): one
 *             more call of the primitive (the period-4 spikes of doubles)
 *
 * Between chips (tp_locality MC_LOC_OTHER, a simulated multi-chip
 * platform), the schemes of Reble et al. (vSCC, Fig. 4; the team's
 * vscc.scheme, p2p_state.h; MC_P2P_SCHEME). rp_lg and lp_lg land the chunk in the
 * upper half of the receiver's MPB (the chunk is half the MPB in a
 * communicator that spans chips), so "ready" comes first, from the
 * receiver, and says the landing area is free:
 *
 *   lp_rg  RCCE's, and the sender publishes each chunk to the host's
 *          cache (tp_prefetch); the receiver's gets are served there
 *   rp_lg  receiver r                     sender s
 *          flag ready[r]@s = n  ------>   wait ready[r]@s >= n
 *                                         put chunk -> MPB[r] landing
 *          wait sent[s]@r >= n  <------   flag sent[s]@r = n
 *          get own landing area -> buf
 *   lp_lg  as rp_lg, but the sender puts into its own MPB and the host
 *          copies it (tp_dma, the virtual DMA), raising sent[s]@r when
 *          the data has landed and the sender's completion flag when
 *          its MPB may be reused; below tp->dma_min a direct put
 *
 * A send and a receive at once (rounds, sendrecv) raise the receive's
 * "ready" before the send waits for the peer's: a ring cannot deadlock.
 *
 * iRCCE's pipelining (MC_P2P_PIPE, not with a landing area): a lone
 * message above the threshold goes in half chunks, alternating between
 * the halves of the sender's MPB, two in flight:
 *
 *   sender    put A1 sent | put B2 sent | wait ready 1, put A3 sent ...
 *   receiver        wait, get A1, ready | wait, get B2, ready | ...
 *
 * A blocking send or receive pays o_call. The costs are 0 unless the
 * platform sets them (tp->charge; nothing on shm, where the CPU spends
 * them for real).
 *
 * These are the reference algorithms' primitives; the one-sided
 * algorithms use the transport directly. The layer's state in a team is
 * its parts p2p and vscc (p2p_state.h), which p2p.c alone writes.
 */
#ifndef MC_P2P_H
#define MC_P2P_H

#include "coll/coll.h"

/* How a receive combines data into its destination instead of copying:
 * dst = in op dst if in_left, else dst = dst op in. With tmp (>= the
 * message) the data is first received into tmp, acknowledged, then
 * combined (RCCE_comm's receive-then-reduce, Kohler et al.'s Fig. 7);
 * without, it is combined straight from the sender's MPB. */
typedef struct mc_red {
    mc_dtype_t dt;
    mc_op_t op;
    size_t dsize;
    int in_left;
    void *tmp;
} mc_red_t;

enum {
    MC_SYNC_BLOCKING = 0,
    MC_SYNC_IRCCE = 1,
    MC_SYNC_LIGHT = 2,
    MC_SYNC_AUTO = 3 /* lightweight where MPBs are cache-coherent memory
                        (shm: measured faster, docs/benchmarks.md), RCCE_comm's
                        blocking on MPB chips (the papers' baseline) */
};

typedef struct mc_p2p_mode {
    int sync; /* MC_SYNC_* */
    int tail; /* 1: the last partial line is a round of its own */
} mc_p2p_mode_t;

/* Sets up the parts p2p and vscc of a new team (mc_team_init, after the
 * MPB's tails are reserved): the chunk (MC_P2P_CHUNK, the transport's
 * hint, at most the general MPB area), the scheme between chips
 * (MC_P2P_SCHEME) and pipelining (MC_P2P_PIPE); with MC_TEAM_FULL, the
 * dense counters of a team of up to MC_TEAM_DENSE ranks. */
int mc_p2p_init(mc_team_t *t, int what);
void mc_p2p_fini(mc_team_t *t);

int mc_p2p_send(mc_team_t *c, int dst, const void *buf, size_t n);
/* red == NULL: copy n bytes into buf; else combine them into it */
int mc_p2p_recv(mc_team_t *c, int src, void *buf, size_t n,
                const mc_red_t *red);
/* send sn bytes to dst while receiving rn bytes from src (copied, or
 * combined if red != NULL); deadlock-free for any pattern because each
 * chunk is posted before the matching receive and acknowledged after it */
int mc_p2p_sendrecv(mc_team_t *c, int dst, const void *sbuf, size_t sn,
                    int src, void *rbuf, size_t rn, const mc_red_t *red);

/* RCCE_comm's exchange on a ring: a blocking send to dst and a blocking
 * receive from src, even `parity` first sends, odd first receives (so a
 * ring of blocking calls cannot deadlock; an odd ring has two even
 * neighbours, which just serialises one step). Two send/receive
 * operations per step, as the OC-Bcast paper's section 5 counts them. */
int mc_p2p_exchange(mc_team_t *c, int parity, int dst, const void *sbuf,
                    size_t sn, int src, void *rbuf, size_t rn,
                    const mc_red_t *red);

/* The same in a given flavour: a lone send or receive (the request of
 * the flavour, then waiting for it), and one round of a ring or shift
 * (sync 0: mc_p2p_exchange's order by `parity`; 1, 2: both posted). */
int mc_p2p_send_m(mc_team_t *c, const mc_p2p_mode_t *m, int dst,
                  const void *buf, size_t n);
int mc_p2p_recv_m(mc_team_t *c, const mc_p2p_mode_t *m, int src, void *buf,
                  size_t n, const mc_red_t *red);
int mc_p2p_round(mc_team_t *c, const mc_p2p_mode_t *m, int parity, int dst,
                 const void *sbuf, size_t sn, int src, void *rbuf, size_t rn,
                 const mc_red_t *red);

static inline mc_red_t mc_red_of(const mc_args_t *a, int in_left)
{
    mc_red_t r = {a->dt, a->op, a->dsize, in_left, NULL};
    return r;
}

/* The parameters of the flavours, in this order at the start of an
 * algorithm's parameter table: `sync` first (MC_P2P_SYNC, which
 * mc_p2p_resolve sets; the registry check holds every algorithm with that
 * resolver to it), then those of balance, tail and fused it has, whose
 * places each algorithm names in its own enum. */
enum { MC_P2P_SYNC = 0 };
#define MC_P2P_PARAM_SYNC(def)                                               \
    {"sync", def, 0, 3,                                                      \
     "two-sided synchronisation (Kohler et al.): 0 RCCE_comm's blocking "    \
     "odd-even exchange, 1 iRCCE requests, 2 lightweight non-blocking, 3 "   \
     "automatic (2 on cache-coherent machines, 0 on MPB chips)"}
#define MC_P2P_PARAM_TAIL                                                    \
    {"tail", 0, 0, 1,                                                        \
     "1: a message's last partial line goes as a padded round of its own, " \
     "as RCCE sends it"}
#define MC_P2P_PARAM_BALANCE                                                 \
    {"balance", 1, 0, 1,                                                     \
     "block split: 1 balanced (sizes differ by at most one element), 0 "     \
     "RCCE_comm's (the first block takes the remainder)"}
#define MC_P2P_PARAM_FUSED                                                   \
    {"fused", 1, 0, 1,                                                       \
     "1: combine straight from the sender's MPB; 0: receive into scratch, " \
     "then reduce (RCCE_comm)"}

/* The tables of the two-sided algorithms (p2p.c), built of the entries
 * above: sync, then balance, tail and fused where they are, in that
 * order (the registry check holds them to it). */
extern const mc_param_desc_t mc_p2p_params_ring[];   /* sync, balance,
                                                        tail, fused */
extern const mc_param_desc_t mc_p2p_params_sbt[];    /* sync, balance,
                                                        tail */
extern const mc_param_desc_t mc_p2p_params_stf[];    /* sync, tail,
                                                        fused */
extern const mc_param_desc_t mc_p2p_params_st[];     /* sync, tail */
extern const mc_param_desc_t mc_p2p_params_st2[];    /* sync (default 2:
                                                        lightweight), tail */

/* the synchronisation `sync` stands for on c (resolves MC_SYNC_AUTO) */
static inline int mc_p2p_sync(const mc_team_t *c, int64_t sync)
{
    if (sync != MC_SYNC_AUTO)
        return (int)sync;
    return c->tp->cache_coherent ? MC_SYNC_LIGHT : MC_SYNC_BLOCKING;
}

/* the mode from an algorithm's parameters v[isync], v[itail] */
static inline mc_p2p_mode_t mc_p2p_mode_of(const mc_team_t *c,
                                           const mc_params_t *p, int isync,
                                           int itail)
{
    mc_p2p_mode_t m = {mc_p2p_sync(c, p->v[isync]),
                       itail >= 0 ? (int)p->v[itail] : 0};
    return m;
}

/* resolver of the two-sided algorithms (their MC_P2P_SYNC): the
 * synchronisation that runs on c (mc_algo_impl_t.resolve) */
int mc_p2p_resolve(const mc_team_t *c, mc_params_t *p);

#endif
