/*
 * The pick: on a communicator spanning nodes, whether a call the plan
 * gives the hierarchy (manycoll in each node, MPI between the leaders)
 * runs there or as the MPI library's own collective, per collective and
 * size class. The plan's last step (plan.c); every rank must decide
 * alike, so it reads only what the plan reads and the call's bytes, which
 * MPI requires to agree (equal type signatures), and the times it
 * measures reach every rank through one allreduce.
 *
 *   MC_MPI_HIER_PICK=hier|mpi       that side, always (hier: as before)
 *   MC_MPI_HIER_PICK=measure        (the default) per (collective, class):
 *
 *     calls 0-1     one warm-up call each side: hierarchy, MPI
 *     calls 2-15    7 timed calls each side, in the order M H H M M H H M
 *                   M H H M M H (ABBA: neither side always follows the
 *                   other); each rank times its own calls (mcm_picked,
 *                   after the call)
 *     call 16       in its plan: PMPI_Allreduce(MAX) of this rank's
 *                   median per side -> the slowest rank's medians, the
 *                   same numbers on every rank -> MPI if its median is
 *                   the smaller, else the hierarchy; then this call and
 *                   every later one of the class take that side
 *
 * The trial calls are the program's own: collectives that every rank
 * makes in the same order on the communicator, so the alternation is in
 * step on every rank and the decision comes at the same call everywhere;
 * either side gives the same result. One extra PMPI_Allreduce per
 * (communicator, collective, class) that the program uses.
 *
 * Size classes, by the bytes of one call (bcast and the reductions: count
 * x type size; allgather, alltoall, gather, scatter: one block; barrier:
 * 0):
 * <= 64 B, <= 512 B, <= 4 KiB, <= 32 KiB, <= 256 KiB, <= 2 MiB,
 * <= 16 MiB, more.
 *
 * A reduction that an MPI library is known to get wrong (8- and 16-bit
 * integer sums and products, unsigned minima and maxima: provider.c)
 * always stays in the hierarchy, whose phase between nodes runs
 * manycoll's kernel for it: MPI's own collective would give the MPI's
 * wrong result. It is neither a trial nor forced to MPI.
 *
 * MC_MPI_HIER_PICK may also name a side per collective after the default:
 * "measure,bcast:mpi,allreduce:hier". MC_MPI_HIER_PICK_SKEW=R is a test
 * hook: before the allreduce of the first size class (<= 64 B), rank R
 * adds 1 s to its hierarchy median and every other rank 0.5 s to its MPI
 * median, so the ranks' own times point to different sides while their
 * maxima say MPI; in every other class the other way round (their maxima
 * say the hierarchy).
 *
 * Once a class is sent to MPI, the next calls of it need not ask the
 * plan: its bit in s->to_mpi[coll] says so (mcm_routed, mcmpi.h), and the
 * wrappers of barrier, bcast, reduce, allreduce and alltoall check it
 * before mcm_plan for a call with a predefined type (and a builtin op the
 * MPI gets right), after the checks the plan's steps 4-6 make.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "mpi/mcmpi.h"

enum { WARM = 2, TRIALS = WARM + 2 * MCM_PICK_REPS };

/* 1 + the table's row of each collective with a hierarchical form; 0:
 * none (a collective added later has none until it is given a row) */
static const unsigned char rows[MC_COLL_COUNT] = {
    [MC_COLL_BARRIER] = 1,   [MC_COLL_BCAST] = 2,
    [MC_COLL_REDUCE] = 3,    [MC_COLL_ALLREDUCE] = 4,
    [MC_COLL_ALLGATHER] = 5, [MC_COLL_GATHER] = 6,
    [MC_COLL_SCATTER] = 7,   [MC_COLL_REDUCE_SCATTER_BLOCK] = 8,
    [MC_COLL_ALLTOALL] = 9};
_Static_assert(MCM_PICK_COLLS == 9, "a row per collective above");

static int row(int coll)
{
    return rows[coll] - 1;
}

static const char *const trial_why =
    "a trial of MPI's own against the hierarchy (MC_MPI_HIER_PICK)";
static const char *const measured_why =
    "MPI's own measured faster than the hierarchy (MC_MPI_HIER_PICK)";
static const char *const forced_why = "MC_MPI_HIER_PICK=mpi";
const char *const mcm_pick_why[3] = {[MCM_PICK_MEASURE] = measured_why,
                                     [MCM_PICK_MPI] = forced_why};
static const char *const modes[] = {"measure", "hier", "mpi"};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- the call's size class ---- */

static long long times(int count, MPI_Datatype dt)
{
    long long size = count > 0 ? mcm_type_size(dt) : 0;
    return size > 0 ? (long long)count * size : 0;
}

