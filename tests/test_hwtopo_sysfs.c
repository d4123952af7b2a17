/*
 * The two sources of where the ranks sit (tp/hwtopo_src.h) agree: Linux
 * sysfs (src/tp/hwtopo_sysfs.c, a build without hwloc) gives every PU
 * the same Linux CPU and the same package, NUMA node and L3 ids as hwloc
 * does, so the hierarchy trees are the same with or without hwloc:
 *
 *   - on this machine;
 *   - on made-up machines written as a sysfs tree into a temporary
 *     directory, which hwloc reads too (HWLOC_FSROOT): two packages of
 *     NUMA nodes of L3s with two threads a core, numbered as Linux does
 *     (a core's second thread in the second half), and the same with
 *     the packages' cores interleaved (cpu0 in package 0, cpu1 in 1).
 *
 *   test_hwtopo_sysfs [--show]
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/error.h"
#include "tp/hwtopo.h"
#include "tp/hwtopo_src.h"

#include "check.h"

#define D MC_HWTOPO_LEVELS

static int show;

/* every PU: the same CPU and ids from both sources */
static void compare(const char *what)
{
    void *h = NULL, *s = NULL;
    int rh = mc_hwsrc_hwloc.load(NULL, &h), rs = mc_hwsrc_sysfs.load(NULL, &s);
    CHECK(rh == MC_OK && rs == MC_OK, "%s: load: hwloc %d, sysfs %d (%s)",
          what, rh, rs, mc_last_error());
    if (rh != MC_OK || rs != MC_OK)
        goto out;
    int n = mc_hwsrc_hwloc.npu(h);
    CHECK(n > 0 && n == mc_hwsrc_sysfs.npu(s), "%s: %d PUs in hwloc, %d in "
          "sysfs", what, n, mc_hwsrc_sysfs.npu(s));
    if (n <= 0 || n != mc_hwsrc_sysfs.npu(s))
        goto out;
    int *pus = malloc(sizeof(int) * (size_t)n);
    int *ih = malloc(sizeof(int) * (size_t)n * D);
    int *is = malloc(sizeof(int) * (size_t)n * D);
    for (int i = 0; i < n; i++)
        pus[i] = i;
    CHECK(mc_hwsrc_hwloc.ids(h, n, pus, ih) == MC_OK &&
          mc_hwsrc_sysfs.ids(s, n, pus, is) == MC_OK, "%s: ids", what);
    int same = 1;
    for (int i = 0; i < n; i++) {
        int ch = mc_hwsrc_hwloc.cpu(h, i), cs = mc_hwsrc_sysfs.cpu(s, i);
        int ok = ch == cs && !memcmp(ih + i * D, is + i * D,
                                     sizeof(int) * D);
        same &= ok;
        CHECK(ok, "%s: PU %d: hwloc cpu%d %d/%d/%d, sysfs cpu%d %d/%d/%d",
              what, i, ch, ih[i * D], ih[i * D + 1], ih[i * D + 2], cs,
              is[i * D], is[i * D + 1], is[i * D + 2]);
        if (show)
            printf("%s: PU %d cpu%d package %d NUMA %d L3 %d\n", what, i,
                   cs, is[i * D], is[i * D + 1], is[i * D + 2]);
    }
    printf("%s: %d PUs, %s\n", what, n, same ? "same" : "DIFFERENT");
    free(pus), free(ih), free(is);
out:
    if (h)
        mc_hwsrc_hwloc.unload(h);
    if (s)
        mc_hwsrc_sysfs.unload(s);
}

/* ---- a made-up machine as sysfs files ---- */

static char dir[256];

static void put(const char *text, const char *fmt, ...)
{
    char path[1024];
    va_list ap;
    va_start(ap, fmt);
    int len = snprintf(path, sizeof path, "%s", dir);
    vsnprintf(path + len, sizeof path - (size_t)len, fmt, ap);
    va_end(ap);
    for (char *p = path + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
        *p = 0;
        if (mkdir(path, 0755) != 0 && errno != EEXIST)
            CHECK(0, "mkdir %s: %s", path, strerror(errno));
        *p = '/';
    }
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "cannot write %s", path);
    if (f) {
        fprintf(f, "%s\n", text);
        fclose(f);
    }
}

#define MAXCPU 128

/* the CPUs c < n with key[c] == k, as a mask ("0000ffff,0000ffff") and
 * as a list ("0-15,32-47") */
static void sets(int n, const int *key, int k, char *mask, char *list)
{
    unsigned w[MAXCPU / 32] = {0};
    int nw = (n + 31) / 32;
    list[0] = mask[0] = 0;
    for (int c = 0; c < n; c++) {
        if (key[c] != k)
            continue;
        int e = c;
        while (e + 1 < n && key[e + 1] == k)
            e++;
        for (int i = c; i <= e; i++)
            w[i / 32] |= 1u << (i % 32);
        sprintf(list + strlen(list), e > c ? "%s%d-%d" : "%s%d",
                *list ? "," : "", c, e);
        c = e;
    }
    for (int i = nw - 1; i >= 0; i--)
        sprintf(mask + strlen(mask), "%s%08x", i < nw - 1 ? "," : "", w[i]);
}

/* pack packages of numa NUMA nodes of l3 L3s of cores cores, 2 threads
 * a core; interleave: package p's j-th core is cpu j * pack + p */
