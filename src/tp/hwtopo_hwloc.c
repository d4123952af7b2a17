/* The machine's hierarchy from hwloc (hwtopo_src.h). */
#include <hwloc.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "tp/hwtopo.h"
#include "tp/hwtopo_src.h"

static int load(const char *synthetic, void **map)
{
    hwloc_topology_t t;
    if (hwloc_topology_init(&t) != 0)
        return mc_error(MC_ERR_SYS, "hwloc: cannot initialise a topology");
    if (synthetic && hwloc_topology_set_synthetic(t, synthetic) != 0) {
        hwloc_topology_destroy(t);
        return mc_error(MC_ERR_ARG, "hwloc: bad synthetic topology '%s'",
                        synthetic);
    }
    if (hwloc_topology_load(t) != 0) {
        hwloc_topology_destroy(t);
        return mc_error(MC_ERR_SYS, "hwloc: cannot load the topology");
    }
    *map = t;
    return MC_OK;
}

static int npu(const void *map)
{
    return hwloc_get_nbobjs_by_type((hwloc_topology_t)map, HWLOC_OBJ_PU);
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
static int ids_in(const void *map, int n, const int *pus, int *ids)
{
    static const hwloc_obj_type_t levels[MC_HWTOPO_LEVELS] = {
        HWLOC_OBJ_PACKAGE, HWLOC_OBJ_NUMANODE, HWLOC_OBJ_L3CACHE};
    hwloc_topology_t t = (hwloc_topology_t)map;
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

static int cpu(const void *map, int pu)
{
    hwloc_obj_t o = hwloc_get_obj_by_type((hwloc_topology_t)map,
                                          HWLOC_OBJ_PU, (unsigned)pu);
    return o ? (int)o->os_index : -1;
}

static void bind(void *map, int pu)
{
    hwloc_topology_t t = map;
    hwloc_obj_t o = hwloc_get_obj_by_type(t, HWLOC_OBJ_PU, (unsigned)pu);
    /* a synthetic topology (HWLOC_SYNTHETIC) has PUs this machine
     * lacks: no binding then, the rank is still said to be there */
    if (o && hwloc_topology_is_thissystem(t))
        (void)hwloc_set_cpubind(t, o->cpuset, HWLOC_CPUBIND_PROCESS);
}

static void unload(void *map)
{
    hwloc_topology_destroy((hwloc_topology_t)map);
}

const mc_hwsrc_t mc_hwsrc_hwloc = {
    .what = "hwloc " HWLOC_VERSION,
    .load = load, .npu = npu, .ids = ids_in, .cpu = cpu, .bind = bind,
    .unload = unload};
