/*
 * The automatic parameters of the cc-* algorithms (src/model/ccauto.h,
 * src/select/auto.c): the built-in model has the numbers of
 * platforms/profiles/xeonphi60.json, and the automatic trees and peers
 * per round are the report's (Section 4.4: 30 threads, broadcast (5,5),
 * reduction (3,3,2); 60 threads, (4,4,3) for both).
 */
#include <math.h>
#include <stdio.h>

#include "coll/cc.h"
#include "model/ccauto.h"
#include "plat/profile.h"
#include "select/auto.h"

#include "check.h"

static void same_model(void)
{
    mc_profile_t p;
    mc_ccm_t file, built;
    mc_profile_init(&p);
    if (mc_profile_load("xeonphi60", &p) != MC_OK ||
        mc_ccm_from_profile(&p, "E", &file) != MC_OK) {
        CHECK(0, "xeonphi60: %s", mc_last_error());
        return;
    }
    mc_ccauto_builtin(&built);
    const double a[] = {file.rl, file.rr, file.ri, file.tc_b, file.tc_c,
                        file.ml_o, file.ml_q, file.ml_p};
    const double b[] = {built.rl, built.rr, built.ri, built.tc_b,
                        built.tc_c, built.ml_o, built.ml_q, built.ml_p};
    for (int i = 0; i < 8; i++)
        CHECK(fabs(a[i] - b[i]) < 1e-9, "built-in model field %d: %g, "
              "xeonphi60.json has %g", i, b[i], a[i]);
    CHECK(built.has_tc && built.has_ml && !file.tc_inv, "fits");
    mc_profile_free(&p);
}

static void tree(int reduce, int n, const int *want, int d)
{
    mc_params_t p = {{0}};
    CHECK(mc_auto_tree(reduce, n, &p) == MC_OK, "auto tree");
    for (int i = 0; i < MC_CC_KMAX; i++)
        CHECK(p.v[MC_CC_K1 + i] == (i < d ? want[i] : 0), "%s tree for %d "
              "ranks: k%d = %lld, expected %d", reduce ? "reduce" : "bcast",
              n, i + 1, (long long)p.v[MC_CC_K1 + i], i < d ? want[i] : 0);
    mc_params_t again = {{0}}; /* the cached answer is the same */
    mc_auto_tree(reduce, n, &again);
    CHECK(again.v[0] == p.v[0] && again.v[2] == p.v[2], "cache");
}

int main(void)
{
    same_model();
    tree(0, 30, (const int[]){5, 5}, 2);
    tree(0, 60, (const int[]){4, 4, 3}, 3);
    tree(1, 30, (const int[]){3, 3, 2}, 3);
    tree(1, 60, (const int[]){4, 4, 3}, 3);
    tree(0, 2, (const int[]){1}, 1);
    tree(0, 1024, (const int[]){6, 6, 5, 5}, 4); /* 4 levels at most */
    mc_params_t m = {{0}};
    CHECK(mc_auto_barrier_m(9, &m) == MC_OK && m.v[0] == 2,
          "barrier m for 9 ranks: %lld, expected 2 (2 rounds)",
          (long long)m.v[0]);
    mc_params_t fixed = {{3}};
    mc_auto_barrier_m(9, &fixed);
    CHECK(fixed.v[0] == 3, "an explicit m is kept");
    return check_done("test_ccauto", "built-in model = xeonphi60.json; "
                                     "automatic parameters as the report");
}
