/* The failure of an MC_ASSERT (util/assert.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "util/assert.h"

void mc_assert_fail(const char *file, int line, const char *cond,
                    const char *fmt, ...)
{
    /* one write: the message is not interleaved with other ranks' output
     * (they share stderr under `manycoll run`) */
    char buf[768];
    int n = snprintf(buf, sizeof buf, "manycoll: assertion failed at %s:%d: "
                     "%s: ", file, line, cond);
    if (n < 0 || (size_t)n >= sizeof buf)
        n = (int)sizeof buf - 2;
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(buf + n, sizeof buf - (size_t)n - 1, fmt, ap);
    va_end(ap);
    n += m < 0 ? 0 : m;
    if ((size_t)n > sizeof buf - 2)
        n = (int)sizeof buf - 2;
    buf[n++] = '\n';
    ssize_t w = write(2, buf, (size_t)n);
    (void)w;
    abort();
}
