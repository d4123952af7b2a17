/* Trees with a fan-out per level, preorder vranks: see ktree.h. */
#include "sched/ktree.h"

static long long clampll(long long x, long long lo, long long hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

long mc_ktree_reach(int d, const int *k, long cap)
{
    long total = 1, level = 1;
    for (int i = 0; i < d && total < cap; i++) {
        level = level > cap / k[i] ? cap : level * k[i];
        total = total > cap - level ? cap : total + level;
    }
    return total < cap ? total : cap;
}

int mc_ktree_init(mc_ktree_t *t, int n, int d, const int *k)
{
    if (n < 1 || d < 1 || d > MC_KTREE_MAX_LEVELS || !k)
        return -1;
    for (int i = 0; i < d; i++)
        if (k[i] < 1)
            return -1;
    /* only levels 0..d are ever read (d <= the given d): no zeroing of
     * the rest, this runs on every call of a small collective */
    for (int i = 0; i < d; i++)
        t->k[i] = k[i];
    t->n = n;
    t->d = 0;
    t->nlev[0] = 1;
    long long placed = 1;
    for (int i = 0; i < d && placed < n; i++) {
        long long cap = (long long)t->nlev[i] * t->k[i];
        t->nlev[i + 1] = (int)(cap < n - placed ? cap : n - placed);
        placed += t->nlev[i + 1];
        t->d = i + 1;
    }
    if (placed < n) {
        /* the fan-outs reach too few ranks: raise the last one. Level
         * d-1 is full (else the tree would have stopped growing), so
         * nlev[d-1] parents share the n - above ranks of the last level */
        long long above = placed - t->nlev[d];
        long long parents = t->nlev[d - 1];
        t->k[d - 1] = (int)((n - above + parents - 1) / parents);
        t->nlev[d] = (int)(n - above);
    }
    return 0;
}

/* Ranks in the subtrees of the level-L nodes with BFS indices [a, a+c):
 * their descendants on level L+s are the BFS indices [a K, (a+c) K) of
 * that level, K = k[L] ... k[L+s-1], cut at the level's size. */
static long long span(const mc_ktree_t *t, int L, long long a, long long c)
{
    long long total = 0, K = 1, cap = (long long)t->n + 1;
    for (int l = L; l <= t->d && c > 0; l++) {
        total += clampll(t->nlev[l] - a * K, 0, c * K);
        if (l < t->d)
            K = K > cap / t->k[l] ? cap : K * t->k[l];
    }
    return total;
}

static int nchildren(const mc_ktree_t *t, int L, int j)
{
    if (L >= t->d)
        return 0;
    return (int)clampll(t->nlev[L + 1] - (long long)j * t->k[L], 0,
                        t->k[L]);
}

void mc_ktree_node(const mc_ktree_t *t, int v, mc_ktree_node_t *out)
{
    int L = 0, j = 0, pre = 0, parent = -1, pos = 0;
    while (pre != v && nchildren(t, L, j) > 0) { /* v < n: always */
        long long first = (long long)j * t->k[L];
        long long rel = v - pre - 1;
        /* the last child whose subtree starts at or before v */
        int lo = 0, hi = nchildren(t, L, j) - 1;
        while (lo < hi) {
            int mid = lo + (hi - lo + 1) / 2;
            if (span(t, L + 1, first, mid) <= rel)
                lo = mid;
            else
                hi = mid - 1;
        }
        parent = pre;
        pos = lo;
        pre = pre + 1 + (int)span(t, L + 1, first, lo);
        j = (int)first + lo;
        L++;
    }
    out->vrank = v;
    out->level = L;
    out->bfs = j;
    out->parent = parent;
    out->pos = pos;
    out->nchildren = nchildren(t, L, j);
    out->hi = v + (int)span(t, L, j, 1);
}

int mc_ktree_child(const mc_ktree_t *t, const mc_ktree_node_t *nd, int c)
{
    if (nd->level >= t->d)
        return -1;
    long long first = (long long)nd->bfs * t->k[nd->level];
    return nd->vrank + 1 + (int)span(t, nd->level + 1, first, c);
}
