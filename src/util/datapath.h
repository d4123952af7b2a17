/*
 * Finding data files (platforms/NAME.json, platforms/profiles/NAME.json):
 *   1. a name containing '/' or ending in ".json" is a path, used as is;
 *   2. otherwise <dir>/<sub>/<name>.json for dir in, in order:
 *        $MC_DATA_DIR;
 *        <where this code was loaded from>/../share/manycoll (the
 *          installed layout: bin/manycoll or lib/libmanycoll.so beside
 *          share/manycoll, wherever the prefix was moved);
 *        the source tree, only while running from the build tree;
 *        the configured prefix's share/manycoll.
 */
#ifndef MC_DATAPATH_H
#define MC_DATAPATH_H

#include <stddef.h>

#define MC_DATA_DIRS 4

/* sub is "platforms" or "platforms/profiles". MC_OK and the path in buf,
 * or MC_ERR_ARG with a message listing where it looked. */
int mc_data_path(const char *sub, const char *name, char *buf, size_t len);

/* The directories searched, in order (NULL where one does not apply);
 * the strings stay valid until the next call. Returns how many are set. */
int mc_data_dirs(const char *dirs[MC_DATA_DIRS]);

#endif
