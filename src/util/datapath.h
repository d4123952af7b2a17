/*
 * Finding data files (platforms/NAME.json, platforms/profiles/NAME.json):
 *   1. a name containing '/' or ending in ".json" is a path, used as is;
 *   2. otherwise <dir>/<sub>/<name>.json for dir in: $MC_DATA_DIR, the
 *      source tree this was built from, <install prefix>/share/manycoll.
 */
#ifndef MC_DATAPATH_H
#define MC_DATAPATH_H

#include <stddef.h>

/* sub is "platforms" or "platforms/profiles". MC_OK and the path in buf,
 * or MC_ERR_ARG with a message listing where it looked. */
int mc_data_path(const char *sub, const char *name, char *buf, size_t len);

#endif
