#include "sched/sched.h"

void mc_sched_bisect(int vrank, int n, mc_bisect_t *out)
{
    int lo = 0, hi = n;
    out->parent = -1;
    out->nchildren = 0;
    /* walk down the recursion until vrank is the holder of its range */
    while (lo != vrank) {
        int m = lo + (hi - lo + 1) / 2;
        if (vrank < m) {
            hi = m;
        } else {
            if (vrank == m)
                out->parent = lo;
            lo = m;
        }
    }
    out->hi = hi;
    /* as holder of [lo, hi): hand off the upper half, level by level */
    while (hi - lo > 1) {
        int m = lo + (hi - lo + 1) / 2;
        out->child[out->nchildren] = m;
        out->child_hi[out->nchildren] = hi;
        out->nchildren++;
        hi = m;
    }
}

int mc_sched_kary_parent(int v, int k)
{
    return v == 0 ? -1 : (v - 1) / k;
}

int mc_sched_kary_children(int v, int n, int k, int *first)
{
    long f = (long)v * k + 1;
    *first = (int)f;
    if (f >= n)
        return 0;
    long last = f + k - 1 < n - 1 ? f + k - 1 : n - 1;
    return (int)(last - f + 1);
}

int mc_sched_notify_children(int pos, int k, int out[2])
{
    int first = pos < 0 ? 0 : 2 * pos + 2;
    int cnt = 0;
    for (int j = first; j < first + 2 && j < k; j++)
        out[cnt++] = j;
    return cnt;
}

int mc_sched_dissem_rounds(int n, int m)
{
    int rounds = 0;
    long reach = 1;
    while (reach < n) {
        reach *= (m + 1);
        rounds++;
    }
    return rounds;
}

int mc_sched_dissem_dists(int n, int m, int round, int *out)
{
    long base = 1;
    for (int r = 0; r < round; r++)
        base *= (m + 1);
    int cnt = 0;
    for (int j = 1; j <= m; j++) {
        long d = base * j;
        if (d >= n)
            break;
        out[cnt++] = (int)d;
    }
    return cnt;
}
