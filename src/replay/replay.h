/*
 * Replay of an MPI run's OTF2 trace on a simulated chip (docs/replay.md,
 * the archive's form: /work/notes/otf2_contract.md, kept as
 * docs/replay.md describes it).
 *
 *   mc_rp_trace_t *t;
 *   mc_rp_read("run/traces.otf2", &t);       // read.c: OTF2 -> streams
 *   mc_rp_opts_t o;
 *   mc_rp_defaults(&o);
 *   o.platform = "scc48";
 *   mc_rp_result_t r;
 *   mc_rp_run(t, &o, &r);                    // run.c: a simulated job
 *   mc_rp_rows(t, &r, &rows, &n);            // report.c: the rows,
 *   mc_rp_print(rows, n, stdout, 0);         //   as a table
 *   free(rows);
 *   mc_rp_result_free(&r);
 *   mc_rp_trace_free(t);
 *
 * The pieces:
 *   read.c    OTF2's reader (global definitions, then every location's
 *             local definitions and events) into per-rank record streams
 *   read_ti.c SimGrid's time-independent traces, the same way
 *   fix.c     after reading: irecv completions into their requests, the
 *             k-th collective of a communicator made the same on every
 *             member (counts of Score-P archives derived from bytes)
 *   comms.c   the communicators: split families, the weak-scaling rules
 *             (--ranks), the splits each simulated rank makes
 *   run.c     the rank function: compute as delay, collectives through
 *             the API, point-to-point through the two-sided layer
 *   p2p.c     the deadlock-free schedule of a wait's batch of requests
 *   sites.c   call sites: which site each record is, its bytes
 *   report.c  the rows (data.h), the table and the JSON
 *   data.c    the whole replay from a spec (data.h: Python, the command)
 *   trace.c   the streams in memory; read_none.c: a build without OTF2
 *
 * A support layer (cmake/layers.cmake): it links libotf2, which
 * libmanycoll.so does not need.
 */
#ifndef MC_REPLAY_H
#define MC_REPLAY_H

#include <stdint.h>
#include <stdio.h>

#include "job/sim_job.h"
#include "replay/data.h"

enum {
    MC_RP_COMPUTE = 0, /* dur_ns of computation */
    MC_RP_COLL,        /* a collective (coll, comm, root, count, ...) */
    MC_RP_SEND,        /* blocking send to peer (MPI_Send, Ssend) */
    MC_RP_RECV,        /* blocking receive from peer */
    MC_RP_SENDRECV,    /* MPI_Sendrecv: sent to peer, recvd from peer2 */
    MC_RP_ISEND,       /* a request posted, completed at wait #wait */
    MC_RP_IRECV,
    MC_RP_WAIT,        /* a wait or test that completed requests */
    MC_RP_SKIP         /* not replayable: dur_ns counted as computation */
};

typedef struct mc_rp_rec {
    uint8_t kind;     /* MC_RP_* */
    uint8_t in_place;
    int8_t coll;      /* mc_coll_t */
    int8_t dtype;     /* mc_dtype_t */
    int8_t op;        /* mc_op_t (MC_SUM where none) */
    uint32_t comm;    /* index into trace->comms */
    int32_t root;     /* in the communicator; -1 unrooted */
    int32_t peer;     /* in the communicator: destination or source */
    int32_t peer2;    /* MC_RP_SENDRECV: the source */
    int32_t tag;
    uint32_t wait;    /* ISEND/IRECV: the rank's wait that completed it;
                         WAIT: its own number */
    uint32_t vc;      /* v-collectives: offset of comm-size counts in
                         trace->vpool (UINT32_MAX: none) */
    uint64_t count;   /* elements per rank block (the call's count) */
    uint64_t sent, recvd; /* bytes, as recorded */
    uint64_t dur_ns;  /* recorded duration (compute: the gap) */
    uint64_t req;     /* request id (ISEND/IRECV) */
} mc_rp_rec_t;

typedef struct mc_rp_comm {
    uint32_t id;      /* OTF2's (global) id */
    char name[32];
    int size;
    int *members;     /* [size] world ranks, in the communicator's order */
    int parent;       /* index, -1 */
    int family;       /* split family (comms.c); -1 for the world */
    int color;        /* its color in the family's split */
    int ncoll;        /* collectives on it (per member) */
} mc_rp_comm_t;

typedef struct mc_rp_stream {
    mc_rp_rec_t *r;
    size_t n, cap;
} mc_rp_stream_t;

typedef struct mc_rp_trace {
    int ranks;             /* recorded world size */
    int world;             /* index of MPI_COMM_WORLD in comms */
    mc_rp_comm_t *comms;
    int ncomms;
    mc_rp_stream_t *s;     /* [ranks] */
    uint64_t *vpool;       /* v-counts, per instance */
    size_t nvpool, capvpool;
    int scorep;            /* no manycoll::* attributes: counts derived */
    uint64_t unreplayable_ns; /* of MPI calls not replayed, all ranks */
    uint64_t mapped;       /* events whose comm came through an IdMap */
    char path[1024];       /* the anchor file read */
} mc_rp_trace_t;

/* Reads an archive (its .otf2 anchor file, or the directory holding one)
 * into *t (mc_rp_trace_free). Errors name the path and what is wrong:
 * MC_ERR_ARG (missing, not OTF2, events replay cannot follow). */
