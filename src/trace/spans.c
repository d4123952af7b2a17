/*
 * A simulation's trace (the spans of `manycoll sim --trace` and `manycoll
 * replay --trace`: an operation of a core from start to end, in ps of
 * simulated time) as an OTF2 archive, for Vampir and otf2-print:
 *
 *   locations   one per core with spans ("core C (tile X,Y)"), in one
 *               system tree node named after the platform
 *   regions     one per operation name (put, get, flag, wait, ...),
 *               paradigm user
 *   events      per core in time order: Enter at a span's start, Leave
 *               at its end; timer resolution 1e12 (ps)
 *
 * OTF2 wants the spans of one location nested: a span that starts inside
 * an earlier one and ends after it (an operation that overlaps the one
 * before it on its core) is written from that one's end; the number of
 * spans so clipped, and of those left empty, is returned.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/write_int.h"
#include "util/error.h"

typedef struct span_w {
    OTF2_Archive *ar;
    const mc_sim_trace_rec_t *t;
    size_t *order;        /* span indices by (core, start, longer first) */
    const char **names;   /* region i's name */
    size_t nnames;
    uint32_t *region;     /* span -> region */
    uint64_t clipped;
} span_w_t;

static const mc_sim_trace_rec_t *sort_t;

static int by_core_time(const void *a, const void *b)
{
    const mc_sim_trace_rec_t *x = &sort_t[*(const size_t *)a];
    const mc_sim_trace_rec_t *y = &sort_t[*(const size_t *)b];
    if (x->core != y->core)
        return x->core < y->core ? -1 : 1;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return (x->end < y->end) - (x->end > y->end); /* outer first */
}

/* the regions: one per distinct name (the names are few) */
static int name_regions(span_w_t *w, size_t n)
{
    w->region = malloc((n + 1) * sizeof *w->region);
    w->names = malloc(64 * sizeof *w->names);
    if (!w->region || !w->names)
        return mc_error(MC_ERR_NOMEM, "trace: out of memory");
    for (size_t i = 0; i < n; i++) {
        const char *s = w->t[i].name ? w->t[i].name : "?";
        size_t k = 0;
        while (k < w->nnames && strcmp(w->names[k], s))
            k++;
        if (k == w->nnames) {
            if (w->nnames == 64)
                return mc_error(MC_ERR_ARG, "trace: more than 64 kinds of "
                                "operation");
            w->names[w->nnames++] = s;
        }
        w->region[i] = (uint32_t)k;
    }
    return MC_OK;
}

/* the spans of one core, order[a..b), nested with a stack of ends */
static int write_core(span_w_t *w, size_t a, size_t b, uint64_t *nev)
{
    const mc_sim_trace_rec_t *t = w->t;
    OTF2_EvtWriter *ev = OTF2_Archive_GetEvtWriter(
        w->ar, (OTF2_LocationRef)t[w->order[a]].core);
    if (!ev)
        return mc_error(MC_ERR_ARG, "trace: no OTF2 event writer");
    size_t *open = malloc((b - a) * sizeof *open), depth = 0;
    if (!open)
        return mc_error(MC_ERR_NOMEM, "trace: out of memory");
    for (size_t i = a; i <= b; i++) {
        const mc_sim_trace_rec_t *x = i < b ? &t[w->order[i]] : NULL;
        /* close what ends before x starts (all, after the last) */
        while (depth && (!x || t[open[depth - 1]].end <= x->start)) {
            size_t o = open[--depth];
            OTF2_EvtWriter_Leave(ev, NULL, (uint64_t)t[o].end, w->region[o]);
        }
        if (!x)
            break;
        mc_ps_t start = x->start;
        /* overlapping the open one's end: from there, after it closes
         * (and so on outwards) */
        while (depth && x->end > t[open[depth - 1]].end) {
            start = t[open[depth - 1]].end;
            w->clipped++;
            while (depth && t[open[depth - 1]].end <= start) {
                size_t o = open[--depth];
                OTF2_EvtWriter_Leave(ev, NULL, (uint64_t)t[o].end,
                                     w->region[o]);
            }
        }
        if (start >= x->end && x->end > x->start)
            continue; /* nothing left of it */
        OTF2_EvtWriter_Enter(ev, NULL, (uint64_t)start, w->region[w->order[i]]);
        open[depth++] = w->order[i];
    }
    free(open);
    OTF2_EvtWriter_GetNumberOfEvents(ev, nev);
    OTF2_Archive_CloseEvtWriter(w->ar, ev);
    return MC_OK;
}

