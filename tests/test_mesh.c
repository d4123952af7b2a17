/*
 * The mesh schedules of src/sched/mesh.h: exact invariants on every grid
 * up to 9x9 (and a few long thin ones), by brute force.
 *
 *   alltoall   every ordered pair exchanges exactly once; partners are
 *              mutual; no directed link twice in a round (compact and
 *              modh); round counts (4, 24, 84, 220, 480, 924 for modh
 *              2x2..7x7); the literal reading does have conflicts
 *   trees      edges are single links toward the root, children agree
 *              with parents, degrees (root 4, others 3), height; no link
 *              twice in the up or the down phase; the paper's Fig. 4
 *   reduce     the paper's 4x4 example (root 5: children 1 4 6 7 9 13,
 *              4: 0 8 12, round order 15 < 11 < 7 < 6); every round link
 *              disjoint; the "after" chain precedes each sender
 *   baselines  the route walker on Fig. 1 (3 -> 8 and 4 -> 2 share the
 *              link 4 -> 5) and the conflicts of pairwise exchange
 *
 *   test_mesh [--table]   --table prints the baselines' conflict counts
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/mesh.h"
#include "sched/sched.h"

#include "check.h"

#define MAXG 16
#define MAXP (MAXG * MAXG)
static int use[MC_MESH_NLINKS(MAXG, MAXG)];
static int src[2 * MAXP], dst[2 * MAXP];
static unsigned char seen[MAXP][MAXP];

/* ---- alltoall ---- */

static void check_a2a(int W, int H, int mode)
{
    int P = W * H, rounds = 0, conflicts = 0;
    memset(seen, 0, sizeof seen);
    mc_a2a_iter_t it;
    for (mc_a2a_begin(&it, W, H, mode); mc_a2a_next(&it);) {
        int n = 0;
        rounds++;
        for (int r = 0; r < P; r++) {
            int pr[2];
            mc_a2a_partners(W, H, &it.r, r % W, r / W, pr);
            for (int s = 0; s < 2; s++) {
                if (pr[s] < 0)
                    continue;
                int back[2];
                mc_a2a_partners(W, H, &it.r, pr[s] % W, pr[s] / W, back);
                CHECK(back[1 - s] == r,
                      "%dx%d mode %d round %d: %d -> %d (slot %d) not mutual",
                      W, H, mode, rounds, r, pr[s], s);
                CHECK(!seen[r][pr[s]]++, "%dx%d mode %d: pair %d -> %d twice",
                      W, H, mode, r, pr[s]);
                src[n] = r, dst[n++] = pr[s];
            }
        }
        int c = mc_mesh_conflicts(W, H, n, src, dst, use);
        conflicts += c;
        if (mode != MC_A2A_LITERAL)
            CHECK(c == 0, "%dx%d mode %d: round %d (kind %d a %d b %d i %d "
                          "j %d) has %d link conflicts",
                  W, H, mode, rounds, it.r.kind, it.r.a, it.r.b, it.r.i,
                  it.r.j, c);
        if (mode == MC_A2A_COMPACT)
            CHECK(n > 0, "%dx%d: compact round %d is empty", W, H, rounds);
    }
    CHECK(rounds == mc_a2a_nrounds(W, H, mode),
          "%dx%d mode %d: %d rounds, mc_a2a_nrounds says %ld", W, H, mode,
          rounds, mc_a2a_nrounds(W, H, mode));
    for (int a = 0; a < P; a++)
        for (int b = 0; b < P; b++)
            CHECK(a == b || seen[a][b] == 1,
                  "%dx%d mode %d: pair %d -> %d exchanged %d times", W, H,
                  mode, a, b, seen[a][b]);
    if (mode == MC_A2A_LITERAL && (W >= 4 || H >= 4))
        CHECK(conflicts > 0, "%dx%d: the literal reading has no conflicts?",
              W, H);
}

