/*
 * The transport's topology on the simulator (tp.h mc_topo_t): a grid
 * placed with --grid semantics is seen as a grid by every rank, and so
 * are its rows and columns split off (sub-communicators), while a split
 * into every other core, a reordered split and ranks that are not a
 * rectangle are not; on scc48 a grid has two cores per tile.
 */
#include <stdio.h>
#include <stdlib.h>

#include "api/comm.h"
#include "job/sim_job.h"
#include "sim/grid.h"

#include "check.h"

static void expect(const mc_comm_t *c, int kind, int w, int h, int cpt,
                   int x0, int y0, const char *what)
{
    const mc_topo_t *t = &c->team.tp->topo;
    CHECK(t->kind == kind && (kind == MC_TOPO_NONE ||
                              (t->w == w && t->h == h && t->cpt == cpt &&
                               t->x0 == x0 && t->y0 == y0)),
          "%s, rank %d: kind %d %dx%d cpt %d at (%d,%d); want kind %d "
          "%dx%d cpt %d at (%d,%d)",
          what, c->team.rank, t->kind, t->w, t->h, t->cpt, t->x0, t->y0, kind, w,
          h, cpt, x0, y0);
}

/* a rank; arg: the expected grid (w = 0: none) */
static int topo_rank(mc_comm_t *c, int rank, void *arg)
{
    mc_comm_t *row, *col, *odd, *rev;
    const mc_plat_grid_t *g = arg;
    if (!g->w) {
        expect(c, MC_TOPO_NONE, 0, 0, 0, 0, 0, "not a grid");
        return MC_OK;
    }
    expect(c, MC_TOPO_GRID, g->w, g->h, g->cpt, g->x0, g->y0, "world");
    int tile = rank / g->cpt, x = tile % g->w, y = tile / g->w;
    mc_comm_split(c, y, rank, &row);
    expect(row, MC_TOPO_GRID, g->w, 1, g->cpt, g->x0, g->y0 + y, "a row");
    mc_comm_split(c, x, rank, &col);
    expect(col, MC_TOPO_GRID, 1, g->h, g->cpt, g->x0 + x, g->y0, "a column");
    mc_comm_split(c, rank % 2, rank, &odd);
    if (g->cpt == 2) /* one core of every tile: a grid again */
        expect(odd, MC_TOPO_GRID, g->w, g->h, 1, g->x0, g->y0, "one per tile");
    else if (g->w > 1 && g->w % 2 == 0)
        expect(odd, MC_TOPO_NONE, 0, 0, 0, 0, 0, "every other core");
    mc_comm_split(c, 0, -rank, &rev);
    if (c->team.size > 1)
        expect(rev, MC_TOPO_NONE, 0, 0, 0, 0, 0, "reversed");
    mc_comm_free(rev);
    mc_comm_free(odd);
    mc_comm_free(col);
    mc_comm_free(row);
    return MC_OK;
}

static void run(const char *plat, const char *grid, int nscatter)
{
    mc_platform_t *p;
    if (mc_platform_load(plat, &p) != MC_OK) {
        CHECK(0, "%s", mc_last_error());
        return;
    }
    mc_plat_grid_t g = {0};
    int *cores = malloc(sizeof(int) * (size_t)p->ncores), n = nscatter;
    if (grid) {
        CHECK(mc_plat_grid_parse(grid, &g) == 0 &&
                  mc_plat_grid_cores(p, &g, "--grid", cores) == MC_OK,
              "grid %s", grid);
        n = g.w * g.h * g.cpt;
    } else {
        for (int i = 0; i < n; i++) /* a diagonal: no rectangle */
            cores[i] = (i * (p->used_x + 1)) * p->cores_per_tile;
    }
    mc_sim_job_t job;
    mc_sim_job_set(&job, p, NULL, n, topo_rank, &g);
    job.cores = cores;
    mc_sim_job_stats_t st;
    CHECK(mc_sim_job_run(&job, &st) == MC_OK, "run: %s", mc_last_error());
    free(cores);
    mc_platform_free(p);
}

int main(void)
{
    run("tilepro64", "7x7", 0);
    run("tilepro64", "4x2@3,5", 0);
    run("tilepro64", "1x1@6,6", 0);
    run("scc48", "3x2@2,1", 0);
    run("tilepro64", NULL, 3);
    return check_done("test_mesh_topo", "grids and sub-grids seen as they "
                                        "are");
}
