/* Helpers of the fuzzing targets (fuzz.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

char *mc_fuzz_text(const uint8_t *data, size_t size, size_t max)
{
    static char *buf;
    static size_t cap;
    if (size > max)
        return NULL;
    if (size + 1 > cap) {
        free(buf);
        cap = size + 1;
        buf = malloc(cap);
        if (!buf) {
            cap = 0;
            return NULL;
        }
    }
    memcpy(buf, data, size);
    buf[size] = 0;
    return buf;
}

void __sanitizer_set_report_fd(void *fd) __attribute__((weak));

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    setenv("MC_TUNING", "none", 1);
    return 0;
}

void mc_fuzz_quiet(void)
{
    /* the parsers' usage messages would drown the fuzzer's output; the
     * sanitizers keep reporting to the real stderr */
#ifdef MC_LIBFUZZER
    return; /* libFuzzer writes its own report to stderr: leave it be */
#endif
    if (getenv("MC_FUZZ_VERBOSE"))
        return;
    int fd = dup(2);
    if (fd >= 0 && __sanitizer_set_report_fd)
        __sanitizer_set_report_fd((void *)(long)fd);
    if (!freopen("/dev/null", "w", stderr))
        return;
}
