/*
 * The archive of a C API recording: opened in OTF2's serial mode, every
 * rank's events (write.c), then the global definitions:
 *
 *   clock       ns of CLOCK_MONOTONIC, from the first event to the last
 *   strings     every name and attribute value, in the order first used
 *   system      one node (this host), a location group "Rank r" and a
 *               location "Master thread" per rank (location id r)
 *   regions     those used, numbered 0, 1, ... by fixed id
 *   attributes  manycoll::count ... manycoll::path, as MC_MPI_TRACE's
 *   groups      0: every location; i + 1: comm i's members (world ranks)
 *   comms       0 "MPI_COMM_WORLD" (replay's name of the world), then
 *               "split" and "dup", parents first
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace/write_int.h"
#include "util/error.h"

static OTF2_FlushType pre_flush(void *u, OTF2_FileType ft,
                                OTF2_LocationRef loc, void *caller, bool last)
{
    (void)u, (void)ft, (void)loc, (void)caller, (void)last;
    return OTF2_FLUSH;
}

static const OTF2_FlushCallbacks flush_cbs = {.otf2_pre_flush = pre_flush};

/* the regions used by any rank, numbered in the order of their ids */
static void number_regions(wr_t *w)
{
    for (int me = 0; me < w->s->n; me++) {
        const mc_tlog_t *l = &w->s->logs[me];
        for (size_t at = sizeof(mc_trhead_t); at < l->len;) {
            const mc_trec_t *e = (const mc_trec_t *)(l->buf + at);
            int r = mc_tw_region_of(e);
            if (r >= 0)
                w->region[r] = 1;
            at += sizeof *e + (size_t)e->n * 8;
        }
    }
    uint32_t k = 0;
    for (int r = 0; r < R_N; r++)
        if (w->region[r])
            w->region[r] = ++k;
}

