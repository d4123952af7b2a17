/* Hierarchy trees (hier.h). */
#include "sched/hier.h"

/* 1 if ranks a and b share their groups at levels 0..l */
static int same(int d, const int *ids, int a, int b, int l)
{
    for (int k = 0; k <= l; k++)
        if (ids[a * d + k] != ids[b * d + k])
            return 0;
    return 1;
}

void mc_hier_lowest(int n, int d, const int *ids, int *low)
{
    for (int r = 0; r < n; r++)
        for (int l = 0; l < d; l++) {
            int q = 0;
            while (!same(d, ids, q, r, l))
                q++;
            low[r * d + l] = q;
        }
}

/* the leader of rank r's group at level l */
static int leader(int d, const int *ids, const int *low, int root, int r,
                  int l)
{
    return same(d, ids, r, root, l) ? root : low[r * d + l];
}

int mc_hier_level(int n, int d, const int *ids, const int *low, int root,
                  int rank)
{
    (void)n;
    int l = 0;
    while (l < d && leader(d, ids, low, root, rank, l) != rank)
        l++;
    return l;
}

static int parent_of(int n, int d, const int *ids, const int *low, int root,
                     int r, int *level)
{
    *level = mc_hier_level(n, d, ids, low, root, r);
    if (r == root)
        return -1;
    return *level == 0 ? root : leader(d, ids, low, root, r, *level - 1);
}

int mc_hier_node(int n, int d, const int *ids, const int *low, int root,
                 int rank, int *parent, int *children, int cap)
{
    int lvl, nc = 0;
    *parent = parent_of(n, d, ids, low, root, rank, &lvl);
    /* coarsest first: children that lead a level-0 group, then level 1 */
    for (int l = 0; l <= d; l++)
        for (int q = 0; q < n; q++) {
            if (q == rank || q == root)
                continue;
            int ql, qp = parent_of(n, d, ids, low, root, q, &ql);
            if (ql != l || qp != rank)
                continue;
            if (nc < cap)
                children[nc] = q;
            nc++;
        }
    return nc;
}

int mc_hier_groups(int n, int d, const int *low)
{
    int g = 0;
    for (int r = 0; r < n; r++)
        g += low[r * d + d - 1] == r;
    return g;
}
