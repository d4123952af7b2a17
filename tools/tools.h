/* The `manycoll` command: subcommands and shared helpers. */
#ifndef MC_TOOLS_H
#define MC_TOOLS_H

#include <stddef.h>

int mc_launch(int n, char **argv, double timeout);

/* the command: argv[1] names the subcommand (main.c calls it; so does
 * cmd_capture.c, for the Python package) */
int mc_cmd_main(int argc, char **argv);
/* runs the command in this process with its stdout and stderr written to
 * *out and *err (malloc'd, NUL-terminated; the caller frees them); returns
 * its exit status. For commands that neither fork nor exec (sim, model,
 * info); not thread-safe: it swaps the process's stdout and stderr. */
int mc_cmd_capture(int argc, char **argv, char **out, char **err);

int cmd_run(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_bench_rank(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_model(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_gcmc(int argc, char **argv);
/* manycoll info --tuning (info_tuning.c) */
int info_tuning(int argc, char **argv);

/* "8,64,1K,1M" -> sizes; returns the count or -1 */
int mc_parse_size_list(const char *s, size_t *out, int max);
/* prints "manycoll <cmd>: <msg>" to stderr and returns 2 */
int mc_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
