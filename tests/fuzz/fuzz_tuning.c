/* Fuzzing target: the tuning-file reader (src/select/tuning.c). */
#include "fuzz.h"
#include "util/error.h"
#include "select/tuning.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = mc_fuzz_text(data, size, 1 << 16);
    mc_tuning_t t;
    if (text && mc_tuning_parse(text, "fuzz", &t) == MC_OK)
        mc_tuning_free(&t);
    return 0;
}
