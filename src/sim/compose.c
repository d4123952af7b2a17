/*
 * The cost models of a simulation, composed from its platform (cost.h):
 * the one that prices operations, then the parts it may use, each made
 * by its own init and freed by its own fini.
 *
 *   platform          prices operations   with the parts
 *   coherent (cc)     cc                  cal (contention)
 *   network           msg                 cal (MPB ports for flag lines)
 *   MPBs, one chip    mpb                 cal, cache
 *   MPBs, chips       mpb                 cal, cache, host
 */
#include <stdio.h>

#include "sim/engine_impl.h"
#include "util/error.h"

/* the models that price operations, the first wanted one chosen (mpb
 * wants every platform the others do not) */
static const mc_sim_model_t *const chips[] = {&mc_model_cc, &mc_model_msg,
                                              &mc_model_mpb};

/* every model, in the order they are made (the chip model before the
 * parts: whether a part is wanted may depend on it); freed in reverse */
static const mc_sim_model_t *const models[] = {
    &mc_model_cc, &mc_model_msg, &mc_model_mpb,
    &mc_model_cal, &mc_model_cache, &mc_model_host,
};
#define NMODELS (sizeof models / sizeof *models)

/* whether model m is part of c (the chip model, or a part it wants) */
static int composed(const mc_cost_t *c, const mc_sim_model_t *m)
{
    if (m->op) /* one that prices operations: only the chosen one */
        return m == c->chip;
    return m->wanted(c);
}

int mc_cost_init(mc_cost_t *c)
{
    c->chip = NULL;
    for (size_t i = 0; i < sizeof chips / sizeof *chips && !c->chip; i++)
        if (!chips[i]->wanted || chips[i]->wanted(c))
            c->chip = chips[i];
    for (size_t i = 0; i < NMODELS; i++) {
        const mc_sim_model_t *m = models[i];
        if (!composed(c, m) || !m->init)
            continue;
        int rc = m->init(c);
        if (rc != MC_OK) {
            mc_cost_fini(c); /* what the failing one made, too */
            return rc;
        }
    }
    return MC_OK;
}

void mc_cost_fini(mc_cost_t *c)
{
    for (size_t i = NMODELS; i-- > 0;)
        if (models[i]->fini)
            models[i]->fini(c); /* NULL fields: nothing to free */
}

int mc_cost_domain_init(mc_cost_t *c, mc_sim_domain_t *d)
{
    for (size_t i = 0; i < NMODELS; i++) {
        const mc_sim_model_t *m = models[i];
        if (!m->domain_init || !composed(c, m))
            continue;
        int rc = m->domain_init(c, d);
        if (rc != MC_OK) {
            mc_cost_domain_fini(c, d);
            return rc;
        }
    }
    return MC_OK;
}

void mc_cost_domain_fini(mc_cost_t *c, mc_sim_domain_t *d)
{
    for (size_t i = NMODELS; i-- > 0;)
        if (models[i]->domain_fini && composed(c, models[i]))
            models[i]->domain_fini(c, d);
}

int mc_cost_nomem(const mc_cost_t *c, const char *what, size_t bytes)
{
    return mc_sim_fail(c->sim, MC_ERR_NOMEM, "simulator: out of memory for "
                       "%s (%zu bytes)", what, bytes);
}
