/*
 * Call sites and the report. A site is (communicator, collective, size
 * class): the communicator is the world or a family of them (comms.c:
 * the rows of a grid are one site), the collective "p2p" for messages
 * (a blocking one, or a wait's batch), the size class the power of two
 * below the bytes of one call (a rank's block for a collective, all its
 * messages for a batch). A site's calls and times are means over the
 * ranks that made such calls; its recorded time is that of the recorded
 * ranks whose streams the simulated ones replayed.
 */
#include <stdlib.h>
#include <string.h>

#include "replay/run_int.h"
#include "util/error.h"

const char *mc_rp_site_coll(const mc_rp_site_t *s)
{
    return s->coll == MC_RP_SITE_P2P
               ? "p2p"
               : mc_coll_info((mc_coll_t)s->coll)->name;
}

static int sclass(uint64_t b)
{
    int k = 0;
    while (b > 1)
        b >>= 1, k++;
    return k;
}

/* the bytes of one record's call (a WAIT: its batch's) */
static uint64_t bytes_of(const mc_rp_stream_t *s, size_t i)
{
    const mc_rp_rec_t *x = &s->r[i];
    if (x->kind == MC_RP_COLL)
        return x->count * mc_dtype_size((mc_dtype_t)x->dtype);
    if (x->kind != MC_RP_WAIT)
        return x->sent + x->recvd;
    uint64_t b = 0;
    for (size_t k = 0; k < i; k++)
        if ((s->r[k].kind == MC_RP_ISEND || s->r[k].kind == MC_RP_IRECV) &&
            s->r[k].wait == x->wait)
            b += s->r[k].sent + s->r[k].recvd;
    return b;
}

static int site_of(mc_rp_job_t *j, mc_rp_result_t *r, int comm, int coll,
                   int sc)
{
    int f = j->pl.fam_of[comm];
    for (int k = 0; k < r->nsites; k++) {
        mc_rp_site_t *s = &r->sites[k];
        if (s->coll == coll && s->sclass == sc &&
            j->pl.fam_of[s->comm] == f && (f >= 0 || s->comm == comm ||
                                           j->pl.fam_of[s->comm] < 0))
            return k;
    }
    if (r->nsites == r->capsites) {
        int cap = r->capsites ? 2 * r->capsites : 16;
        mc_rp_site_t *p = realloc(r->sites, (size_t)cap * sizeof *p);
        if (!p)
            return -1;
        r->sites = p, r->capsites = cap;
    }
    mc_rp_site_t *s = &r->sites[r->nsites];
    memset(s, 0, sizeof *s);
    s->comm = comm, s->coll = coll, s->sclass = sc;
    return r->nsites++;
}

int mc_rp_sites(mc_rp_job_t *j, mc_rp_result_t *r)
{
    const mc_rp_trace_t *t = j->t;
    j->site = calloc((size_t)t->ranks, sizeof *j->site);
    j->wbytes = calloc((size_t)t->ranks, sizeof *j->wbytes);
    if (!j->site || !j->wbytes)
        return mc_error(MC_ERR_NOMEM, "replay: out of memory");
    for (int q = 0; q < t->ranks; q++) {
        const mc_rp_stream_t *s = &t->s[q];
        j->site[q] = malloc((s->n + 1) * sizeof **j->site);
        if (!j->site[q])
            return mc_error(MC_ERR_NOMEM, "replay: out of memory");
        int comm = 0;
        for (size_t i = 0; i < s->n; i++) {
            const mc_rp_rec_t *x = &s->r[i];
            j->site[q][i] = -1;
            if (x->kind == MC_RP_COMPUTE || x->kind == MC_RP_SKIP ||
                x->kind == MC_RP_ISEND || x->kind == MC_RP_IRECV) {
                comm = x->kind == MC_RP_ISEND || x->kind == MC_RP_IRECV
                           ? (int)x->comm : comm;
                continue;
            }
            uint64_t b = bytes_of(s, i);
            int k = site_of(j, r, x->kind == MC_RP_WAIT ? comm : (int)x->comm,
                            x->kind == MC_RP_COLL ? x->coll : MC_RP_SITE_P2P,
                            sclass(b));
            if (k < 0)
                return mc_error(MC_ERR_NOMEM, "replay: out of memory");
            r->sites[k].calls++; /* recorded calls here; results() */
            r->sites[k].bytes += b; /* summed here, a mean below */
            j->site[q][i] = k;
        }
    }
    for (int k = 0; k < r->nsites; k++)
        r->sites[k].bytes /= r->sites[k].calls ? r->sites[k].calls : 1;
    j->nsites = r->nsites;
    return MC_OK;
}

