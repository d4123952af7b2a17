/* Fuzzing target: the profile reader (src/model/profile_json.c), then the
 * cache-coherence models on what it accepted. */
#include "fuzz.h"
#include "util/error.h"
#include "model/ccmodel.h"
#include "plat/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = mc_fuzz_text(data, size, 1 << 16);
    mc_profile_t p;
    if (!text || mc_profile_parse(text, "fuzz", &p) != MC_OK)
        return 0;
    mc_ccm_t m;
    mc_ccm_range_t r;
    int k[2] = {3, 2};
    if (mc_ccm_from_profile(&p, "E", &m) == MC_OK) {
        int n = p.cores < 64 ? p.cores : 64;
        mc_ccm_bcast_small(&m, 2, k, &r);
        mc_ccm_reduce_small(&m, 2, k, &r);
        mc_ccm_barrier(&m, 2, mc_ccm_barrier_rounds(n, 2, 0), &r);
        mc_ccm_bcast_flat(&m, n, 100, &r);
        mc_ccm_bcast_pipelined(&m, n, 8, &r);
    }
    mc_profile_free(&p);
    return 0;
}
