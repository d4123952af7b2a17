#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/tick.h"

uint64_t mc_mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int mc_tsc_usable(const char *env)
{
#if defined(__x86_64__)
    char line[4096], cs[32] = "";
    int flags = 0;
    FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/"
                    "current_clocksource", "r");
    if (f) {
        if (!fgets(cs, sizeof cs, f))
            cs[0] = 0;
        fclose(f);
    }
    f = fopen("/proc/cpuinfo", "r");
    while (f && !flags && fgets(line, sizeof line, f))
        if (!strncmp(line, "flags", 5))
            flags = strstr(line, " constant_tsc") &&
                    strstr(line, " nonstop_tsc");
    if (f)
        fclose(f);
    const char *v = env ? getenv(env) : NULL; /* 0: never */
    return flags && !strncmp(cs, "tsc", 3) && !(v && !strcmp(v, "0"));
#else
    (void)env;
    return 0;
#endif
}

void mc_tick_pair(int tsc, uint64_t *tick, uint64_t *ns)
{
    uint64_t a = mc_mono_ns();
    *tick = mc_tick(tsc);
    *ns = a + (mc_mono_ns() - a) / 2;
}

double mc_tick_rate(uint64_t tick0, uint64_t ns0, uint64_t tick1,
                    uint64_t ns1)
{
    if (tick1 <= tick0 || ns1 <= ns0)
        return 1;
    return (double)(ns1 - ns0) / (double)(tick1 - tick0);
}
