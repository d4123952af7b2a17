/*
 * The hot path of a recorded blocking collective (MCM_TRACE_BLK, trace.h):
 * what the call costs while the program runs, kept to ids and two clock
 * reads; MPI_Finalize derives the rest from the record (mcm_tr_raw_coll).
 *
 *   begin  the comm's state (the library's own, mcm_comm: a hit of its
 *          handle cache) holds the comm's global id (looked up once per
 *          comm, mcm_tr_comm_id); the send and receive types and the op
 *          through their caches (a hit: a hash, a load and a compare), a
 *          type described when first seen (its string and size: a
 *          predefined type never changes, and only those get an id);
 *          the comm's counts by path before the call; t0
 *   body   the wrapper's own code, once (mcm_trace_depth = 1: the MPI
 *          calls it makes are not recorded)
 *   end    t1; the path is the one whose count grew (plan.c counts every
 *          call); the 48-byte record into the log (trace_log.c)
 *
 * A call this path does not take (no state for the comm, a derived type)
 * returns 0 from begin, and the wrapper records it as MCM_TRACE_COLL does,
 * described at once: a derived type may be freed, and its handle reused,
 * before MPI_Finalize.
 */
#include <stdlib.h>
#include <string.h>

#include "mpi/trace.h"

#if MCM_HAVE_OTF2
#include "mpi/trace_hot.h"

/* ---- the tables (under the lock where mcm_tr.mt) ---- */

/* appends x (n bytes) to *tab of *len entries, growing *cap; its id
 * (index + 1), or 0 if there is no memory or no id left */
static unsigned append(void **tab, size_t *len, size_t *cap, const void *x,
                       size_t n)
{
    if (*len >= UINT16_MAX)
        return 0;
    if (*len == *cap) {
        size_t c = *cap ? 2 * *cap : 32;
        void *t = realloc(*tab, c * n);
        if (!t)
            return 0;
        *tab = t;
        *cap = c;
    }
    memcpy((char *)*tab + *len * n, x, n);
    return (unsigned)++*len;
}

/* the id of type dt on a cache miss: a predefined type, or
 * MPI_DATATYPE_NULL; 0 for any other (a derived type) */
static unsigned type_miss(MPI_Datatype dt, uintptr_t k, mcm_tslot_t *slot)
{
    mcm_ttype_t t;
    if (dt == MPI_DATATYPE_NULL) {
        t = (mcm_ttype_t){.str = mcm_tr.s_none, .size = 0};
    } else {
        const mcm_type_t *p = mcm_type(dt);
        if (!p)
            return 0;
        t = (mcm_ttype_t){.str = mcm_tr_dtype_str(dt), .size = p->size};
    }
    if (!t.str)
        return 0;
    for (size_t i = 0; i < mcm_tr.ntype; i++) /* known: another slot */
        if (mcm_tr.types[i].str == t.str && mcm_tr.types[i].size == t.size)
            return slot->k = k, slot->id = (uint32_t)i + 1;
    unsigned id = append((void **)&mcm_tr.types, &mcm_tr.ntype,
                         &mcm_tr.captype, &t, sizeof t);
    if (id)
        *slot = (mcm_tslot_t){.k = k, .id = id};
    return id;
}

/* the id of op on a cache miss (every op has one: a user op is "user") */
static unsigned op_miss(MPI_Op op, uintptr_t k, mcm_tslot_t *slot)
{
    uint32_t str = mcm_tr_op_str(op);
    if (!str)
        return 0;
    for (size_t i = 0; i < mcm_tr.nop; i++)
        if (mcm_tr.ops[i] == str)
            return slot->k = k, slot->id = (uint32_t)i + 1;
    unsigned id = append((void **)&mcm_tr.ops, &mcm_tr.nop, &mcm_tr.capop,
                         &str, sizeof str);
    if (id)
        *slot = (mcm_tslot_t){.k = k, .id = id};
    return id;
}

static inline unsigned type_id(MPI_Datatype dt)
{
    uintptr_t k = mcm_key(&dt, sizeof dt);
    mcm_tslot_t *c = &mcm_tr.tc[mcm_slot(k, MCM_TR_TC_BITS)];
    unsigned id = c->k == k ? c->id : 0;
    return __builtin_expect(id != 0, 1) ? id : type_miss(dt, k, c);
}

static inline unsigned op_id(MPI_Op op)
{
    uintptr_t k = mcm_key(&op, sizeof op);
    mcm_tslot_t *c = &mcm_tr.oc[mcm_slot(k, MCM_TR_TC_BITS)];
    unsigned id = c->k == k ? c->id : 0;
    return __builtin_expect(id != 0, 1) ? id : op_miss(op, k, c);
}

