/*
 * The GCMC proxy (gcmc.h). Every rank holds every particle's atom
 * positions (1-D, in a periodic box of length `vol`) and the same random
 * stream, so all ranks pick the same actions; rank p % P owns particle p
 * and computes its contributions. One cycle (Algorithm 1):
 *
 *   pick an action and a particle (shared random stream)
 *   en = enold - ShortEn(pt) - LongEn()
 *   move the particle (move, rotate, insert and delete all re-place its
 *   atoms here: the proxy keeps the particle count, and with it the cost)
 *   en += ShortEn(pt) + LongEn()
 *   accept with probability min(1, exp(-beta (en - enold))), else undo
 *   BroadcastUpdate: the owner broadcasts the particle's record
 *
 *   ShortEn(pt)  local work: pt's atoms against the atoms of my particles
 *                and their periodic images (Lennard-Jones, 20 flops a
 *                term), then an allreduce of one double
 *   LongEn()     Algorithm 2: for my particles' atoms, cos and sin of
 *                kmax wave numbers, summed into kvecs complex coefficients
 *                (weighted by the atom's charge), then an ALLREDUCE of the
 *                2 kvecs doubles (552 in the paper), then the energy
 *
 * The long-range allreduce runs on the caller's communicator (its
 * algorithm forced by opts.algo); the one-double allreduce and the
 * broadcast on a duplicate with the default selection, as RCCE_comm's
 * short-message algorithms would run them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app/gcmc.h"
#include "util/config.h"

#define BETA 0.02
#define PAIR_FLOPS 20 /* one Lennard-Jones term, counted */

typedef struct gcmc {
    mc_comm_t *c, *ctl;
    const mc_gcmc_opts_t *o;
    double (*now)(void *);
    void *now_arg;
    uint64_t rng;
    double vol;
    double *x;     /* particles x atoms positions */
    double *ftot;  /* 2 kvecs: my coefficients, then everyone's */
    double *fk;    /* 2 kmax: cos and sin of one atom */
    double *saved; /* one particle's atoms */
    mc_gcmc_result_t *r;
} gcmc_t;

void mc_gcmc_defaults(mc_gcmc_opts_t *o)
{
    *o = (mc_gcmc_opts_t){.cycles = 20, .particles = 480, .atoms = 3,
                          .kmax = 138, .kvecs = 276, .trig_flops = 20,
                          .images = 200, .seed = 1, .algo = NULL};
}

int mc_gcmc_parse(const char *kv, mc_gcmc_opts_t *o)
{
    char buf[256];
    if (strlen(kv) >= sizeof buf)
        return mc_error(MC_ERR_ARG, "gcmc: options too long");
    strcpy(buf, kv);
    struct { const char *k; int *v; } keys[] = {
        {"cycles", &o->cycles}, {"particles", &o->particles},
        {"atoms", &o->atoms}, {"kmax", &o->kmax}, {"kvecs", &o->kvecs},
        {"trig_flops", &o->trig_flops}, {"images", &o->images}};
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(t, '=');
        long long v = eq ? mc_parse_size(eq + 1) : -1;
        if (eq)
            *eq = 0;
        size_t i = 0;
        while (i < sizeof keys / sizeof *keys && strcmp(keys[i].k, t))
            i++;
        if (!eq || i == sizeof keys / sizeof *keys || v < 1 || v > 1 << 24)
            return mc_error(MC_ERR_ARG,
                            "gcmc: '%s' is not one of cycles, particles, "
                            "atoms, kmax, kvecs, trig_flops, images "
                            "=N (1 <= N <= 16M)", t);
        *keys[i].v = (int)v;
    }
    if (o->kvecs > 2 * o->kmax + 1)
        return mc_error(MC_ERR_ARG, "gcmc: kvecs=%d needs kmax >= %d",
                        o->kvecs, (o->kvecs + 1) / 2);
    return MC_OK;
}

