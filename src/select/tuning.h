/*
 * Tuning files: which algorithm, with which parameters, runs a collective
 * for a range of rank counts and a range of message sizes -- selection as
 * data. `manycoll tune --profile P` writes one from a profile's
 * cache-coherence models; the library reads it once per process and
 * the selection (select.c) puts its rules before the built-in defaults.
 * Format and locations: docs/tuning.md.
 *
 *   MC_TUNING=FILE     this file (an error if it cannot be read)
 *   MC_TUNING=none     no tuning file
 *   MC_TUNING unset    $XDG_CONFIG_HOME/manycoll/tuning.json (or
 *                      ~/.config/manycoll/tuning.json) if it exists
 */
#ifndef MC_SELECT_TUNING_H
#define MC_SELECT_TUNING_H

#include "select/registry.h"

#define MC_TUNING_FORMAT "manycoll-tuning/1"

typedef struct mc_tune_rule {
    mc_coll_t coll;
    int ranks_lo, ranks_hi;    /* inclusive */
    size_t bytes_lo, bytes_hi; /* inclusive; SIZE_MAX: no upper limit */
    mc_sel_t sel;              /* parsed, parameters as written */
    double min_ns, max_ns;     /* predicted (NAN if not given) */
    char why[320];             /* "FILE: rules[i] (...)", for reports */
} mc_tune_rule_t;

typedef struct mc_tuning {
    char path[512];
    char transport[16]; /* the transport it is for: "shm" */
    char profile[64];   /* the profile it came from (informative) */
    int n;
    mc_tune_rule_t *rules;
} mc_tuning_t;

/* Parses tuning JSON; `what` names it in error messages (the path). */
int mc_tuning_parse(const char *text, const char *what, mc_tuning_t *t);
int mc_tuning_read(const char *path, mc_tuning_t *t);
void mc_tuning_free(mc_tuning_t *t);

/* The default location (see above) in buf; MC_ERR_ARG if there is none
 * (neither XDG_CONFIG_HOME nor HOME is set). */
int mc_tuning_default_path(char *buf, size_t len);

/* The process's tuning file, read at the first call: *out is NULL when
 * there is none. A file that cannot be read or parsed is an error, with
 * the same message (naming the file and the problem) on every call. */
int mc_tuning_get(const mc_tuning_t **out);

#endif
