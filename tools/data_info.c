/* manycoll.algorithms as C calls (data.h): the registry's algorithms and
 * their parameters, the records of `manycoll info --json`. */
#include <string.h>

#include "data.h"
#include "select/registry.h"
#include "util/error.h"

/* the i-th algorithm of the registry, or NULL */
static const mc_algo_t *algo_at(int i)
{
    for (int k = 0; i >= 0 && mc_algos[k].name; k++)
        if (k == i)
            return &mc_algos[k];
    return NULL;
}

int mc_algo_data(int i, mc_algo_row_t *r)
{
    const mc_algo_t *a = algo_at(i);
    if (!a)
        return mc_error(MC_ERR_ARG, "no algorithm %d in the registry", i);
    memset(r, 0, sizeof *r);
    r->coll = mc_coll_name(a->coll);
    r->algo = a->name;
    r->desc = a->desc;
    r->fallback = a->impl->fallback;
    r->declines = a->impl->declines;
    r->commutative_only = (a->impl->needs & MC_ALGO_COMMUTATIVE) != 0;
    r->single_copy = (a->impl->needs & MC_ALGO_SINGLE_COPY) != 0;
    const mc_param_desc_t *ps = mc_algo_params(a);
    while (ps[r->nparams].name)
        r->nparams++;
    while (r->nvariants < 5 && a->variants[r->nvariants]) {
        r->variants[r->nvariants] = a->variants[r->nvariants];
        r->nvariants++;
    }
    return MC_OK;
}

int mc_algo_param_data(int i, int j, mc_param_row_t *p)
{
    mc_algo_row_t r;
    MC_CHECK(mc_algo_data(i, &r));
    if (j < 0 || j >= r.nparams)
        return mc_error(MC_ERR_ARG, "%s has no parameter %d", r.algo, j);
    const mc_param_desc_t *d = &mc_algo_params(algo_at(i))[j];
    *p = (mc_param_row_t){.name = d->name, .help = d->help,
                          .def = (long long)d->def, .min = (long long)d->min,
                          .max = (long long)d->max};
    return MC_OK;
}
