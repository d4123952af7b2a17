/*
 * Calibration: measures this machine's cache-line costs (the benchmarks
 * of Ramos & Hoefler (2013), chapters 1-3) into a profile that the models
 * use (plat/profile.h, docs/profiles.md). `manycoll calibrate` runs it.
 */
#ifndef MC_MODEL_CALIBRATE_H
#define MC_MODEL_CALIBRATE_H

#include "plat/profile.h"

typedef struct mc_calib_opts {
    int quick;           /* a few samples (seconds), for tests */
    int reps;            /* samples per configuration; 0: 1500 (15 quick) */
    const char *name;    /* profile name; NULL: the host name */
    const char *command; /* recorded in the profile; NULL: none */
} mc_calib_opts_t;

/* Measures into p (initialised, empty); progress goes to stderr. Needs 2
 * CPUs on different cores; what it cannot measure here is skipped and
 * listed in the profile. Threads are pinned to CPUs while it runs. */
int mc_calibrate(const mc_calib_opts_t *o, mc_profile_t *p);

#endif
