/*
 * The report: the result's rows (data.h) and their table or JSON.
 *
 * A site's row (sites.c): calls and times per rank that made such calls
 * (a halo's edge ranks and its inner ones make different sites), bytes
 * per call. A subtotal per collective kind and the total: per rank over
 * every simulated rank (a rank that made none counts as 0), so the
 * subtotals add up to the total, and the total predicted time is the
 * mean time a rank spent communicating (its share of the run is
 * comm_share); bytes there are all that a rank's calls moved. The
 * recorded time is that of the recorded ranks whose streams the
 * simulated ones replayed.
 */
#include <stdlib.h>
#include <string.h>

#include "replay/run_int.h"
#include "util/error.h"

/* "world", or the family's first communicator and its size */
static void comm_label(const mc_rp_trace_t *t, const mc_rp_site_t *s,
                       char *buf, size_t len)
{
    const mc_rp_comm_t *c = &t->comms[s->comm];
    if (c->size == t->ranks)
        snprintf(buf, len, "world");
    else
        snprintf(buf, len, "%s:%u/%d", c->name, c->id, c->size);
}

static void site_row(const mc_rp_trace_t *t, const mc_rp_site_t *s,
                     mc_rp_row_t *w)
{
    w->kind = MC_RP_ROW_SITE;
    comm_label(t, s, w->comm, sizeof w->comm);
    snprintf(w->coll, sizeof w->coll, "%s", mc_rp_site_coll(s));
    snprintf(w->algo, sizeof w->algo, "%s", s->algo);
    w->size_class = 1ULL << s->sclass;
    w->bytes = s->bytes, w->calls = s->calls, w->ranks = (int)s->nranks;
    w->sim_us = s->sim_ps / MC_PS_PER_US, w->measured_us = s->rec_ns / 1e3;
    if (s->best[0]) {
        snprintf(w->best, sizeof w->best, "%s", s->best);
        w->best_us = s->best_ps / MC_PS_PER_US;
        w->gain = s->best_ps > 0 ? s->sim_ps / s->best_ps : 1.0;
    }
}

/* the sums of the sites of kind coll (all: every site) per rank */
static void sum_row(const mc_rp_result_t *r, int coll, int all,
                    mc_rp_row_t *w)
{
    double calls = 0, bytes = 0, sim = 0, rec = 0, n = r->ranks;
    for (int k = 0; k < r->nsites; k++) {
        const mc_rp_site_t *s = &r->sites[k];
        if (!all && s->coll != coll)
            continue;
        calls += s->all_calls, bytes += s->all_bytes;
        sim += s->all_sim_ps, rec += s->all_rec_ns;
    }
    w->kind = all ? MC_RP_ROW_TOTAL : MC_RP_ROW_SUBTOTAL;
    w->calls = (unsigned long long)(calls / n + 0.5);
    w->bytes = (unsigned long long)(bytes / n + 0.5);
    w->sim_us = sim / n / MC_PS_PER_US, w->measured_us = rec / n / 1e3;
}

static void total_row(const mc_rp_trace_t *t, const mc_rp_result_t *r,
                      mc_rp_row_t *w)
{
    sum_row(r, 0, 1, w);
    snprintf(w->comm, sizeof w->comm, "total");
    snprintf(w->coll, sizeof w->coll, "total");
    w->run_sim_us = r->total_sim_ps / MC_PS_PER_US;
    w->comm_share = r->total_sim_ps > 0 ? r->comm_sim_ps / r->total_sim_ps
                                        : 0;
    w->unreplayed_us = r->unrepl_ns / 1e3;
    w->wall_s = r->wall_s;
    w->events = (unsigned long long)r->st.engine.events;
    w->ranks = r->ranks, w->recorded_ranks = t->ranks;
    w->derived = t->scorep;
    snprintf(w->platform, sizeof w->platform, "%s", r->platform);
    snprintf(w->archive, sizeof w->archive, "%s", t->path);
}

int mc_rp_rows(const mc_rp_trace_t *t, const mc_rp_result_t *r,
               mc_rp_row_t **rows, int *nrows)
{
    mc_rp_row_t *w = calloc((size_t)r->nsites + MC_COLL_COUNT + 2,
                            sizeof *w);
    *rows = w, *nrows = 0;
    if (!w)
        return mc_error(MC_ERR_NOMEM, "replay: out of memory");
    for (int k = 0; k < r->nsites; k++)
        site_row(t, &r->sites[k], &w[(*nrows)++]);
    for (int c = MC_RP_SITE_P2P; c < MC_COLL_COUNT; c++) {
        int used = 0;
        for (int k = 0; k < r->nsites && !used; k++)
            used = r->sites[k].coll == c;
        if (!used)
            continue;
        mc_rp_row_t *x = &w[(*nrows)++];
        sum_row(r, c, 0, x);
        snprintf(x->comm, sizeof x->comm, "subtotal");
        snprintf(x->coll, sizeof x->coll, "%s",
                 c < 0 ? "p2p" : mc_coll_info((mc_coll_t)c)->name);
    }
    total_row(t, r, &w[(*nrows)++]);
    return MC_OK;
}

