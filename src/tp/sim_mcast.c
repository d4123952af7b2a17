/* The simulator transport's multicast over a static network (sim.c has
 * the rest of the transport). */
#include <stdlib.h>
#include <string.h>

#include "sim/domain.h"
#include "sim/engine.h"
#include "tp/sim_impl.h"
#include "util/error.h"

/*
 * Static-network multicast (the TilePro64's SN, NoCMsg's broadcast):
 * every core pays sn_setup to configure its route; the root then injects
 * the message, which the routers forward down the column-first tree with
 * no core involved, reaching core v (h hops away) at
 *   root's start + (h + 1) sn_hop + m packet_link
 * where the receiver polls it (o_recv) and has it. Routers that are
 * configured later than the data reach them would hold it back; all
 * cores configure at the same cost on entry, so this is ignored. The
 * simulator keeps the bytes in a stage until every receiver has copied
 * them, so the root may go on at once.
 */
int mc_sim_tp_mcast(mc_tp_t *tp, int root, void *buf, size_t n)
{
    sim_tp_t *t = st(tp);
    mc_sim_domain_t *d = t->dom;
    const mc_platform_t *p = mc_sim_platform(t->sim);
    uint64_t seq = ++t->mcasts;
    MC_CHECK(mc_sim_busy(t->sim, "sn_setup", p->net.sn_setup));
    if (!d->mcast_word) {
        d->mcast_word = calloc((size_t)d->n, sizeof(uint64_t));
        if (!d->mcast_word)
            return mc_error(MC_ERR_NOMEM, "simulator: out of memory for the "
                            "static network's words (%zu bytes)",
                            (size_t)d->n * sizeof(uint64_t));
    }
    mc_ps_t train = (mc_ps_t)((n + p->line - 1) / p->line) * p->net.pkt_link;
    if (tp->rank == root && d->n == 1)
        return MC_OK;
    if (tp->rank == root) {
        mc_sim_stage_t *g = malloc(sizeof *g + n);
        if (!g)
            return mc_error(MC_ERR_NOMEM, "simulator: out of memory for a "
                            "multicast in flight (%zu bytes)", sizeof *g + n);
        *g = (mc_sim_stage_t){d->stages, seq, d->n - 1, n};
        memcpy(g->data, buf, n);
        d->stages = g;
        mc_ps_t now = mc_sim_now(t->sim);
        for (int v = 0; v < d->n; v++) {
            int h = abs(p->tile_x[t->core] - p->tile_x[d->cores[v]]) +
                    abs(p->tile_y[t->core] - p->tile_y[d->cores[v]]);
            if (v != root)
                mc_sim_post(t->sim, &d->mcast_word[v], seq,
                            now + (h + 1) * p->net.sn_hop + train);
        }
        return mc_sim_busy(t->sim, "sn_send", train);
    }
    MC_CHECK(mc_sim_flag_wait(t->sim, &d->mcast_word[tp->rank], t->core, seq,
                              NULL, 0));
    for (mc_sim_stage_t **pg = &d->stages; *pg; pg = &(*pg)->next) {
        mc_sim_stage_t *g = *pg;
        if (g->seq != seq)
            continue;
        memcpy(buf, g->data, n < g->n ? n : g->n);
        if (--g->refs == 0) {
            *pg = g->next;
            free(g);
        }
        return MC_OK;
    }
    return mc_error(MC_ERR_INTERNAL, "static network: multicast %llu lost",
                    (unsigned long long)seq);
}
