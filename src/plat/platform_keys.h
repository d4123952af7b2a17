/*
 * The keys of a platform file, section by section, in one place
 * (platform_keys.c, docs/platforms.md): those the loader reads and those
 * it accepts without reading (reserved: documentation, and keys kept for
 * the future). A file is checked once its "extends" chain is merged: a
 * key in neither list is an error naming the file it came from, the
 * section and the nearest known key, so a typo cannot change what is
 * simulated. Lenient loading lists such keys instead (a warning).
 */
#ifndef MC_PLAT_PLATFORM_KEYS_H
#define MC_PLAT_PLATFORM_KEYS_H

#include <jansson.h>
#include <stddef.h>

/* files one platform file may extend, one after the other */
#define MC_PLAT_EXTENDS_MAX 8

/* The files of one platform as read: path[0] the file named, path[i + 1]
 * the file that path[i] extends; tree[i] the keys of path[i] alone (not
 * merged), to say which file a key came from. */
typedef struct mc_plat_files {
    int n;
    char *path[MC_PLAT_EXTENDS_MAX + 1];
    json_t *tree[MC_PLAT_EXTENDS_MAX + 1];
} mc_plat_files_t;

/* Reads the platform file at path and the files it extends ("extends":
 * NAME, found as mc_data_path finds platforms) into *f, and returns their
 * keys merged (each file's over those of the file it extends, objects key
 * by key; json_decref it), or NULL with the error recorded: a missing or
 * unreadable "extends" names the key, its value and where it was looked
 * for. mc_plat_files_free(f) in both cases. */
json_t *mc_plat_read_files(const char *path, mc_plat_files_t *f);
void mc_plat_files_free(mc_plat_files_t *f);

/* Checks every key of merged (mc_plat_read_files' result) against the
 * schema: a single-chip platform or, when it has "chips", several chips.
 * ignored NULL (strict): MC_OK, or MC_ERR_ARG for the first unknown key,
 * "FILE: topology.cores_per_tiles: unknown key; did you mean
 * "cores_per_tile"? (docs/platforms.md lists the keys)". ignored given
 * (lenient): MC_OK, and the unknown keys appended to ignored (len bytes,
 * NUL-terminated, "..." when cut): "FILE: topology.cores_per_tiles,
 * contention.mbp", a key from a file it extends followed by "(in FILE)";
 * nothing when every key is known. */
int mc_plat_check_keys(const mc_plat_files_t *f, json_t *merged,
                       char *ignored, size_t len);

#endif
