/*
 * The check of the unit test programs: CHECK(cond, fmt, ...) reports a
 * failed condition (file, line, message) on stderr and counts it; after
 * 20 failures the program stops, as later ones mostly follow from the
 * first. check_done ends main: one line on stdout, `name: FAILED` or
 * `name: ok-text`, and the exit status.
 */
#ifndef MC_TESTS_CHECK_H
#define MC_TESTS_CHECK_H

#include <stdio.h>
#include <stdlib.h>

static int fails;

#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);             \
            fprintf(stderr, __VA_ARGS__);                                    \
            fputc('\n', stderr);                                             \
            if (++fails > 20)                                                \
                exit(1);                                                     \
        }                                                                    \
    } while (0)

static inline int check_done(const char *name, const char *ok)
{
    printf("%s: %s\n", name, fails ? "FAILED" : ok);
    return fails ? 1 : 0;
}

#endif
