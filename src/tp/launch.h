/*
 * The launcher of shared-memory jobs (launch.c): N ranks of a program on
 * this machine, each with the job's environment (MC_JOB, MC_RANK, MC_SIZE,
 * the job's shared memory MC_JOB_FD, the notes' pipe MC_NOTE_FD). It
 * forwards SIGINT and SIGTERM, stops the job on a timeout or a grace
 * period after a rank failed, removes what the job left in /dev/shm, and
 * says which rank failed first. It prints nothing but the line of a rank
 * that cannot exec its program; the caller prints what *end says.
 */
#ifndef MC_TP_LAUNCH_H
#define MC_TP_LAUNCH_H

typedef struct mc_launch_opts {
    double timeout; /* seconds; 0: none */
    const char *who; /* names the launcher in a rank's "cannot start" line */
    /* called when the job times out, before its ranks are stopped; or NULL */
    void (*on_timeout)(double timeout);
} mc_launch_opts_t;

typedef struct mc_launch_end {
    int code;       /* the job's exit code: the named rank's, 124 after a
                       timeout, 128 + a forwarded signal, else 0 */
    int rank;       /* the rank that failed first, or -1 */
    int pid;        /* its process */
    char why[128];  /* "exited with status 3", "killed by signal 9 (...)" */
    int early;      /* it exited 0 before its peers were done with it */
    int fork_errno; /* a fork failed (the ranks started were stopped) */
    int named;      /* the job had a name: a failure after it is one of
                       starting the ranks */
} mc_launch_end_t;

/* Runs argv as n ranks and waits for them: MC_OK and *end once the job
 * ran, or the error that kept it from starting (mc_last_error()). */
int mc_launch(int n, char **argv, const mc_launch_opts_t *o,
              mc_launch_end_t *end);

#endif
