/* Creating a team (team.h): the layouts its owners reserve, then memory. */
#include <stdlib.h>
#include <string.h>

#include "coll/fast.h"
#include "coll/flags.h"
#include "coll/team.h"
#include "util/config.h"
#include "util/error.h"

/* payload bytes per two-sided chunk: MC_P2P_CHUNK, else the transport's
 * hint, at most the general MPB area, whole elements of every datatype */
static int p2p_setup(mc_team_t *t)
{
    long long chunk = 0;
    int rc = mc_env_int("MC_P2P_CHUNK", &chunk);
    size_t mpb = t->mpb_avail / 8 * 8;
    if (chunk == 0)
        chunk = (long long)t->tp->p2p_chunk_hint / 8 * 8;
    t->p2p_chunk = (chunk <= 0 || (size_t)chunk > mpb) ? mpb : (size_t)chunk;
    return rc;
}

/* MC_P2P_SCHEME, where peers may sit on other chips: a landing area in
 * every MPB for rp_lg and lp_lg, the upper half of the chunk (the lower
 * half stays the sender's own, so a rank can send and receive at once) */
static int scheme_setup(mc_team_t *t)
{
    static const char *const names[] = {"lp_rg", "rp_lg", "lp_lg", "auto"};
    const char *v = mc_env("MC_P2P_SCHEME");
    int s = 0;
    while (s < 4 && strcmp(v, names[s]))
        s++;
    if (s == 4)
        return mc_error(MC_ERR_ARG, "MC_P2P_SCHEME=%s: not one of lp_rg, "
                                    "rp_lg, lp_lg, auto", v);
    long long pipe = 0;
    MC_CHECK(mc_env_int("MC_P2P_PIPE", &pipe));
    size_t line = t->tp->line < 8 ? 8 : t->tp->line;
    size_t half = t->p2p_chunk / 2 / line * line;
    t->p2p_pipe = (size_t)pipe;
    t->p2p_half = half;
    t->p2p_scheme = MC_P2P_LP_RG;
    t->p2p_land = 0;
    if (!t->tp->host_link)
        return MC_OK;
    if (s == 3)
        s = MC_P2P_LP_LG;
    if (s != MC_P2P_LP_RG && half > 0) {
        t->p2p_scheme = s;
        t->p2p_chunk = t->p2p_land = half;
    }
    return MC_OK;
}

int mc_team_layout(mc_team_t *t, mc_tp_t *tp)
{
    *t = (mc_team_t){.tp = tp, .rank = tp->rank, .size = tp->size,
                     .mpb_avail = tp->mpb_size};
    MC_CHECK(mc_flags_setup(t));
    MC_CHECK(mc_fast_setup(t));
    MC_CHECK(p2p_setup(t));
    return scheme_setup(t);
}

int mc_team_init(mc_team_t *t, mc_tp_t *tp)
{
    int rc = mc_team_layout(t, tp);
    size_t n = (size_t)t->size;
    t->tp = tp; /* owned from here on, also on failure */
    if (n <= MC_TEAM_DENSE) {
        t->p2p_ctr = calloc(2 * n, sizeof(uint64_t));
        t->fast_seen = calloc(n, sizeof(uint64_t));
        if (rc == MC_OK && (!t->p2p_ctr || !t->fast_seen))
            rc = mc_error(MC_ERR_NOMEM, "out of memory creating a "
                                        "communicator");
    }
    if (rc != MC_OK)
        mc_team_fini(t);
    return rc;
}

void mc_team_fini(mc_team_t *t)
{
    if (t->tp)
        t->tp->ops->destroy(t->tp);
    free(t->p2p_ctr);
    free(t->ctr_key);
    free(t->ctr_val);
    free(t->fast_seen);
    free(t->scratch);
    *t = (mc_team_t){0};
}