int mc_rp_read(const char *archive, mc_rp_trace_t **t);
void mc_rp_trace_free(mc_rp_trace_t *t);
/* read_ti.c: 1 if archive is a SimGrid time-independent trace (a text
 * file, not an OTF2 anchor), which mc_rp_read then reads with
 * mc_rp_read_ti (same contract) */
int mc_rp_is_ti(const char *archive);
int mc_rp_read_ti(const char *archive, mc_rp_trace_t **t);
/* trace.c: the end of a reader: t fixed (mc_rp_fix) into *out if rc and
 * the fix are MC_OK, else t freed; the status */
int mc_rp_done(mc_rp_trace_t *t, int rc, mc_rp_trace_t **out);
/* fix.c: after the events (read.c calls it) */
int mc_rp_fix(mc_rp_trace_t *t);
/* trace.c: append a record / v-counts (read.c, fix.c) */
mc_rp_rec_t *mc_rp_push(mc_rp_stream_t *s);
uint32_t mc_rp_vpush(mc_rp_trace_t *t, const uint64_t *v, int n);
/* fix.c: a collective's manycoll::* attributes into r (read.c) */
int mc_rp_read_attrs(mc_rp_trace_t *t, mc_rp_rec_t *r, const char *dtype,
                     const char *op, const char *vcounts, int has_count,
                     uint64_t count, int in_place);
/* 1 if this build reads OTF2 (read.c); 0 without libotf2 (read_none.c),
 * where mc_rp_read fails with MC_ERR_UNSUPPORTED and this message */
int mc_rp_have_otf2(void);
#define MC_RP_NO_OTF2                                                      \
    "this manycoll was built without OTF2, so it cannot read traces; "     \
    "install libopen-trace-format2-dev (Debian, Ubuntu) or spack install " \
    "otf2, then configure and build again"

/* a --algo COLL=ALGO[:params] */
#define MC_RP_MAX_ALGOS 16
typedef struct mc_rp_opts {
    const char *platform;  /* name or file */
    const mc_platform_t *plat; /* or a loaded one (not freed) */
    const int *cores;      /* rank -> core (--map), or NULL */
    int ranks;             /* 0: as recorded; more: weak scaling */
    double compute_scale;  /* computation times this (1) */
    const char *algos[MC_RP_MAX_ALGOS]; /* "allreduce=ring:sync=2" */
    int nalgos;
    int best;              /* try every applicable algorithm per site */
    int trace;             /* keep the simulator's operations (r->st) */
    int quiet;
} mc_rp_opts_t;

/* one call site: communicator, collective (or p2p), size class */
typedef struct mc_rp_site {
    int comm;              /* index into the trace's comms */
    int coll;              /* mc_coll_t, or MC_RP_SITE_P2P */
    int sclass;            /* log2 bucket of the bytes per call */
    uint64_t calls, bytes; /* per rank that made such calls (rounded);
                              bytes per call */
    double sim_ps, rec_ns; /* per rank that made such calls */
    uint64_t nranks;       /* the simulated ranks that made them */
    double all_calls, all_bytes, all_sim_ps, all_rec_ns; /* sums over
                              every simulated rank */
    char algo[160];        /* what ran (the first call's, rank 0's) */
    /* --best */
    char best[160];
    double best_ps;
} mc_rp_site_t;
#define MC_RP_SITE_P2P (-1)

typedef struct mc_rp_result {
    mc_rp_site_t *sites;
    int nsites, capsites;
    int ranks;             /* simulated */
    double total_sim_ps;   /* the slowest rank's end */
    double total_rec_ns;   /* the recorded run: the slowest rank's span */
    double comm_sim_ps;    /* in replayed communication (mean per rank) */
    double comm_rec_ns;
    double compute_ps;     /* replayed computation (mean per rank) */
    double unrepl_ns;      /* not replayable, counted as computation
                              (mean per rank) */
    double wall_s;
    const char *platform;
    mc_sim_job_stats_t st; /* the (first) job's statistics, trace */
} mc_rp_result_t;

void mc_rp_defaults(mc_rp_opts_t *o);
/* Replays t under *o into *r (mc_rp_result_free). MC_ERR_ARG names the
 * option (an --algo, --ranks and the communicator it cannot extend). */
int mc_rp_run(const mc_rp_trace_t *t, const mc_rp_opts_t *o,
              mc_rp_result_t *r);
void mc_rp_result_free(mc_rp_result_t *r);
/* data.c: s replayed on p (a loaded platform) into *r (kept for the
 * command's --trace; r->st's trace with trace != 0) and its rows */
int mc_rp_replay(const mc_rp_spec_t *s, const mc_platform_t *p, int trace,
                 mc_rp_result_t *r, mc_rp_row_t **rows, int *nrows);
/* report.c: the rows of a result (data.h), and the report of them
 * (json: one object per site and the total, one per line) */
int mc_rp_rows(const mc_rp_trace_t *t, const mc_rp_result_t *r,
               mc_rp_row_t **rows, int *nrows);
void mc_rp_print(const mc_rp_row_t *rows, int nrows, FILE *f, int json);
/* "allreduce" or "p2p" */
const char *mc_rp_site_coll(const mc_rp_site_t *s);

#endif
