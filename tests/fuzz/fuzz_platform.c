/*
 * Fuzzing target: platform files and generated mesh names
 * (src/plat/platform.c, their keys src/plat/platform_keys.c), then a short simulation on what was accepted: a
 * barrier, a bcast and an allreduce on up to 4 cores, so that the cost
 * model and the event loop see the numbers too.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "job/sim_job.h"
#include "util/error.h"

static int fuzz_rank(mc_comm_t *c, int rank, void *arg)
{
    double x[16] = {1}, y[16];
    (void)rank, (void)arg;
    MC_CHECK(mc_barrier(c));
    MC_CHECK(mc_bcast(c, x, 8, MC_FLOAT64, 0));
    return mc_allreduce(c, x, y, 16, MC_FLOAT64, MC_SUM);
}

static void simulate(const mc_platform_t *p)
{
    mc_sim_job_t job;
    mc_sim_job_set(&job, p, NULL, p->ncores < 4 ? p->ncores : 4, fuzz_rank,
                   NULL);
    mc_sim_job_stats_t st;
    (void)mc_sim_job_run(&job, &st); /* failing cleanly is fine */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int fd = -1;
    char path[64];
    mc_platform_t *p;
    if (size > 1 << 16)
        return 0;
    if (size < 24 && size > 4 && !memcmp(data, "mesh", 4)) {
        char *name = mc_fuzz_text(data, size, 24); /* a generated mesh */
        if (name && mc_platform_load(name, &p) == MC_OK) {
            if (p->ncores <= 4096)
                simulate(p);
            mc_platform_free(p);
        }
        return 0;
    }
    if (fd < 0 && (fd = memfd_create("fuzz-platform", MFD_CLOEXEC)) < 0)
        return 0;
    if (ftruncate(fd, 0) != 0 ||
        pwrite(fd, data, size, 0) != (ssize_t)size)
        return 0;
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    /* strictly, as the command reads it; a file that fails only for an
     * unknown key (most mutations of a key) then leniently, so that its
     * numbers still reach the loader and the simulation */
    mc_plat_load_opts_t lenient = {.lenient = 1};
    if (mc_platform_load(path, &p) != MC_OK &&
        mc_platform_load_opts(path, &lenient, &p) != MC_OK)
        return 0;
    simulate(p);
    mc_platform_free(p);
    return 0;
}
