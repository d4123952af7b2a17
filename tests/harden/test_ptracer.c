/*
 * Who may read a rank's memory (Yama ptrace_scope 1): a rank declares only
 * its parent process (the launcher) and the parent's descendants, never
 * any process (PR_SET_PTRACER_ANY); not for a communicator of one rank or
 * with MC_SINGLE_COPY=0; and it takes the declaration back when its last
 * such communicator is freed.
 *
 * Yama may be absent (or set to another scope) on the machine that runs
 * the test, so the test stands in for it: it defines prctl() and fopen()
 * itself (they take precedence over the C library's in this program), has
 * /proc/sys/kernel/yama/ptrace_scope read "1", and records every
 * PR_SET_PTRACER the library makes. Each case runs in forked children.
 */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "manycoll.h"

static unsigned long declared[16];
static int ndeclared;

int prctl(int option, ...)
{
    va_list ap;
    va_start(ap, option);
    unsigned long arg = va_arg(ap, unsigned long);
    va_end(ap);
    if (option == PR_SET_PTRACER && ndeclared < 16)
        declared[ndeclared++] = arg;
    return 0; /* nothing to declare for real */
}

FILE *fopen(const char *path, const char *mode)
{
    static char one[] = "1\n";
    if (!strcmp(path, "/proc/sys/kernel/yama/ptrace_scope"))
        return fmemopen(one, 2, "r");
    FILE *(*real)(const char *, const char *) =
        (FILE * (*)(const char *, const char *)) dlsym(RTLD_NEXT, "fopen");
    return real(path, mode);
}

/* a rank of a job of `size`: returns 0 if its declarations were right */
static int rank_main(const char *job, int rank, int size, int single_copy)
{
    mc_comm_t *c;
    if (mc_comm_create_shm(job, rank, size, &c) != MC_OK) {
        fprintf(stderr, "create: %s\n", mc_last_error());
        return 1;
    }
    int at_create = ndeclared;
    mc_comm_free(c);
    unsigned long parent = (unsigned long)getppid();
    int ok;
    if (size < 2 || !single_copy)
        ok = ndeclared == 0;
    else
        ok = at_create == 1 && declared[0] == parent && ndeclared == 2 &&
             declared[1] == 0;
    if (!ok) {
        fprintf(stderr, "size %d, single copy %d: %d declarations:", size,
                single_copy, ndeclared);
        for (int i = 0; i < ndeclared; i++)
            fprintf(stderr, " %#lx%s", declared[i],
                    declared[i] == (unsigned long)PR_SET_PTRACER_ANY
                        ? " (PR_SET_PTRACER_ANY)"
                        : declared[i] == parent ? " (the parent)" : "");
        fprintf(stderr, "\n");
    }
    return !ok;
}

static int job(int size, int single_copy)
{
    char name[MC_JOB_NAME_MAX];
    pid_t pids[4];
    mc_job_name(name, sizeof name);
    setenv("MC_SINGLE_COPY", single_copy ? "1" : "0", 1);
    for (int r = 0; r < size; r++)
        if ((pids[r] = fork()) == 0)
            _exit(rank_main(name, r, size, single_copy));
    int bad = 0;
    for (int r = 0; r < size; r++) {
        int st;
        waitpid(pids[r], &st, 0);
        bad |= !WIFEXITED(st) || WEXITSTATUS(st) != 0;
    }
    return bad;
}

int main(void)
{
    alarm(60);
    int bad = job(1, 1) | job(2, 1) | job(3, 0);
    if (bad)
        return 1;
    printf("test_ptracer: only the parent declared, only with single copy "
           "and two or more ranks, and taken back\n");
    return 0;
}
