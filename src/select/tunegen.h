/*
 * Tuning rules from a profile's models: the policy of `manycoll tune`
 * (docs/tuning.md). For each rank count, the model-tuned algorithms of
 * Ramos & Hoefler (2013) with the parameters that minimise their
 * best-case models on the profile, and the predicted best and worst case:
 *
 *   barrier   dissemination-m, m from the optimiser (Eq. 4.11, with the
 *             rounds ceil(log_{m+1} P) the schedule runs)
 *   bcast     up to a line's payload: cc-tree, optimal tree (Eq. 4.7);
 *             above: cc-flat, or cc-pipeline where its model (Eq. 4.8) is
 *             more than 5 % below the flat tree's (Eq. 4.10), judged at
 *             the top of each power-of-two size range up to max_bytes
 *   reduce    up to a line's payload: cc-tree, optimal tree (Eq. 4.13);
 *             above: no rule (the built-in defaults)
 *
 * A candidate becomes a rule only where it beats the built-in rule of
 * src/select/select.c (mc_select_builtin): where the same models cover
 * the built-in algorithm (the flat fast paths up to a line, dissemination)
 * and predict the candidate's best case 5 % lower. Where no model covers
 * the built-in algorithm (direct, the fast paths' MPB slots, ocbcast,
 * binomial) the measured built-in rule stays, so a tuned machine is never
 * predicted slower than an untuned one. Consecutive rank counts with the
 * same choice share one rule. The result is written as a tuning file
 * (tuning.h reads it).
 */
#ifndef MC_SELECT_TUNEGEN_H
#define MC_SELECT_TUNEGEN_H

#include <stddef.h>
#include <stdio.h>

#include "coll/args.h"
#include "model/ccmodel.h"
#include "plat/profile.h"

typedef struct mc_tune_row {
    mc_coll_t coll;
    int rlo, rhi;
    size_t blo, bhi; /* SIZE_MAX: open */
    char spec[128];
    char model[192];
    mc_ccm_range_t t;
} mc_tune_row_t;

typedef struct mc_tune_plan {
    int lo, hi;      /* the rank counts it covers */
    char profile[64];
    char notes[768]; /* the models used, what the profile lacked, and
                        how many candidates left a built-in rule */
    int n, cap;
    mc_tune_row_t *r; /* by collective, rank count, size */
} mc_tune_plan_t;

/* The rules for lo..hi ranks (lo = 0: 2 up to the profile's cores) and
 * sizes up to max_bytes, from profile p; free with mc_tune_plan_free. An
 * error names what the profile lacks. */
int mc_tune_plan(const mc_profile_t *p, int lo, int hi, size_t max_bytes,
                 mc_tune_plan_t *out);
void mc_tune_plan_free(mc_tune_plan_t *t);

/* Writes the plan as a tuning file for the shm transport; `cmd` is the
 * command recorded in it. */
int mc_tune_write(const mc_tune_plan_t *t, FILE *f, const char *cmd);

#endif