/* the bytes of the call, alike on every rank (see the header) */
static long long call_bytes(mc_coll_t coll, const mcm_call_t *a,
                            const mcm_plan_t *p)
{
    switch (coll) {
    case MC_COLL_BCAST:
    case MC_COLL_REDUCE:
    case MC_COLL_ALLREDUCE:
    case MC_COLL_REDUCE_SCATTER_BLOCK:
        return times(a->count, a->dt);
    case MC_COLL_ALLGATHER:
    case MC_COLL_ALLTOALL:
        return p->ip ? times(a->rcount, a->rdt) : times(a->scount, a->dt);
    case MC_COLL_GATHER:
        return p->root && p->ip ? times(a->rcount, a->rdt)
                                : times(a->scount, a->dt);
    case MC_COLL_SCATTER:
        return p->root ? times(a->scount, a->dt) : times(a->rcount, a->rdt);
    default:
        return 0;
    }
}

/* "<=64 B", ..., ">16 MiB" */
static const char *class_name(int c)
{
    static const char *const names[MCM_PICK_CLASSES] = {
        "<=64 B",    "<=512 B", "<=4 KiB",  "<=32 KiB",
        "<=256 KiB", "<=2 MiB", "<=16 MiB", ">16 MiB"};
    return names[c];
}

/* ---- the decision ---- */

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* median of n times; a side never timed (a call that failed) counts as
 * very slow */
