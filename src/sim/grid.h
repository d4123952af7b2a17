/*
 * Grids of tiles on a simulated mesh chip: where `manycoll sim --grid
 * WxH[@X,Y]` places the ranks, and whether a communicator's cores form
 * such a grid (the transport's topology, tp.h mc_topo_t).
 */
#ifndef MC_SIM_GRID_H
#define MC_SIM_GRID_H

#include "plat/platform.h"

/* Parses "WxH" or "WxH@X,Y" (X, Y default 0); -1 if malformed. */
int mc_plat_grid_parse(const char *spec, mc_plat_grid_t *g);

/* The cores of grid g (g->cpt = the platform's cores per tile), tile by
 * tile, row by row: w h cpt of them into cores[]. MC_ERR_ARG naming
 * `who` if the grid leaves the chip's usable tiles. */
int mc_plat_grid_cores(const mc_platform_t *p, mc_plat_grid_t *g,
                       const char *who, int *cores);

/* 1 (and *g) if cores[0..n) fill a rectangle of tiles in that order, the
 * same number of cores on every tile; else 0. */
int mc_plat_grid_of(const mc_platform_t *p, const int *cores, int n,
                    mc_plat_grid_t *g);

#endif
