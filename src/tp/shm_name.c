/*
 * Names of shared-memory segments, and their cleanup.
 *
 *   world of `manycoll run`     no name: an unnamed file (memfd) the
 *                               launcher creates and every rank inherits
 *   mc_comm_create_shm(job)     /manycoll-<uid>-<job>, until every rank
 *                               has attached
 *   a split communicator        /manycoll-<uid>-<world job>.<16 hex>,
 *                               until every member has attached; the hex
 *                               is SipHash(parent's secret, split number
 *                               and color): the secret lies in the
 *                               parent's segment, which only the job's
 *                               ranks can read, so another user can
 *                               neither predict the name nor plant a file
 *                               under it first
 *   a communicator of one rank  no name (memfd)
 *
 * Every name starts with the world's job name, so `manycoll run` removes
 * whatever a crashed job left (mc_shm_cleanup_job).
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tp/shm_impl.h"
#include "util/siphash.h"

int mc_shm_valid_job(const char *job)
{
    size_t n = strlen(job);
    if (n == 0 || n >= MC_SHM_JOB_MAX)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char ch = job[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
              (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' ||
              ch == '-'))
            return 0;
    }
    return 1;
}

int mc_shm_segment_name(const char *job, char *buf, size_t len)
{
    int n = snprintf(buf, len, "/manycoll-%u-%s", (unsigned)geteuid(), job);
    return (n < 0 || (size_t)n >= len) ? MC_ERR_ARG : MC_OK;
}

int mc_shm_sub_job(const shm_tp_t *parent, uint64_t id, char *job,
                   size_t len)
{
    unsigned char msg[8];
    for (int i = 0; i < 8; i++)
        msg[i] = (unsigned char)(id >> (8 * i));
    uint64_t h = mc_siphash(parent->hdr->secret, msg, sizeof msg);
    int n = snprintf(job, len, "%s.%016llx", parent->root,
                     (unsigned long long)h);
    if (n < 0 || (size_t)n >= len || (size_t)n >= MC_SHM_JOB_MAX)
        return mc_error(MC_ERR_ARG,
                        "mc_comm_split: job name '%s' is too long to name "
                        "split communicators (at most %d characters)",
                        parent->root, MC_SHM_JOB_MAX - 18);
    return MC_OK;
}

void mc_shm_cleanup_job(const char *job)
{
    char name[MC_SHM_JOB_MAX + 48];
    if (mc_shm_segment_name(job, name, sizeof name) != MC_OK)
        return;
    shm_unlink(name);
    /* communicators split from the job: <name>.<hex> */
    DIR *d = opendir("/dev/shm");
    if (!d)
        return;
    size_t plen = strlen(name + 1);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, name + 1, plen) == 0 &&
            e->d_name[plen] == '.') {
            char full[512];
            snprintf(full, sizeof full, "/%s", e->d_name);
            shm_unlink(full);
        }
    }
    closedir(d);
}
