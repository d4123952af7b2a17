/* The SCC's layout and Table 1 costs (Petrovic et al.), written out for
 * the simulator's tests independently of the simulator's code: core c
 * (of its chip: c % 48) on tile c/2 at (tile % 6, tile / 6), memory
 * controllers at (0,0) (5,0) (0,2) (5,2), distances counted in routers
 * (hops + 1). */
#ifndef MC_TEST_SCC_LAYOUT_H
#define MC_TEST_SCC_LAYOUT_H

#include <stdlib.h>

/* Table 1, in picoseconds */
enum {
    L_HOP = 5000, O_MPB = 126000, O_MEM_W = 461000, O_MEM_R = 208000,
    O_PUT_MPB = 69000, O_GET_MPB = 330000, O_PUT_MEM = 190000,
    O_GET_MEM = 95000
};

static inline int tx(int c) { return (c % 48 / 2) % 6; }
static inline int ty(int c) { return (c % 48 / 2) / 6; }
static inline int dist(int a, int b)
{
    return abs(tx(a) - tx(b)) + abs(ty(a) - ty(b)) + 1;
}
static inline int dmem(int c)
{
    static const int mx[4] = {0, 5, 0, 5}, my[4] = {0, 0, 2, 2};
    int best = 1 << 30;
    for (int i = 0; i < 4; i++) {
        int d = abs(tx(c) - mx[i]) + abs(ty(c) - my[i]);
        best = d < best ? d : best;
    }
    return best + 1;
}

#endif