static void test_a2a_counts(void)
{
    static const long modh[] = {4, 24, 84, 220, 480, 924};
    for (int g = 2; g <= 7; g++)
        CHECK(mc_a2a_nrounds(g, g, MC_A2A_MODH) == modh[g - 2],
              "%dx%d modh: %ld rounds, want %ld", g, g,
              mc_a2a_nrounds(g, g, MC_A2A_MODH), modh[g - 2]);
    CHECK(mc_a2a_nrounds(7, 7, MC_A2A_LITERAL) == 84, "7x7 literal");
    CHECK(mc_a2a_nrounds(7, 7, MC_A2A_COMPACT) == 312, "7x7 compact");
    CHECK(mc_a2a_nrounds(1, 1, MC_A2A_COMPACT) == 0, "1x1");
    /* the paper's distance-2 example: even columns, then odd ones */
    mc_a2a_iter_t it;
    mc_a2a_begin(&it, 6, 1, MC_A2A_COMPACT);
    mc_a2a_next(&it); /* distance 1 */
    mc_a2a_next(&it);
    CHECK(it.r.kind == MC_A2A_DR1 && it.r.a == 2 && it.r.i == 0, "order");
    int pr[2];
    CHECK(mc_a2a_partners(6, 1, &it.r, 2, 0, pr) == 2 && pr[0] == 4 &&
              pr[1] == 0 && mc_a2a_partners(6, 1, &it.r, 1, 0, pr) == 0,
          "distance 2, even round");
}

/* ---- trees ---- */

static void check_tree(int W, int H, int style, int rx, int ry)
{
    int P = W * H, up = 0, height = 0;
    for (int r = 0; r < P; r++) {
        mc_mesh_node_t nd;
        int x = r % W, y = r / W;
        mc_mesh_tree(W, H, style, rx, ry, x, y, &nd);
        height = nd.depth > height ? nd.depth : height;
        int root = x == rx && y == ry;
        CHECK(root == (nd.parent < 0), "%dx%d: root/parent of %d", W, H, r);
        CHECK(nd.nchildren <= (root ? 4 : 3), "%dx%d style %d: %d has %d "
              "children", W, H, style, r, nd.nchildren);
        if (!root) {
            int px = nd.parent % W, py = nd.parent / W;
            CHECK(abs(px - x) + abs(py - y) == 1, "%d -> %d not a link", r,
                  nd.parent);
            mc_mesh_node_t pn;
            mc_mesh_tree(W, H, style, rx, ry, px, py, &pn);
            CHECK(pn.depth == nd.depth - 1, "depth of %d", r);
            int found = 0;
            for (int k = 0; k < pn.nchildren; k++)
                found += pn.child[k] == r;
            CHECK(found == 1, "%dx%d: %d not a child of its parent %d", W, H,
                  r, nd.parent);
            src[up] = r, dst[up++] = nd.parent;
        }
    }
    CHECK(height == mc_mesh_tree_height(W, H, rx, ry), "height");
    CHECK(mc_mesh_conflicts(W, H, up, src, dst, use) == 0, "up phase");
    CHECK(mc_mesh_conflicts(W, H, up, dst, src, use) == 0, "down phase");
}

static void test_fig4(void)
{
    /* broadcast from 5 on 4x4: column 1 relays E/W and on along Y,
     * everyone else forwards along its row */
    mc_mesh_node_t nd;
    mc_mesh_tree(4, 4, MC_MTREE_COLFIRST, 1, 1, 1, 1, &nd);
    CHECK(nd.nchildren == 4, "root 5 sends on all four links");
    mc_mesh_tree(4, 4, MC_MTREE_COLFIRST, 1, 1, 1, 2, &nd); /* rank 9 */
    CHECK(nd.parent == 5 && nd.nchildren == 3 && nd.child[0] == 10 &&
              nd.child[1] == 8 && nd.child[2] == 13,
          "rank 9: from 5 along Y, to 10, 8, 13");
    mc_mesh_tree(4, 4, MC_MTREE_COLFIRST, 1, 1, 2, 2, &nd); /* rank 10 */
    CHECK(nd.parent == 9 && nd.nchildren == 1 && nd.child[0] == 11,
          "rank 10: from the West, on to the East");
    /* balanced: off the axes, along X where x + y is even, else along Y */
    mc_mesh_tree(5, 5, MC_MTREE_BALANCED, 2, 2, 3, 3, &nd);
    CHECK(nd.parent == 17, "balanced (3,3): parent (2,3)");
    mc_mesh_tree(5, 5, MC_MTREE_BALANCED, 2, 2, 3, 4, &nd);
    CHECK(nd.parent == 18, "balanced (3,4): parent (3,3)");
}

