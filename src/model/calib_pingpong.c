/*
 * Ping-pong between T0 and T1 on two cores (report chapter 2 and Section
 * 3.1). Each thread has a send buffer and a receive buffer of N lines.
 * T0 copies its send buffer into T1's receive buffer, the last 8 bytes
 * (the canary) written last with a release store; T1 polls its canary,
 * then does the same towards T0. A sample is half the round trip timed by
 * T0: T_1 for N = 1 (Eq. 2.1), T_N for the multi-line model (Eq. 3.1).
 *
 * Before every exchange each thread forces the state of its own buffers,
 * then both meet at a barrier:
 *
 *     send buffer  M (written), E (flushed then read), I (flushed)
 *     recv buffer  M, E, I as above; S: both threads read it (shared)
 *
 * (the report's S_s - S_r pairs; recv I is only used with N > 1, as the
 * receiver polls the last line). A round is one exchange of every
 * configuration, after an untimed one: the first exchange after a pause
 * pays for TLB and cache refills of the vCPUs' wake-up.
 */
#include <stdlib.h>
#include <string.h>

#include "model/calib.h"
#include "model/fit.h"
#include "util/error.h"

#define MAXN 128

typedef struct ppcfg {
    char ss, sr;
    int lines;
    double *v;
} ppcfg_t;

/* One pair of threads (T0 and the helper h) and its configurations. */
typedef struct pp {
    mc_calib_pair_t sync;
    mc_calib_helper_t *h;
    const char *location;
    ppcfg_t cfg[4 * 14];
    int ncfg, r;
    uint64_t round[2], seq[2]; /* barrier rounds, exchanges, per side */
    double overhead;
    char *mem, *send[2], *recv[2];
} pp_t;

static volatile uint64_t sink;

static void force(char *buf, int lines, char state)
{
    uint64_t x = 0;
    for (int i = 0; i < lines; i++) {
        char *l = buf + (size_t)i * MC_CALIB_LINE;
        if (state == 'M')
            ((volatile uint64_t *)l)[0] += 1;
        else
            mc_calib_flush(l);
        if (state == 'E' || state == 'S')
            x += ((volatile uint64_t *)l)[0];
    }
    sink = x;
}

static void touch(const char *buf, int lines)
{
    uint64_t x = 0;
    for (int i = 0; i < lines; i++)
        x += ((const volatile uint64_t *)(buf + (size_t)i * MC_CALIB_LINE))[0];
    sink = x;
}

/* Copies N lines in order, one line at a time (a fixed 64-byte copy the
 * compiler inlines, as the report copies line by line with vector
 * instructions), the canary (last word) last with release ordering so
 * the receiver that sees it also sees the payload. A single glibc memcpy
 * of the whole buffer was not used: for some sizes (184-192 and 700-760
 * bytes on our test VM) it stores in an order that cost 2-3x. */
static void send_to(char *dst, const char *src, int lines, uint64_t seq)
{
    for (int i = 0; i < lines - 1; i++)
        memcpy(dst + (size_t)i * MC_CALIB_LINE, src + (size_t)i * MC_CALIB_LINE,
               MC_CALIB_LINE);
    size_t last = (size_t)(lines - 1) * MC_CALIB_LINE;
    memcpy(dst + last, src + last, MC_CALIB_LINE - 8);
    __atomic_store_n((uint64_t *)(dst + last + MC_CALIB_LINE - 8), seq,
                     __ATOMIC_RELEASE);
}

static void wait_canary(const char *buf, int lines, uint64_t seq)
{
    const uint64_t *c =
        (const uint64_t *)(buf + (size_t)lines * MC_CALIB_LINE - 8);
    /* acquire: pairs with the sender's release store */
    while (__atomic_load_n(c, __ATOMIC_ACQUIRE) != seq)
        mc_calib_pause();
}

/* One round: each configuration once, after an untimed warm-up. */
static void side(pp_t *p, int me)
{
    for (int i = -1; i < p->ncfg; i++) {
        const ppcfg_t *c = &p->cfg[i < 0 ? 0 : i];
        uint64_t seq = ++p->seq[me];
        force(p->send[me], c->lines, c->ss);
        force(p->recv[me], c->lines, c->sr == 'S' ? 'E' : c->sr);
        if (c->sr == 'S') { /* the partner reads my recv buffer */
            mc_calib_pair_sync(&p->sync, me, ++p->round[me]);
            touch(p->recv[!me], c->lines);
        }
        mc_calib_pair_sync(&p->sync, me, ++p->round[me]);
        if (me == 0) {
            uint64_t t0 = mc_calib_tick();
            send_to(p->recv[1], p->send[0], c->lines, seq);
            wait_canary(p->recv[0], c->lines, seq);
            uint64_t t1 = mc_calib_tick();
            if (i >= 0)
                c->v[p->r] = (mc_calib_ns(t1 - t0) - p->overhead) / 2;
        } else {
            wait_canary(p->recv[1], c->lines, seq);
            send_to(p->recv[0], p->send[1], c->lines, seq);
        }
    }
}

