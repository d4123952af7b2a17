/*
 * The two sources of the machine's hierarchy behind tp/hwtopo.h: hwloc
 * (hwtopo_hwloc.c) and Linux's sysfs (hwtopo_sysfs.c), for a build
 * without hwloc (cmake -DMC_HWLOC=OFF, or AUTO where pkg-config finds no
 * hwloc). The library has one of them (MC_HAVE_HWLOC); the test that
 * compares them (tests/test_hwtopo_sysfs.c) links both.
 *
 * Both number the PUs and the groups as hwloc's logical indexes do: in
 * the order of a walk down the machine's tree whose children are sorted
 * by their first CPU.
 */
#ifndef MC_TP_HWTOPO_SRC_H
#define MC_TP_HWTOPO_SRC_H

typedef struct mc_hwsrc {
    const char *what; /* for `manycoll info`: "hwloc 2.9.0", ... */
    /* the machine (`synthetic`: a description instead, hwloc only) */
    int (*load)(const char *synthetic, void **map);
    int (*npu)(const void *map);
    /* ids[i * 3 + l] of the PUs of logical index pus[i] (hwtopo.h) */
    int (*ids)(const void *map, int n, const int *pus, int *ids);
    /* the operating system's number of PU pu (Linux's cpuN) */
    int (*cpu)(const void *map, int pu);
    /* bind the process to that PU, where the machine has it; best
     * effort, as hwloc's binding was */
    void (*bind)(void *map, int pu);
    void (*unload)(void *map);
} mc_hwsrc_t;

extern const mc_hwsrc_t mc_hwsrc_hwloc, mc_hwsrc_sysfs;

/* tests: read "<root>/sys/..." and "<root>/proc/..." instead (a made-up
 * machine, as hwloc's HWLOC_FSROOT); "" for the machine itself */
void mc_hwsrc_sysfs_root(const char *root);

#endif
