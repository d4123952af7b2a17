/* manycoll info: the PMPI libraries (src/mpi) that exist next to this
 * program, which MPI each is for and the exact line that uses it. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools.h"

#ifndef MC_MPI_LIBDIR
#define MC_MPI_LIBDIR ""
#endif
/* the launchers the build found (src/mpi/CMakeLists.txt) */
#ifndef MC_MPI_RUN_OPENMPI
#define MC_MPI_RUN_OPENMPI "mpirun.openmpi"
#endif
#ifndef MC_MPI_RUN_MPICH
#define MC_MPI_RUN_MPICH "mpiexec.mpich"
#endif
#ifndef MC_MPI_RUN_ABI
#define MC_MPI_RUN_ABI "mpiexec"
#endif

static const struct {
    const char *name, *mpis, *run, *preload;
} known[] = {
    {"openmpi", "Open MPI 4.1 and 5.0", MC_MPI_RUN_OPENMPI,
     "-x LD_PRELOAD=%s -np 4 ./app"},
    {"mpich", "MPICH 4.0 and 5.0, Intel MPI", MC_MPI_RUN_MPICH,
     "-genv LD_PRELOAD %s -n 4 ./app"},
    {"abi", "the MPI-5 standard ABI (libmpi_abi.so: MPICH 5.0, Intel MPI)",
     MC_MPI_RUN_ABI, "-genv LD_PRELOAD %s -n 4 ./app_built_with_mpicc_abi"},
};

/* the directories a variant may be in: next to this program in the build
 * tree (src/mpi/) or installed (../lib/), and the configured lib dir */
static int candidates(const char *name, char out[3][PATH_MAX + 64])
{
    char exe[PATH_MAX];
    int n = 0;
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = 0;
        char *slash = strrchr(exe, '/');
        if (slash)
            *slash = 0;
        snprintf(out[n++], PATH_MAX + 64, "%s/src/mpi/libmanycoll_mpi_%s.so",
                 exe, name);
        snprintf(out[n++], PATH_MAX + 64, "%s/../lib/libmanycoll_mpi_%s.so",
                 exe, name);
    }
    if (*MC_MPI_LIBDIR)
        snprintf(out[n++], PATH_MAX + 64, "%s/libmanycoll_mpi_%s.so",
                 MC_MPI_LIBDIR, name);
    return n;
}

/* the path of variant `name` if it exists, else NULL */
static const char *locate(const char *name, char buf[3][PATH_MAX + 64])
{
    int n = candidates(name, buf);
    for (int i = 0; i < n; i++) {
        char *real = realpath(buf[i], NULL);
        if (real && strlen(real) < PATH_MAX + 64) {
            strcpy(buf[i], real);
            free(real);
            return buf[i];
        }
        free(real);
    }
    return NULL;
}

void info_mpi(void)
{
    int found = 0;
    printf("\nMPI programs (libmanycoll_mpi, docs/mpi.md):\n");
    for (size_t i = 0; i < sizeof known / sizeof *known; i++) {
        char buf[3][PATH_MAX + 64];
        const char *path = locate(known[i].name, buf);
        if (!path)
            continue;
        found++;
        printf("  %-8s for %s\n           %s ", known[i].name, known[i].mpis,
               known[i].run);
        printf(known[i].preload, path);
        printf("\n");
    }
    if (!found) {
        printf("  none here: no libmanycoll_mpi_*.so next to this program "
               "or in %s\n  (the build found no mpicc.openmpi or "
               "mpicc.mpich: its configure output says which)\n",
               *MC_MPI_LIBDIR ? MC_MPI_LIBDIR : "the install's lib/");
        return;
    }
    printf("  environment: MC_MPI=0 (off), MC_MPI_VERBOSE=1 (where each "
           "communicator's\n  collectives went), MC_MPI_NODE_SIZE=k "
           "(k ranks per \"node\"), MC_MPI_HIER,\n  MC_MPI_HIER_PICK, "
           "MC_MPI_HIER_AFTER, MC_MPI_EAGER, MC_MPI_SEGMENT,\n  "
           "MC_MPI_ML_MIN, MC_MPI_NB\n");
}