/* ---- reduce ---- */

static void test_fig5(void)
{
    static const int first[] = {1, 4, 6, 7, 9, 13};
    for (size_t i = 0; i < sizeof first / sizeof *first; i++)
        CHECK(mc_mesh_reduce_parent(4, 4, 1, 1, first[i] % 4, first[i] / 4) ==
                  5, "parent of %d", first[i]);
    CHECK(mc_mesh_reduce_parent(4, 4, 1, 1, 0, 0) == 4 &&
              mc_mesh_reduce_parent(4, 4, 1, 1, 0, 2) == 4 &&
              mc_mesh_reduce_parent(4, 4, 1, 1, 0, 3) == 4,
          "children of 4 are 0, 8, 12");
    int r15 = mc_mesh_reduce_round(4, 4, 1, 1, 3, 3);
    int r11 = mc_mesh_reduce_round(4, 4, 1, 1, 3, 2);
    int r7 = mc_mesh_reduce_round(4, 4, 1, 1, 3, 1);
    int r6 = mc_mesh_reduce_round(4, 4, 1, 1, 2, 1);
    CHECK(r15 == 0 && r11 == 1 && r7 == 2 && r6 == 3,
          "rounds 15 %d, 11 %d, 7 %d, 6 %d", r15, r11, r7, r6);
    CHECK(mc_mesh_reduce_nrounds(4, 4, 1, 1) == 4, "four rounds");
    CHECK(mc_mesh_reduce_nrounds(7, 7, 3, 3) == 6 &&
              mc_mesh_reduce_nrounds(7, 7, 0, 0) == 12, "7x7 rounds");
}

static void check_reduce(int W, int H, int rx, int ry)
{
    int P = W * H, R = mc_mesh_reduce_nrounds(W, H, rx, ry);
    int got[MAXP] = {0};
    for (int round = 0; round < R; round++) {
        int n = 0;
        for (int r = 0; r < P; r++) {
            int from[2];
            mc_mesh_reduce_from(W, H, rx, ry, r % W, r / W, round, from);
            for (int s = 0; s < 2; s++) {
                int c = from[s];
                if (c < 0)
                    continue;
                got[c]++;
                CHECK(mc_mesh_reduce_parent(W, H, rx, ry, c % W, c / W) == r,
                      "%dx%d root (%d,%d): %d receives from %d, not its "
                      "child", W, H, rx, ry, r, c);
                CHECK(mc_mesh_reduce_round(W, H, rx, ry, c % W, c / W) ==
                          round, "round of %d", c);
                int after = mc_mesh_reduce_after(W, H, rx, ry, c % W, c / W);
                CHECK(after < 0 || (mc_mesh_reduce_parent(W, H, rx, ry,
                                                          after % W,
                                                          after / W) == r &&
                                    mc_mesh_reduce_round(W, H, rx, ry,
                                                         after % W,
                                                         after / W) < round),
                      "%d sends after %d", c, after);
                src[n] = c, dst[n++] = r;
            }
        }
        CHECK(mc_mesh_conflicts(W, H, n, src, dst, use) == 0,
              "%dx%d root (%d,%d) round %d: conflicts", W, H, rx, ry, round);
    }
    for (int r = 0; r < P; r++)
        CHECK(got[r] == (r != mc_mesh_rank(W, rx, ry)),
              "%dx%d: %d sent %d times", W, H, r, got[r]);
}

/* ---- routes and baselines ---- */

static void test_fig1(void)
{
    int s[2] = {3, 4}, d[2] = {8, 2}, links[8];
    CHECK(mc_mesh_conflicts(3, 3, 2, s, d, use) == 1, "Fig. 1 contention");
    CHECK(mc_mesh_route(3, 0, 1, 2, 2, links, 8) == 3 &&
              links[1] == 4 * 4 + MC_MESH_EAST,
          "3 -> 8 goes through the link 4 -> 5");
}

