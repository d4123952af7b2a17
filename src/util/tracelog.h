/*
 * The log format of MC_TRACE (a C API program's recording): written by
 * src/api/trace.c (api/trace.h says what each call writes), read by
 * src/trace when `manycoll run` makes the ranks' logs into an OTF2
 * archive. Here, below both, so that the reader needs no API headers.
 *
 *   DIR/manycoll.RANK.mctrace   mc_trhead_t, then records of
 *                               sizeof(mc_trec_t) + 8 * rec.n bytes
 */
#ifndef MC_UTIL_TRACELOG_H
#define MC_UTIL_TRACELOG_H

#include <stdint.h>

#define MC_TR_MAGIC "MCTRACE1"

/* the log's first bytes; its clock pairs are written at the start and
 * at mc_finalize (or exit): the converter turns ticks into ns with them */
typedef struct mc_trhead {
    char magic[8];       /* MC_TR_MAGIC */
    int32_t rank, size;  /* in the world */
    int32_t tsc, pad;    /* times are TSC ticks (1) or ns (util/tick.h) */
    uint64_t tick0, ns0, tick1, ns1; /* two (tick, ns) pairs; ns1 0: the
                                        rank did not get to mc_finalize */
} mc_trhead_t;

/* record kinds */
enum { MC_TR_COLL = 1, MC_TR_START, MC_TR_INIT, MC_TR_WAIT, MC_TR_COMM };
/* forms of a collective (region names: mc_X, mc_iX, mc_X_init) */
enum { MC_TR_BLOCKING, MC_TR_NB, MC_TR_PERSISTENT };
/* MC_TR_WAIT: which call (its coll field) */
enum { MC_TRW_WAIT, MC_TRW_TEST, MC_TRW_WAITALL };

/* One record, followed by n 64-bit words: the v-counts (MC_TR_COLL,
 * MC_TR_START of a v-collective; alltoallv: the send counts, then the
 * receive counts), the members in world ranks
 * (MC_TR_COMM), the request ids completed (MC_TR_WAIT). Times are
 * ticks (mc_trhead_t), of CLOCK_MONOTONIC, the same clock on every rank
 * of the machine. */
typedef struct mc_trec {
    uint8_t kind, coll, form, in_place;
    int32_t dt, op;      /* mc_dtype_t, mc_op_t (a user op's value) */
    uint32_t comm;       /* this rank's id of the comm (1: the world);
                            MC_TR_COMM: the new comm's */
    int32_t root;        /* -1: the call has none */
    uint32_t n;          /* words after the record */
    uint64_t count;      /* the call's count; a v-collective's own block */
    uint64_t t0, t1;
    uint64_t id;         /* START: the request id; COMM: the parent's
                            comm id (form: 0 split, 1 dup) */
} mc_trec_t;
_Static_assert(sizeof(mc_trec_t) == 56, "records stay 8-byte words");

#endif
