/*
 * Fuzzing targets (tests/fuzz/fuzz_*.c) in libFuzzer's form: each defines
 * LLVMFuzzerTestOneInput, and may define LLVMFuzzerInitialize. They build
 * two ways (tests/fuzz.cmake): with clang's libFuzzer (`make fuzz`), or
 * with driver.c, a small mutating driver for any compiler that `make test`
 * runs for a few seconds per target under ASan+UBSan.
 */
#ifndef MC_FUZZ_H
#define MC_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* the input as a NUL-terminated string (a static buffer; NULL if the
 * input is larger than max) */
char *mc_fuzz_text(const uint8_t *data, size_t size, size_t max);

/* sends stderr to /dev/null, keeping the sanitizers' reports (once) */
void mc_fuzz_quiet(void);

#endif
