/*
 * What the archive's writer shares between its events (write.c) and its
 * definitions (write_defs.c).
 */
#ifndef MC_TRACE_WRITE_INT_H
#define MC_TRACE_WRITE_INT_H

#include <otf2/otf2.h>

#include "util/tracelog.h"
#include "manycoll.h"
#include "trace/trace.h"
#include "util/map.h"

/* regions by fixed id: a collective's forms (coll * 3 + MC_TR_*), then
 * mc_start and the waits (MC_TRW_*) */
enum { R_START = MC_COLL_COUNT * 3, R_WAIT, R_N = R_WAIT + 3 };
/* the attributes, as MC_MPI_TRACE defines them */
enum { A_COUNT, A_DTYPE, A_OP, A_VCOUNTS, A_IN_PLACE, A_PATH, A_N };

typedef struct wr {
    const mc_tset_t *s;
    OTF2_Archive *ar;
    OTF2_EvtWriter *ev;
    const mc_tlog_t *l;      /* the rank whose events are being written */
    OTF2_AttributeList *al;
    char **strs;             /* string id -> its text */
    size_t nstr, capstr;
    mc_map_t str_of;         /* hash of a text -> its id + 1 */
    uint32_t region[R_N];    /* fixed id -> the archive's + 1; 0 unused */
    uint64_t first, last;    /* times written */
    uint64_t *nev;           /* events per rank */
    mc_map_t pending;        /* request id -> offset of its start */
    int err;                 /* no memory for a string */
} wr_t;

/* the id of a string: the same text, the same id */
uint32_t mc_tw_str(wr_t *w, const char *t);
/* a region's fixed id of a record (-1: none), name and role */
int mc_tw_region_of(const mc_trec_t *e);
void mc_tw_region_name(int r, char *buf, size_t len);
OTF2_RegionRole mc_tw_region_role(int r);
/* DIR/NAME.otf2 opened for writing, serial mode (write_defs.c) */
int mc_tw_open(const char *dir, const char *name, const char *creator,
               const char *what, OTF2_Archive **out);
/* the events of rank me (MC_OK or an error) */
int mc_tw_events(wr_t *w, int me);

#endif
