#include <errno.h>
#include <fcntl.h>
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

int mc_jrd_check_keys(const mc_jrd_t *r, json_t *o,
                      const char *const *allowed)
{
    const char *k;
    json_t *v;
    json_object_foreach(o, k, v) {
        int ok = 0;
        for (int i = 0; allowed[i] && !ok; i++)
            ok = !strcmp(k, allowed[i]);
        if (!ok)
            return mc_jrd_bad(r, k, "unknown key");
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