static void write_system(wr_t *w, OTF2_GlobalDefWriter *g)
{
    char host[256] = "localhost", name[64];
    gethostname(host, sizeof host - 1);
    uint32_t thread = mc_tw_str(w, "Master thread");
    uint32_t h = mc_tw_str(w, host), node = mc_tw_str(w, "node");
    if (g)
        OTF2_GlobalDefWriter_WriteSystemTreeNode(
            g, 0, h, node, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    for (int r = 0; r < w->s->n; r++) {
        snprintf(name, sizeof name, "Rank %d", r);
        uint32_t gn = mc_tw_str(w, name);
        if (!g)
            continue;
        OTF2_GlobalDefWriter_WriteLocationGroup(
            g, (OTF2_LocationGroupRef)r, gn, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
            OTF2_UNDEFINED_LOCATION_GROUP);
        OTF2_GlobalDefWriter_WriteLocation(g, (OTF2_LocationRef)r, thread,
                                           OTF2_LOCATION_TYPE_CPU_THREAD,
                                           w->nev[r],
                                           (OTF2_LocationGroupRef)r);
    }
}

static void write_regions(wr_t *w, OTF2_GlobalDefWriter *g)
{
    char buf[64];
    uint32_t empty = mc_tw_str(w, "");
    for (int r = 0; r < R_N; r++) {
        if (!w->region[r])
            continue;
        mc_tw_region_name(r, buf, sizeof buf);
        uint32_t n = mc_tw_str(w, buf);
        if (g)
            OTF2_GlobalDefWriter_WriteRegion(
            g, w->region[r] - 1, n, n, empty, mc_tw_region_role(r),
            OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, empty, 0, 0);
    }
}

static void write_attributes(wr_t *w, OTF2_GlobalDefWriter *g)
{
    static const struct {
        const char *name, *what;
        OTF2_Type type;
    } a[A_N] = {
        [A_COUNT] = {"manycoll::count", "the call's count (a v-call: this "
                     "rank's block)", OTF2_TYPE_UINT64},
        [A_DTYPE] = {"manycoll::datatype", "the element: i8 .. bf16, else "
                     "manycoll's name", OTF2_TYPE_STRING},
        [A_OP] = {"manycoll::op", "the reduction op, empty when none",
                  OTF2_TYPE_STRING},
        [A_VCOUNTS] = {"manycoll::vcounts", "per-rank counts of a "
                       "v-collective, comma-separated", OTF2_TYPE_STRING},
        [A_IN_PLACE] = {"manycoll::in_place", "1 if MC_IN_PLACE",
                        OTF2_TYPE_UINT8},
        [A_PATH] = {"manycoll::path", "which path took the call",
                    OTF2_TYPE_STRING},
    };
    for (int i = 0; i < A_N; i++) {
        uint32_t n = mc_tw_str(w, a[i].name), d = mc_tw_str(w, a[i].what);
        if (g)
            OTF2_GlobalDefWriter_WriteAttribute(g, (OTF2_AttributeRef)i, n,
                                                d, a[i].type);
    }
}

static int write_comms(wr_t *w, OTF2_GlobalDefWriter *g)
{
    const mc_tset_t *s = w->s;
    uint32_t locs = mc_tw_str(w, "locations");
    static const char *const how[] = {"split", "dup"};
    uint32_t names[3] = {mc_tw_str(w, "MPI_COMM_WORLD"),
                         mc_tw_str(w, how[0]), mc_tw_str(w, how[1])};
    if (!g)
        return MC_OK;
    uint64_t *all = malloc(((size_t)s->n + 1) * sizeof *all);
    if (!all)
        return mc_error(MC_ERR_NOMEM, "MC_TRACE: no memory");
    for (int r = 0; r < s->n; r++)
        all[r] = (uint64_t)r;
    OTF2_GlobalDefWriter_WriteGroup(g, 0, locs,
                                    OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                    OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                    (uint32_t)s->n, all);
    free(all);
    for (size_t i = 0; i < s->ncomm; i++) {
        const mc_tcomm_t *c = &s->comms[i];
        uint32_t name = names[c->how < 0 ? 0 : 1 + (c->how & 1)];
        OTF2_GlobalDefWriter_WriteGroup(g, (OTF2_GroupRef)(i + 1), name,
                                        OTF2_GROUP_TYPE_COMM_GROUP,
                                        OTF2_PARADIGM_MPI,
                                        OTF2_GROUP_FLAG_NONE, (uint32_t)c->n,
                                        c->members);
        OTF2_GlobalDefWriter_WriteComm(
            g, (OTF2_CommRef)i, name, (OTF2_GroupRef)(i + 1),
            c->parent == UINT32_MAX ? OTF2_UNDEFINED_COMM : c->parent,
            OTF2_COMM_FLAG_NONE);
    }
    return MC_OK;
}

/* the definitions other than strings; g NULL: only names their strings
 * (OTF2 readers want a string defined before what refers to it) */
static int write_defs(wr_t *w, OTF2_GlobalDefWriter *g)
{
    if (g)
        OTF2_GlobalDefWriter_WriteClockProperties(
            g, 1000000000u, w->first,
            w->last >= w->first ? w->last - w->first + 1 : 1,
            OTF2_UNDEFINED_TIMESTAMP);
    write_system(w, g);
    write_regions(w, g);
    write_attributes(w, g);
    return write_comms(w, g);
}

static int write_global(wr_t *w)
{
    OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(w->ar);
    if (!g)
        return mc_error(MC_ERR_ARG, "MC_TRACE=%s: no OTF2 definitions "
                        "writer", w->s->dir);
    int rc = write_defs(w, NULL);
    if (w->err)
        rc = mc_error(MC_ERR_NOMEM, "MC_TRACE: no memory for the strings");
    for (size_t i = 0; rc == MC_OK && i < w->nstr; i++)
        OTF2_GlobalDefWriter_WriteString(g, (OTF2_StringRef)i, w->strs[i]);
    if (rc == MC_OK)
        rc = write_defs(w, g);
    OTF2_Archive_CloseGlobalDefWriter(w->ar, g);
    return rc;
}

/* every location's local definitions: none, but readers open the files */
static void write_local(wr_t *w)
{
    OTF2_Archive_OpenDefFiles(w->ar);
    for (int r = 0; r < w->s->n; r++) {
        OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(w->ar,
                                                      (OTF2_LocationRef)r);
        if (d)
            OTF2_Archive_CloseDefWriter(w->ar, d);
    }
    OTF2_Archive_CloseDefFiles(w->ar);
}

/* *out: an OTF2 archive DIR/NAME.otf2 opened for writing by this one
 * process (serial mode), its event files open; MC_OK, or an error that
 * starts with `what` if there is an archive there already or OTF2 cannot
 * write there */
int mc_tw_open(const char *dir, const char *name, const char *creator,
               const char *what, OTF2_Archive **out)
{
    char anchor[4400];
    struct stat st;
    *out = NULL;
    snprintf(anchor, sizeof anchor, "%s/%s.otf2", dir, name);
    if (stat(anchor, &st) == 0)
        return mc_error(MC_ERR_ARG, "%s: '%s' is there already (OTF2 does "
                        "not overwrite an archive): remove it (%s.otf2, "
                        "%s.def, %s/) or write into another directory",
                        what, anchor, name, name, name);
    OTF2_Archive *ar = OTF2_Archive_Open(dir, name, OTF2_FILEMODE_WRITE,
                                         1 << 20, 4 << 20,
                                         OTF2_SUBSTRATE_POSIX,
                                         OTF2_COMPRESSION_NONE);
    OTF2_ErrorCode e = ar ? OTF2_Archive_SetFlushCallbacks(ar, &flush_cbs,
                                                           NULL)
                          : OTF2_ERROR_INVALID;
    if (e == OTF2_SUCCESS)
        e = OTF2_Archive_SetSerialCollectiveCallbacks(ar);
    if (e == OTF2_SUCCESS)
        e = OTF2_Archive_SetCreator(ar, creator);
    if (e == OTF2_SUCCESS)
        e = OTF2_Archive_OpenEvtFiles(ar);
    if (e == OTF2_SUCCESS) {
        *out = ar;
        return MC_OK;
    }
    int rc = mc_error(MC_ERR_ARG, "%s: cannot write an OTF2 archive in "
                      "'%s' (%s)", what, dir,
                      ar ? OTF2_Error_GetDescription(e)
                         : "OTF2_Archive_Open failed");
    if (ar)
        OTF2_Archive_Close(ar);
    return rc;
}

static int open_archive(wr_t *w)
{
    char what[4200];
    snprintf(what, sizeof what, "MC_TRACE=%s", w->s->dir);
    MC_CHECK(mc_tw_open(w->s->dir, "traces", "manycoll run (MC_TRACE)",
                        what, &w->ar));
    w->al = OTF2_AttributeList_New();
    return w->al ? MC_OK : mc_error(MC_ERR_NOMEM, "MC_TRACE: no memory");
}

int mc_tset_write(const mc_tset_t *s)
{
    wr_t w = {.s = s};
    mc_map_init(&w.str_of, sizeof(uint32_t));
    w.nev = calloc((size_t)s->n, sizeof *w.nev);
    int rc = w.nev ? open_archive(&w)
                   : mc_error(MC_ERR_NOMEM, "MC_TRACE: no memory");
    if (rc == MC_OK)
        number_regions(&w);
    for (int r = 0; rc == MC_OK && r < s->n; r++)
        rc = mc_tw_events(&w, r);
    if (w.ar && rc == MC_OK)
        OTF2_Archive_CloseEvtFiles(w.ar);
    if (rc == MC_OK)
        write_local(&w);
    if (rc == MC_OK)
        rc = write_global(&w);
    if (w.ar)
        OTF2_Archive_Close(w.ar);
    if (w.al)
        OTF2_AttributeList_Delete(w.al);
    for (size_t i = 0; i < w.nstr; i++)
        free(w.strs[i]);
    free(w.strs);
    free(w.nev);
    mc_map_fini(&w.str_of);
    return rc;
}

int mc_trace_have_otf2(void)
{
    return 1;
}
