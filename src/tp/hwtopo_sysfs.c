/*
 * The machine's hierarchy from Linux's sysfs (hwtopo_src.h), for a build
 * without hwloc: per online CPU (less those its cgroup v2 cpuset takes
 * away) its package (topology/package_cpus_list), die, NUMA node
 * (/sys/devices/system/node/nodeN/cpulist), caches (cache/index*: level,
 * type, shared_cpu_list) and core (topology/core_cpus_list). Each group
 * is known by its CPUs; the PUs and the groups are then numbered as
 * hwloc numbers them (logical indexes): PUs in the order of a walk down
 * the tree whose children are sorted by their first CPU, a group by the
 * first PU of it in that order. tests/test_hwtopo_sysfs.c checks that
 * against hwloc.
 */
#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "tp/hwtopo.h"
#include "tp/hwtopo_src.h"

#define CPU "/sys/devices/system/cpu"

/* the groups a CPU belongs to, the levels of hwtopo.h among them */
enum { G_PACK, G_DIE, G_NUMA, G_L3, G_L2, G_L1, G_CORE, G_COUNT };
static const int level_group[MC_HWTOPO_LEVELS] = {G_PACK, G_NUMA, G_L3};

static char root[512];

void mc_hwsrc_sysfs_root(const char *r)
{
    snprintf(root, sizeof root, "%s", r ? r : "");
}

typedef struct {
    int n;      /* PUs */
    int *os;    /* os[i]: the CPU number of PU i (logical order) */
    int *ids;   /* ids[i * MC_HWTOPO_LEVELS + l] */
} map_t;

/* set[c] = 1 for the CPUs c < m of a list file ("0-3,8,10-11"); -1 if
 * there is no such file */
static int read_list(const char *path, unsigned char *set, int m)
{
    char full[1024], buf[8192];
    snprintf(full, sizeof full, "%s%s", root, path);
    FILE *f = fopen(full, "r");
    if (!f)
        return -1;
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = 0;
    memset(set, 0, (size_t)m);
    for (char *p = buf; *p;) {
        char *e;
        long a = strtol(p, &e, 10), b = a;
        if (e == p)
            break;
        if (*e == '-')
            b = strtol(e + 1, &e, 10);
        for (long c = a < 0 ? 0 : a; c <= b && c < m; c++)
            set[c] = 1;
        p = *e == ',' ? e + 1 : e;
    }
    return 0;
}

/* the first line of a small file, without its newline ("" if none) */
static void read_word(const char *path, char *buf, size_t len)
{
    char full[1024];
    snprintf(full, sizeof full, "%s%s", root, path);
    FILE *f = fopen(full, "r");
    buf[0] = 0;
    if (f) {
        if (!fgets(buf, (int)len, f))
            buf[0] = 0;
        fclose(f);
    }
    buf[strcspn(buf, "\n")] = 0;
}

/* the largest CPU number + 1 the kernel can have */
static int possible(void)
{
    char w[256];
    read_word(CPU "/possible", w, sizeof w);
    const char *last = strrchr(w, '-'), *comma = strrchr(w, ',');
    if (comma && (!last || comma > last))
        last = comma;
    int m = atoi(last ? last + 1 : w) + 1;
    return m > 1 ? m : 4096;
}

/* leave in `allowed` only what the process's cgroup v2 cpuset gives (as
 * hwloc leaves out what its cgroup disallows) */
static void cgroup_allowed(unsigned char *allowed, unsigned char *tmp,
                           int m)
{
    char line[1024], path[1200], full[1300];
    snprintf(full, sizeof full, "%s/proc/self/cgroup", root);
    FILE *f = fopen(full, "r");
    if (!f)
        return;
    int found = 0;
    while (!found && fgets(line, sizeof line, f))
        found = !strncmp(line, "0::", 3);
    fclose(f);
    if (!found)
        return;
    line[strcspn(line, "\n")] = 0;
    snprintf(path, sizeof path, "/sys/fs/cgroup%s/cpuset.cpus.effective",
             strcmp(line + 3, "/") ? line + 3 : "");
    if (read_list(path, tmp, m) != 0)
        return;
    int any = 0;
    for (int c = 0; c < m; c++)
        any |= allowed[c] && tmp[c];
    for (int c = 0; any && c < m; c++)
        allowed[c] = allowed[c] && tmp[c];
}

