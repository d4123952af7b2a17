/*
 * Test cases for collectives: deterministic inputs, an independent scalar
 * reference for the expected outputs, and a verifier. Used by the test
 * programs, `manycoll bench --check` and `manycoll sim --check`; works on
 * any communicator, on any transport.
 */
#ifndef MC_CHECK_H
#define MC_CHECK_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "coll/args.h"
#include "util/error.h"
#include "util/names.h"

/* user ops the cases can use (created on first use) */
typedef enum {
    MC_UOP_NONE = 0,
    MC_UOP_FIRST, /* non-commutative: x op y = x, result is rank 0's */
    MC_UOP_LAST,  /* non-commutative: x op y = y, result is rank P-1's */
    MC_UOP_SUM,   /* commutative user sum (integers wrap) */
    MC_UOP_COUNT
} mc_uop_t;

/* how a case calls the collective */
typedef enum {
    MC_FORM_BLOCKING = 0, /* mc_<coll> */
    MC_FORM_NONBLOCKING,  /* mc_i<coll>, then mc_wait (even seeds) or
                             mc_test and, not done, mc_wait (odd) */
    MC_FORM_PERSISTENT,   /* mc_<coll>_init, mc_start and mc_wait (twice
                             when not in place, count <= 64 and seed % 4
                             == 0), mc_request_free */
    MC_FORM_COUNT
} mc_form_t;

typedef struct mc_case {
    mc_coll_t coll;
    mc_form_t form;
    size_t count;
    mc_dtype_t dt;
    mc_op_t op;    /* builtin op (ignored if uop != NONE) */
    mc_uop_t uop;
    int root;
    int in_place;
    uint32_t seed;
} mc_case_t;

/*
 * The arrival record of barrier cases, outside the library's own flags:
 * before each barrier a rank counts it in its own slot, and after the
 * barrier returns it checks that every rank's count has reached its own
 * (no rank left before every rank had entered) and is at most one ahead.
 * On a simulated chip the slots also hold virtual entry times, and each
 * rank checks that every entry is no later than its exit: over all ranks,
 * max entry <= min exit. Jitter: in most barriers one rank, the same on
 * every rank, arrives late by four times what a barrier takes, and some
 * others pause a little, so ranks arrive in different orders and far
 * apart. src/oracle/arrivals.c.
 */
typedef struct mc_arrival_slot {
    _Atomic uint64_t entered; /* barriers this rank has entered */
    int64_t entry_ps[2];      /* virtual entry time of barrier e at [e % 2] */
    char pad[40];             /* one cache line per rank */
} mc_arrival_slot_t;

typedef struct mc_arrivals {
    mc_arrival_slot_t *slot; /* [size], shared by all ranks */
    int rank, size;
    int64_t (*clock_ps)(void);  /* virtual time now, or NULL (shm) */
    void (*pause_ns)(uint64_t); /* waits that long, or NULL (no jitter) */
    int64_t late_min_ns, late_max_ns; /* bounds of the late rank's pause */
    uint64_t seed;    /* the same on every rank: who is late */
    uint64_t rng;     /* this rank's own pauses */
    uint64_t mine;    /* barriers this rank has entered (private) */
    int quiet;        /* nobody is late in this barrier */
    int64_t enter_ns; /* when this rank entered the last barrier */
    int64_t quiet_ns; /* how long the last quiet barrier took */
    int64_t exit_ps;  /* when this rank left the last one (virtual) */
    size_t seg_len;   /* > 0: slot lives in a shared-memory segment */
    char name[96];
} mc_arrivals_t;

/* A record shared by the ranks of a `manycoll run` job (MC_JOB): a POSIX
 * shared-memory segment of the test's own, unlinked as soon as every rank
 * has opened it (and again, if need be, by mc_arrivals_close). */
int mc_arrivals_open(int rank, int size, uint64_t seed, mc_arrivals_t *a);
void mc_arrivals_close(mc_arrivals_t *a);
/* A view of `slot` (size entries, zeroed, shared with the other ranks'
 * views in this process) for one rank: the simulator's record. */
void mc_arrivals_view(mc_arrival_slot_t *slot, int rank, int size,
                      uint64_t seed, int64_t (*clock_ps)(void),
                      void (*pause_ns)(uint64_t), mc_arrivals_t *a);
/* Pause, then count this rank in (before the barrier). */
void mc_arrivals_enter(mc_arrivals_t *a);
/* Records when this rank left (after the barrier). */
void mc_arrivals_exit(mc_arrivals_t *a);
/* 0 if every rank had entered the last barrier, else 1 with a message. */
int mc_arrivals_check(const mc_arrivals_t *a, char *msg, size_t len);

typedef struct mc_case_bufs {
    void *sbuf, *rbuf;
    size_t slen, rlen; /* bytes */
    /* barrier cases: the record mc_case_run counts arrivals in and
     * mc_case_verify checks (set by the caller; a barrier case without
     * one fails verification) */
    mc_arrivals_t *arrivals;
    size_t *v; /* the v-variants' counts and displacements (check_v.c) */
} mc_case_bufs_t;

/* The op handle a case uses (creates user ops on first use). */
mc_op_t mc_case_op(const mc_case_t *k);
/* 1 if op (builtin or user) applies to dt */
int mc_case_valid(const mc_case_t *k);
/* bytes of send plus receive buffer one rank needs for the case */
size_t mc_case_bytes(const mc_case_t *k, int size);
/* Allocates zeroed buffers for rank of size; free with mc_case_free. */
int mc_case_alloc(const mc_case_t *k, int rank, int size, mc_case_bufs_t *b);
void mc_case_free(mc_case_bufs_t *b);
/* Fills inputs and poisons outputs. */
void mc_case_fill(const mc_case_t *k, int rank, int size, mc_case_bufs_t *b);
/* The case's call in its form: blocking (runs it), or non-blocking or
 * persistent (*req: started, or initialised and inactive). */
int mc_case_call(mc_comm_t *c, const mc_case_t *k, mc_case_bufs_t *b,
                 mc_request_t **req);
/* Runs the collective through the public API, completed. */
int mc_case_run(mc_comm_t *c, const mc_case_t *k, mc_case_bufs_t *b);
/* 0 if the outputs are right, else 1 with a message in msg. */
int mc_case_verify(const mc_case_t *k, int rank, int size,
                   const mc_case_bufs_t *b, char *msg, size_t len);
/* "allreduce count=7 int8 sum root=0 in-place" */
void mc_case_describe(const mc_case_t *k, char *buf, size_t len);


#endif