/* "world", or the family's first communicator and how many */
static void comm_label(const mc_rp_trace_t *t, const mc_rp_site_t *s,
                       char *buf, size_t len)
{
    const mc_rp_comm_t *c = &t->comms[s->comm];
    if (c->size == t->ranks)
        snprintf(buf, len, "world");
    else
        snprintf(buf, len, "%s:%u/%d", c->name, c->id, c->size);
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

static void json_row(const mc_rp_trace_t *t, const mc_rp_site_t *s, FILE *f)
{
    char cl[96];
    comm_label(t, s, cl, sizeof cl);
    fprintf(f, "{\"comm\":\"%s\",\"coll\":\"%s\",\"size_class\":%llu,"
               "\"bytes\":%llu,\"calls\":%llu,\"algo\":\"%s\","
               "\"sim_us\":%.4f,\"measured_us\":%.4f", cl,
            mc_rp_site_coll(s), 1ULL << s->sclass,
            (unsigned long long)s->bytes, (unsigned long long)s->calls,
            s->algo, s->sim_ps / MC_PS_PER_US, s->rec_ns / 1e3);
    if (s->best[0])
        fprintf(f, ",\"best\":\"%s\",\"best_us\":%.4f,\"gain\":%.4f",
                s->best, s->best_ps / MC_PS_PER_US,
                s->best_ps > 0 ? s->sim_ps / s->best_ps : 1.0);
    fprintf(f, "}\n");
}

static void text_row(const char *comm, const char *coll, const char *size,
                     uint64_t calls, uint64_t bytes, const char *algo,
                     double sim_us, double rec_us, FILE *f)
{
    fprintf(f, "%-22s %-22s %6s %8llu %10llu %-26.26s %12.2f %12.2f\n",
            comm, coll, size, (unsigned long long)calls,
            (unsigned long long)bytes, algo, sim_us, rec_us);
}

/* one row per site, its --best, a subtotal per collective */
static void text_sites(const mc_rp_trace_t *t, const mc_rp_result_t *r,
                       FILE *f)
{
    char cl[96], sz[32], best[200];
    for (int k = 0; k < r->nsites; k++) {
        const mc_rp_site_t *s = &r->sites[k];
        comm_label(t, s, cl, sizeof cl);
        size_label(1ULL << s->sclass, sz, sizeof sz);
        text_row(cl, mc_rp_site_coll(s), sz, s->calls, s->bytes, s->algo,
                 s->sim_ps / MC_PS_PER_US, s->rec_ns / 1e3, f);
        if (s->best[0])
            fprintf(f, "    best: %s %.2f us (%.2fx)\n", s->best,
                    s->best_ps / MC_PS_PER_US,
                    s->best_ps > 0 ? s->sim_ps / s->best_ps : 1.0);
    }
    for (int c = MC_RP_SITE_P2P; c < MC_COLL_COUNT; c++) {
        uint64_t calls = 0, bytes = 0;
        double sim = 0, rec = 0;
        int n = 0;
        for (int k = 0; k < r->nsites; k++)
            if (r->sites[k].coll == c) {
                const mc_rp_site_t *s = &r->sites[k];
                n++, calls += s->calls, bytes += s->bytes * s->calls;
                sim += s->sim_ps, rec += s->rec_ns;
            }
        snprintf(best, sizeof best, "%s (all)",
                 c < 0 ? "p2p" : mc_coll_info((mc_coll_t)c)->name);
        if (n)
            text_row("subtotal", best, "", calls, bytes, "",
                     sim / MC_PS_PER_US, rec / 1e3, f);
    }
}

void mc_rp_report(const mc_rp_trace_t *t, const mc_rp_result_t *r, FILE *f,
                  int json)
{
    double sim = 0, rec = 0;
    uint64_t calls = 0;
    for (int k = 0; k < r->nsites; k++)
        sim += r->sites[k].sim_ps, rec += r->sites[k].rec_ns,
            calls += r->sites[k].calls;
    double end = r->total_sim_ps,
           share = end > 0 ? r->comm_sim_ps / end : 0;
    if (json) {
        for (int k = 0; k < r->nsites; k++)
            json_row(t, &r->sites[k], f);
        fprintf(f, "{\"coll\":\"total\",\"calls\":%llu,\"sim_us\":%.4f,"
                   "\"measured_us\":%.4f,\"run_sim_us\":%.4f,"
                   "\"comm_share\":%.4f,\"unreplayed_us\":%.4f,"
                   "\"ranks\":%d,\"recorded_ranks\":%d,"
                   "\"platform\":\"%s\",\"wall_s\":%.3f}\n",
                (unsigned long long)calls, sim / MC_PS_PER_US, rec / 1e3,
                end / MC_PS_PER_US, share, r->unrepl_ns / 1e3, r->ranks,
                t->ranks, r->platform, r->wall_s);
        return;
    }
    fprintf(f, "replay of %s (%d ranks%s) on %s, %d ranks; times per rank "
               "in us\n", t->path, t->ranks,
            t->scorep ? ", counts derived from bytes" : "", r->platform,
            r->ranks);
    fprintf(f, "%-22s %-22s %6s %8s %10s %-26s %12s %12s\n", "comm", "coll",
            "size", "calls", "bytes", "algo", "predicted", "recorded");
    text_sites(t, r, f);
    text_row("total", "communication", "", calls, 0, "", sim / MC_PS_PER_US,
             rec / 1e3, f);
    fprintf(f, "run: %.2f us simulated, %.1f%% communicating; not "
               "replayable, counted as computation: %.2f us per rank\n",
            end / MC_PS_PER_US, 100 * share, r->unrepl_ns / 1e3);
}
