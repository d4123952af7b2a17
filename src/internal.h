/*
 * Internal definitions shared by the layers: the communicator, the argument
 * block every algorithm receives, error reporting, flag helpers.
 */
#ifndef MC_INTERNAL_H
#define MC_INTERNAL_H

#include <stdint.h>
#include <stddef.h>

#include "manycoll.h"
#include "tp/tp.h"

/* ranks of a communicator at most (a shm segment is sized for them) */
#define MC_MAX_RANKS (1 << 20)

typedef enum {
    MC_COLL_BARRIER = 0,
    MC_COLL_BCAST,
    MC_COLL_REDUCE,
    MC_COLL_ALLREDUCE,
    MC_COLL_ALLGATHER,
    MC_COLL_ALLTOALL,
    MC_COLL_REDUCE_SCATTER_BLOCK,
    MC_COLL_GATHER,
    MC_COLL_SCATTER,
    MC_COLL_COUNT
} mc_coll_t;

const char *mc_coll_name(mc_coll_t coll);
int mc_coll_from_name(const char *name, mc_coll_t *out);

/* Arguments as an algorithm sees them. The API layer has resolved
 * MC_IN_PLACE: sbuf always points at this rank's input (it may alias rbuf,
 * e.g. sbuf == rbuf for in-place allreduce, or sbuf == rbuf + rank * bytes
 * for in-place allgather), and rbuf at its output. Buffers that MPI says are
 * not significant on this rank are NULL. `bytes` is count * dsize, the
 * per-rank block for allgather, alltoall, gather, scatter and
 * reduce_scatter_block. */
typedef struct mc_args {
    mc_coll_t coll;
    const void *sbuf;
    void *rbuf;
    size_t count;
    size_t bytes;
    size_t dsize;
    mc_dtype_t dt;
    mc_op_t op;
    int root;
    int in_place;
} mc_args_t;

/* Algorithm parameters, parsed from "name:k=v,..." against the registry. */
#define MC_MAX_PARAMS 6
typedef struct mc_params {
    int64_t v[MC_MAX_PARAMS];
} mc_params_t;

struct mc_algo;

typedef struct mc_sel {
    const struct mc_algo *algo;
    mc_params_t params;
} mc_sel_t;

/* Selection rules of one collective: the first rule whose max_bytes is >=
 * the call's message size wins (see src/select/select.h). */
#define MC_MAX_RULES 8
typedef struct mc_rule {
    size_t max_bytes;
    mc_sel_t sel;
    const char *why; /* where the rule comes from, for reports */
} mc_rule_t;
typedef struct mc_ruleset {
    int n;
    mc_rule_t r[MC_MAX_RULES];
    mc_sel_t fallback; /* for non-commutative ops, if the rule's algorithm
                        * needs a commutative one */
} mc_ruleset_t;

struct mc_comm {
    int rank;
    int size;
    mc_tp_t *tp;
    uint64_t seq;        /* collective calls so far, equal on all ranks */
    int broken;          /* status of a failed collective, or 0 */
    uint64_t *p2p_sent;  /* [size] chunks sent to each peer */
    uint64_t *p2p_recv;  /* [size] chunks received from each peer */
    size_t p2p_chunk;    /* payload bytes per two-sided chunk */
    size_t mpb_avail;    /* MPB bytes [0, mpb_avail) general algorithms use */
    size_t fast_off;     /* the fast paths' MPB slots start here ... */
    size_t fast_slot;    /* ... each this big (0: none, lines only) */
    uint64_t fast_seq;   /* fast calls so far (coll/fast.h) */
    uint64_t *fast_seen; /* [size] progress seen of each peer */
    size_t fast_line_max; /* payload bytes that ride in a flag line */
    int fast_line0, fast_line_step; /* flag index of slot 0, per slot */
    void *scratch;       /* private scratch, grown on demand */
    size_t scratch_len;
    uint64_t nsplit;     /* splits made from this communicator */
    mc_ruleset_t rules[MC_COLL_COUNT];
    int owns_world;      /* created by mc_init */
    int check_args;      /* MC_CHECK_ARGS: compare every call's arguments */
    struct mc_algo *checked_algos; /* the registry, checking (check_args.c) */
    int nchecked_algos;
    size_t max_count;       /* largest count of a call (check_count) ... */
    size_t max_block_count; /* ... of a call with one block per rank */
    struct mc_comm *next_live; /* list of communicators for finalize */
};

/* ---- errors ---- */
int mc_error(int status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#define MC_CHECK(expr)                                                       \
    do {                                                                     \
        int mc_rc_ = (expr);                                                 \
        if (mc_rc_ < 0)                                                      \
            return mc_rc_;                                                   \
    } while (0)

/* ---- flags of the algorithms' area ---- */

/* Index of the first word of line `i` of the algorithms' flag area. */
static inline int mc_alg_flag(const mc_comm_t *c, int i)
{
    int per = tp_flags_per_line(c->tp);
    int p2p_lines = (2 * c->size + per - 1) / per;
    return (p2p_lines + i) * per;
}

/* The flag line that rank `writer` (and only it) writes, in bank 0 or 1
 * (two independent channels per writer), in the algorithms' area of every
 * rank: see rule 4 in tp/tp.h. */
static inline int mc_flag_from(const mc_comm_t *c, int bank, int writer)
{
    return mc_alg_flag(c, bank * c->size + writer);
}

/* Line i (0 <= i < 64) of the 64 lines after the two per-writer banks.
 * Lines 0-4: src/coll/fast.c, 8-9: src/coll/allreduce_rsag.c, 10-11:
 * src/api/check_args.c (each written by its owner only); lines
 * 48-63: the acknowledgement words of the cc-* algorithms, which SEVERAL
 * ranks write, one writer per 64-bit word (src/coll/cc.h says why that
 * keeps rule 4's guarantee). */
static inline int mc_flag_extra(const mc_comm_t *c, int i)
{
    return mc_alg_flag(c, 2 * c->size + i);
}

/* Flag value for step `step` of the current call: grows across calls. */
static inline uint64_t mc_flagval(const mc_comm_t *c, uint32_t step)
{
    return (c->seq << 32) | step;
}

/* ---- private scratch memory of a communicator ---- */
int mc_scratch(mc_comm_t *c, size_t n, void **out);

/* ---- reduction kernels (src/api/reduce_ops.c) ---- */
int mc_op_check(mc_op_t op, mc_dtype_t dt);
int mc_op_commutative(mc_op_t op);
/* inout = in op inout if in_left, else inout = inout op in. */
void mc_reduce_into(void *inout, const void *in, size_t count, mc_dtype_t dt,
                    mc_op_t op, int in_left);

/* ---- MC_CHECK_ARGS (src/api/check_args.c) ---- */
/* points the selection of c at checking algorithms if c->check_args */
int mc_check_args_arm(mc_comm_t *c);
/* the check itself: MC_OK if every rank passed the same arguments */
int mc_check_args_exchange(mc_comm_t *c, const mc_args_t *a);

/* A call touches at most count * 8 * (ranks, for calls with a block per
 * rank) bytes: keeping that below 2^62 keeps every byte count and offset
 * of the algorithms far from overflowing a size_t. */
#define MC_MAX_COUNT ((size_t)1 << 59)

/* ---- communicator construction (src/api/comm.c) ---- */
int mc_comm_wrap(mc_tp_t *tp, mc_comm_t **out);

#endif /* MC_INTERNAL_H */
