/*
 * Two-sided send/receive over the MPBs, as RCCE built it: the sender puts
 * a chunk into its OWN MPB and raises "sent" at the receiver; the receiver
 * gets the chunk from the sender's MPB and raises "ready" at the sender,
 * which may then reuse its MPB. Messages larger than the chunk size
 * (c->p2p_chunk: the whole MPB by default, RCCE's 251 lines on the SCC,
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
 * These are the reference algorithms' primitives; the one-sided
 * algorithms use the transport directly.
 */
#ifndef MC_P2P_H
#define MC_P2P_H

#include "coll/coll.h"

/* How a receive combines data into its destination instead of copying:
 * dst = in op dst if in_left, else dst = dst op in. */
typedef struct mc_red {
    mc_dtype_t dt;
    mc_op_t op;
    size_t dsize;
    int in_left;
} mc_red_t;

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

static inline mc_red_t mc_red_of(const mc_args_t *a, int in_left)
{
    mc_red_t r = {a->dt, a->op, a->dsize, in_left};
    return r;
}

#endif
