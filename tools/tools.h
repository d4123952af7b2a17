/* The `manycoll` command: subcommands and shared helpers. */
#ifndef MC_TOOLS_H
#define MC_TOOLS_H

#include <stddef.h>

int mc_launch(int n, char **argv, double timeout);

int cmd_run(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_bench_rank(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_model(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_tune(int argc, char **argv);
/* manycoll info --tuning (info_tuning.c) */
int info_tuning(int argc, char **argv);
/* tools/info_mpi.c: the PMPI libraries built, and how to use them */
void info_mpi(void);

/* "8,64,1K,1M" -> sizes; returns the count or -1 */
int mc_parse_size_list(const char *s, size_t *out, int max);
/* prints "manycoll <cmd>: <msg>" to stderr and returns 2 */
int mc_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
