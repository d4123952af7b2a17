/*
 * Parameters of the model-tuned algorithms (cc.h): the tree of a call
 * from the fan-outs k1..k4. Automatic fan-outs (k1 = 0) and peers per
 * round are resolved by the selection, once per communicator, from the
 * built-in model (src/select/auto.c); a call that still sees them (an
 * algorithm run outside the selection) takes a flat tree.
 */
#include "coll/cc.h"

size_t mc_cc_half_chunk(const mc_team_t *c, int64_t want)
{
    size_t half = c->mpb.avail / 2, line = c->tp->line;
    size_t chunk = want <= 0 || (size_t)want > half ? half : (size_t)want;
    return chunk < line ? line : chunk / line * line;
}

int mc_cc_resolve_half(const mc_team_t *t, mc_params_t *p)
{
    p->v[MC_CC_HALF] = (int64_t)mc_cc_half_chunk(t, p->v[MC_CC_HALF]);
    return MC_OK;
}

int mc_cc_tree(const mc_params_t *p, int n, mc_ktree_t *t)
{
    int k[MC_CC_KMAX], d = 0;
    while (d < MC_CC_KMAX && p->v[MC_CC_K1 + d] > 0) {
        k[d] = (int)p->v[MC_CC_K1 + d];
        d++;
    }
    if (d == 0)
        k[d++] = n > 1 ? n - 1 : 1;
    if (mc_ktree_init(t, n, d, k) != 0)
        return mc_error(MC_ERR_ARG, "cc-tree: fan-outs k1..k%d do not make "
                        "a tree for %d ranks", d, n);
    return MC_OK;
}
