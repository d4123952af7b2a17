#include <string.h>

#include "util/error.h"
#include "util/jsonrd.h"

int mc_jrd_bad(const mc_jrd_t *r, const char *key, const char *what)
{
    return mc_error(MC_ERR_ARG, "%s%s: %s%s%s: %s", r->prefix ? r->prefix : "",
                    r->file, r->where, *r->where ? "." : "", key, what);
}

int mc_jrd_check_keys(const mc_jrd_t *r, json_t *o,
                      const char *const *allowed)
{
    const char *k;
    json_t *v;
    json_object_foreach(o, k, v) {
        int ok = 0;
        for (int i = 0; allowed[i] && !ok; i++)
            ok = !strcmp(k, allowed[i]);
        if (!ok)
            return mc_jrd_bad(r, k, "unknown key");
    }
    return MC_OK;
}
