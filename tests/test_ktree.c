/*
 * The per-level fan-out trees of src/sched/ktree.h against a brute-force
 * construction: build the tree level by level (BFS, each parent takes
 * k_i children in order), number it in preorder by a depth-first walk,
 * and compare every node (level, parent, position, children, subtree
 * range) for many n and fan-out lists; plus the drawn examples of
 * ktree.h, the raising of the last fan-out, and invalid arguments.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/ktree.h"

#include "check.h"

#define MAXN 1100

typedef struct ref {
    int n, nodes;
    int bparent[MAXN], level[MAXN]; /* by BFS index (0 = root) */
    int pre[MAXN];                  /* BFS index -> preorder vrank */
    int byv[MAXN];                  /* preorder vrank -> BFS index */
} ref_t;

/* the tree by construction: BFS order, parent i takes k children */
static void build(ref_t *r, int n, int d, const int *k)
{
    r->n = n;
    r->bparent[0] = -1;
    r->level[0] = 0;
    int next = 1, lvl_lo = 0, lvl_hi = 1, L = 0;
    int kk[MC_KTREE_MAX_LEVELS];
    memcpy(kk, k, sizeof(int) * (size_t)d);
    /* raise the last fan-out as ktree.h says, by brute force */
    while (mc_ktree_reach(d, kk, MAXN) < n)
        kk[d - 1]++;
    while (next < n && L < d) {
        for (int p = lvl_lo; p < lvl_hi && next < n; p++)
            for (int c = 0; c < kk[L] && next < n; c++) {
                r->bparent[next] = p;
                r->level[next] = L + 1;
                next++;
            }
        lvl_lo = lvl_hi;
        lvl_hi = next;
        L++;
    }
    r->nodes = next;
    /* preorder: iterative DFS, children in BFS order */
    int stack[MAXN], sp = 0, v = 0;
    stack[sp++] = 0;
    while (sp) {
        int b = stack[--sp];
        r->pre[b] = v;
        r->byv[v++] = b;
        for (int c = r->nodes - 1; c > 0; c--)
            if (r->bparent[c] == b)
                stack[sp++] = c;
    }
}

static void compare(int n, int d, const int *k)
{
    static ref_t r;
    mc_ktree_t t;
    build(&r, n, d, k);
    CHECK(r.nodes == n, "n=%d: reference placed %d", n, r.nodes);
    CHECK(mc_ktree_init(&t, n, d, k) == 0, "init n=%d d=%d", n, d);
    for (int v = 0; v < n; v++) {
        mc_ktree_node_t nd;
        mc_ktree_node(&t, v, &nd);
        int b = r.byv[v];
        int bp = r.bparent[b];
        CHECK(nd.vrank == v, "vrank");
        CHECK(nd.level == r.level[b], "n=%d d=%d k1=%d v=%d: level %d, "
              "expected %d", n, d, k[0], v, nd.level, r.level[b]);
        CHECK(nd.parent == (bp < 0 ? -1 : r.pre[bp]), "n=%d d=%d k1=%d "
              "v=%d: parent %d, expected %d", n, d, k[0], v, nd.parent,
              bp < 0 ? -1 : r.pre[bp]);
        int nch = 0, pos = -1, hi = v + 1;
        for (int c = 1; c < n; c++) {
            if (r.bparent[c] == b) {
                int cv = mc_ktree_child(&t, &nd, nch);
                CHECK(cv == r.pre[c], "n=%d v=%d child %d: %d, expected %d",
                      n, v, nch, cv, r.pre[c]);
                nch++;
            }
            if (bp >= 0 && r.bparent[c] == bp && c <= b)
                pos++;
        }
        /* subtree end: the largest preorder vrank below v, plus one */
        for (int u = v + 1; u < n; u++) {
            int a = r.byv[u];
            while (a > 0 && a != b)
                a = r.bparent[a];
            if (a == b)
                hi = u + 1;
        }
        CHECK(nd.nchildren == nch, "n=%d v=%d: %d children, expected %d", n,
              v, nd.nchildren, nch);
        CHECK(bp < 0 || nd.pos == pos, "n=%d v=%d: pos %d, expected %d", n, v,
              nd.pos, pos);
        CHECK(nd.hi == hi, "n=%d v=%d: hi %d, expected %d", n, v, nd.hi, hi);
    }
}

