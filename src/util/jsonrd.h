/*
 * Reading JSON data files (profiles, tuning files) with jansson: where we
 * are in the file, for messages that name the file and the entry.
 */
#ifndef MC_JSONRD_H
#define MC_JSONRD_H

#include <jansson.h>

typedef struct mc_jrd {
    const char *file;   /* as named in messages */
    const char *prefix; /* "" or e.g. "tuning file " */
    char where[96];     /* current entry, e.g. "rules[3]" */
} mc_jrd_t;

/* MC_ERR_ARG with "PREFIXFILE: WHERE.KEY: what" */
int mc_jrd_bad(const mc_jrd_t *r, const char *key, const char *what);
/* MC_OK, or an error naming the first key of o not in allowed (NULL-
 * terminated) and the allowed key it is a likely typo of, if any:
 * "FILE: WHERE.colour: unknown key; did you mean \"color\"?" */
int mc_jrd_check_keys(const mc_jrd_t *r, json_t *o,
                      const char *const *allowed);
/* 1 if key is one of allowed (NULL-terminated) */
int mc_jrd_known(const char *key, const char *const *allowed);
/* The entry of allowed nearest to key in edit distance (insertions,
 * deletions, substitutions and swaps of neighbours, each 1), when it is
 * near enough to be a typo of it (1 edit for keys of up to 4
 * characters, 2 up to 8, 3 beyond); NULL when none is. Ties: the first
 * listed. */
const char *mc_jrd_nearest(const char *key, const char *const *allowed);
/* The error for an unknown key of r's entry, suggesting the nearest
 * entry of allowed (see mc_jrd_nearest) */
int mc_jrd_unknown(const mc_jrd_t *r, const char *key,
                   const char *const *allowed);

/* The text of a regular file of at most max bytes, NUL-terminated, in
 * *out (free it): a FIFO, a device such as /dev/zero or a file that is
 * too large is an error naming the file, without waiting or reading it;
 * `what` names the kind of file ("tuning file", "profile"). */
#define MC_JSON_FILE_MAX (16 << 20)
int mc_read_text_file(const char *path, const char *what, size_t max,
                      char **out);

#endif
