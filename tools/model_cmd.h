/* `manycoll model`: shared between model.c and model_show.c. */
#ifndef MC_TOOLS_MODEL_CMD_H
#define MC_TOOLS_MODEL_CMD_H

#include "model/ccopt.h"
#include "model/ocbmodel.h"
#include "plat/profile.h"

#define MODEL_MAX_RANKS 4096

typedef struct model_opts {
    const char *sub;      /* optimize, predict, profile, pingpong */
    const char *profile;
    const char *coll;
    int ranks[MODEL_MAX_RANKS];
    int nranks;
    int k[MC_CCM_MAX_LEVELS], d; /* predict: --k LIST */
    int m;                       /* predict: --m */
    double lines;                /* predict: --lines */
    int json;
    char state[2];               /* --state E|I */
    mc_ccm_tc_t tc;
    mc_ccm_tk_t tk;
    mc_ccopt_opts_t opt;
    double tc_c;                 /* --c: slope for a profile without a */
    int tc_c_set;                /* contention fit (anchored form) */
} model_opts_t;

/* model profile / model pingpong (model_show.c) */
int model_profile(const model_opts_t *o, const mc_profile_t *p);
int model_pingpong(const model_opts_t *o, const mc_profile_t *p);

/* model --platform P (model_platform.c): the OC-Bcast paper's models */
int model_platform(int argc, char **argv);
/* --table2 and --figure7 (model_paper.c) */
int model_table2(const mc_platform_t *p, int ranks, int json);
int model_figure7(const mc_platform_t *p, int ranks, const size_t *sizes,
                  int n, int json);

#endif
