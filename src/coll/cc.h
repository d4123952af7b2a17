/*
 * What the model-tuned cache-coherence algorithms share (Ramos & Hoefler
 * 2013, chapter 4): cc-tree (bcast, reduce), cc-flat, cc-pipeline,
 * dissemination-m. Parameters, the tree of a call, and the
 * acknowledgement words of the notification backwards.
 *
 * Notification backwards ("one line per parent", Section 4.1.1): the
 * children of a parent acknowledge in ONE shared line of the parent's
 * flags, each child in its own 64-bit word: the child at position j
 * writes word j % W of shared line j / W (W = words per line: 8 on shm,
 * 4 on the simulated SCC), so a parent of up to W children polls a
 * single line. Positions beyond MC_CC_ACK_LINES * W acknowledge in their
 * own line (bank 1, writer = child) instead, as rule 4 has it.
 *
 * Why one writer per WORD keeps the guarantee of rule 4 (tp/tp.h): the
 * rule exists so that the values a waiter sees in a flag only grow, in
 * the order their writer produced them. That is a property of each
 * 64-bit word, not of the line: flag stores are 8-byte atomics, and
 * coherence orders the stores to one location, whatever happens to the
 * other words of its line. Within a call each ack word has one writer
 * (the child at that position), whose values grow in its program order.
 * Across calls the child at a position may change (another root, tree
 * or algorithm), but a child writes its ack only after its parent
 * notified it in that same call, and the parent notifies only after it
 * has seen every ack of the previous call; so the earlier writer's
 * store happens before the later writer's, and the word's values still
 * grow in that order. What rule 4 forbids -- a peer already in call
 * n+1 overwriting a word whose call-n value someone still waits for --
 * cannot happen.
 *
 * MPB: these algorithms use [0, c->mpb.avail) of each MPB ("half the
 * MPB" in their comments means half of that); the tail beyond belongs
 * to the fast paths (src/coll/fast.h).
 */
#ifndef MC_COLL_CC_H
#define MC_COLL_CC_H

#include "coll/coll.h"
#include "sched/ktree.h"

/* parameters of cc-tree (bcast and reduce) */
enum {
    MC_CC_K1 = 0, /* k1 .. k4: fan-outs, top level first, up to the first
                   * 0; k1 = 0: automatic (resolved at selection) */
    MC_CC_KMAX = 4,
    MC_CC_INLINE = 4, /* 1: data in the notification line when it fits */
    MC_CC_CHUNK = 5,  /* bytes per MPB chunk; 0 = automatic */
    MC_CC_NPARAMS
};

/* the parameter of dissemination-m (Eq. 4.11), which the selection fills
 * in when it is 0 (select/auto.c, mc_algo_impl_t.model) */
enum { MC_CC_M = 0 /* peers per round */ };

/* the entries of a cc-tree parameter table but the chunk's, whose help
 * differs between bcast and reduce */
#define MC_CC_TREE_PARAMS                                                    \
    [MC_CC_K1] = {"k1", 0, 0, 1 << 16,                                      \
                  "fan-out of the root; 0 = automatic: the optimiser's "    \
                  "tree for this rank count (built-in xeonphi60 model, at " \
                  "most 4 levels)"},                                         \
    [MC_CC_K1 + 1] = {"k2", 0, 0, 1 << 16,                                  \
                      "fan-out of level 1 (0: no more levels)"},             \
    [MC_CC_K1 + 2] = {"k3", 0, 0, 1 << 16,                                  \
                      "fan-out of level 2 (0: no more levels)"},             \
    [MC_CC_K1 + 3] = {"k4", 0, 0, 1 << 16,                                  \
                      "fan-out of level 3 (0: none); if k1.. reach too few " \
                      "ranks the last fan-out grows"},                       \
    [MC_CC_INLINE] = {"inline", 1, 0, 1,                                    \
                      "1: data in the notification line when it fits (56 " \
                      "bytes on shm); 0: always via the MPB"}

/* the shared ack lines: range MC_FL_CC_ACK of coll/flags.h */
#define MC_CC_ACK_LINES 16

/* Flag indices of a call, worked out once. */
typedef struct mc_cc_fl {
    int alg0; /* first flag of the per-writer banks */
    int per;  /* flags per line */
    int size;
    int ack0; /* first flag of the shared ack lines */
} mc_cc_fl_t;

static inline void mc_cc_fl_init(mc_cc_fl_t *f, const mc_team_t *c)
{
    f->alg0 = c->fl.alg0;
    f->per = c->fl.per;
    f->size = c->size;
    f->ack0 = mc_flag_line(c, MC_FL_CC_ACK, 0);
}

/* = mc_flag_from(c, bank, writer) */
static inline int mc_cc_line(const mc_cc_fl_t *f, int bank, int writer)
{
    return f->alg0 + (bank * f->size + writer) * f->per;
}

/* The flag index, in a parent's flags, of the ack word of its child at
 * position pos: a word of the shared lines, or -1 if pos is beyond them
 * (then the child's own line, mc_cc_line(f, 1, child)). */
static inline int mc_cc_ack_shared(const mc_cc_fl_t *f, int pos)
{
    if (pos >= MC_CC_ACK_LINES * f->per)
        return -1;
    return f->ack0 + pos; /* word pos % W of line pos / W */
}

/* ... for a child whose rank is known */
static inline int mc_cc_ack(const mc_cc_fl_t *f, int pos, int child)
{
    int i = mc_cc_ack_shared(f, pos);
    return i >= 0 ? i : mc_cc_line(f, 1, child);
}

/* The tree of a call on n ranks from the fan-outs in p (k1 = 0: one
 * level, the root's children are everyone). */
int mc_cc_tree(const mc_params_t *p, int n, mc_ktree_t *t);

/* The double-buffered chunk of the cc algorithms on team c: `want` bytes
 * (0 or more than half the MPB: half the MPB), whole lines, at least one.
 * Their resolvers store it, so reports show the value that runs. */
size_t mc_cc_half_chunk(const mc_team_t *c, int64_t want);
/* the resolver of the large broadcasts whose first parameter is such a
 * size (cc-flat's chunk, cc-pipeline's block): the size that runs */
enum { MC_CC_HALF = 0 };
int mc_cc_resolve_half(const mc_team_t *t, mc_params_t *p);

#endif
