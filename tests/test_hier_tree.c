/*
 * Trees down a machine's hierarchy (sched/hier.h) on hwloc synthetic
 * topologies of machines this one is not: a 2-socket 128-core AMD EPYC
 * (NPS4, an L3 per 8-core CCD), a 60-core Xeon Phi (one package, no
 * shared L3, 4 threads a core), a 64-core Arm server (two dies, an L3
 * per die). For every root and several ways of placing the ranks:
 *
 *   - a tree: parents lead to the root, each rank is its parent's child
 *     exactly once;
 *   - locality: exactly one edge enters each package, NUMA node and L3
 *     from outside it (none enters the root's);
 *   - depth at most levels + 1 (4);
 *   - the example drawn in hier.h.
 *
 *   test_hier [--show]   --show prints the trees' shapes
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "sched/hier.h"
#include "tp/hwtopo.h"

#include "check.h"

#define MAXN 512
#define D MC_HWTOPO_LEVELS

static int same(const int *ids, int a, int b, int l)
{
    for (int k = 0; k <= l; k++)
        if (ids[a * D + k] != ids[b * D + k])
            return 0;
    return 1;
}

/* every property above, for n ranks with group ids `ids`, root `root` */
static void check_tree(const char *what, int n, const int *ids, int root,
                       int show)
{
    static int low[MAXN * D], parent[MAXN], child[MAXN], seen[MAXN];
    mc_hier_lowest(n, D, ids, low);
    memset(seen, 0, sizeof(int) * (size_t)n);
    int maxdepth = 0, maxfan = 0;
    for (int r = 0; r < n; r++) {
        int nc = mc_hier_node(n, D, ids, low, root, r, &parent[r], child,
                              MAXN);
        maxfan = nc > maxfan ? nc : maxfan;
        for (int i = 0; i < nc; i++)
            seen[child[i]]++;
        CHECK((r == root) == (parent[r] < 0), "%s: parent of %d", what, r);
    }
    for (int r = 0; r < n; r++) {
        CHECK(seen[r] == (r != root), "%s root %d: rank %d is a child %d "
              "times", what, root, r, seen[r]);
        int depth = 0, q = r;
        while (q != root && depth <= n) {
            q = parent[q];
            depth++;
        }
        CHECK(depth <= D + 1, "%s root %d: rank %d at depth %d", what, root,
              r, depth);
        maxdepth = depth > maxdepth ? depth : maxdepth;
    }
    /* locality: edges entering each group at each level */
    for (int l = 0; l < D; l++)
        for (int g = 0; g < n; g++) { /* the group of rank g */
            if (low[g * D + l] != g)
                continue; /* visit each group once, by its lowest rank */
            int in = 0;
            for (int r = 0; r < n; r++)
                if (r != root && same(ids, r, g, l) &&
                    !same(ids, parent[r], g, l))
                    in++;
            CHECK(in == !same(ids, root, g, l), "%s root %d: %d edges enter "
                  "the level-%d group of rank %d", what, root, in, l, g);
        }
    if (show && root == 0)
        printf("%-34s %4d ranks: depth %d, widest fan-out %d\n", what, n,
               maxdepth, maxfan);
}

static void machine(const char *name, const char *synth, int stride,
                    int nmax, int show)
{
    static int pus[MAXN], ids[MAXN * D];
    int np;
    if (mc_hwtopo_ids(synth, 1, (int[]){0}, ids, &np) != MC_OK) {
        CHECK(0, "%s: %s", name, mc_last_error());
        return;
    }
    int n = 0;
    for (int p = 0; p < np && n < nmax; p += stride)
        pus[n++] = p;
    if (mc_hwtopo_ids(synth, n, pus, ids, NULL) != MC_OK) {
        CHECK(0, "%s: %s", name, mc_last_error());
        return;
    }
    char what[128];
    snprintf(what, sizeof what, "%s, every %d PU", name, stride);
    for (int root = 0; root < n; root += (n > 64 ? 7 : 1))
        check_tree(what, n, ids, root, show);
}

static void drawn_example(void)
{
    /* hier.h: 2 packages x 2 L3 x 2 cores, root 0 */
    int ids[8 * D], low[8 * D], parent, child[8];
    for (int r = 0; r < 8; r++) {
        ids[r * D + 0] = r / 4;
        ids[r * D + 1] = r / 4;
        ids[r * D + 2] = r / 2;
    }
    mc_hier_lowest(8, D, ids, low);
    int nc = mc_hier_node(8, D, ids, low, 0, 0, &parent, child, 8);
    CHECK(nc == 3 && child[0] == 4 && child[1] == 2 && child[2] == 1,
          "root 0 serves 4, then 2, then 1");
    nc = mc_hier_node(8, D, ids, low, 0, 4, &parent, child, 8);
    CHECK(parent == 0 && nc == 2 && child[0] == 6 && child[1] == 5,
          "4: from 0, serves 6 and 5");
    nc = mc_hier_node(8, D, ids, low, 0, 7, &parent, child, 8);
    CHECK(parent == 6 && nc == 0, "7 hangs off 6");
}

int main(int argc, char **argv)
{
    int show = argc > 1 && !strcmp(argv[1], "--show");
    drawn_example();
    static const struct {
        const char *name, *synth;
    } m[] = {
        {"2-socket 128-core EPYC (NPS4)", "pack:2 numa:4 l3:2 core:8 pu:1"},
        {"60-core Xeon Phi", "pack:1 core:60 pu:4"},
        {"64-core Arm server", "pack:1 numa:2 l3:1 core:32 pu:1"},
    };
    for (size_t i = 0; i < sizeof m / sizeof *m; i++) {
        machine(m[i].name, m[i].synth, 1, MAXN, show);  /* every PU */
        machine(m[i].name, m[i].synth, 3, 50, show);    /* some of them */
    }
    return check_done("test_hier", "every tree keeps to the hierarchy");
}