static void write_defs(span_w_t *w, const mc_platform_t *p, mc_ps_t last,
                       const uint64_t *nev, const unsigned char *used)
{
    OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(w->ar);
    if (!g)
        return;
    uint32_t str = 0;
    char buf[96];
    OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000000u, 0,
                                              (uint64_t)last + 1,
                                              OTF2_UNDEFINED_TIMESTAMP);
    OTF2_GlobalDefWriter_WriteString(g, str++, "");
    OTF2_GlobalDefWriter_WriteString(g, str, p->name);
    OTF2_GlobalDefWriter_WriteString(g, str + 1, "chip");
    OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, str, str + 1,
                                             OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    str += 2;
    for (size_t k = 0; k < w->nnames; k++) {
        OTF2_GlobalDefWriter_WriteString(g, str, w->names[k]);
        OTF2_GlobalDefWriter_WriteRegion(
            g, (OTF2_RegionRef)k, str, str, 0, OTF2_REGION_ROLE_FUNCTION,
            OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE, 0, 0, 0);
        str++;
    }
    /* groups numbered 0, 1, ... (readers want dense ids); a location's
     * id is its core's */
    for (int c = 0, k = 0; c < p->ncores; c++) {
        if (!used[c])
            continue;
        snprintf(buf, sizeof buf, "core %d (tile %d,%d)", c, p->tile_x[c],
                 p->tile_y[c]);
        OTF2_GlobalDefWriter_WriteString(g, str, buf);
        OTF2_GlobalDefWriter_WriteLocationGroup(
            g, (OTF2_LocationGroupRef)k, str, OTF2_LOCATION_GROUP_TYPE_PROCESS,
            0, OTF2_UNDEFINED_LOCATION_GROUP);
        OTF2_GlobalDefWriter_WriteLocation(g, (OTF2_LocationRef)c, str,
                                           OTF2_LOCATION_TYPE_CPU_THREAD,
                                           nev[c], (OTF2_LocationGroupRef)k);
        str++;
        k++;
    }
    OTF2_Archive_CloseGlobalDefWriter(w->ar, g);
}

/* DIR/NAME.otf2 -> the archive's directory and name */
static int split_path(const char *path, char *dir, size_t dlen, char *name,
                      size_t nlen)
{
    size_t n = strlen(path);
    if (n < 6 || strcmp(path + n - 5, ".otf2"))
        return mc_error(MC_ERR_ARG, "trace '%s': an OTF2 archive is named "
                        "DIR/NAME.otf2", path);
    const char *slash = strrchr(path, '/');
    size_t d = slash ? (size_t)(slash - path) : 0;
    snprintf(dir, dlen, "%.*s", (int)(slash ? (d ? d : 1) : 1),
             slash ? path : ".");
    snprintf(name, nlen, "%.*s", (int)(n - 5 - (slash ? d + 1 : 0)),
             slash ? slash + 1 : path);
    return name[0] ? MC_OK
                   : mc_error(MC_ERR_ARG, "trace '%s': no NAME before "
                              ".otf2", path);
}

static int open_spans(span_w_t *w, const char *path)
{
    char dir[4096], name[256], what[4200];
    MC_CHECK(split_path(path, dir, sizeof dir, name, sizeof name));
    snprintf(what, sizeof what, "trace '%s'", path);
    return mc_tw_open(dir, name, "manycoll (simulated trace)", what, &w->ar);
}

/* the events of every core with spans, then its local definitions */
static int write_cores(span_w_t *w, size_t n, uint64_t *nev)
{
    int rc = MC_OK;
    for (size_t a = 0, b; rc == MC_OK && a < n; a = b) {
        for (b = a + 1; b < n && w->t[w->order[b]].core ==
                                     w->t[w->order[a]].core;)
            b++;
        rc = write_core(w, a, b, &nev[w->t[w->order[a]].core]);
    }
    OTF2_Archive_CloseEvtFiles(w->ar);
    OTF2_Archive_OpenDefFiles(w->ar);
    for (size_t a = 0; rc == MC_OK && a < n; a++) {
        int c = w->t[w->order[a]].core;
        if (a && c == w->t[w->order[a - 1]].core)
            continue;
        OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(w->ar,
                                                      (OTF2_LocationRef)c);
        if (d)
            OTF2_Archive_CloseDefWriter(w->ar, d);
    }
    OTF2_Archive_CloseDefFiles(w->ar);
    return rc;
}

int mc_trace_write_spans(const char *path, const mc_platform_t *p,
                         const mc_sim_trace_rec_t *t, size_t n,
                         uint64_t *clipped)
{
    span_w_t w = {.t = t};
    size_t k = 0;
    mc_ps_t last = 0;
    unsigned char *used = calloc((size_t)p->ncores + 1, 1);
    uint64_t *nev = calloc((size_t)p->ncores + 1, sizeof *nev);
    w.order = malloc((n + 1) * sizeof *w.order);
    int rc = used && nev && w.order
                 ? name_regions(&w, n)
                 : mc_error(MC_ERR_NOMEM, "trace: out of memory");
    for (size_t i = 0; rc == MC_OK && i < n; i++)
        if (t[i].core >= 0 && t[i].core < p->ncores && t[i].end >= t[i].start) {
            w.order[k++] = i;
            used[t[i].core] = 1;
            last = t[i].end > last ? t[i].end : last;
        }
    sort_t = t;
    if (rc == MC_OK)
        qsort(w.order, k, sizeof *w.order, by_core_time);
    if (rc == MC_OK)
        rc = open_spans(&w, path);
    if (rc == MC_OK)
        rc = write_cores(&w, k, nev);
    if (rc == MC_OK)
        write_defs(&w, p, last, nev, used);
    if (w.ar)
        OTF2_Archive_Close(w.ar);
    *clipped = w.clipped;
    free(used);
    free(nev);
    free(w.order);
    free(w.names);
    free(w.region);
    return rc;
}
