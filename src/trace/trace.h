/*
 * A C API program's recording (MC_TRACE=DIR, api/trace.h) made into an
 * OTF2 archive, DIR/traces.otf2: the archive MC_MPI_TRACE writes for an
 * MPI run (docs/replay.md), so `manycoll replay` and otf2-print read
 * both. `manycoll run` calls it when the job ends; one process reads
 * every rank's log and writes every location (OTF2's serial mode).
 *
 *   logs.c    reads DIR/manycoll.R.mctrace for R < n, checks each, and
 *             gives every communicator one id across the ranks (the
 *             members in world ranks and which of this rank's comms of
 *             those members it is: the k-th on one rank is the k-th on
 *             every member, as a comm is made by a collective call)
 *   write.c   the events of each rank and the definitions (OTF2)
 *   spans.c   a simulation's trace (`sim --trace`, `replay --trace` to
 *             NAME.otf2) as an OTF2 archive, the same serial writer
 *   none.c    a build without OTF2: says so
 */
#ifndef MC_TRACE_TRACE_H
#define MC_TRACE_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "plat/platform.h"
#include "sim/engine.h"

/* one rank's log, read */
typedef struct mc_tlog {
    unsigned char *buf;  /* the file */
    size_t len;
    uint32_t *gid;       /* this rank's comm id -> the archive's */
    size_t ngid;
    uint64_t tick0, ns0; /* its clock (api/trace.h: mc_trhead_t) */
    double ns_per_tick;
} mc_tlog_t;

/* a time of rank l's records in ns */
static inline uint64_t mc_tlog_ns(const mc_tlog_t *l, uint64_t tick)
{
    int64_t d = (int64_t)(tick - l->tick0);
    return l->ns0 + (uint64_t)(int64_t)((double)d * l->ns_per_tick);
}

/* a communicator of the archive (parents come first) */
typedef struct mc_tcomm {
    int n;
    const uint64_t *members; /* world ranks, in a log's buffer */
    uint64_t hash;
    int k;                   /* the k-th comm of these members */
    int how;                 /* 0 split, 1 dup, -1 the world */
    uint32_t parent;         /* archive id; UINT32_MAX: none */
} mc_tcomm_t;

typedef struct mc_tset {
    const char *dir;
    int n;                   /* ranks */
    mc_tlog_t *logs;
    mc_tcomm_t *comms;
    size_t ncomm, capcomm;
} mc_tset_t;

/* reads and checks the logs of n ranks in dir (MC_OK, or an error naming
 * the file and what is wrong with it) */
int mc_tset_read(mc_tset_t *s, const char *dir, int n);
void mc_tset_free(mc_tset_t *s);
/* removes the logs (after the archive is written) */
void mc_tset_unlink(const mc_tset_t *s);

/* writes DIR/traces.otf2 from the logs (write.c; none.c without OTF2) */
int mc_tset_write(const mc_tset_t *s);

/* A simulation's spans (sim/engine.h) as the OTF2 archive PATH, which is
 * DIR/NAME.otf2 (spans.c; `sim --trace`, `replay --trace`): MC_OK, and
 * in *clipped the spans written from the end of one they overlapped */
int mc_trace_write_spans(const char *path, const mc_platform_t *p,
                         const mc_sim_trace_rec_t *t, size_t n,
                         uint64_t *clipped);

/* the whole step: read, write, remove the logs; MC_OK or an error */
int mc_trace_convert(const char *dir, int n);
/* 1 if this build writes OTF2 */
int mc_trace_have_otf2(void);

#endif
