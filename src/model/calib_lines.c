/*
 * Line-transfer latency by coherence state and location (report Section
 * 1.3.1, Tables 1.6-1.8) and contention of n readers on one line (Section
 * 3.2, Table 3.2).
 *
 * Latency, BenchIT style: T0 reads 32 lines, one per page in a random page
 * order (so no prefetcher follows), as a dependent pointer chase; a sample
 * is the time of the chase over 32. Before each sample the lines are put
 * into the state under test by their owner T1 (T0 itself for "same-core"):
 *
 *     I   clflush (the line is only in memory)
 *     E   clflush, then T1 reads it (T1 holds the only, clean copy)
 *     M   clflush, then T1 writes it (T1 holds the only, dirty copy)
 *     S   clflush, T1 reads it, a third core T2 reads it (clean, shared)
 *
 * T0 first touches another line of each page (the TLB is then warm but
 * the measured line is not in T0's cache). One round takes one sample of
 * every configuration, after an untimed warm-up (the first access after
 * a pause pays for the vCPU's wake-up).
 */
#include <stdlib.h>
#include <string.h>

#include "model/calib.h"
#include "model/fit.h"
#include "util/error.h"

#define NL 32          /* lines per chase, as BenchIT */
#define PAGE 4096
#define LINES_PER_PAGE (PAGE / MC_CALIB_LINE)

typedef struct lineset {
    char *mem;
    char *line[NL];   /* in chase order; word 0 points to the next */
    char *warm[NL];   /* another line of the same page */
} lineset_t;

static volatile uint64_t sink;