static void job_side1(void *arg)
{
    side(arg, 1);
}

static void pp_round(pp_t *p, int r)
{
    p->r = r;
    mc_calib_start(p->h, job_side1, p);
    side(p, 0);
    mc_calib_wait(p->h);
}

static void pp_free(pp_t *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->ncfg; i++)
        free(p->cfg[i].v);
    free(p->mem);
    free(p);
}

/* A pair on helper h with n configurations (copied), samples for reps. */
static pp_t *pp_new(mc_calib_helper_t *h, const char *location,
                    const ppcfg_t *cfg, int n, int reps)
{
    pp_t *p = mc_calib_alloc(sizeof *p);
    if (!p) {
        mc_error(MC_ERR_NOMEM, "ping-pong state");
        return NULL;
    }
    p->h = h;
    p->location = location;
    p->ncfg = n;
    memcpy(p->cfg, cfg, (size_t)n * sizeof *cfg);
    for (int i = 0; i < n; i++)
        p->cfg[i].v = NULL;
    /* four buffers, a page plus a line apart (no shared pages) */
    size_t stride = MAXN * MC_CALIB_LINE + 4096 + MC_CALIB_LINE;
    int ok = (p->mem = mc_calib_alloc(4 * stride)) != NULL;
    for (int i = 0; ok && i < n; i++)
        ok = (p->cfg[i].v = calloc((size_t)reps, sizeof(double))) != NULL;
    if (!ok) {
        pp_free(p);
        mc_error(MC_ERR_NOMEM, "ping-pong buffers");
        return NULL;
    }
    for (int i = 0; i < 4; i++)
        *(i < 2 ? &p->send[i] : &p->recv[i - 2]) = p->mem + i * stride;
    p->overhead = mc_calib_tick_overhead_ns();
    return p;
}

/* ---- single-line ping-pong ---- */

typedef struct single {
    mc_calib_t *c;
    mc_calib_helper_t *smt;
    pp_t *loc[3];
} single_t;

static int single_end(void *st, int rounds)
{
    single_t *S = st;
    int rc = MC_OK;
    for (int l = 0; l < 3; l++) {
        pp_t *p = S->loc[l];
        for (int i = 0; p && i < p->ncfg && rc == MC_OK && rounds > 0; i++) {
            char states[4] = {p->cfg[i].ss, '-', p->cfg[i].sr, 0};
            mc_prof_stat_t *e = mc_profile_add_pp(S->c->prof, states,
                                                  p->location);
            rc = e ? mc_calib_store(e, p->cfg[i].v, rounds) : MC_ERR_ARG;
        }
        pp_free(p);
    }
    mc_calib_helper_free(S->smt);
    free(S);
    return rc;
}

/* S_s in {M, E, I} x S_r in {M, E, S} at each location this machine has
 * (no S_r = S on one core: one cache). */
static int single_begin(mc_calib_t *c, void **st)
{
    static const char *const locs[3] = {"same-core", "other-core",
                                        "other-socket"};
    const char *why[3] = {"needs T1 on T0's SMT sibling; this machine has "
        "one hardware thread per core, and two threads time-sharing a core "
        "would measure the scheduler, not the cache",
        "this machine has one CPU available",
        "all CPUs share one socket and L3 domain"};
    single_t *S = calloc(1, sizeof *S);
    if (!S)
        return mc_error(MC_ERR_NOMEM, "ping-pong state");
    *st = S;
    S->c = c;
    if (c->topo.smt >= 0)
        S->smt = mc_calib_helper_new(c->topo.cpu[c->topo.smt]);
    mc_calib_helper_t *h[3] = {S->smt, c->hb, c->hfar};
    int rc = MC_OK, nloc = 0;
    for (int l = 0; l < 3 && rc == MC_OK; l++) {
        if (!h[l] || !mc_calib_can_flush()) {
            char what[64];
            snprintf(what, sizeof what, "pingpong %s", locs[l]);
            rc = mc_profile_skip(c->prof, what, "%s", h[l] ? "needs clflush "
                                 "to force the states (x86 only)" : why[l]);
            continue;
        }
        ppcfg_t cfg[9];
        int n = 0;
        for (const char *ss = "MEI"; *ss; ss++)
            for (const char *sr = l ? "MES" : "ME"; *sr; sr++)
                cfg[n++] = (ppcfg_t){.ss = *ss, .sr = *sr, .lines = 1};
        if (!(S->loc[l] = pp_new(h[l], locs[l], cfg, n, c->reps)))
            rc = MC_ERR_NOMEM;
        nloc++;
    }
    if (rc != MC_OK) {
        single_end(S, 0);
        return rc;
    }
    mc_calib_progress("single-line ping-pong: 9 state pairs at %d location%s",
                   nloc, nloc == 1 ? "" : "s");
    return MC_OK;
}

