/*
 * The node splits of a replay above the recorded size (comms.c, rule
 * CHIP: the ranks of one simulated chip, in rank order). Built once per
 * replay, in O(N + chips): the ranks listed chip by chip, in rank order
 * (chip c's are list[first[c]] .. list[first[c + 1] - 1]). A member's
 * lookup is then O(1) and a peer's place O(log N); a scan of the world
 * per lookup made a v-collective's counts O(N^2) per rank on a node split
 * (O(N^3) per call) and each message on one O(N).
 */
#include <stdlib.h>

#include "replay/run_int.h"
#include "util/error.h"

static int chip_of(const mc_rp_plan_t *pl, int r)
{
    return mc_plat_chip(pl->plat, pl->cores ? pl->cores[r] : r);
}

int mc_rp_chips(mc_rp_plan_t *pl)
{
    int n = 0;
    for (int r = 0; r < pl->N; r++)
        n = chip_of(pl, r) + 1 > n ? chip_of(pl, r) + 1 : n;
    pl->nchips = n;
    pl->chip_first = calloc((size_t)n + 1, sizeof *pl->chip_first);
    pl->chip_list = malloc(((size_t)pl->N + 1) * sizeof *pl->chip_list);
    int *next = calloc((size_t)n + 1, sizeof *next);
    if (!pl->chip_first || !pl->chip_list || !next) {
        free(next);
        return mc_error(MC_ERR_NOMEM, "replay: out of memory for the ranks "
                        "of %d chips", n);
    }
    for (int r = 0; r < pl->N; r++)
        pl->chip_first[chip_of(pl, r) + 1]++;
    for (int c = 0; c < n; c++)
        next[c] = pl->chip_first[c + 1] += pl->chip_first[c];
    for (int c = n - 1; c >= 0; c--)
        next[c] = pl->chip_first[c];
    for (int r = 0; r < pl->N; r++)
        pl->chip_list[next[chip_of(pl, r)]++] = r;
    free(next);
    return MC_OK;
}

void mc_rp_chips_free(mc_rp_plan_t *pl)
{
    free(pl->chip_first), free(pl->chip_list);
    pl->chip_first = pl->chip_list = NULL;
    pl->nchips = 0;
}

int mc_rp_chip_member(const mc_rp_plan_t *pl, int chip, int i)
{
    if (chip < 0 || chip >= pl->nchips || i < 0 ||
        i >= pl->chip_first[chip + 1] - pl->chip_first[chip])
        return -1;
    return pl->chip_list[pl->chip_first[chip] + i];
}

int mc_rp_chip_below(const mc_rp_plan_t *pl, int chip, int q)
{
    if (chip < 0 || chip >= pl->nchips)
        return 0;
    int lo = pl->chip_first[chip], hi = pl->chip_first[chip + 1];
    while (lo < hi) { /* the first of the chip's ranks >= q */
        int mid = lo + (hi - lo) / 2;
        if (pl->chip_list[mid] < q)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo - pl->chip_first[chip];
}