static void machine(int pack, int numa, int l3, int cores, int interleave)
{
    int ncore = pack * numa * l3 * cores, n = 2 * ncore;
    int kp[MAXCPU], kn[MAXCPU], k3[MAXCPU], kc[MAXCPU], local[MAXCPU];
    for (int p = 0, g = 0; p < pack; p++)
        for (int j = 0; j < numa * l3 * cores; j++, g++) {
            int c = interleave ? j * pack + p : g;
            for (int t = 0; t < 2; t++) {
                int cpu = c + t * ncore;
                kp[cpu] = p;
                kn[cpu] = p * numa + j / (l3 * cores);
                k3[cpu] = p * numa * l3 + j / cores;
                kc[cpu] = g;
                local[cpu] = j;
            }
        }
    char mask[256], list[512], v[64], range[32];
    snprintf(range, sizeof range, "0-%d", n - 1);
    put(range, "/sys/devices/system/cpu/online");
    put(range, "/sys/devices/system/cpu/possible");
    put(range, "/sys/devices/system/cpu/present");
    for (int c = 0; c < n; c++) {
        const char *cd = "/sys/devices/system/cpu/cpu";
        put("1", "%s%d/online", cd, c);
        snprintf(v, sizeof v, "%d", kp[c]);
        put(v, "%s%d/topology/physical_package_id", cd, c);
        put(v, "%s%d/topology/die_id", cd, c);
        snprintf(v, sizeof v, "%d", local[c]);
        put(v, "%s%d/topology/core_id", cd, c);
        sets(n, kp, kp[c], mask, list);
        static const char *const pk[] = {"package_cpus", "core_siblings",
                                         "die_cpus"};
        for (int i = 0; i < 3; i++) {
            put(mask, "%s%d/topology/%s", cd, c, pk[i]);
            put(list, "%s%d/topology/%s_list", cd, c, pk[i]);
        }
        sets(n, kc, kc[c], mask, list);
        put(mask, "%s%d/topology/core_cpus", cd, c);
        put(list, "%s%d/topology/core_cpus_list", cd, c);
        put(mask, "%s%d/topology/thread_siblings", cd, c);
        put(list, "%s%d/topology/thread_siblings_list", cd, c);
        static const struct { int level; const char *type, *size; } ca[] = {
            {1, "Data", "32K"}, {1, "Instruction", "32K"},
            {2, "Unified", "1024K"}, {3, "Unified", "32768K"}};
        for (int i = 0; i < 4; i++) {
            int id = i < 3 ? kc[c] : k3[c];
            sets(n, i < 3 ? kc : k3, id, mask, list);
            snprintf(v, sizeof v, "%d", ca[i].level);
            put(v, "%s%d/cache/index%d/level", cd, c, i);
            put(ca[i].type, "%s%d/cache/index%d/type", cd, c, i);
            put(ca[i].size, "%s%d/cache/index%d/size", cd, c, i);
            put(mask, "%s%d/cache/index%d/shared_cpu_map", cd, c, i);
            put(list, "%s%d/cache/index%d/shared_cpu_list", cd, c, i);
            put("64", "%s%d/cache/index%d/coherency_line_size", cd, c, i);
            put("8", "%s%d/cache/index%d/ways_of_associativity", cd, c, i);
            put("1", "%s%d/cache/index%d/physical_line_partition", cd, c, i);
            snprintf(v, sizeof v, "%d", id);
            put(v, "%s%d/cache/index%d/id", cd, c, i);
        }
    }
    int nodes = pack * numa;
    snprintf(range, sizeof range, "0-%d", nodes - 1);
    put(range, "/sys/devices/system/node/online");
    put(range, "/sys/devices/system/node/possible");
    put(range, "/sys/devices/system/node/has_cpu");
    put(range, "/sys/devices/system/node/has_memory");
    for (int k = 0; k < nodes; k++) {
        sets(n, kn, k, mask, list);
        put(mask, "/sys/devices/system/node/node%d/cpumap", k);
        put(list, "/sys/devices/system/node/node%d/cpulist", k);
        snprintf(v, sizeof v, "Node %d MemTotal:       1048576 kB", k);
        put(v, "/sys/devices/system/node/node%d/meminfo", k);
    }
}

static void made_up(const char *name, int pack, int numa, int l3, int cores,
                    int interleave)
{
    snprintf(dir, sizeof dir, "/tmp/mc_hwtopo_XXXXXX");
    if (!mkdtemp(dir)) {
        CHECK(0, "mkdtemp: %s", strerror(errno));
        return;
    }
    machine(pack, numa, l3, cores, interleave);
    setenv("HWLOC_FSROOT", dir, 1);
    mc_hwsrc_sysfs_root(dir);
    compare(name);
    unsetenv("HWLOC_FSROOT");
    mc_hwsrc_sysfs_root("");
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
}

int main(int argc, char **argv)
{
    show = argc > 1 && !strcmp(argv[1], "--show");
    unsetenv("HWLOC_SYNTHETIC");
    unsetenv("HWLOC_XMLFILE");
    compare("this machine");
    made_up("2 packages x 2 NUMA x 2 L3 x 4 cores x 2 threads", 2, 2, 2, 4,
            0);
    made_up("the same, packages interleaved", 2, 2, 2, 4, 1);
    made_up("1 package x 1 NUMA x 3 L3 x 2 cores x 2 threads", 1, 1, 3, 2,
            0);
    return check_done("hwtopo_sysfs", "sysfs gives hwloc's PUs and ids");
}
