/*
 * The LogP-based put/get model of the Intel SCC and the broadcast models
 * built on it: Petrovic, Shahmirzadi, Ropars, Schiper, "High-Performance
 * RMA-Based Broadcast on the Intel SCC", SPAA'12 (seeds/000_*), section 3
 * (Figure 2, formulas 1-12) and section 5 (Figure 7, formulas 13-16).
 *
 * Everything is a pure function of an mc_platform_t (src/plat/platform.h):
 * its Table 1 costs in integer picoseconds, its line size, MPB size,
 * two-sided chunk and flag kind. Times are returned in picoseconds (exact,
 * like the simulator), throughputs in MB/s = bytes per microsecond.
 *
 * Two modes (docs/papers/ocbcast.md, "Model"):
 *   paper   every MPB and memory access at distance d = 1, as the paper's
 *           analysis assumes (section 5.1);
 *   layout  the platform's real distances: mc_plat_dist() between the
 *           cores of the ranks (rank r on core r, vranks from the root)
 *           and p->d_mem[] to each core's memory controller. Contention
 *           is not modelled, so layout mode predicts `manycoll sim
 *           --contention none` (exactly, for the algorithms below).
 *
 * Formulas 13-16 are the paper's simplified critical paths and use d = 1
 * always. The whole-broadcast models (mc_ocb_bcast) follow the library's
 * algorithms step by step (src/coll/bcast_*.c), with every flag write and
 * poll priced as the platform's flags are (see mc_ocb_flag_*).
 */
#ifndef MC_MODEL_OCBMODEL_H
#define MC_MODEL_OCBMODEL_H

#include <stddef.h>

#include "plat/platform.h"

typedef enum { MC_OCB_PAPER = 0, MC_OCB_LAYOUT } mc_ocb_mode_t;

/* ---- Figure 2: one cache line at distance d (routers traversed) ---- */
mc_ps_t mc_ocb_lw_mpb(const mc_platform_t *p, int d); /* (1) L_w^mpb(d) */
mc_ps_t mc_ocb_cw_mpb(const mc_platform_t *p, int d); /* (2) C_w^mpb(d) */
mc_ps_t mc_ocb_cr_mpb(const mc_platform_t *p, int d); /* (3) C_r^mpb(d) */
mc_ps_t mc_ocb_lw_mem(const mc_platform_t *p, int d); /* (4) L_w^mem(d) */
mc_ps_t mc_ocb_cw_mem(const mc_platform_t *p, int d); /* (5) C_w^mem(d) */
mc_ps_t mc_ocb_cr_mem(const mc_platform_t *p, int d); /* (6) C_r^mem(d) */

/* ---- Figure 2: put and get of m lines ---- */
/* (7) put from the local MPB to an MPB at d_dst */
mc_ps_t mc_ocb_cput_mpb(const mc_platform_t *p, long m, int d_dst);
/* (8) put from private memory (controller at d_src) to an MPB at d_dst */
mc_ps_t mc_ocb_cput_mem(const mc_platform_t *p, long m, int d_src,
                        int d_dst);
/* (9), (10): the latency of those puts (the last line's ack not waited) */
mc_ps_t mc_ocb_lput_mpb(const mc_platform_t *p, long m, int d_dst);
mc_ps_t mc_ocb_lput_mem(const mc_platform_t *p, long m, int d_src,
                        int d_dst);
/* (11) get from an MPB at d_src into the local MPB (latency = completion) */
mc_ps_t mc_ocb_cget_mpb(const mc_platform_t *p, long m, int d_src);
/* (12) get from an MPB at d_src into private memory (controller at d_dst) */
mc_ps_t mc_ocb_cget_mem(const mc_platform_t *p, long m, int d_src,
                        int d_dst);

/* ---- flags, as the library's transports raise and poll them ----
 * RCCE flags (p->flags_rcce, the SCC): a write is a one-line put from
 * private memory, completing at C_put^mem(1) (8) and landing at
 * L_put^mem(1) (10); a poll that sees the flag is a one-line get into
 * private memory, C_get^mem(1) (12). Raw MPB flags: L_w^mpb (1), C_w^mpb
 * (2), a poll C_r^mpb (3). d: writer/poller to the flag's MPB; d_mem:
 * that core to its memory controller. A waiter sees a flag one poll after
 * it lands: done = max(now, landed) + poll. */
mc_ps_t mc_ocb_flag_lat(const mc_platform_t *p, int d, int d_mem);
mc_ps_t mc_ocb_flag_cost(const mc_platform_t *p, int d, int d_mem);
mc_ps_t mc_ocb_poll_cost(const mc_platform_t *p, int d, int d_mem);

/* ---- Figure 7, at d = 1 (section 5.1) ----
 * Levels below the root: of the k-ary tree over P vranks (OC-Bcast) and
 * of the binary recursive tree, ceil(log2 P) (binomial). The paper writes
 * O(log_k P) and O(log_2 P); these are the trees' exact depths. */
int mc_ocb_kary_depth(int P, int k);
int mc_ocb_bisect_depth(int P);
/* (13) C_put^mem(m) + depth C_get^mpb(m) + C_get^mem(m) */
mc_ps_t mc_ocb_f13(const mc_platform_t *p, int P, long m, int k);
/* (13), second line: m (depth (C_r^mpb + C_w^mpb) + C_r^mem + C_w^mem) */
mc_ps_t mc_ocb_f13_lines(const mc_platform_t *p, int P, long m, int k);
/* (14) depth (m C_w^mpb + C_get^mem(m)): the put from L1 costs only its
 * MPB writes */
