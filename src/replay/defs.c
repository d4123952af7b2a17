/*
 * The global definitions of an OTF2 archive (read.c reads them first):
 * strings, regions (which are MPI's), the manycoll::* attributes, groups,
 * communicators and locations, then each location's world rank and each
 * communicator's members in world ranks.
 */
#include <stdlib.h>
#include <string.h>

#include "replay/read_int.h"
#include "util/error.h"

static const char *const attr_names[A_N] = {
    "manycoll::count", "manycoll::datatype", "manycoll::op",
    "manycoll::vcounts", "manycoll::in_place"};

const char *mc_rp_str(const rd_t *d, uint32_t id)
{
    return id < d->nstr && d->str[id] ? d->str[id] : "";
}

static int set_slot(void **arr, uint32_t *n, uint32_t id, size_t el)
{
    if (id < *n)
        return 0;
    if (id > (1u << 24))
        return -1;
    void *p = realloc(*arr, (size_t)(id + 1) * el);
    if (!p)
        return -1;
    memset((char *)p + (size_t)*n * el, 0, (size_t)(id + 1 - *n) * el);
    *arr = p;
    *n = id + 1;
    return 0;
}

/* ---- global definitions ---- */

static OTF2_CallbackCode def_string(void *u, OTF2_StringRef self,
                                    const char *s)
{
    rd_t *d = u;
    uint32_t n = d->nstr;
    if (set_slot((void **)&d->str, &n, self, sizeof *d->str))
        return OTF2_CALLBACK_INTERRUPT;
    d->nstr = n;
    free(d->str[self]);
    d->str[self] = strdup(s);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_region(void *u, OTF2_RegionRef self,
                                    OTF2_StringRef name, OTF2_StringRef cn,
                                    OTF2_StringRef desc, OTF2_RegionRole role,
                                    OTF2_Paradigm paradigm,
                                    OTF2_RegionFlag fl, OTF2_StringRef file,
                                    uint32_t b, uint32_t e)
{
    rd_t *d = u;
    if (set_slot((void **)&d->mpi_region, &d->nregion, self, 1))
        return OTF2_CALLBACK_INTERRUPT;
    d->mpi_region[self] = paradigm == OTF2_PARADIGM_MPI ||
                          !strncmp(mc_rp_str(d, name), "MPI_", 4);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_attr(void *u, OTF2_AttributeRef self,
                                  OTF2_StringRef name, OTF2_StringRef desc,
                                  OTF2_Type type)
{
    rd_t *d = u;
    for (int i = 0; i < A_N; i++)
        if (!strcmp(mc_rp_str(d, name), attr_names[i]))
            d->attr[i] = self;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_group(void *u, OTF2_GroupRef self,
                                   OTF2_StringRef name, OTF2_GroupType type,
                                   OTF2_Paradigm par, OTF2_GroupFlag fl,
                                   uint32_t n, const uint64_t *m)
{
    rd_t *d = u;
    group_t *g = realloc(d->g, (size_t)(d->ng + 1) * sizeof *g);
    if (!g)
        return OTF2_CALLBACK_INTERRUPT;
    d->g = g;
    g[d->ng] = (group_t){self, type, (int)n, malloc((n + 1) * sizeof *m)};
    if (!g[d->ng].m)
        return OTF2_CALLBACK_INTERRUPT;
    memcpy(g[d->ng].m, m, n * sizeof *m);
    if (type == OTF2_GROUP_TYPE_COMM_LOCATIONS && par == OTF2_PARADIGM_MPI)
        d->locs_group = d->ng;
    d->ng++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_comm(void *u, OTF2_CommRef self,
                                  OTF2_StringRef name, OTF2_GroupRef group,
                                  OTF2_CommRef parent, OTF2_CommFlag fl)
{
    rd_t *d = u;
    mc_rp_trace_t *t = d->t;
    mc_rp_comm_t *c = realloc(t->comms, (size_t)(t->ncomms + 1) * sizeof *c);
    if (!c)
        return OTF2_CALLBACK_INTERRUPT;
    t->comms = c;
    c += t->ncomms++;
    memset(c, 0, sizeof *c);
    c->id = self;
    snprintf(c->name, sizeof c->name, "%s", mc_rp_str(d, name));
    c->size = -(int)group - 1; /* the group, resolved in resolve_comms */
    c->parent = parent == OTF2_UNDEFINED_COMM ? -1 : (int)parent;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_location(void *u, OTF2_LocationRef self,
                                      OTF2_StringRef name,
                                      OTF2_LocationType type, uint64_t nev,
                                      OTF2_LocationGroupRef lg)
{
    rd_t *d = u;
    loc_t *l = realloc(d->loc, (size_t)(d->nloc + 1) * sizeof *l);
    if (!l)
        return OTF2_CALLBACK_INTERRUPT;
    d->loc = l;
    memset(&l[d->nloc], 0, sizeof *l);
    l[d->nloc].id = self;
    l[d->nloc].rank = d->nloc;
    d->nloc++;
    return OTF2_CALLBACK_SUCCESS;
}

/* locations -> world ranks (their place in the MPI locations group),
 * groups -> members of each communicator */
int mc_rp_resolve_comms(rd_t *d)
{
    mc_rp_trace_t *t = d->t;
    if (d->locs_group >= 0) {
        group_t *lg = &d->g[d->locs_group];
        for (int i = 0; i < d->nloc; i++) {
            d->loc[i].rank = -1;
            for (int k = 0; k < lg->n; k++)
                if (lg->m[k] == d->loc[i].id)
                    d->loc[i].rank = k;
        }
        t->ranks = lg->n;
    } else {
        t->ranks = d->nloc;
    }
    t->world = -1;
    for (int i = 0; i < t->ncomms; i++) {
        mc_rp_comm_t *c = &t->comms[i];
        uint32_t gid = (uint32_t)(-c->size - 1);
        group_t *g = NULL;
        for (int k = 0; k < d->ng && !g; k++)
            g = d->g[k].id == gid ? &d->g[k] : NULL;
        if (!g)
            return mc_error(MC_ERR_ARG, "archive '%s': communicator %u "
                            "names group %u, which is not defined",
                            t->path, c->id, gid);
        c->size = g->n;
        c->members = malloc(((size_t)g->n + 1) * sizeof *c->members);
        if (!c->members)
            return mc_error(MC_ERR_NOMEM, "archive: out of memory");
        for (int k = 0; k < g->n; k++) {
            c->members[k] = (int)g->m[k];
            if (g->m[k] >= (uint64_t)t->ranks)
                return mc_error(MC_ERR_ARG, "archive '%s': communicator %u "
                                "('%s') has member %llu of %d ranks",
                                t->path, c->id, c->name,
                                (unsigned long long)g->m[k], t->ranks);
        }
        if (t->world < 0 && (!strcmp(c->name, "MPI_COMM_WORLD") ||
                             (c->parent < 0 && c->size == t->ranks)))
            t->world = i;
    }
    for (int i = 0; i < t->ncomms; i++) /* parent: id -> index */
        for (int k = 0, p = t->comms[i].parent; p >= 0 && k < t->ncomms; k++)
            if (t->comms[k].id == (uint32_t)p)
                t->comms[i].parent = k;
    if (t->world < 0 || t->ranks < 1)
        return mc_error(MC_ERR_ARG, "archive '%s': no MPI_COMM_WORLD among "
                        "its %d communicators", t->path, t->ncomms);
    return MC_OK;
}

void mc_rp_def_callbacks(OTF2_GlobalDefReaderCallbacks *cb)
{
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, def_string);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, def_region);
    OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(cb, def_attr);
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, def_group);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, def_comm);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, def_location);
}
