/*
 * The shared-memory segment's life without `manycoll run`:
 *  1. N forked processes join a job with mc_comm_create_shm, reduce, leave;
 *  2. a job whose second rank never comes times out (MC_TIMEOUT=1);
 *  3. a rank killed after joining: the survivor gets MC_ERR_PEER_DEAD;
 *  4. a segment readable by others is refused;
 * and after each, nothing of the job is left in /dev/shm.
 */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "manycoll.h"

static int leftovers(const char *job)
{
    char pre[128];
    snprintf(pre, sizeof pre, "manycoll-%u-%s", (unsigned)geteuid(), job);
    DIR *d = opendir("/dev/shm");
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (!strncmp(e->d_name, pre, strlen(pre))) {
            fprintf(stderr, "left behind: /dev/shm/%s\n", e->d_name);
            n++;
        }
    if (d)
        closedir(d);
    return n;
}

static int rank_main(const char *job, int rank, int size, int die)
{
    mc_comm_t *c;
    int rc = mc_comm_create_shm(job, rank, size, &c);
    if (rc != MC_OK) {
        fprintf(stderr, "rank %d: %s\n", rank, mc_last_error());
        return 10 - rc;
    }
    if (die && rank == 1)
        raise(SIGKILL);
    long x = rank + 1, y = 0;
    rc = mc_allreduce(c, &x, &y, 1, MC_INT64, MC_SUM);
    if (die)
        return rc == MC_ERR_PEER_DEAD ? 0 : 20;
    if (rc != MC_OK || y != (long)size * (size + 1) / 2)
        return 30;
    mc_comm_free(c);
    return 0;
}

/* forks `size` ranks (only `start` of them if start < size); returns the
 * number of ranks that exited with an unexpected status */
static int job(const char *name, int size, int start, int die)
{
    pid_t pids[16];
    for (int r = 0; r < start; r++)
        if ((pids[r] = fork()) == 0)
            _exit(rank_main(name, r, size, die));
    int bad = 0;
    for (int r = 0; r < start; r++) {
        int st;
        waitpid(pids[r], &st, 0);
        int want = (die && r == 1) ? -SIGKILL : (start < size ? 10 + 3 : 0);
        int got = WIFSIGNALED(st) ? -WTERMSIG(st) : WEXITSTATUS(st);
        if (got != want) {
            fprintf(stderr, "%s: rank %d ended with %d, expected %d\n", name,
                    r, got, want);
            bad++;
        }
    }
    return bad + leftovers(name);
}

int main(void)
{
    alarm(60);
    char j1[MC_JOB_NAME_MAX], j2[MC_JOB_NAME_MAX], j3[MC_JOB_NAME_MAX],
        j4[MC_JOB_NAME_MAX];
    mc_job_name(j1, sizeof j1);
    mc_job_name(j2, sizeof j2);
    mc_job_name(j3, sizeof j3);
    mc_job_name(j4, sizeof j4);
    int bad = job(j1, 5, 5, 0);
    setenv("MC_TIMEOUT", "1", 1);
    bad += job(j2, 2, 1, 0); /* MC_ERR_TIMEOUT is -3: exit 13 */
    unsetenv("MC_TIMEOUT");
    bad += job(j3, 3, 3, 1);
    /* a segment others may read must be refused */
    char seg[128];
    snprintf(seg, sizeof seg, "/manycoll-%u-%s", (unsigned)geteuid(), j4);
    int fd = shm_open(seg, O_RDWR | O_CREAT | O_EXCL, 0600);
    fchmod(fd, 0644);
    ftruncate(fd, 4096);
    close(fd);
    mc_comm_t *c;
    int rc = mc_comm_create_shm(j4, 0, 2, &c);
    if (rc != MC_ERR_ARG || !strstr(mc_last_error(), "refusing")) {
        fprintf(stderr, "world-readable segment: got %d: %s\n", rc,
                mc_last_error());
        bad++;
    }
    shm_unlink(seg);
    bad += leftovers(j4);
    if (bad)
        return 1;
    printf("test_shm: join/leave, timeout, dead peer and foreign segment "
           "all behave, /dev/shm clean\n");
    return 0;
}
