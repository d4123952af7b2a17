/*
 * Automatic parameters from the built-in xeonphi60 model (auto.h).
 * Automatic trees have at most MC_CC_KMAX = 4 levels, the room the
 * parameters have; up to 60 ranks that is the unconstrained optimum
 * (Table B.1 has d <= 3).
 *
 * The optimiser takes microseconds (10 us for a 60-rank tree), and a
 * simulated chip creates a communicator per core, so the answers are
 * cached per rank count: one 64-bit word each, the fan-outs packed 16
 * bits apiece (0: not computed yet). The answer is a pure function of n,
 * so threads racing to fill a word store the same value; relaxed atomics
 * make that race benign -- no lock. Rank counts beyond the cache are
 * worked out every time.
 */
#include <stdatomic.h>

#include "coll/cc.h"
#include "model/ccauto.h"
#include "select/auto.h"

#define CACHE_N 4096

static _Atomic uint64_t tree_cache[2][CACHE_N];
static _Atomic uint64_t m_cache[CACHE_N];

int mc_auto_tree(int reduce, int n, mc_params_t *p)
{
    if (p->v[MC_CC_K1] != 0 || n < 2)
        return MC_OK;
    _Atomic uint64_t *slot = n < CACHE_N ? &tree_cache[reduce][n] : NULL;
    uint64_t packed = slot ? atomic_load_explicit(slot, memory_order_relaxed)
                           : 0;
    if (!packed) {
        int d, k[MC_CCM_MAX_LEVELS];
        MC_CHECK(mc_ccauto_tree(NULL,
                                reduce ? MC_CCOPT_REDUCE_SMALL
                                       : MC_CCOPT_BCAST_SMALL,
                                n, MC_CC_KMAX, &d, k));
        for (int i = 0; i < d; i++) /* k_i <= n - 1 < 2^16 */
            packed |= (uint64_t)k[i] << (16 * i);
        if (slot)
            atomic_store_explicit(slot, packed, memory_order_relaxed);
    }
    for (int i = 0; i < MC_CC_KMAX; i++)
        p->v[MC_CC_K1 + i] = (int64_t)((packed >> (16 * i)) & 0xffff);
    return MC_OK;
}

int mc_auto_barrier_m(int n, mc_params_t *p)
{
    if (p->v[MC_CC_M] != 0 || n < 2)
        return MC_OK;
    _Atomic uint64_t *slot = n < CACHE_N ? &m_cache[n] : NULL;
    uint64_t m = slot ? atomic_load_explicit(slot, memory_order_relaxed) : 0;
    if (!m) {
        int mp;
        MC_CHECK(mc_ccauto_barrier(NULL, n, &mp));
        m = (uint64_t)mp;
        if (slot)
            atomic_store_explicit(slot, m, memory_order_relaxed);
    }
    p->v[MC_CC_M] = (int64_t)m;
    return MC_OK;
}

int mc_auto_model(mc_model_param_t kind, const mc_team_t *t, mc_params_t *p)
{
    switch (kind) {
    case MC_MODEL_BCAST_TREE:
        return mc_auto_tree(0, t->size, p);
    case MC_MODEL_REDUCE_TREE:
        return mc_auto_tree(1, t->size, p);
    case MC_MODEL_BARRIER_M:
        return mc_auto_barrier_m(t->size, p);
    case MC_MODEL_NONE:
        break;
    }
    return MC_OK;
}
