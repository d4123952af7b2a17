/* manycoll info: the PMPI libraries built for the MPIs found at build
 * time (src/mpi), where each is and how to use it. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tools.h"

#ifndef MC_MPI_VARIANT_LIST
#define MC_MPI_VARIANT_LIST ""
#endif
#ifndef MC_MPI_LIBDIR
#define MC_MPI_LIBDIR ""
#endif

static const struct {
    const char *name, *mpis, *run;
} known[] = {
    {"openmpi", "Open MPI 4.1 and 5.0",
     "mpirun -x LD_PRELOAD=%s -np 4 ./app"},
    {"mpich", "MPICH 4.0 and 5.0, Intel MPI",
     "mpiexec -genv LD_PRELOAD %s -n 4 ./app"},
    {"abi", "the MPI-5 standard ABI (libmpi_abi.so: MPICH 5.0, Intel MPI)",
     "mpiexec -genv LD_PRELOAD %s -n 4 ./app_built_with_mpicc_abi"},
};

/* the library next to this program (build tree or installed), else where
 * `make install` puts it */
static void locate(const char *name, char *out, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    const char *rel[] = {"/src/mpi/", "/../lib/"};
    if (n > 0) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash)
            *slash = 0;
        for (int i = 0; i < 2; i++) {
            snprintf(out, len, "%s%slibmanycoll_mpi_%s.so", exe, rel[i],
                     name);
            if (access(out, R_OK) == 0)
                return;
        }
    }
    snprintf(out, len, "%s/libmanycoll_mpi_%s.so", MC_MPI_LIBDIR, name);
}

void info_mpi(void)
{
    printf("\nMPI programs (libmanycoll_mpi, docs/mpi.md):\n");
    if (!*MC_MPI_VARIANT_LIST) {
        printf("  none built: no MPI was found when configuring\n");
        return;
    }
    for (size_t i = 0; i < sizeof known / sizeof *known; i++) {
        char list[256], path[PATH_MAX + 64];
        snprintf(list, sizeof list, ",%s,", MC_MPI_VARIANT_LIST);
        char want[32];
        snprintf(want, sizeof want, ",%s,", known[i].name);
        if (!strstr(list, want))
            continue;
        locate(known[i].name, path, sizeof path);
        printf("  %-8s for %s\n           ", known[i].name, known[i].mpis);
        printf(known[i].run, path);
        printf("\n");
    }
    printf("  environment: MC_MPI=0 (off), MC_MPI_VERBOSE=1 (where each "
           "communicator's\n  collectives went), MC_MPI_NODE_SIZE=k "
           "(k ranks per \"node\"), MC_MPI_HIER,\n  MC_MPI_EAGER, "
           "MC_MPI_SEGMENT, MC_MPI_ML_MIN, MC_MPI_NB\n");
}
