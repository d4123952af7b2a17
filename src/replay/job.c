/*
 * mc_rp_run: the options checked, the plan of communicators (comms.c),
 * the sites (report.c), the shared buffers, the simulated job (run.c),
 * and with --best one more job per algorithm rank: in job k every site
 * runs the k-th algorithm of its collective in the registry (mc_algos),
 * and a site keeps the fastest whose algorithm ran as asked (not a
 * fallback). The sites' times in one job influence each other only
 * through the ranks' skew, which the report's rows say nothing about.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/run_int.h"
#include "select/registry.h"
#include "util/error.h"

void mc_rp_defaults(mc_rp_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->compute_scale = 1.0;
}

static int check_opts(const mc_rp_trace_t *t, const mc_rp_opts_t *o)
{
    if (!t || !o)
        return mc_error(MC_ERR_ARG, "mc_rp_run: argument 't' or 'o' is "
                        "NULL");
    if (o->compute_scale < 0)
        return mc_error(MC_ERR_ARG, "--compute-scale %g: must be >= 0",
                        o->compute_scale);
    if (o->ranks && o->ranks < t->ranks)
        return mc_error(MC_ERR_ARG, "--ranks %d: the archive has %d ranks; "
                        "replay at that size or more", o->ranks, t->ranks);
    for (int a = 0; a < o->nalgos; a++) {
        const char *s = o->algos[a], *eq = strchr(s, '=');
        char coll[64];
        mc_coll_t c;
        mc_sel_t sel;
        snprintf(coll, sizeof coll, "%.*s", eq ? (int)(eq - s) : 0, s);
        if (!eq || mc_coll_lookup(coll, &c) != MC_OK)
            return mc_error(MC_ERR_ARG, "--algo '%s': not COLL=ALGO[:k=v,...] "
                            "with a collective's name", s);
        MC_CHECK(mc_algo_parse(c, eq + 1, "--algo", &sel));
    }
    return MC_OK;
}

/* the largest buffer a rank needs: a block per member for the
 * collectives that have blocks, the v-counts' sum, a message */
static size_t buffer_need(const mc_rp_job_t *j)
{
    const mc_rp_trace_t *t = j->t;
    size_t need = 64;
    for (int r = 0; r < t->ranks; r++)
        for (size_t i = 0; i < t->s[r].n; i++) {
            const mc_rp_rec_t *x = &t->s[r].r[i];
            size_t b = x->sent > x->recvd ? x->sent : x->recvd;
            if (x->kind == MC_RP_COLL) {
                int f = j->pl.fam_of[x->comm];
                size_t n = f < 0 ? (size_t)j->pl.N
                           : j->pl.N == j->pl.P
                               ? (size_t)t->comms[x->comm].size
                           : j->pl.fam[f].rule == MC_RP_BLOCK
                               ? (size_t)j->pl.fam[f].g
                               : (size_t)j->pl.N;
                b = (size_t)x->count * mc_dtype_size((mc_dtype_t)x->dtype);
                if (mc_coll_info((mc_coll_t)x->coll)->props &
                    (MC_COLL_BLOCKS | MC_COLL_VECTOR))
                    b *= n;
                if (x->vc != UINT32_MAX)
                    for (int k = 0; k < t->comms[x->comm].size; k++)
                        b = b > t->vpool[x->vc + (size_t)k] * n * 16
                                ? b
                                : (size_t)t->vpool[x->vc + (size_t)k] * n * 16;
            }
            need = b > need ? b : need;
        }
    return need;
}

static int one_job(mc_rp_job_t *j, const mc_platform_t *p, unsigned want,
                   mc_sim_job_stats_t *st)
{
    memset(j->acc, 0, (size_t)j->nsites * sizeof *j->acc);
    j->comm_ps = j->compute_ps = j->unrepl_ns = 0;
    mc_sim_job_t job;
    MC_CHECK(mc_sim_job_set(&job, p, NULL, j->pl.N, NULL, j));
    job.rank_fn = mc_rp_rank_fn;
    job.cores = j->o->cores;
    job.want = want;
    return mc_sim_job_run(&job, st);
}

/* --best: job k forces every site's k-th algorithm */
static int best(mc_rp_job_t *j, const mc_platform_t *p, mc_rp_result_t *r)
{
    const char **force = calloc((size_t)j->nsites + 1, sizeof *force);
    if (!force)
        return mc_error(MC_ERR_NOMEM, "replay: out of memory");
    j->force = force;
    for (int k = 0;; k++) {
        int any = 0;
        for (int s = 0; s < j->nsites; s++) {
            force[s] = NULL;
            int n = 0;
            for (const mc_algo_t *a = mc_algos; a->name; a++)
                if ((int)a->coll == r->sites[s].coll && n++ == k)
                    force[s] = a->name;
            any |= force[s] != NULL;
        }
        if (!any)
            break;
        mc_sim_job_stats_t st;
        int rc = one_job(j, p, 0, &st);
        mc_sim_job_stats_free(&st);
        for (int s = 0; rc == MC_OK && s < j->nsites; s++) {
            size_t len = force[s] ? strlen(force[s]) : 0;
            double t = j->acc[s].nranks
                           ? j->acc[s].sim_ps / (double)j->acc[s].nranks
                           : 0;
            if (force[s] && !strncmp(j->acc[s].ran, force[s], len) &&
                (j->acc[s].ran[len] == 0 || j->acc[s].ran[len] == ':') &&
                (!r->sites[s].best[0] || t < r->sites[s].best_ps)) {
                snprintf(r->sites[s].best, sizeof r->sites[s].best, "%s",
                         j->acc[s].ran);
                r->sites[s].best_ps = t;
            }
        }
    }
    j->force = NULL;
    free(force);
    return MC_OK;
}