/* the CPUs of cpu's group g (a set of m), 0; -1 if sysfs does not say */
static int group_of(int cpu, int g, const int *node, unsigned char *set,
                    int m)
{
    char p[256], w[64];
    switch (g) {
    case G_PACK:
        snprintf(p, sizeof p, CPU "/cpu%d/topology/package_cpus_list", cpu);
        if (read_list(p, set, m) == 0)
            return 0;
        snprintf(p, sizeof p, CPU "/cpu%d/topology/core_siblings_list", cpu);
        return read_list(p, set, m);
    case G_DIE:
        snprintf(p, sizeof p, CPU "/cpu%d/topology/die_cpus_list", cpu);
        return read_list(p, set, m);
    case G_NUMA:
        if (node[cpu] < 0)
            return -1;
        for (int c = 0; c < m; c++)
            set[c] = node[c] == node[cpu];
        return 0;
    case G_CORE:
        snprintf(p, sizeof p, CPU "/cpu%d/topology/core_cpus_list", cpu);
        if (read_list(p, set, m) == 0)
            return 0;
        snprintf(p, sizeof p, CPU "/cpu%d/topology/thread_siblings_list",
                 cpu);
        return read_list(p, set, m);
    default: { /* a cache: the data or unified one of that level */
        int level = g == G_L3 ? 3 : g == G_L2 ? 2 : 1;
        for (int k = 0; k < 16; k++) {
            snprintf(p, sizeof p, CPU "/cpu%d/cache/index%d/level", cpu, k);
            read_word(p, w, sizeof w);
            if (!*w)
                break;
            if (atoi(w) != level)
                continue;
            snprintf(p, sizeof p, CPU "/cpu%d/cache/index%d/type", cpu, k);
            read_word(p, w, sizeof w);
            if (!strcmp(w, "Instruction"))
                continue;
            snprintf(p, sizeof p, CPU "/cpu%d/cache/index%d/shared_cpu_list",
                     cpu, k);
            return read_list(p, set, m);
        }
        return -1;
    }
    }
}

/* node[c]: the NUMA node of CPU c, -1 where sysfs has none */
static void numa_nodes(int *node, unsigned char *tmp, int m)
{
    char full[1024], p[256];
    for (int c = 0; c < m; c++)
        node[c] = -1;
    snprintf(full, sizeof full, "%s/sys/devices/system/node", root);
    DIR *d = opendir(full);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        int k;
        char rest;
        if (sscanf(e->d_name, "node%d%c", &k, &rest) != 1)
            continue;
        snprintf(p, sizeof p, "/sys/devices/system/node/node%d/cpulist", k);
        if (read_list(p, tmp, m) != 0)
            continue;
        for (int c = 0; c < m; c++)
            if (tmp[c])
                node[c] = k;
    }
    closedir(d);
}

/* per PU, per group: the group's first allowed CPU (-1: none known) and
 * its number of allowed CPUs; the walk's sort key is the first CPUs of
 * the PU's groups, largest group first */
#define KEY (G_COUNT + 1)
typedef struct {
    int cpu;
    int first[G_COUNT], size[G_COUNT];
    int key[KEY];
} pu_t;

static int by_key(const void *a, const void *b)
{
    const pu_t *x = a, *y = b;
    for (int k = 0; k < KEY; k++)
        if (x->key[k] != y->key[k])
            return x->key[k] < y->key[k] ? -1 : 1;
    return 0;
}

static void sort_key(pu_t *u)
{
    int order[G_COUNT], n = 0;
    for (int g = 0; g < G_COUNT; g++) { /* by size, larger first, stable */
        int i = n++;
        while (i > 0 && u->size[order[i - 1]] < u->size[g]) {
            order[i] = order[i - 1];
            i--;
        }
        order[i] = g;
    }
    for (int k = 0; k < G_COUNT; k++)
        u->key[k] = u->first[order[k]];
    u->key[G_COUNT] = u->cpu;
}

