/*
 * Where the ranks of a job sit in the machine's hierarchy, from hwloc
 * (or, in a build without it, from Linux's sysfs: hwtopo_src.h): for
 * each rank its package, NUMA node and L3 cache (the levels of
 * sched/hier.h). HWLOC_SYNTHETIC and HWLOC_XMLFILE replace the machine
 * (hwloc's own variables), so trees for a 2-socket EPYC can be built and
 * tested on a laptop; a build without hwloc refuses them.
 */
#ifndef MC_TP_HWTOPO_H
#define MC_TP_HWTOPO_H

#include "tp/tp.h"

#define MC_HWTOPO_LEVELS 3 /* package, NUMA node, L3 cache */

/* ids[i * 3 + l] of the PUs of logical index pus[i] (i < n) of the
 * topology hwloc sees (`synthetic`: a synthetic description instead,
 * e.g. "pack:2 l3:8 core:8 pu:1"). A level the machine lacks has one
 * group. *npu: the PUs of the topology. */
int mc_hwtopo_ids(const char *synthetic, int n, const int *pus, int *ids,
                  int *npu);

/* MC_BIND=1: rank r of the job runs on the r-th PU, round robin, bound
 * to it (where the machine has it: not so under HWLOC_SYNTHETIC), and
 * t->topo says where every rank is (MC_TOPO_HIER). Else nothing. */
int mc_hwtopo_world(mc_tp_t *t);
/* t->topo of a communicator split from `parent`: members[i] is the
 * parent's rank of t's rank i. */
int mc_hwtopo_sub(mc_tp_t *t, const mc_tp_t *parent, const int *members);
void mc_hwtopo_free(mc_tp_t *t);

/* where the hierarchy comes from, for `manycoll info`: "hwloc 2.9.0" or
 * "Linux sysfs (built without hwloc)" */
const char *mc_hwtopo_source(void);

#endif