/* the job's sums into the result (means per rank) */
static void results(const mc_rp_job_t *j, mc_rp_result_t *r)
{
    for (int s = 0; s < j->nsites; s++) {
        const mc_rp_acc_t *a = &j->acc[s];
        mc_rp_site_t *x = &r->sites[s];
        double n = a->nranks ? (double)a->nranks : 1;
        x->nranks = a->nranks;
        x->calls = (uint64_t)((double)a->calls / n + 0.5);
        x->bytes = a->calls ? a->bytes / a->calls : 0;
        x->sim_ps = a->sim_ps / n;
        x->rec_ns = a->rec_ns / n;
        x->all_calls = (double)a->calls, x->all_bytes = (double)a->bytes;
        x->all_sim_ps = a->sim_ps, x->all_rec_ns = a->rec_ns;
        snprintf(x->algo, sizeof x->algo, "%s", a->ran);
    }
    r->comm_sim_ps = j->comm_ps / j->pl.N;
    r->compute_ps = j->compute_ps / j->pl.N;
    r->unrepl_ns = j->unrepl_ns / j->pl.N;
    r->total_sim_ps = (double)r->st.end_ps;
    r->wall_s = r->st.wall_s;
}

/* A deadlock above the recorded size is the weak scaling's, not the
 * program's (it ran): each added rank replays a recorded rank of its
 * column, and ranks whose recorded neighbours play different parts (one
 * sends while the one beside it receives, in rows that a node split
 * makes one rank long) then wait for each other. Said as such, with the
 * simulator's own words after it. */
static int scaled_deadlock(const mc_rp_trace_t *t, const mc_rp_plan_t *pl)
{
    char sim[300];
    snprintf(sim, sizeof sim, "%s", mc_last_error());
    return mc_error(MC_ERR_ARG, "--ranks %d: the replay deadlocked above "
                    "the %d recorded ranks: each added rank replays the "
                    "stream of a recorded rank of its column (rows of %d), "
                    "so a program whose neighbouring ranks play different "
                    "parts (one sends while the one beside it receives) "
                    "cannot be extended this way; replay at the recorded "
                    "size, or record one whose rows repeat (simulator: %s)",
                    pl->N, t->ranks, pl->L, sim);
}

static int run_loaded(const mc_rp_trace_t *t, const mc_rp_opts_t *o,
                      const mc_platform_t *p, mc_rp_result_t *r)
{
    mc_rp_job_t j = {.t = t, .o = o};
    int N = o->ranks ? o->ranks : t->ranks, rc;
    if (N > p->ncores)
        return mc_error(MC_ERR_ARG, "--ranks %d: platform '%s' has %d cores",
                        N, p->name, p->ncores);
    rc = mc_rp_plan(t, N, p, o->cores, &j.pl);
    if (rc == MC_OK)
        rc = mc_rp_sites(&j, r);
    j.buflen = rc == MC_OK ? buffer_need(&j) : 0;
    j.sbuf = rc == MC_OK ? calloc(1, j.buflen) : NULL;
    j.rbuf = rc == MC_OK ? calloc(1, j.buflen) : NULL;
    j.acc = rc == MC_OK ? calloc((size_t)j.nsites + 1, sizeof *j.acc) : NULL;
    if (rc == MC_OK && (!j.sbuf || !j.rbuf || !j.acc))
        rc = mc_error(MC_ERR_NOMEM, "replay: no memory for %zu-byte buffers",
                      j.buflen);
    r->ranks = N;
    if (rc == MC_OK) {
        rc = one_job(&j, p, MC_SIM_JOB_RANK_TIMES |
                                (o->trace ? MC_SIM_JOB_TRACE : 0), &r->st);
        if (rc != MC_OK && r->st.deadlocked && N > t->ranks)
            rc = scaled_deadlock(t, &j.pl);
    }
    if (rc == MC_OK)
        results(&j, r);
    if (rc == MC_OK && o->best)
        rc = best(&j, p, r);
    for (int k = 0; j.site && k < t->ranks; k++)
        free(j.site[k]), free(j.bytes[k]);
    free(j.site), free(j.bytes);
    free(j.sbuf), free(j.rbuf), free(j.acc);
    mc_rp_plan_free(&j.pl);
    return rc;
}

int mc_rp_run(const mc_rp_trace_t *t, const mc_rp_opts_t *o,
              mc_rp_result_t *r)
{
    if (!r)
        return mc_error(MC_ERR_ARG, "mc_rp_run: argument 'r' is NULL");
    memset(r, 0, sizeof *r);
    MC_CHECK(check_opts(t, o));
    mc_platform_t *own = NULL;
    const mc_platform_t *p = o->plat;
    if (!p) {
        if (!o->platform)
            return mc_error(MC_ERR_ARG, "replay: no platform (--platform)");
        MC_CHECK(mc_platform_load(o->platform, &own));
        p = own;
    }
    r->platform = o->platform ? o->platform : p->name;
    int rc = run_loaded(t, o, p, r);
    mc_platform_free(own);
    return rc;
}

void mc_rp_result_free(mc_rp_result_t *r)
{
    if (!r)
        return;
    free(r->sites);
    mc_sim_job_stats_free(&r->st);
    memset(r, 0, sizeof *r);
}