static int lineset_init(lineset_t *s, unsigned seed)
{
    s->mem = mc_calib_alloc((size_t)NL * PAGE);
    if (!s->mem)
        return mc_error(MC_ERR_NOMEM, "%d pages", NL);
    int order[NL];
    for (int i = 0; i < NL; i++)
        order[i] = i;
    for (int i = NL - 1; i > 0; i--) { /* Fisher-Yates, rand_r */
        int j = (int)(rand_r(&seed) % (unsigned)(i + 1));
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (int i = 0; i < NL; i++) {
        int off = (int)(rand_r(&seed) % LINES_PER_PAGE);
        char *page = s->mem + (size_t)order[i] * PAGE;
        s->line[i] = page + off * MC_CALIB_LINE;
        s->warm[i] = page + ((off + LINES_PER_PAGE / 2) % LINES_PER_PAGE) *
                                MC_CALIB_LINE;
    }
    for (int i = 0; i < NL; i++)
        *(char **)s->line[i] = s->line[(i + 1) % NL];
    return MC_OK;
}

static void job_flush(void *arg)
{
    lineset_t *s = arg;
    for (int i = 0; i < NL; i++)
        mc_calib_flush(s->line[i]);
}

static void job_read(void *arg)
{
    lineset_t *s = arg;
    uint64_t x = 0;
    for (int i = 0; i < NL; i++)
        x += ((volatile uint64_t *)s->line[i])[1];
    sink = x;
    mc_calib_fence();
}

static void job_write(void *arg)
{
    lineset_t *s = arg;
    for (int i = 0; i < NL; i++)
        ((volatile uint64_t *)s->line[i])[1] += 1;
    mc_calib_fence();
}

/* run fn on helper h, or on this thread if h is NULL */
static void on(mc_calib_helper_t *h, mc_calib_job_fn fn, void *arg)
{
    if (h)
        mc_calib_call(h, fn, arg);
    else
        fn(arg);
}

typedef struct lcfg {
    char state;
    const char *loc;
    mc_calib_helper_t *owner; /* NULL: T0 itself */
    mc_calib_helper_t *third; /* S only */
    double *v;
} lcfg_t;

static void prepare(lineset_t *s, const lcfg_t *c)
{
    job_flush(s);
    if (c->state == 'E' || c->state == 'S')
        on(c->owner, job_read, s);
    if (c->state == 'M')
        on(c->owner, job_write, s);
    if (c->state == 'S')
        on(c->third, job_read, s);
}

static double chase(lineset_t *s, double overhead)
{
    uint64_t x = 0;
    for (int i = 0; i < NL; i++)
        x += *(volatile char *)s->warm[i];
    mc_calib_fence();
    char *p = s->line[0];
    uint64_t t0 = mc_calib_tick();
    for (int i = 0; i < NL; i++)
        p = *(char *volatile *)p;
    uint64_t t1 = mc_calib_tick();
    sink = x + (uint64_t)(uintptr_t)p;
    return (mc_calib_ns(t1 - t0) - overhead) / NL;
}

/* The configurations this machine can run; the others are skipped. */
static int configs(mc_calib_t *c, lcfg_t *cf)
{
    static const char states[] = "MESI";
    static const char *const locs[] = {"same-core", "other-core",
                                       "other-socket"};
    mc_calib_helper_t *owner[3] = {NULL, c->hb, c->hfar};
    mc_calib_helper_t *third[3] = {c->hb, c->h3, c->hb};
    const char *why[3] = {"", "this machine has one CPU available",
        "all CPUs share one socket and L3 domain"};
    int n = 0;
    for (int l = 0; l < 3; l++)
        for (int i = 0; i < 4; i++) {
            char what[64];
            snprintf(what, sizeof what, "lines %c %s", states[i], locs[l]);
            if (l > 0 && !owner[l]) {
                MC_CHECK(mc_profile_skip(c->prof, what, "needs T1 on %s "
                                         "of T0: %s", locs[l], why[l]));
                continue;
            }
            if (states[i] != 'I' && !mc_calib_can_flush()) {
                MC_CHECK(mc_profile_skip(c->prof, what, "needs clflush to "
                                         "force the state (x86 only)"));
                continue;
            }
            if (states[i] == 'S' && !third[l]) {
                MC_CHECK(mc_profile_skip(c->prof, what, "needs a third core "
                    "T2 (not T0's or T1's) to share the line; this machine "
                    "has %d CPUs", c->topo.ncpu));
                continue;
            }
            cf[n++] = (lcfg_t){.state = states[i], .loc = locs[l],
                               .owner = owner[l], .third = third[l]};
        }
    return n;
}

typedef struct lines {
    mc_calib_t *c;
    lineset_t s;
    lcfg_t cf[12];
    int n;
    double overhead;
} lines_t;

static int lines_end(void *st, int rounds)
{
    lines_t *L = st;
    int rc = MC_OK;
    for (int i = 0; i < L->n && rc == MC_OK && rounds > 0; i++) {
        char state[2] = {L->cf[i].state, 0};
        mc_prof_stat_t *e = mc_profile_add_line(L->c->prof, state,
                                                L->cf[i].loc);
        rc = e ? mc_calib_store(e, L->cf[i].v, rounds) : MC_ERR_ARG;
    }
    for (int i = 0; i < L->n; i++)
        free(L->cf[i].v);
    free(L->s.mem);
    free(L);
    return rc;
}

static int lines_begin(mc_calib_t *c, void **st)
{
    lines_t *L = calloc(1, sizeof *L);
    if (!L)
        return mc_error(MC_ERR_NOMEM, "line latency state");
    *st = L;
    L->c = c;
    int rc = L->n = configs(c, L->cf);
    if (rc >= 0)
        rc = lineset_init(&L->s, 12345);
    for (int i = 0; i < L->n && rc >= 0; i++)
        if (!(L->cf[i].v = calloc((size_t)c->reps, sizeof(double))))
            rc = mc_error(MC_ERR_NOMEM, "line latency samples");
    if (rc < 0) {
        lines_end(L, 0);
        return rc;
    }
    L->overhead = mc_calib_tick_overhead_ns();
    mc_calib_progress("line latency by state and location: %d configurations "
                   "(%d-line pointer chases)", L->n, NL);
    return MC_OK;
}

static int lines_round(void *st, int r)
{
    lines_t *L = st;
    if (L->n == 0)
        return MC_OK;
    prepare(&L->s, &L->cf[0]); /* warm-up after a pause: untimed */
    chase(&L->s, L->overhead);
    for (int i = 0; i < L->n; i++) {
        prepare(&L->s, &L->cf[i]);
        L->cf[i].v[r] = chase(&L->s, L->overhead);
    }
    return MC_OK;
}

const mc_calib_family_t mc_calib_lines_family = {
    .name = "line latency",
    .begin = lines_begin,
    .round = lines_round,
    .end = lines_end,
};
