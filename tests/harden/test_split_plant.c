/*
 * Another local user plants files where a job's split communicators
 * would live (run under `manycoll run -n 4`). The job's name is visible
 * (in its environment, in /dev/shm for jobs made with mc_comm_create_shm);
 * names derived from it alone could be taken first, and the split would
 * fail. Here rank 0 plants, before the ranks split, files under every name
 * <job>.<split number, color> could give, readable by others as a
 * stranger's file would be (0644, which the library refuses to use); the
 * splits must still succeed. (A test run by one user cannot create a file
 * owned by another; a 0644 file is refused the same way.)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "manycoll.h"

#define SPLITS 3

static void planted(const char *job, int plant)
{
    for (unsigned long long k = 1; k <= SPLITS; k++)
        for (int color = 0; color < 4; color++) {
            char name[300];
            snprintf(name, sizeof name, "/manycoll-%u-%s.%llx",
                     (unsigned)geteuid(), job, k << 32 | (unsigned)color);
            if (!plant) {
                shm_unlink(name);
                continue;
            }
            int fd = shm_open(name, O_RDWR | O_CREAT, 0644);
            if (fd >= 0) {
                fchmod(fd, 0644);
                if (ftruncate(fd, 4096) != 0)
                    perror("ftruncate");
                close(fd);
            }
        }
}

int main(void)
{
    alarm(60);
    mc_comm_t *w, *sub[SPLITS];
    if (mc_init(&w) != MC_OK) {
        fprintf(stderr, "mc_init: %s\n", mc_last_error());
        return 1;
    }
    int me = mc_comm_rank(w), bad = 0;
    const char *job = getenv("MC_JOB");
    if (me == 0 && job)
        planted(job, 1);
    mc_barrier(w);
    for (int k = 0; k < SPLITS; k++) {
        int rc = mc_comm_split(w, (me + k) % 2, me, &sub[k]);
        long x = 1, y = 0;
        if (rc == MC_OK)
            rc = mc_allreduce(sub[k], &x, &y, 1, MC_INT64, MC_SUM);
        if (rc != MC_OK || y != 2) {
            fprintf(stderr, "rank %d, split %d: %d: %s\n", me, k, rc,
                    mc_last_error());
            bad = 1;
            break;
        }
    }
    mc_barrier(w);
    if (me == 0 && job)
        planted(job, 0);
    mc_finalize();
    if (!bad && me == 0)
        printf("test_split_plant: %d splits made past planted files\n",
               SPLITS);
    return bad;
}
