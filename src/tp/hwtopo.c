/* The machine's hierarchy from hwloc (hwtopo.h). */
#include <hwloc.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "sched/hier.h"
#include "tp/hwtopo.h"
#include "util/config.h"

static int load(hwloc_topology_t *t, const char *synthetic)
{
    if (hwloc_topology_init(t) != 0)
        return mc_error(MC_ERR_SYS, "hwloc: cannot initialise a topology");
    if (synthetic && hwloc_topology_set_synthetic(*t, synthetic) != 0) {
        hwloc_topology_destroy(*t);
        return mc_error(MC_ERR_ARG, "hwloc: bad synthetic topology '%s'",
                        synthetic);
    }
    if (hwloc_topology_load(*t) != 0) {
        hwloc_topology_destroy(*t);
        return mc_error(MC_ERR_SYS, "hwloc: cannot load the topology");
    }
    return MC_OK;
}

/* the logical index of pu's ancestor of `type` (0 if it has none) */
static int above(hwloc_topology_t t, hwloc_obj_t pu, hwloc_obj_type_t type)
{
    if (type == HWLOC_OBJ_NUMANODE) { /* memory children: by cpuset */
        hwloc_obj_t m = hwloc_get_next_obj_covering_cpuset_by_type(
            t, pu->cpuset, HWLOC_OBJ_NUMANODE, NULL);
        return m ? (int)m->logical_index : 0;
    }
    hwloc_obj_t a = hwloc_get_ancestor_obj_by_type(t, type, pu);
    return a ? (int)a->logical_index : 0;
}

/* group ids of the PUs pus[0..n) in a loaded topology */
static int ids_in(hwloc_topology_t t, int n, const int *pus, int *ids)
{
    static const hwloc_obj_type_t levels[MC_HWTOPO_LEVELS] = {
        HWLOC_OBJ_PACKAGE, HWLOC_OBJ_NUMANODE, HWLOC_OBJ_L3CACHE};
    int np = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
    for (int i = 0; i < n; i++) {
        hwloc_obj_t pu = hwloc_get_obj_by_type(t, HWLOC_OBJ_PU,
                                               (unsigned)pus[i]);
        if (!pu)
            return mc_error(MC_ERR_ARG, "hwloc: no PU %d (the machine has "
                                        "%d)", pus[i], np);
        for (int l = 0; l < MC_HWTOPO_LEVELS; l++)
            ids[i * MC_HWTOPO_LEVELS + l] = above(t, pu, levels[l]);
    }
    return MC_OK;
}

int mc_hwtopo_ids(const char *synthetic, int n, const int *pus, int *ids,
                  int *npu)
{
    hwloc_topology_t t;
    MC_CHECK(load(&t, synthetic));
    if (npu)
        *npu = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
    int rc = ids_in(t, n, pus, ids);
    hwloc_topology_destroy(t);
    return rc;
}

/* t->topo from ids and pus (both n entries per rank; taken over) */
static void attach(mc_tp_t *t, int *ids, int *pus, int *low)
{
    mc_hier_lowest(t->size, MC_HWTOPO_LEVELS, ids, low);
    t->topo = (mc_topo_t){.kind = MC_TOPO_HIER, .levels = MC_HWTOPO_LEVELS,
                          .ids = ids, .low = low, .pus = pus};
}

static int alloc3(int n, int **ids, int **low, int **pus)
{
    size_t d = MC_HWTOPO_LEVELS;
    *ids = malloc(sizeof(int) * (size_t)n * d);
    *low = malloc(sizeof(int) * (size_t)n * d);
    *pus = malloc(sizeof(int) * (size_t)n);
    if (*ids && *low && *pus)
        return MC_OK;
    free(*ids), free(*low), free(*pus);
    return mc_error(MC_ERR_NOMEM, "out of memory for the topology");
}

int mc_hwtopo_world(mc_tp_t *t)
{
    long long bind = 0;
    MC_CHECK(mc_env_int("MC_BIND", &bind));
    if (bind != 1)
        return MC_OK;
    hwloc_topology_t hw;
    MC_CHECK(load(&hw, NULL));
    int n = t->size, *ids, *low, *pus;
    int np = hwloc_get_nbobjs_by_type(hw, HWLOC_OBJ_PU), rc = MC_ERR_SYS;
    if (np > 0 && (rc = alloc3(n, &ids, &low, &pus)) == MC_OK) {
        for (int r = 0; r < n; r++) /* round robin over the PUs */
            pus[r] = r % np;
        hwloc_obj_t o = hwloc_get_obj_by_type(hw, HWLOC_OBJ_PU,
                                              (unsigned)pus[t->rank]);
        /* a synthetic topology (HWLOC_SYNTHETIC) has PUs this machine
         * lacks: no binding then, the rank is still said to be there */
        if (o && hwloc_topology_is_thissystem(hw))
            (void)hwloc_set_cpubind(hw, o->cpuset, HWLOC_CPUBIND_PROCESS);
        rc = ids_in(hw, n, pus, ids);
        if (rc == MC_OK)
            attach(t, ids, pus, low);
        else
            free(ids), free(low), free(pus);
    }
    hwloc_topology_destroy(hw);
    return rc;
}

int mc_hwtopo_sub(mc_tp_t *t, const mc_tp_t *parent, const int *members)
{
    const mc_topo_t *pt = tp_hier(parent);
    if (!pt)
        return MC_OK;
    int n = t->size, d = MC_HWTOPO_LEVELS, *ids, *low, *pus;
    MC_CHECK(alloc3(n, &ids, &low, &pus));
    for (int i = 0; i < n; i++) {
        pus[i] = pt->pus[members[i]];
        memcpy(ids + i * d, pt->ids + members[i] * d, sizeof(int) * (size_t)d);
    }
    attach(t, ids, pus, low);
    return MC_OK;
}

void mc_hwtopo_free(mc_tp_t *t)
{
    if (t->topo.kind != MC_TOPO_HIER)
        return;
    free((void *)t->topo.ids);
    free((void *)t->topo.low);
    free((void *)t->topo.pus);
    t->topo.kind = MC_TOPO_NONE;
}