/* the ids of a call's types and op (*ids: sdt, rdt, op) through the
 * caches (ids[3]: 0), kept as the collective's last (mcm_tr.memo); 0 if
 * one has none
 * (a derived type); under the lock */
static int ids_slow(int coll, MPI_Datatype sdt, MPI_Datatype rdt, MPI_Op op,
                    uint16_t ids[4])
{
    unsigned sd = type_id(sdt), rd = type_id(rdt), o = op_id(op);
    if (!(sd && rd && o))
        return 0;
    mcm_tmemo_t *m = &mcm_tr.memo[coll];
    *m = (mcm_tmemo_t){.sdt = mcm_key(&sdt, sizeof sdt),
                       .rdt = mcm_key(&rdt, sizeof rdt),
                       .op = mcm_key(&op, sizeof op),
                       .id = {(uint16_t)sd, (uint16_t)rd, (uint16_t)o, 0}};
    memcpy(ids, m->id, sizeof m->id);
    return 1;
}

/* the comm's global id into its state, once */
static int comm_known(mcm_comm_t *s, MPI_Comm comm)
{
    uint32_t id = mcm_tr_comm_id(comm);
    if (id == MCM_T_UNDEF_COMM)
        return 0;
    s->tr_comm = id;
    s->tr_known = 1;
    return 1;
}

/* ---- the call: its slow parts (the fast ones: trace_hot.h) ---- */

int mcm_tr_raw_slow(mcm_trcall_t *tc, mcm_comm_t *s, MPI_Comm comm,
                    MPI_Datatype sdt, MPI_Datatype rdt, MPI_Op op)
{
    uint16_t id[4];
    mcm_tr_lock();
    int ok = ids_slow(tc->r.coll, sdt, rdt, op, id) &&
             (s->tr_known || comm_known(s, comm));
    mcm_tr_unlock();
    if (!ok)
        return 0;
    memcpy(&tc->r.sdt, id, sizeof id);
    return mcm_tr_raw_start(tc, s);
}

void mcm_tr_raw_put(const mcm_traw_t *r)
{
    mcm_tr_lock();
    if (mcm_trace_on)
        *(mcm_traw_t *)mcm_tr_log_put(sizeof *r) = *r;
    mcm_tr_unlock();
}

/* ---- at MPI_Finalize ---- */

typedef struct place {
    int me, P;
} place_t;

/* the comms' places into mcm_tr.raw_comm, once */
static void places(void)
{
    if (mcm_tr.raw_comm.vsize)
        return;
    mc_map_init(&mcm_tr.raw_comm, sizeof(place_t));
    for (size_t i = 0; i < mcm_tr.ncomm; i++) {
        const mcm_tcomm_t *t = &mcm_tr.comms[i];
        void *v;
        if (mc_map_add(&mcm_tr.raw_comm, t->id, &v) != 1)
            continue;
        place_t *p = v;
        p->P = t->n;
        p->me = 0;
        for (int j = 0; j < t->n; j++)
            if (t->members[j] == (uint32_t)mcm_tr.rank)
                p->me = j;
    }
}

int mcm_tr_raw_place(uint32_t id, int *me, int *P)
{
    places();
    const place_t *p = mc_map_get(&mcm_tr.raw_comm, id);
    if (!p)
        return -1;
    *me = p->me;
    *P = p->P;
    return 0;
}

const mcm_ttype_t *mcm_tr_raw_type(unsigned id)
{
    static const mcm_ttype_t none;
    return id && id <= mcm_tr.ntype ? &mcm_tr.types[id - 1] : &none;
}

uint32_t mcm_tr_raw_op(unsigned id)
{
    return id && id <= mcm_tr.nop ? mcm_tr.ops[id - 1] : mcm_tr.s_none;
}

void mcm_tr_raw_free(void)
{
    free(mcm_tr.types);
    free(mcm_tr.ops);
    mcm_tr.types = NULL;
    mcm_tr.ops = NULL;
    mcm_tr.ntype = mcm_tr.captype = mcm_tr.nop = mcm_tr.capop = 0;
    memset(mcm_tr.tc, 0, sizeof mcm_tr.tc);
    memset(mcm_tr.oc, 0, sizeof mcm_tr.oc);
    memset(mcm_tr.memo, 0, sizeof mcm_tr.memo);
    if (mcm_tr.raw_comm.vsize)
        mc_map_fini(&mcm_tr.raw_comm);
}

#endif /* MCM_HAVE_OTF2 */
