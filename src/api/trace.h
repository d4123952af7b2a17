/*
 * Recording a C API program: MC_TRACE=DIR (docs/replay.md). Each rank
 * appends fixed records to a log of its own; `manycoll run` turns the
 * logs into one OTF2 archive when the job ends (src/trace), the archive
 * the drop-in's MC_MPI_TRACE writes, so `manycoll replay` reads both.
 * libmanycoll.so does not link OTF2.
 *
 *   mc_init              MC_TRACE set: DIR/manycoll.RANK.mctrace opened;
 *                        the world is comm 1 (mc_comm_t.trace_id; 0: a
 *                        comm not made by these calls, not recorded)
 *   mc_<coll>, mc_<coll>v   run(): one load of c->traced, in the line
 *                        of c the checks read anyway, and a predictable
 *                        branch; set: the call runs out of line
 *                        (coll.c's run_recorded) between
 *                        mc_trace_begin and mc_trace_end (two TSC
 *                        reads), which appends one MC_TR_COLL record
 *                        (+ the v-counts)
 *   mc_i<coll>           MC_TR_START (form MC_TR_NB): the call and a
 *                        request id
 *   mc_<coll>_init       MC_TR_INIT; each mc_start of it: MC_TR_START
 *                        (form MC_TR_PERSISTENT) with a new id
 *   mc_wait, mc_test, mc_waitall   MC_TR_WAIT with the ids it completed
 *                        (a test that completes nothing is not recorded)
 *   mc_comm_split, mc_comm_dup     MC_TR_COMM: the new comm's members in
 *                        world ranks (their own calls are not recorded)
 *   mc_finalize          the log's tail written, the clock's second
 *                        pair in the header, the file closed (also at
 *                        exit, for a program that does not finalize)
 *
 * The recording is per process: the calls of several threads would
 * interleave in one log, so MC_TRACE records the calls of one thread at a
 * time (as MC_MPI_TRACE does below MPI_THREAD_MULTIPLE).
 */
#ifndef MC_API_TRACE_H
#define MC_API_TRACE_H

#include <stdint.h>

#include "util/tick.h"
#include "util/tracelog.h" /* the log format */

#ifdef MC_API_COMM_H /* the hooks, for src/api only */

/* 1 while this process records (set by mc_init, cleared by mc_finalize);
 * a blocking call reads its comm's `traced` instead (a line it reads
 * anyway: a global of its own would be one more line per call) */
extern int mc_trace_on;

/* MC_TRACE set: opens the log of world rank `rank` of `size` (MC_OK, or
 * an error naming DIR); unset: nothing */
int mc_trace_open(int rank, int size);
void mc_trace_close(void);
/* the records' clock is the TSC (util/tick.h) */
extern int mc_trace_tsc;
/* calls made inside a call the program made (a split's allgather, the
 * waits of mc_waitall) are not recorded: > 0 inside one; per thread */
extern _Thread_local __attribute__((tls_model("initial-exec"))) int
    mc_trace_held;

/* this rank's id of c in the recording (0: not recorded) */
static inline uint32_t mc_trace_comm_id(const mc_comm_t *c)
{
    return c->ctx_parent ? c->ctx_parent->trace_id : c->trace_id;
}

/* now, in the records' clock (ticks: mc_trhead_t) */
static inline uint64_t mc_trace_now(void)
{
    return mc_tick(mc_trace_tsc);
}

/* A blocking call on a recorded c (c->traced) whose arguments passed:
 * 1 if it is recorded (the caller runs it, then mc_trace_end), 0 if it
 * is not (made inside another) */
static inline int mc_trace_begin(const mc_comm_t *c, uint64_t *t0)
{
    if (mc_trace_held || !mc_trace_comm_id(c))
        return 0;
    mc_trace_held++;
    *t0 = mc_trace_now();
    return 1;
}
/* ... its end: the second clock read and its record */
void mc_trace_end(mc_comm_t *c, int prep, const mc_args_t *a, uint64_t t0);
/* a request's start (persistent 0: mc_i<coll>; 1: mc_start of a
 * persistent one; 2: its init); returns its id (0: not recorded) */
uint64_t mc_trace_start(mc_comm_t *c, const mc_args_t *a, int form,
                        uint64_t t0);
/* a request with id completed inside the wait or test being recorded */
void mc_trace_done(uint64_t id);
/* around mc_wait (MC_TRW_*): begin returns 1 if this call records */
int mc_trace_wait_begin(void);
void mc_trace_wait_end(int which, uint64_t t0);
/* a new communicator: its members as ranks of parent (dup: NULL, the
 * parent's ranks in order); how: 0 split, 1 dup */
void mc_trace_comm(mc_comm_t *parent, mc_comm_t *c, const int *members,
                   int how);
/* calls made inside a call the program made are not recorded */
void mc_trace_hold(int on);

#endif
#endif
