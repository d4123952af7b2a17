#include "coll/ring.h"
#include "sched/sched.h"

static int mod(int b, int n) { return (b % n + n) % n; }

size_t mc_ring_off(const mc_team_t *c, const mc_ring_t *g, int b)
{
    return mc_block_start_b(g->count, c->size, mod(b + g->shift, c->size),
                            g->balance) *
           g->dsize;
}

size_t mc_ring_len(const mc_team_t *c, const mc_ring_t *g, int b)
{
    return mc_block_len_b(g->count, c->size, mod(b + g->shift, c->size),
                          g->balance) *
           g->dsize;
}

size_t mc_ring_max(const mc_team_t *c, const mc_ring_t *g)
{
    /* the first block is the largest of either split */
    return mc_block_len_b(g->count, c->size, 0, g->balance) * g->dsize;
}

int mc_ring_reduce_scatter(mc_team_t *c, const mc_ring_t *g,
                           unsigned char *buf, const mc_red_t *red)
{
    int n = c->size, r = c->rank;
    int right = mc_ring_right(r, n), left = mc_ring_left(r, n);
    for (int s = 0; s < n - 1; s++) {
        int out = r - s, in = r - s - 1;
        MC_CHECK(mc_p2p_round(c, &g->mode, r, right, buf + mc_ring_off(c, g, out),
                              mc_ring_len(c, g, out), left,
                              buf + mc_ring_off(c, g, in),
                              mc_ring_len(c, g, in), red));
    }
    return MC_OK;
}

int mc_ring_allgather(mc_team_t *c, const mc_ring_t *g, unsigned char *buf)
{
    int n = c->size, r = c->rank;
    int right = mc_ring_right(r, n), left = mc_ring_left(r, n);
    for (int s = 0; s < n - 1; s++) {
        int out = r + 1 - s, in = r - s;
        MC_CHECK(mc_p2p_round(c, &g->mode, r, right, buf + mc_ring_off(c, g, out),
                              mc_ring_len(c, g, out), left,
                              buf + mc_ring_off(c, g, in),
                              mc_ring_len(c, g, in), NULL));
    }
    return MC_OK;
}
