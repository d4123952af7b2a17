/*
 * The replay's index of the ranks by chip (src/replay/chips.c), used by
 * node splits above the recorded size, against the scans it replaced:
 * the i-th rank on a chip, and how many of a chip's ranks are below a
 * rank, on one chip (scc48) and five (vscc240), for world sizes from 1
 * to every core, with the ranks on cores in order and scattered (a
 * --map), and for chips, places and ranks out of range.
 */
#include <stdio.h>
#include <stdlib.h>

#include "plat/platform.h"
#include "replay/run_int.h"

#include "check.h"

static int chip_of(const mc_rp_plan_t *pl, int r)
{
    return mc_plat_chip(pl->plat, pl->cores ? pl->cores[r] : r);
}

/* the scans that were in comms.c */
static int member_scan(const mc_rp_plan_t *pl, int chip, int i)
{
    for (int q = 0; q < pl->N; q++)
        if (chip_of(pl, q) == chip && i-- == 0)
            return q;
    return -1;
}

static int below_scan(const mc_rp_plan_t *pl, int chip, int q)
{
    int k = 0;
    for (int c = 0; c < q; c++)
        k += chip_of(pl, c) == chip;
    return k;
}

static void one(const mc_platform_t *p, int N, const int *cores)
{
    mc_rp_plan_t pl = {.N = N, .plat = p, .cores = cores};
    CHECK(mc_rp_chips(&pl) == 0, "%s, %d ranks: no index", p->name, N);
    int chips = p->host.nchips > 1 ? p->host.nchips : 1;
    for (int c = -1; c <= chips; c++) {
        for (int i = -1; i <= N; i++)
            CHECK(mc_rp_chip_member(&pl, c, i) == member_scan(&pl, c, i),
                  "%s, %d ranks%s: rank %d of chip %d is %d, not %d",
                  p->name, N, cores ? " (mapped)" : "", i, c,
                  mc_rp_chip_member(&pl, c, i), member_scan(&pl, c, i));
        for (int q = 0; q <= N; q++)
            CHECK(mc_rp_chip_below(&pl, c, q) == below_scan(&pl, c, q),
                  "%s, %d ranks%s: %d of chip %d's below %d, not %d",
                  p->name, N, cores ? " (mapped)" : "",
                  mc_rp_chip_below(&pl, c, q), c, q, below_scan(&pl, c, q));
    }
    mc_rp_chips_free(&pl);
}

int main(void)
{
    const char *names[] = {"scc48", "vscc240"};
    for (int k = 0; k < 2; k++) {
        mc_platform_t *p = NULL;
        CHECK(mc_platform_load(names[k], &p) == 0, "%s: not loaded",
              names[k]);
        if (!p)
            continue;
        int n = p->ncores, *cores = malloc(sizeof(int) * (size_t)n);
        for (int r = 0; r < n; r++) /* 37 and n coprime: a permutation */
            cores[r] = (int)((37L * r + 5) % n);
        const int sizes[] = {1, 2, 7, 47, 48, 49, 100, 239, 240};
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
            if (sizes[s] <= n) {
                one(p, sizes[s], NULL);
                one(p, sizes[s], cores);
            }
        free(cores);
        mc_platform_free(p);
    }
    return check_done("test_replay_chips", "ok");
}