static double unit(gcmc_t *g)
{
    uint64_t z = (g->rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return (double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
}

static int mine(const gcmc_t *g, int p)
{
    return p % mc_comm_size(g->c) == mc_comm_rank(g->c);
}

/* local work of `flops` floating-point operations: real here, charged in
 * the simulator */
static int work(gcmc_t *g, uint64_t flops)
{
    return tp_charge(g->c->team.tp, MC_CHARGE_FLOP, flops);
}

/* a collective, timed as communication */
#define COMM(g, call)                                                        \
    do {                                                                     \
        double t0_ = (g)->now((g)->now_arg);                                 \
        MC_CHECK(call);                                                      \
        (g)->r->comm_s += (g)->now((g)->now_arg) - t0_;                      \
    } while (0)

static int short_en(gcmc_t *g, int pt, double *out)
{
    const mc_gcmc_opts_t *o = g->o;
    double e = 0;
    uint64_t pairs = 0;
    for (int q = 0; q < o->particles; q++) {
        if (q == pt || !mine(g, q))
            continue;
        for (int a = 0; a < o->atoms; a++)
            for (int b = 0; b < o->atoms; b++)
                for (int i = 0; i < o->images; i++, pairs++) {
                    /* the pair and its periodic images */
                    double d = fabs(g->x[pt * o->atoms + a] -
                                    g->x[q * o->atoms + b]) +
                               i * g->vol;
                    d = fmin(d, fabs(g->vol * (i + 1) - d));
                    double r2 = fmax(d * d, 0.64), r6 = 1 / (r2 * r2 * r2);
                    e += 4 * (r6 * r6 - r6);
                }
    }
    MC_CHECK(work(g, pairs * PAIR_FLOPS));
    COMM(g, mc_allreduce(g->ctl, &e, out, 1, MC_FLOAT64, MC_SUM));
    return MC_OK;
}

/* Algorithm 2 */
static int long_en(gcmc_t *g, double *out)
{
    const mc_gcmc_opts_t *o = g->o;
    double t0 = g->now(g->now_arg);
    int kv = o->kvecs, km = o->kmax;
    memset(g->ftot, 0, sizeof(double) * 2 * (size_t)kv);
    uint64_t atoms = 0;
    for (int p = 0; p < o->particles; p++) {
        if (!mine(g, p))
            continue;
        for (int a = 0; a < o->atoms; a++, atoms++) {
            double x = g->x[p * o->atoms + a], q = a % 2 ? -1.0 : 1.0;
            for (int k = 1; k <= km; k++) {
                g->fk[2 * (k - 1)] = cos(2 * M_PI * k / g->vol * x);
                g->fk[2 * (k - 1) + 1] = sin(2 * M_PI * k / g->vol * x);
            }
            for (int k = 0; k < kv; k++) { /* kvec(k) = k - km, F[-k] = F* */
                int w = k - km, i = abs(w);
                double re = i ? g->fk[2 * (i - 1)] : 1.0;
                double im = i ? g->fk[2 * (i - 1) + 1] * (w < 0 ? -1 : 1) : 0;
                g->ftot[2 * k] += re * q;
                g->ftot[2 * k + 1] += im * q;
            }
        }
    }
    MC_CHECK(work(g, atoms * ((uint64_t)km * (uint64_t)o->trig_flops +
                              4 * (uint64_t)kv)));
    double *sum = g->ftot + 2 * kv;
    COMM(g, mc_allreduce(g->c, g->ftot, sum, 2 * (size_t)kv, MC_FLOAT64,
                         MC_SUM));
    double e = 0;
    for (int k = 0; k < kv; k++) {
        double w = (double)(k - km) / km;
        e += exp(-w * w) / (1 + (k - km) * (k - km)) / g->vol *
             (sum[2 * k] * sum[2 * k] + sum[2 * k + 1] * sum[2 * k + 1]);
    }
    MC_CHECK(work(g, 8 * (uint64_t)kv));
    *out = e;
    g->r->longen_s += g->now(g->now_arg) - t0;
    return MC_OK;
}

static int energy_terms(gcmc_t *g, int pt, double *out)
{
    double s, l;
    MC_CHECK(short_en(g, pt, &s));
    MC_CHECK(long_en(g, &l));
    *out = s + l;
    return MC_OK;
}

static int cycle(gcmc_t *g, double *enold)
{
    const mc_gcmc_opts_t *o = g->o;
    int action = (int)(unit(g) * 4), pt = (int)(unit(g) * o->particles);
    double *xp = g->x + (size_t)pt * (size_t)o->atoms, before, after;
    MC_CHECK(energy_terms(g, pt, &before));
    memcpy(g->saved, xp, sizeof(double) * (size_t)o->atoms);
    double centre = action >= 2 ? unit(g) * g->vol : xp[0];
    double step = action == 0 ? 0.5 : 2.0;
    for (int a = 0; a < o->atoms; a++) /* move, rotate, re-place */
        xp[a] = fmod(centre + step * (unit(g) - 0.5) + g->vol, g->vol);
    MC_CHECK(energy_terms(g, pt, &after));
    double en = *enold - before + after;
    if (unit(g) < fmin(1.0, exp(-BETA * (en - *enold)))) {
        *enold = en;
        g->r->accepted++;
    } else {
        memcpy(xp, g->saved, sizeof(double) * (size_t)o->atoms);
    }
    /* BroadcastUpdate: the owner's record (atoms, energy) to everyone */
    memcpy(g->saved, xp, sizeof(double) * (size_t)o->atoms);
    g->saved[o->atoms] = *enold;
    COMM(g, mc_bcast(g->ctl, g->saved, (size_t)o->atoms + 1, MC_FLOAT64,
                     pt % mc_comm_size(g->c)));
    memcpy(xp, g->saved, sizeof(double) * (size_t)o->atoms);
    *enold = g->saved[o->atoms];
    return MC_OK;
}

static int setup(gcmc_t *g)
{
    const mc_gcmc_opts_t *o = g->o;
    size_t n = (size_t)o->particles * (size_t)o->atoms;
    g->x = malloc(sizeof(double) * n);
    g->ftot = aligned_alloc(64, sizeof(double) * 4 * (size_t)o->kvecs);
    g->fk = malloc(sizeof(double) * 2 * (size_t)o->kmax);
    g->saved = malloc(sizeof(double) * ((size_t)o->atoms + 1));
    if (!g->x || !g->ftot || !g->fk || !g->saved)
        return mc_error(MC_ERR_NOMEM, "gcmc: out of memory");
    g->vol = (double)o->particles;
    for (size_t i = 0; i < n; i++)
        g->x[i] = unit(g) * g->vol;
    if (o->algo)
        MC_CHECK(mc_comm_set_algo(g->c, "allreduce", o->algo));
    return mc_comm_split(g->c, 0, mc_comm_rank(g->c), &g->ctl);
}

int mc_gcmc_run(mc_comm_t *c, const mc_gcmc_opts_t *o,
                double (*now)(void *), void *now_arg, mc_gcmc_result_t *r)
{
    gcmc_t g = {.c = c, .o = o, .now = now, .now_arg = now_arg,
                .rng = o->seed, .r = r};
    memset(r, 0, sizeof *r);
    int rc = setup(&g);
    double enold = 0;
    if (rc == MC_OK)
        rc = mc_barrier(c);
    double t0 = now(now_arg);
    for (int i = 0; i < o->cycles && rc == MC_OK; i++)
        rc = cycle(&g, &enold);
    r->total_s = now(now_arg) - t0;
    r->energy = enold;
    if (g.ctl)
        mc_comm_free(g.ctl);
    free(g.x);
    free(g.ftot);
    free(g.fk);
    free(g.saved);
    return rc;
}