static void examples(void)
{
    /* ktree.h: n = 10, k = (3, 2): 0; 1 {2 3}; 4 {5 6}; 7 {8 9} */
    mc_ktree_t t;
    mc_ktree_node_t nd;
    int k[2] = {3, 2};
    mc_ktree_init(&t, 10, 2, k);
    mc_ktree_node(&t, 0, &nd);
    CHECK(nd.nchildren == 3 && mc_ktree_child(&t, &nd, 1) == 4 &&
          mc_ktree_child(&t, &nd, 2) == 7, "root of (3,2)");
    mc_ktree_node(&t, 8, &nd);
    CHECK(nd.parent == 7 && nd.pos == 0 && nd.level == 2, "vrank 8");
    mc_ktree_init(&t, 9, 2, k);
    mc_ktree_node(&t, 7, &nd);
    CHECK(nd.nchildren == 1 && nd.hi == 9, "vrank 7 of 9");
    /* too small a tree: the last fan-out grows, (2) for 8 ranks is (7) */
    int k2[1] = {2};
    mc_ktree_init(&t, 8, 1, k2);
    CHECK(t.d == 1 && t.k[0] == 7, "raised to %d", t.k[0]);
    int k11[2] = {1, 1};
    mc_ktree_init(&t, 8, 2, k11);
    CHECK(t.d == 2 && t.k[1] == 6, "(1,1) for 8 is (1,6), got k2=%d",
          t.k[1]);
    /* a big tree for few ranks fills from the top: (4,4,3) for 5 ranks
     * is a root with 4 children, not a chain */
    int k443[3] = {4, 4, 3};
    mc_ktree_init(&t, 5, 3, k443);
    mc_ktree_node(&t, 0, &nd);
    CHECK(t.d == 1 && nd.nchildren == 4, "(4,4,3) for 5 ranks");
    mc_ktree_init(&t, 1, 3, k443);
    mc_ktree_node(&t, 0, &nd);
    CHECK(t.d == 0 && nd.nchildren == 0 && nd.hi == 1, "one rank");
    CHECK(mc_ktree_reach(3, k443, 1000) == 69, "Eq. 4.4");
    /* invalid arguments */
    int k0[2] = {3, 0};
    CHECK(mc_ktree_init(&t, 5, 2, k0) == -1, "k = 0 accepted");
    CHECK(mc_ktree_init(&t, 0, 1, k) == -1, "n = 0 accepted");
    CHECK(mc_ktree_init(&t, 5, 0, k) == -1, "d = 0 accepted");
    CHECK(mc_ktree_init(&t, 5, MC_KTREE_MAX_LEVELS + 1, k) == -1,
          "d too large accepted");
}

int main(void)
{
    static const int trees[][5] = {
        {1, 1}, {1, 2}, {1, 7}, {2, 3, 2}, {2, 5, 5}, {3, 4, 4, 3},
        {3, 3, 3, 3}, {2, 1, 1}, {2, 2, 5}, {3, 6, 1, 4}, {4, 2, 2, 2, 2},
        {1, 100}, {2, 1, 3}, {3, 4, 3, 2},
    };
    examples();
    for (size_t i = 0; i < sizeof trees / sizeof *trees; i++)
        for (int n = 1; n <= 70; n++)
            compare(n, trees[i][0], trees[i] + 1);
    static const int big[][5] = {{4, 6, 6, 5, 5}, {1, 1}, {2, 32, 31},
                                 {4, 4, 4, 4, 3}};
    for (size_t i = 0; i < sizeof big / sizeof *big; i++)
        compare(1024, big[i][0], big[i] + 1);
    return check_done("test_ktree",
                      "all trees agree with the reference construction");
}
