#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/error.h"
#include "util/jsonrd.h"

int mc_jrd_bad(const mc_jrd_t *r, const char *key, const char *what)
{
    return mc_error(MC_ERR_ARG, "%s%s: %s%s%s: %s", r->prefix ? r->prefix : "",
                    r->file, r->where, *r->where ? "." : "", key, what);
}

int mc_jrd_known(const char *key, const char *const *allowed)
{
    for (; *allowed; allowed++)
        if (!strcmp(key, *allowed))
            return 1;
    return 0;
}

#define NEAR_MAX 64 /* longer keys are not compared */

/* the optimal string alignment distance of a and b (Damerau's edits:
 * a swap of two neighbours counts 1), each at most NEAR_MAX long; three
 * rows of the table (this may run on a simulated core's small stack) */
static int edits(const char *a, size_t n, const char *b, size_t m)
{
    int rows[3][NEAR_MAX + 1];
    int *two = rows[0], *up = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= m; j++)
        up[j] = (int)j;
    for (size_t i = 1; i <= n; i++) {
        cur[0] = (int)i;
        for (size_t j = 1; j <= m; j++) {
            int x = up[j - 1] + (a[i - 1] != b[j - 1]);
            x = up[j] + 1 < x ? up[j] + 1 : x;
            x = cur[j - 1] + 1 < x ? cur[j - 1] + 1 : x;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
                a[i - 2] == b[j - 1] && two[j - 2] + 1 < x)
                x = two[j - 2] + 1;
            cur[j] = x;
        }
        int *t = two;
        two = up, up = cur, cur = t;
    }
    return up[m];
}

const char *mc_jrd_nearest(const char *key, const char *const *allowed)
{
    size_t n = strlen(key);
    if (n == 0 || n > NEAR_MAX)
        return NULL;
    int most = n <= 4 ? 1 : n <= 8 ? 2 : 3, best = most + 1;
    const char *near = NULL;
    for (; *allowed; allowed++) {
        size_t m = strlen(*allowed);
        if (m > NEAR_MAX || (m > n ? m - n : n - m) > (size_t)most)
            continue;
        int d = edits(key, n, *allowed, m);
        if (d < best)
            best = d, near = *allowed;
    }
    return near;
}

int mc_jrd_unknown(const mc_jrd_t *r, const char *key,
                   const char *const *allowed)
{
    const char *near = mc_jrd_nearest(key, allowed);
    char what[NEAR_MAX + 48] = "unknown key";
    if (near)
        snprintf(what, sizeof what, "unknown key; did you mean \"%s\"?",
                 near);
    return mc_jrd_bad(r, key, what);
}

int mc_jrd_check_keys(const mc_jrd_t *r, json_t *o,
                      const char *const *allowed)
{
    const char *k;
    json_t *v;
    json_object_foreach(o, k, v) {
        if (!mc_jrd_known(k, allowed))
            return mc_jrd_unknown(r, k, allowed);
    }
    return MC_OK;
}

int mc_read_text_file(const char *path, const char *what, size_t max,
                      char **out)
{
    /* O_NONBLOCK: opening a FIFO must not wait for a writer */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return mc_error(MC_ERR_ARG, "%s %s: cannot open it: %s", what, path,
                        strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return mc_error(MC_ERR_ARG, "%s %s: not a regular file", what, path);
    }
    if ((size_t)st.st_size > max) {
        close(fd);
        return mc_error(MC_ERR_ARG, "%s %s: %lld bytes, more than the %zu "
                        "a %s may have", what, path, (long long)st.st_size,
                        max, what);
    }
    char *text = malloc((size_t)st.st_size + 1);
    size_t len = 0;
    ssize_t got = 1;
    while (text && len < (size_t)st.st_size && got > 0) {
        got = read(fd, text + len, (size_t)st.st_size - len);
        if (got > 0)
            len += (size_t)got;
    }
    close(fd);
    if (!text)
        return mc_error(MC_ERR_NOMEM, "%s %s: out of memory", what, path);
    if (got < 0) {
        free(text);
        return mc_error(MC_ERR_ARG, "%s %s: read: %s", what, path,
                        strerror(errno));
    }
    text[len] = 0;
    *out = text;
    return MC_OK;
}