static void size_label(uint64_t b, char *buf, size_t len)
{
    if (b >= 1u << 20 && b % (1u << 20) == 0)
        snprintf(buf, len, "%lluM", (unsigned long long)(b >> 20));
    else if (b >= 1024 && b % 1024 == 0)
        snprintf(buf, len, "%lluK", (unsigned long long)(b >> 10));
    else
        snprintf(buf, len, "%llu", (unsigned long long)b);
}

static void json_row(const mc_rp_row_t *w, FILE *f)
{
    if (w->kind == MC_RP_ROW_TOTAL) {
        fprintf(f, "{\"coll\":\"total\",\"calls\":%llu,\"bytes\":%llu,"
                   "\"sim_us\":%.4f,\"measured_us\":%.4f,\"run_sim_us\":%.4f,"
                   "\"comm_share\":%.4f,\"unreplayed_us\":%.4f,\"ranks\":%d,"
                   "\"recorded_ranks\":%d,\"platform\":\"%s\","
                   "\"wall_s\":%.3f,\"events\":%llu}\n", w->calls, w->bytes,
                w->sim_us, w->measured_us, w->run_sim_us, w->comm_share,
                w->unreplayed_us, w->ranks, w->recorded_ranks, w->platform,
                w->wall_s, w->events);
        return;
    }
    fprintf(f, "{\"comm\":\"%s\",\"coll\":\"%s\",\"size_class\":%llu,"
               "\"bytes\":%llu,\"calls\":%llu,\"ranks\":%d,\"algo\":\"%s\","
               "\"sim_us\":%.4f,\"measured_us\":%.4f", w->comm, w->coll,
            w->size_class, w->bytes, w->calls, w->ranks, w->algo, w->sim_us,
            w->measured_us);
    if (w->best[0])
        fprintf(f, ",\"best\":\"%s\",\"best_us\":%.4f,\"gain\":%.4f",
                w->best, w->best_us, w->gain);
    fprintf(f, "}\n");
}

static void text_row(const mc_rp_row_t *w, FILE *f)
{
    char sz[32] = "", coll[48];
    if (w->kind == MC_RP_ROW_SITE)
        size_label(w->size_class, sz, sizeof sz);
    snprintf(coll, sizeof coll, "%s%s", w->coll,
             w->kind == MC_RP_ROW_SUBTOTAL ? " (all)" : "");
    fprintf(f, "%-22s %-22s %6s %8llu %10llu %-26.26s %12.2f %12.2f\n",
            w->comm, w->kind == MC_RP_ROW_TOTAL ? "communication" : coll,
            sz, w->calls, w->bytes, w->algo, w->sim_us, w->measured_us);
    if (w->best[0])
        fprintf(f, "    best: %s %.2f us (%.2fx)\n", w->best, w->best_us,
                w->gain);
}

void mc_rp_print(const mc_rp_row_t *rows, int nrows, FILE *f, int json)
{
    const mc_rp_row_t *tot = &rows[nrows - 1];
    for (int k = 0; json && k < nrows; k++)
        if (rows[k].kind != MC_RP_ROW_SUBTOTAL)
            json_row(&rows[k], f);
    if (json)
        return;
    fprintf(f, "replay of %s (%d ranks%s) on %s, %d ranks; times in us\n"
               "sites: per rank that made such calls, bytes per call; "
               "subtotals, total: per rank, all its calls\n",
            tot->archive, tot->recorded_ranks,
            tot->derived ? ", counts derived from bytes" : "",
            tot->platform, tot->ranks);
    fprintf(f, "%-22s %-22s %6s %8s %10s %-26s %12s %12s\n", "comm", "coll",
            "size", "calls", "bytes", "algo", "predicted", "recorded");
    for (int k = 0; k < nrows; k++)
        text_row(&rows[k], f);
    fprintf(f, "run: %.2f us simulated, %.1f%% communicating; not "
               "replayable, counted as computation: %.2f us per rank\n",
            tot->run_sim_us, 100 * tot->comm_share, tot->unreplayed_us);
}
