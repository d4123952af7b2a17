/*
 * Errors: every function returns MC_OK (0) or a negative status of
 * manycoll.h, and records a message naming the argument or the peer for
 * mc_last_error() (error.c).
 */
#ifndef MC_UTIL_ERROR_H
#define MC_UTIL_ERROR_H

#include "manycoll.h"

/* Records the message (per thread) and returns `status`. */
int mc_error(int status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Returns from the calling function with the status of `expr` if it is
 * an error. */
#define MC_CHECK(expr)                                                       \
    do {                                                                     \
        int mc_rc_ = (expr);                                                 \
        if (mc_rc_ < 0)                                                      \
            return mc_rc_;                                                   \
    } while (0)

#endif
