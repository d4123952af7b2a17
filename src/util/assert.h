/*
 * MC_ASSERT(cond, fmt, ...): an invariant that stands next to the code
 * (SQLite's habit, STYLE.md). Checked where MC_ASSERTS is 1: Debug
 * builds and the sanitizer build (MC_SANITIZE), the rule being in
 * CMakeLists.txt; compiled out of release builds (RelWithDebInfo as
 * shipped), where the condition is not evaluated and costs nothing, so an
 * assert may sit on a fast path and may be as slow as it needs to be.
 *
 * A failed assert prints
 *   manycoll: assertion failed at src/coll/fast.c:97: cond: message
 * on stderr and aborts: it is a bug of manycoll, never an error a caller
 * could handle (those return a status, util/error.h).
 *
 * The condition must have no side effects; it is still compiled (inside
 * sizeof) where asserts are off, so it cannot rot and the variables it
 * names count as used.
 */
#ifndef MC_UTIL_ASSERT_H
#define MC_UTIL_ASSERT_H

#ifndef MC_ASSERTS
#define MC_ASSERTS 0
#endif

/* prints where, what and why, then aborts */
void mc_assert_fail(const char *file, int line, const char *cond,
                    const char *fmt, ...)
    __attribute__((noreturn, cold, format(printf, 4, 5)));

#if MC_ASSERTS
#define MC_ASSERT(cond, ...)                                                 \
    (__builtin_expect(!!(cond), 1)                                           \
         ? (void)0                                                           \
         : mc_assert_fail(__FILE__, __LINE__, #cond, __VA_ARGS__))
#else
#define MC_ASSERT(cond, ...) ((void)sizeof(!(cond)))
#endif

#endif