static int single_round(void *st, int r)
{
    single_t *S = st;
    for (int l = 0; l < 3; l++)
        if (S->loc[l])
            pp_round(S->loc[l], r);
    return MC_OK;
}

const mc_calib_family_t mc_calib_pingpong_family = {
    .name = "single-line ping-pong",
    .begin = single_begin,
    .round = single_round,
    .end = single_end,
};

/* ---- multi-line ping-pong ---- */

static int store_fit(mc_calib_t *c, const ppcfg_t *cfg, int n, int reps)
{
    char st[4] = {cfg[0].ss, '-', cfg[0].sr, 0};
    mc_prof_fit_t *f = mc_profile_add_ml(c->prof, st);
    if (!f)
        return MC_ERR_ARG;
    MC_CHECK(mc_prof_fit_alloc(f, n));
    double x[32], y[32];
    for (int i = 0; i < n; i++) {
        mc_summary_t s = mc_summarize(cfg[i].v, reps);
        mc_prof_point_t *q = &f->pts[i];
        q->x = x[i] = cfg[i].lines;
        q->mean = s.mean;
        q->median = y[i] = s.median;
        MC_CHECK(mc_prof_samples_set(&q->samples, cfg[i].v, reps));
    }
    mc_fitres_t fr;
    MC_CHECK(mc_fit(x, y, n, 1, &fr));
    f->slope = fr.slope;
    f->icept = fr.icept;
    f->inv = fr.inv;
    f->r2 = fr.r2;
    f->max_rel_err = fr.max_rel_err;
    for (int i = 0; i < n; i++) {
        mc_prof_point_t *q = &f->pts[i];
        q->model = mc_prof_fit_eval(f, q->x);
        q->rel_err = (q->model - q->median) / q->median;
    }
    return MC_OK;
}

typedef struct multi {
    mc_calib_t *c;
    pp_t *p;
    int nsizes, nstates;
} multi_t;

static int multi_end(void *st, int rounds)
{
    multi_t *M = st;
    int rc = MC_OK;
    if (!M)
        return MC_OK;
    for (int s = 0; s < M->nstates && rc == MC_OK && rounds > 0; s++)
        rc = store_fit(M->c, M->p->cfg + s * M->nsizes, M->nsizes, rounds);
    pp_free(M->p);
    free(M);
    return rc;
}

/* 1..128 lines between two cores, the four state pairs of Table 3.1 (E-E
 * only with --quick), each fitted to T_N = o*N + q - p/N on the medians. */
static int multi_begin(mc_calib_t *c, void **st)
{
    static const int full[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96,
                               128};
    static const int quick[] = {1, 2, 4, 8, 16, 32, 64, 128};
    static const char *const states[4] = {"E-E", "E-I", "I-E", "I-I"};
    *st = NULL;
    if (!c->hb || !mc_calib_can_flush())
        return mc_profile_skip(c->prof, "multiline", "needs two cores and "
                               "clflush");
    if (c->quick)
        MC_CHECK(mc_profile_skip(c->prof, "multiline E-I, I-E, I-I",
                                 "--quick measures only E-E"));
    multi_t *M = calloc(1, sizeof *M);
    if (!M)
        return mc_error(MC_ERR_NOMEM, "multi-line state");
    M->c = c;
    M->nsizes = c->quick ? 8 : 14;
    M->nstates = c->quick ? 1 : 4;
    ppcfg_t cfg[4 * 14];
    for (int s = 0; s < M->nstates; s++)
        for (int i = 0; i < M->nsizes; i++)
            cfg[s * M->nsizes + i] = (ppcfg_t){
                .ss = states[s][0], .sr = states[s][2],
                .lines = (c->quick ? quick : full)[i]};
    if (!(M->p = pp_new(c->hb, "other-core", cfg, M->nsizes * M->nstates,
                        c->reps))) {
        free(M);
        return MC_ERR_NOMEM;
    }
    *st = M;
    mc_calib_progress("multi-line ping-pong: %d sizes (1..128 lines) x %d state "
                   "pair%s", M->nsizes, M->nstates, c->quick ? "" : "s");
    return MC_OK;
}

static int multi_round(void *st, int r)
{
    multi_t *M = st;
    if (M)
        pp_round(M->p, r);
    return MC_OK;
}

const mc_calib_family_t mc_calib_multiline_family = {
    .name = "multi-line ping-pong",
    .begin = multi_begin,
    .round = multi_round,
    .end = multi_end,
};