static int scan(map_t *map, int m, unsigned char *allowed,
                unsigned char *set, int *node)
{
    if (read_list(CPU "/online", allowed, m) != 0)
        return mc_error(MC_ERR_SYS, "topology: cannot read %s" CPU "/online "
                        "(a build without hwloc reads the machine from "
                        "Linux's sysfs)", root);
    cgroup_allowed(allowed, set, m);
    numa_nodes(node, set, m);
    int n = 0;
    for (int c = 0; c < m; c++)
        n += allowed[c];
    pu_t *pu = calloc((size_t)(n ? n : 1), sizeof *pu);
    map->os = malloc(sizeof(int) * (size_t)(n ? n : 1));
    map->ids = malloc(sizeof(int) * (size_t)(n ? n : 1) * MC_HWTOPO_LEVELS);
    if (!pu || !map->os || !map->ids) {
        free(pu);
        return mc_error(MC_ERR_NOMEM, "out of memory for the topology");
    }
    for (int c = 0, i = 0; c < m; c++) {
        if (!allowed[c])
            continue;
        pu_t *u = &pu[i++];
        u->cpu = c;
        for (int g = 0; g < G_COUNT; g++) {
            u->first[g] = -1;
            u->size[g] = 0;
            if (group_of(c, g, node, set, m) != 0)
                continue;
            for (int k = 0; k < m; k++)
                if (set[k] && allowed[k]) {
                    if (u->first[g] < 0)
                        u->first[g] = k;
                    u->size[g]++;
                }
        }
        sort_key(u);
    }
    qsort(pu, (size_t)n, sizeof *pu, by_key);
    /* a group's id: how many groups of its level came before it */
    for (int l = 0; l < MC_HWTOPO_LEVELS; l++) {
        int g = level_group[l], groups = 0;
        for (int i = 0; i < n; i++) {
            int id = -1;
            for (int j = 0; j < i && id < 0; j++)
                if (pu[j].first[g] == pu[i].first[g])
                    id = map->ids[j * MC_HWTOPO_LEVELS + l];
            map->ids[i * MC_HWTOPO_LEVELS + l] = id >= 0 ? id : groups++;
        }
    }
    for (int i = 0; i < n; i++)
        map->os[i] = pu[i].cpu;
    map->n = n;
    free(pu);
    return MC_OK;
}

static void unload(void *p)
{
    map_t *map = p;
    if (!map)
        return;
    free(map->os);
    free(map->ids);
    free(map);
}

static int load(const char *synthetic, void **out)
{
    const char *env = getenv("HWLOC_SYNTHETIC");
    if (!synthetic && env && *env)
        synthetic = env;
    if (synthetic)
        return mc_error(MC_ERR_ARG, "topology: a synthetic machine ('%s') "
                        "needs hwloc, and this manycoll is built without it "
                        "(the topology comes from Linux's sysfs)", synthetic);
    if ((env = getenv("HWLOC_XMLFILE")) && *env)
        return mc_error(MC_ERR_ARG, "topology: HWLOC_XMLFILE needs hwloc, "
                        "and this manycoll is built without it (the "
                        "topology comes from Linux's sysfs)");
    int m = possible();
    map_t *map = calloc(1, sizeof *map);
    unsigned char *allowed = malloc((size_t)m), *set = malloc((size_t)m);
    int *node = malloc(sizeof(int) * (size_t)m), rc;
    if (!map || !allowed || !set || !node)
        rc = mc_error(MC_ERR_NOMEM, "out of memory for the topology");
    else
        rc = scan(map, m, allowed, set, node);
    free(allowed), free(set), free(node);
    if (rc != MC_OK) {
        unload(map);
        return rc;
    }
    *out = map;
    return MC_OK;
}

static int npu(const void *p)
{
    return ((const map_t *)p)->n;
}

static int ids(const void *p, int n, const int *pus, int *out)
{
    const map_t *map = p;
    for (int i = 0; i < n; i++) {
        if (pus[i] < 0 || pus[i] >= map->n)
            return mc_error(MC_ERR_ARG, "topology: no PU %d (the machine "
                            "has %d)", pus[i], map->n);
        memcpy(out + i * MC_HWTOPO_LEVELS,
               map->ids + pus[i] * MC_HWTOPO_LEVELS,
               sizeof(int) * MC_HWTOPO_LEVELS);
    }
    return MC_OK;
}

static int cpu(const void *p, int pu)
{
    const map_t *map = p;
    return pu >= 0 && pu < map->n ? map->os[pu] : -1;
}

static void bind(void *p, int pu)
{
    const map_t *map = p;
    if (pu < 0 || pu >= map->n || *root)
        return;
    cpu_set_t *s = CPU_ALLOC((size_t)map->os[pu] + 1);
    size_t sz = CPU_ALLOC_SIZE((size_t)map->os[pu] + 1);
    if (!s)
        return;
    CPU_ZERO_S(sz, s);
    CPU_SET_S((size_t)map->os[pu], sz, s);
    /* the whole process, as hwloc's HWLOC_CPUBIND_PROCESS: each thread
     * (the threads it starts later inherit it) */
    DIR *d = opendir("/proc/self/task");
    for (struct dirent *e; d && (e = readdir(d));)
        if (atoi(e->d_name) > 0)
            (void)sched_setaffinity(atoi(e->d_name), sz, s);
    if (d)
        closedir(d);
    (void)sched_setaffinity(0, sz, s); /* this thread, whatever /proc is */
    CPU_FREE(s);
}

const mc_hwsrc_t mc_hwsrc_sysfs = {
    .what = "Linux sysfs (built without hwloc)",
    .load = load, .npu = npu, .ids = ids, .cpu = cpu, .bind = bind,
    .unload = unload};
