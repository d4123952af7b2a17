#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/datapath.h"
#include "util/error.h"

#ifndef MC_SOURCE_DIR
#define MC_SOURCE_DIR "."
#endif
#ifndef MC_INSTALL_DATADIR
#define MC_INSTALL_DATADIR "/usr/local/share/manycoll"
#endif

int mc_data_path(const char *sub, const char *name, char *buf, size_t len)
{
    size_t n = strlen(name);
    if (strchr(name, '/') || (n > 5 && !strcmp(name + n - 5, ".json"))) {
        if (access(name, R_OK) != 0)
            return mc_error(MC_ERR_ARG, "cannot read '%s'", name);
        snprintf(buf, len, "%s", name);
        return MC_OK;
    }
    const char *env = getenv("MC_DATA_DIR");
    const char *dirs[3] = {env && *env ? env : NULL, MC_SOURCE_DIR,
                           MC_INSTALL_DATADIR};
    for (int i = 0; i < 3; i++) {
        if (!dirs[i])
            continue;
        snprintf(buf, len, "%s/%s/%s.json", dirs[i], sub, name);
        if (access(buf, R_OK) == 0)
            return MC_OK;
    }
    return mc_error(MC_ERR_ARG,
                    "no %s named '%s' (looked in $MC_DATA_DIR, %s/%s and "
                    "%s/%s)",
                    sub, name, MC_SOURCE_DIR, sub, MC_INSTALL_DATADIR, sub);
}
