/* Grids of tiles on a simulated mesh chip (grid.h). */
#include <stdio.h>

#include "util/error.h"
#include "sim/grid.h"

int mc_plat_grid_parse(const char *spec, mc_plat_grid_t *g)
{
    char tail;
    *g = (mc_plat_grid_t){0};
    int n = sscanf(spec, "%dx%d%c%d,%d%c", &g->w, &g->h, &tail, &g->x0,
                   &g->y0, &tail);
    if (!(n == 2 || (n == 5 && tail == '@')))
        return -1;
    return g->w >= 1 && g->h >= 1 && g->x0 >= 0 && g->y0 >= 0 ? 0 : -1;
}

static int core_at(const mc_platform_t *p, int x, int y, int slot)
{
    return (y * p->used_x + x) * p->cores_per_tile + slot;
}

int mc_plat_grid_cores(const mc_platform_t *p, mc_plat_grid_t *g,
                       const char *who, int *cores)
{
    if (p->cc || g->x0 + g->w > p->used_x || g->y0 + g->h > p->used_y)
        return mc_error(MC_ERR_ARG,
                        "%s %dx%d@%d,%d: platform %s has %dx%d usable tiles%s",
                        who, g->w, g->h, g->x0, g->y0, p->name, p->used_x,
                        p->used_y, p->cc ? " on a ring, not a mesh" : "");
    g->cpt = p->cores_per_tile;
    int n = 0;
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++)
            for (int s = 0; s < g->cpt; s++)
                cores[n++] = core_at(p, g->x0 + x, g->y0 + y, s);
    return MC_OK;
}

int mc_plat_grid_of(const mc_platform_t *p, const int *cores, int n,
                    mc_plat_grid_t *g)
{
    if (p->cc || n < 1)
        return 0;
    int cpt = 1;
    while (cpt < n && p->tile_x[cores[cpt]] == p->tile_x[cores[0]] &&
           p->tile_y[cores[cpt]] == p->tile_y[cores[0]])
        cpt++;
    if (n % cpt)
        return 0;
    int tiles = n / cpt, w = 1;
    int x0 = p->tile_x[cores[0]], y0 = p->tile_y[cores[0]];
    while (w < tiles && p->tile_y[cores[w * cpt]] == y0 &&
           p->tile_x[cores[w * cpt]] == x0 + w)
        w++;
    if (tiles % w)
        return 0;
    for (int r = 0; r < n; r++) {
        int t = r / cpt, c = cores[r];
        if (p->tile_x[c] != x0 + t % w || p->tile_y[c] != y0 + t / w)
            return 0;
        /* cores of a tile in increasing order: no core twice */
        if (r % cpt && c <= cores[r - 1])
            return 0;
        if (mc_plat_chip(p, c) != mc_plat_chip(p, cores[0]))
            return 0; /* several chips are not one mesh */
    }
    *g = (mc_plat_grid_t){w, tiles / w, cpt, x0, y0};
    return 1;
}