/* conflicts summed over the steps of pairwise exchange (step i: r -> r+i) */
static int pairwise_conflicts(int W, int H)
{
    int P = W * H, total = 0;
    for (int i = 1; i < P; i++) {
        for (int r = 0; r < P; r++)
            src[r] = r, dst[r] = (r + i) % P;
        total += mc_mesh_conflicts(W, H, P, src, dst, use);
    }
    return total;
}

/* binomial broadcast from rank 0 (RCCE_comm's bisection tree): a holder
 * sends to its children one step after another, a child starts sending
 * the step after it received */
static int binomial_conflicts(int W, int H)
{
    int P = W * H, step_of[MAXP], total = 0, last = 0;
    step_of[0] = 0; /* a parent's vrank is below its children's */
    for (int v = 0; v < P; v++) {
        mc_bisect_t t;
        mc_sched_bisect(v, P, &t);
        for (int i = 0; i < t.nchildren; i++) {
            step_of[t.child[i]] = step_of[v] + i + 1;
            last = step_of[t.child[i]] > last ? step_of[t.child[i]] : last;
        }
    }
    for (int step = 1; step <= last; step++) {
        int n = 0;
        for (int v = 1; v < P; v++) {
            mc_bisect_t t;
            mc_sched_bisect(v, P, &t);
            if (step_of[v] == step)
                src[n] = t.parent, dst[n++] = v;
        }
        total += mc_mesh_conflicts(W, H, n, src, dst, use);
    }
    return total;
}

/* recursive doubling on the largest power of two (r <-> r ^ 2^k) and the
 * dissemination barrier (r -> r + 2^k) */
static int doubling_conflicts(int W, int H, int xor)
{
    int P = W * H, p2 = 1, total = 0;
    while (2 * p2 <= P)
        p2 *= 2;
    for (int d = 1; d < (xor ? p2 : P); d *= 2) {
        int n = 0;
        for (int r = 0; r < (xor ? p2 : P); r++)
            src[n] = r, dst[n++] = xor ? (r ^ d) : (r + d) % P;
        total += mc_mesh_conflicts(W, H, n, src, dst, use);
    }
    return total;
}

int main(int argc, char **argv)
{
    int table = argc > 1 && !strcmp(argv[1], "--table");
    test_a2a_counts();
    for (int W = 1; W <= 9; W++)
        for (int H = 1; H <= 9; H++)
            for (int mode = 0; mode < 3; mode++)
                check_a2a(W, H, mode);
    check_a2a(16, 2, MC_A2A_COMPACT);
    check_a2a(3, 16, MC_A2A_MODH);
    test_fig4();
    test_fig5();
    test_fig1();
    for (int W = 1; W <= 8; W++)
        for (int H = 1; H <= 8; H++)
            for (int r = 0; r < W * H; r++) {
                check_tree(W, H, MC_MTREE_COLFIRST, r % W, r / W);
                check_tree(W, H, MC_MTREE_BALANCED, r % W, r / W);
                check_reduce(W, H, r % W, r / W);
            }
    for (int g = 2; g <= 7; g++) {
        int c = pairwise_conflicts(g, g), b = binomial_conflicts(g, g);
        int rd = doubling_conflicts(g, g, 1), ds = doubling_conflicts(g, g, 0);
        CHECK(g < 4 || (c > 0 && rd > 0 && ds > 0),
              "baselines on %dx%d: no conflicts?", g, g);
        if (table)
            printf("%dx%d link conflicts: pairwise exchange %d (%d steps), "
                   "binomial bcast %d, recursive doubling %d, dissemination "
                   "%d; NoCMsg alltoall 0 (%ld rounds), trees 0\n",
                   g, g, c, g * g - 1, b, rd, ds,
                   mc_a2a_nrounds(g, g, MC_A2A_COMPACT));
    }
    return check_done("test_mesh", "all schedule invariants hold");
}
