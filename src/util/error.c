/*
 * Status codes and the per-thread "last error" message.
 */
#include <stdarg.h>
#include <stdio.h>

#include "util/error.h"

static _Thread_local char last_error[512];

const char *mc_strerror(int status)
{
    switch (status) {
    case MC_OK: return "success";
    case MC_ERR_ARG: return "invalid argument";
    case MC_ERR_NOMEM: return "out of memory";
    case MC_ERR_TIMEOUT: return "timed out";
    case MC_ERR_PEER_DEAD: return "peer process died";
    case MC_ERR_UNSUPPORTED: return "unsupported";
    case MC_ERR_SYS: return "system call failed";
    case MC_ERR_INTERNAL: return "internal error";
    default: return "unknown status";
    }
}

const char *mc_last_error(void)
{
    return last_error;
}

int mc_error(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return status;
}
