#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dladdr */
#endif
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/datapath.h"
#include "util/error.h"

#ifndef MC_SOURCE_DIR
#define MC_SOURCE_DIR "."
#endif
#ifndef MC_BINARY_DIR
#define MC_BINARY_DIR ""
#endif
#ifndef MC_INSTALL_DATADIR
#define MC_INSTALL_DATADIR "/usr/local/share/manycoll"
#endif

/* the directory of the file this code was loaded from (libmanycoll.so, or
 * the program it is linked into), resolved: "" when unknown */
static void loaded_from(char *dir, size_t len)
{
    Dl_info info;
    char real[PATH_MAX];
    dir[0] = 0;
    if (!dladdr((void *)loaded_from, &info) || !info.dli_fname ||
        !realpath(info.dli_fname, real)) {
        ssize_t n = readlink("/proc/self/exe", real, sizeof real - 1);
        if (n <= 0)
            return;
        real[n] = 0;
    }
    char *slash = strrchr(real, '/');
    if (slash)
        *slash = 0;
    snprintf(dir, len, "%s", real);
}

/* is dir inside the build tree this was compiled in? */
static int in_build_tree(const char *dir)
{
    char real[PATH_MAX];
    size_t n = strlen(MC_BINARY_DIR);
    if (!n || !realpath(MC_BINARY_DIR, real))
        return 0;
    n = strlen(real);
    return !strncmp(dir, real, n) && (dir[n] == 0 || dir[n] == '/');
}

int mc_data_dirs(const char *dirs[MC_DATA_DIRS])
{
    static char here[PATH_MAX], installed[PATH_MAX + 32];
    const char *env = getenv("MC_DATA_DIR");
    loaded_from(here, sizeof here);
    int build = *here && in_build_tree(here);
    installed[0] = 0;
    if (*here && !build)
        snprintf(installed, sizeof installed, "%s/../share/manycoll", here);
    dirs[0] = env && *env ? env : NULL;
    dirs[1] = *installed ? installed : NULL;
    dirs[2] = build || !*here ? MC_SOURCE_DIR : NULL;
    dirs[3] = MC_INSTALL_DATADIR;
    int n = 0;
    for (int i = 0; i < MC_DATA_DIRS; i++)
        n += dirs[i] != NULL;
    return n;
}

int mc_data_path(const char *sub, const char *name, char *buf, size_t len)
{
    size_t n = strlen(name);
    if (strchr(name, '/') || (n > 5 && !strcmp(name + n - 5, ".json"))) {
        if (access(name, R_OK) != 0)
            return mc_error(MC_ERR_ARG, "cannot read '%s'", name);
        snprintf(buf, len, "%s", name);
        return MC_OK;
    }
    const char *dirs[MC_DATA_DIRS];
    mc_data_dirs(dirs);
    char looked[1024] = "";
    size_t used = 0;
    for (int i = 0; i < MC_DATA_DIRS; i++) {
        if (!dirs[i])
            continue;
        snprintf(buf, len, "%s/%s/%s.json", dirs[i], sub, name);
        if (access(buf, R_OK) == 0)
            return MC_OK;
        if (used < sizeof looked)
            used += (size_t)snprintf(looked + used, sizeof looked - used,
                                     "%s%s/%s", used ? ", " : "", dirs[i],
                                     sub);
    }
    return mc_error(MC_ERR_ARG, "no %s named '%s' (looked in %s; "
                    "$MC_DATA_DIR adds a directory)", sub, name, looked);
}