mc_ps_t mc_ocb_f14(const mc_platform_t *p, int P, long m);
/* (14), second line: m (depth (C_r^mpb + C_w^mpb + C_w^mem) + C_r^mem) */
mc_ps_t mc_ocb_f14_lines(const mc_platform_t *p, int P, long m);
/* (15) M / (C_get^mpb(M) + C_get^mem(M)), MB/s */
double mc_ocb_f15(const mc_platform_t *p, long M);
/* (15), right: 1 / (2 C_r^mpb + C_w^mpb + C_w^mem), MB/s */
double mc_ocb_f15_lines(const mc_platform_t *p);
/* (16) P M / (P (C_put^mem(M) + C_get^mem(M))
 *             + (2P - 3)(M C_w^mpb + C_get^mem(M))), MB/s */
double mc_ocb_f16(const mc_platform_t *p, int P, long M);
/* (16), right: 1 / (3 C_r^mpb + 3 C_w^mpb + C_r^mem + 3 C_w^mem), MB/s */
double mc_ocb_f16_lines(const mc_platform_t *p);

/* ---- whole broadcasts (ocbcoll.c) ---- */
typedef enum {
    MC_OCB_OCBCAST = 0, /* src/coll/bcast_ocbcast.c */
    MC_OCB_BINOMIAL,    /* src/coll/bcast_binomial.c on src/coll/p2p.c */
    MC_OCB_SAG          /* src/coll/bcast_scatter_allgather.c */
} mc_ocb_alg_t;

typedef struct mc_ocb_cfg {
    mc_ocb_alg_t alg;
    mc_ocb_mode_t mode;
    int ranks;       /* 0: every core of the platform */
    int root;
    int k;           /* OC-Bcast fan-out; 0: 7, as the library */
    size_t chunk;    /* OC-Bcast chunk bytes; 0: 96 lines (<= MPB / 2) */
    int leafdirect;  /* OC-Bcast: leaves get into private memory; 0/1
                        (2: automatic = 0, the SCC is not coherent) */
    size_t p2p_chunk; /* two-sided payload bytes; 0: the platform's */
    int sag_overlap; /* scatter-allgather, model only: the ring of
                        mc_p2p_sendrecv (post, receive, acknowledge: the
                        two transfers of a step overlap) instead of the
                        library's RCCE_comm exchange (send then receive
                        by parity: two transfers per step, section 5.3.2) */
} mc_ocb_cfg_t;

typedef struct mc_ocb_result {
    double lat_us;        /* first call to last return */
    double bw_MBps;       /* bytes / lat_us */
    double done_min_us, done_max_us, done_stdev_us; /* per-rank returns */
} mc_ocb_result_t;

/* Resolves the automatic values of c as the library does (k, chunk,
 * leafdirect, p2p chunk, ranks) and checks them; errors name the field. */
int mc_ocb_resolve(const mc_platform_t *p, mc_ocb_cfg_t *c);
/* Latency and per-rank return times of one broadcast of `bytes`. */
int mc_ocb_bcast(const mc_platform_t *p, const mc_ocb_cfg_t *c,
                 size_t bytes, mc_ocb_result_t *r);
/* OC-Bcast's peak throughput with its flags and polls: formula (15)
 * completed. Per full chunk of M lines, the slowest rank's loop:
 *   root     k polls + C_put^mem(M) + notifications (<= 2 flag writes)
 *   others   poll + forwards (<= 2) [+ c polls of its c children]
 *            + C_get^mpb(M) + done flag [+ notifications (<= 2)]
 *            + C_get^mem(M) from its own MPB
 *            (leafdirect leaves: poll + forwards + C_get^mem(M) + done)
 * Double buffering keeps every rank busy once the pipeline is full, so
 * the throughput is M lines per slowest loop. Writes the slowest vrank
 * to *who if not NULL. */
int mc_ocb_ocbcast_peak(const mc_platform_t *p, const mc_ocb_cfg_t *c,
                        double *MBps, int *who);

/* ---- Table 2 of the paper (ocbpaper.c) ---- */
#define MC_OCB_T2_ROWS 5 /* ocbcast k=2, 7, 47; scatter-allgather; its
                            overlapped ring (model only) */
#define MC_OCB_T2_SAG 3  /* the row of scatter-allgather */
typedef struct mc_ocb_t2row {
    const char *name;  /* the algorithm, as --algo writes it */
    double paper;      /* the paper's peak, MB/s */
    int overlap;       /* the model-only row: no formula */
    double lines;      /* formula (15) / (16), right-hand sides */
    double exact;      /* formula (15) / (16), left-hand sides */
    double model_d1;   /* our model, paper mode (d = 1) */
    double model_layout; /* our model with the platform's distances */
    double ours;       /* what we set against the paper */
} mc_ocb_t2row_t;
/* The rows of Table 2 for `ranks` ranks of p (2 or more), and in *M the
 * chunk M_oc in lines. */
int mc_ocb_table2(const mc_platform_t *p, int ranks,
                  mc_ocb_t2row_t rows[MC_OCB_T2_ROWS], long *M);

/* picoseconds to microseconds */
static inline double mc_ocb_us(mc_ps_t t)
{
    return (double)t / MC_PS_PER_US;
}

#endif
