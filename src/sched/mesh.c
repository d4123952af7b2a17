/*
 * Mesh schedules (mesh.h): NoCMsg's alltoall rounds, trees and two-step
 * reduction, and the route walker that checks them.
 */
#include <stdlib.h>

#include "sched/mesh.h"

static int sgn(int v) { return (v > 0) - (v < 0); }
static int imin(int a, int b) { return a < b ? a : b; }
static int imax(int a, int b) { return a > b ? a : b; }

/* ---- routes ---- */

int mc_mesh_route(int W, int sx, int sy, int dx, int dy, int *links, int cap)
{
    int n = 0, x = sx, y = sy;
    while (x != dx || y != dy) {
        int dir = x != dx ? (dx > x ? MC_MESH_EAST : MC_MESH_WEST)
                          : (dy > y ? MC_MESH_SOUTH : MC_MESH_NORTH);
        if (n < cap)
            links[n] = mc_mesh_rank(W, x, y) * 4 + dir;
        n++;
        if (dir == MC_MESH_EAST || dir == MC_MESH_WEST)
            x += dir == MC_MESH_EAST ? 1 : -1;
        else
            y += dir == MC_MESH_SOUTH ? 1 : -1;
    }
    return n;
}

int mc_mesh_conflicts(int W, int H, int n, const int *src, const int *dst,
                      int *use)
{
    int links[1024], extra = 0;
    (void)H;
    for (int pass = 0; pass < 2; pass++) {
        for (int m = 0; m < n; m++) {
            int h = mc_mesh_route(W, src[m] % W, src[m] / W, dst[m] % W,
                                  dst[m] / W, links, 1024);
            for (int k = 0; k < h && k < 1024; k++) {
                if (pass == 0)
                    extra += use[links[k]]++ > 0;
                else
                    use[links[k]] = 0; /* leave the scratch clean */
            }
        }
    }
    return extra;
}

/* ---- alltoall rounds ---- */

/* classes of distance d on an axis of length len in a mode */
static int nclasses(int d, int len, int mode)
{
    if (mode == MC_A2A_LITERAL)
        return 1;
    return mode == MC_A2A_MODH ? d : imin(d, len - d);
}

void mc_a2a_begin(mc_a2a_iter_t *it, int W, int H, int mode)
{
    *it = (mc_a2a_iter_t){.W = W, .H = H, .mode = mode};
}

/* the first round of `kind` at or after (a, b), class (0, 0); 0 if the
 * kind has no rounds left */
static int kind_start(mc_a2a_iter_t *it, int kind)
{
    int W = it->W, H = it->H;
    mc_a2a_round_t *r = &it->r;
    r->kind = kind;
    r->i = r->j = it->mode == MC_A2A_LITERAL ? -1 : 0;
    if (kind == MC_A2A_DR1) {
        r->a = 1, r->b = 0;
        return W > 1;
    }
    if (kind == MC_A2A_DR2) {
        r->a = 0, r->b = 1;
        return H > 1;
    }
    r->a = r->b = 1;
    return W > 1 && H > 1;
}

/* next class, then next distance within the current kind */
static int kind_step(mc_a2a_iter_t *it)
{
    int W = it->W, H = it->H, mode = it->mode;
    mc_a2a_round_t *r = &it->r;
    int ni = r->a ? nclasses(r->a, W, mode) : 1;
    int nj = r->b ? nclasses(r->b, H, mode) : 1;
    if (mode != MC_A2A_LITERAL) {
        if (++r->j < nj)
            return 1;
        r->j = 0;
        if (++r->i < ni)
            return 1;
        r->i = 0;
    }
    if (r->kind == MC_A2A_DR1)
        return ++r->a < W;
    if (r->kind == MC_A2A_DR2)
        return ++r->b < H;
    if (++r->a < W) /* diagonal: b outer, a inner */
        return 1;
    r->a = 1;
    return ++r->b < H;
}

int mc_a2a_next(mc_a2a_iter_t *it)
{
    int kind;
    if (!it->started) {
        it->started = 1;
        kind = MC_A2A_DR1;
    } else {
        if (kind_step(it))
            return 1;
        kind = it->r.kind + 1;
    }
    for (; kind <= MC_A2A_RR; kind++)
        if (kind_start(it, kind))
            return 1;
    it->r.kind = MC_A2A_RR + 1;
    return 0;
}

long mc_a2a_nrounds(int W, int H, int mode)
{
    long sx = 0, sy = 0;
    for (int a = 1; a < W; a++)
        sx += nclasses(a, W, mode);
    for (int b = 1; b < H; b++)
        sy += nclasses(b, H, mode);
    return sx + sy + 2 * sx * sy;
}

static int on_grid(int W, int H, int x, int y)
{
    return x >= 0 && x < W && y >= 0 && y < H;
}