static double median(float *t, int n)
{
    if (n <= 0)
        return 1e30;
    qsort(t, (size_t)n, sizeof *t, cmp_float);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* every rank: the slowest rank's median of each side, then the side
 * (x->state, returned) */
static int decide(mcm_comm_t *s, mcm_pick_slot_t *x, int k)
{
    double mine[2], all[2];
    for (int i = 0; i < 2; i++)
        mine[i] = median(x->t[i], x->got[i]);
    if (mcm_cfg.pick_skew >= 0) { /* class 0 to MPI, the others not */
        int lose = k ? 1 : 0;
        if (s->topo->rank == mcm_cfg.pick_skew)
            mine[lose] += 1.0;
        else
            mine[!lose] += 0.5;
    }
    if (PMPI_Allreduce(mine, all, 2, MPI_DOUBLE, MPI_MAX, s->comm) !=
        MPI_SUCCESS) {
        x->med[0] = x->med[1] = -1;
        return x->state = MCM_PICK_HIER; /* as before the pick */
    }
    x->med[0] = (float)all[0];
    x->med[1] = (float)all[1];
    return x->state = all[1] < all[0] ? MCM_PICK_MPI : MCM_PICK_HIER;
}

/* out of line (the library is built with LTO): inlined, it made every
 * plan save more registers, on one node too; the plan's steps call it
 * last, as a tail call */
__attribute__((noinline)) const char *mcm_pick(mcm_comm_t *s, mc_coll_t coll,
                                               const mcm_call_t *a,
                                               mcm_plan_t *p)
{
    int mode = mcm_cfg.pick[coll];
    /* a reduction the MPI gets wrong stays where manycoll's kernel runs */
    if ((mc_coll_info(coll)->props & MC_COLL_REDUCES) &&
        mcm_mpi_op_wrong(p->red.dt, p->red.op))
        return NULL;
    if (row(coll) < 0) /* (no hierarchical form) */
        return mode == MCM_PICK_MPI ? forced_why : NULL;
    int k = mcm_size_class(call_bytes(coll, a, p));
    if (mode != MCM_PICK_MEASURE) {
        if (mode == MCM_PICK_MPI) /* the next such call: mcm_routed */
            s->to_mpi[coll] |= (uint8_t)(1u << k);
        return mode == MCM_PICK_MPI ? forced_why : NULL;
    }
    mcm_pick_slot_t *x = &s->pick[row(coll)][k];
    if (!x->state && x->n == TRIALS && decide(s, x, k) == MCM_PICK_MPI)
        s->to_mpi[coll] |= (uint8_t)(1u << k);
    if (x->state)
        return x->state == MCM_PICK_MPI ? measured_why : NULL;
    int n = x->n++, side = (n ^ n >> 1) & 1; /* H M M H H M M H ... */
    p->trial = x; /* collectives on a communicator are one at a time */
    x->side = (unsigned char)(side | (n < WARM ? 2 : 0));
    x->t0 = now();
    return side ? trial_why : NULL;
}

void mcm_pick_time(mcm_plan_t *p)
{
    mcm_pick_slot_t *x = p->trial;
    int side = x->side;
    if (side < 2 && x->got[side] < MCM_PICK_REPS)
        x->t[side][x->got[side]++] = (float)(now() - x->t0);
}

/* ---- settings ---- */

static int mode_of(const char *w, size_t len)
{
    for (int m = 0; m < 3; m++)
        if (strlen(modes[m]) == len && !strncmp(w, modes[m], len))
            return m;
    return -1;
}

/* one item: "MODE" (every collective) or "COLL:MODE"; 0 or -1 */
static int pick_item(const char *w, size_t len)
{
    const char *colon = memchr(w, ':', len);
    if (!colon) {
        int m = mode_of(w, len);
        if (m < 0)
            return -1;
        memset(mcm_cfg.pick, m, sizeof mcm_cfg.pick);
        return 0;
    }
    char name[32];
    size_t nlen = (size_t)(colon - w);
    int m = mode_of(colon + 1, len - nlen - 1), coll, form;
    if (m < 0 || nlen >= sizeof name)
        return -1;
    memcpy(name, w, nlen);
    name[nlen] = 0;
    if (mcm_form_lookup(name, &coll, &form) || form >= 0)
        return -1;
    mcm_cfg.pick[coll] = (unsigned char)m;
    return 0;
}

int mcm_pick_config(const char *pick, const char *skew, const char **bad)
{
    memset(mcm_cfg.pick, MCM_PICK_MEASURE, sizeof mcm_cfg.pick);
    mcm_cfg.pick_skew = -1;
    for (const char *w = pick; w && *w;) {
        size_t len = strcspn(w, ",");
        if (pick_item(w, len)) {
            *bad = "MC_MPI_HIER_PICK";
            return -1;
        }
        w += len + (w[len] == ',');
    }
    if (skew && *skew) {
        char *end;
        long r = strtol(skew, &end, 10);
        if (end == skew || *end || r < 0 || r > 1 << 24) {
            *bad = "MC_MPI_HIER_PICK_SKEW";
            return -1;
        }
        mcm_cfg.pick_skew = (int)r;
    }
    unsigned sig = (unsigned)mcm_cfg.pick_skew * 40503u;
    for (int c = 0; c < MC_COLL_COUNT; c++)
        sig = sig * 3u + mcm_cfg.pick[c];
    mcm_cfg.pick_sig = (int)(sig & 0x3fffffffu);
    return 0;
}

/* ---- the report ---- */

/* "\n    across nodes: <=64 B mpi (hier 4.1 us, mpi 2.2 us); ..." */
int mcm_pick_report(const mcm_comm_t *s, int coll, char *line, int n,
                    size_t len)
{
    int mode = mcm_cfg.pick[coll], any = 0;
    if (s->path != MCM_HIER || row(coll) < 0 || n >= (int)len)
        return n;
    if (mode != MCM_PICK_MEASURE)
        return n + snprintf(line + n, len - (size_t)n,
                            "\n    across nodes: %s (MC_MPI_HIER_PICK)",
                            modes[mode]);
    for (int c = 0; c < MCM_PICK_CLASSES && n < (int)len; c++) {
        const mcm_pick_slot_t *x = &s->pick[row(coll)][c];
        if (!x->n)
            continue;
        n += snprintf(line + n, len - (size_t)n, "%s%s",
                      any++ ? "; " : "\n    across nodes: ",
                      coll == MC_COLL_BARRIER ? "" : class_name(c));
        if (n >= (int)len)
            break;
        if (!x->state)
            n += snprintf(line + n, len - (size_t)n,
                          "%sin trial (%d calls)",
                          coll == MC_COLL_BARRIER ? "" : " ", x->n);
        else
            n += snprintf(line + n, len - (size_t)n,
                          "%s%s (hier %.1f us, mpi %.1f us)",
                          coll == MC_COLL_BARRIER ? "" : " ",
                          modes[x->state], 1e6 * x->med[0],
                          1e6 * x->med[1]);
    }
    return n;
}

/* for tests and tools (found with dlsym, so declared here only): the
 * pick of collective `coll` (a plain name) for calls of `bytes` bytes on
 * comm: *choice 0 (in trial), MCM_PICK_HIER or MCM_PICK_MPI, with the
 * slowest rank's median of each side in microseconds once decided (-1
 * otherwise, or when a setting forced the side). 0, or -1 when comm has
 * no state of the library, does not span nodes, or coll is not a
 * collective's name. */
MCM_API int mc_mpi_pick(MPI_Comm comm, const char *coll, long long bytes,
                        int *choice, double *hier_us, double *mpi_us);
MCM_API int mc_mpi_pick(MPI_Comm comm, const char *coll, long long bytes,
                        int *choice, double *hier_us, double *mpi_us)
{
    const mcm_comm_t *s = mcm_comm_peek(comm);
    int c, form;
    *choice = 0;
    *hier_us = *mpi_us = -1;
    if (!s || s->path != MCM_HIER || !coll ||
        mcm_form_lookup(coll, &c, &form) || form >= 0 || row(c) < 0)
        return -1;
    if (mcm_cfg.pick[c] != MCM_PICK_MEASURE) {
        *choice = mcm_cfg.pick[c];
        return 0;
    }
    const mcm_pick_slot_t *x = &s->pick[row(c)][mcm_size_class(bytes)];
    *choice = x->state;
    if (x->state) {
        *hier_us = 1e6 * x->med[0];
        *mpi_us = 1e6 * x->med[1];
    }
    return 0;
}
