/* Where the ranks sit (hwtopo.h), from hwloc or, in a build without it,
 * from Linux's sysfs (hwtopo_src.h). */
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "sched/hier.h"
#include "tp/hwtopo.h"
#include "tp/hwtopo_src.h"
#include "util/config.h"

#if MC_HAVE_HWLOC
#define SRC mc_hwsrc_hwloc
#else
#define SRC mc_hwsrc_sysfs
#endif

const char *mc_hwtopo_source(void)
{
    return SRC.what;
}

int mc_hwtopo_ids(const char *synthetic, int n, const int *pus, int *ids,
                  int *npu)
{
    void *map;
    MC_CHECK(SRC.load(synthetic, &map));
    if (npu)
        *npu = SRC.npu(map);
    int rc = SRC.ids(map, n, pus, ids);
    SRC.unload(map);
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
    void *hw;
    MC_CHECK(SRC.load(NULL, &hw));
    int n = t->size, *ids, *low, *pus;
    int np = SRC.npu(hw), rc = MC_ERR_SYS;
    if (np > 0 && (rc = alloc3(n, &ids, &low, &pus)) == MC_OK) {
        for (int r = 0; r < n; r++) /* round robin over the PUs */
            pus[r] = r % np;
        SRC.bind(hw, pus[t->rank]);
        rc = SRC.ids(hw, n, pus, ids);
        if (rc == MC_OK)
            attach(t, ids, pus, low);
        else
            free(ids), free(low), free(pus);
    }
    SRC.unload(hw);
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