int mc_a2a_partners(int W, int H, const mc_a2a_round_t *r, int x, int y,
                    int out[2])
{
    out[0] = out[1] = -1;
    if (r->i >= 0 && r->a && x % r->a != r->i)
        return 0;
    if (r->j >= 0 && r->b && y % r->b != r->j)
        return 0;
    /* offsets of the first partner; the second is the opposite */
    int ox = r->a, oy = r->b;
    if (r->kind == MC_A2A_LR)
        ox = -r->a;
    int n = 0;
    if (on_grid(W, H, x + ox, y + oy))
        out[0] = mc_mesh_rank(W, x + ox, y + oy), n++;
    if (on_grid(W, H, x - ox, y - oy))
        out[1] = mc_mesh_rank(W, x - ox, y - oy), n++;
    return n;
}

/* ---- trees ---- */

/* parent of (x, y) in a tree rooted at (rx, ry) */
static void tree_parent(int style, int rx, int ry, int x, int y, int *px,
                        int *py)
{
    int alongx;
    if (x == rx)
        alongx = 0;
    else if (y == ry || style == MC_MTREE_COLFIRST)
        alongx = 1;
    else
        alongx = (x + y) % 2 == 0;
    *px = alongx ? x - sgn(x - rx) : x;
    *py = alongx ? y : y - sgn(y - ry);
}

void mc_mesh_tree(int W, int H, int style, int rx, int ry, int x, int y,
                  mc_mesh_node_t *out)
{
    static const int nb[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    out->depth = abs(x - rx) + abs(y - ry);
    out->parent = -1;
    if (out->depth) {
        int px, py;
        tree_parent(style, rx, ry, x, y, &px, &py);
        out->parent = mc_mesh_rank(W, px, py);
    }
    out->nchildren = 0;
    for (int k = 0; k < 4; k++) {
        int cx = x + nb[k][0], cy = y + nb[k][1], px, py;
        if (!on_grid(W, H, cx, cy) || (cx == rx && cy == ry))
            continue;
        tree_parent(style, rx, ry, cx, cy, &px, &py);
        if (px == x && py == y)
            out->child[out->nchildren++] = mc_mesh_rank(W, cx, cy);
    }
}

int mc_mesh_tree_height(int W, int H, int rx, int ry)
{
    return imax(rx, W - 1 - rx) + imax(ry, H - 1 - ry);
}

/* ---- two-step reduction ---- */

static int maxcol(int H, int ry) { return imax(ry, H - 1 - ry); }
static int maxrow(int W, int rx) { return imax(rx, W - 1 - rx); }

int mc_mesh_reduce_parent(int W, int H, int rx, int ry, int x, int y)
{
    (void)H;
    if (x == rx && y == ry)
        return -1;
    if (x == rx || y == ry)
        return mc_mesh_rank(W, rx, ry);
    return mc_mesh_rank(W, x, ry);
}

int mc_mesh_reduce_nrounds(int W, int H, int rx, int ry)
{
    return maxcol(H, ry) + maxrow(W, rx);
}

int mc_mesh_reduce_round(int W, int H, int rx, int ry, int x, int y)
{
    if (y != ry) /* step 1, along the column */
        return maxcol(H, ry) - abs(y - ry);
    if (x != rx) /* step 2, along the row */
        return maxcol(H, ry) + maxrow(W, rx) - abs(x - rx);
    return -1;
}

int mc_mesh_reduce_from(int W, int H, int rx, int ry, int x, int y,
                        int round, int out[2])
{
    out[0] = out[1] = -1;
    if (y != ry || round < 0)
        return 0; /* only the root's row receives */
    int mc = maxcol(H, ry), n = 0;
    if (round < mc) {
        int d = mc - round;
        if (ry - d >= 0)
            out[0] = mc_mesh_rank(W, x, ry - d), n++;
        if (ry + d < H)
            out[1] = mc_mesh_rank(W, x, ry + d), n++;
        return n;
    }
    int d = mc + maxrow(W, rx) - round;
    if (x != rx || d <= 0)
        return 0;
    if (rx - d >= 0)
        out[0] = mc_mesh_rank(W, rx - d, ry), n++;
    if (rx + d < W)
        out[1] = mc_mesh_rank(W, rx + d, ry), n++;
    return n;
}

int mc_mesh_reduce_after(int W, int H, int rx, int ry, int x, int y)
{
    if (y != ry) {
        int ny = y + sgn(y - ry);
        return ny >= 0 && ny < H ? mc_mesh_rank(W, x, ny) : -1;
    }
    if (x != rx) {
        int nx = x + sgn(x - rx);
        return nx >= 0 && nx < W ? mc_mesh_rank(W, nx, y) : -1;
    }
    return -1;
}
