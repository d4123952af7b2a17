/* The `manycoll` command: subcommands and shared helpers. */
#ifndef MC_TOOLS_H
#define MC_TOOLS_H

#include <stddef.h>
#include <stdio.h>

/* runs argv as n ranks (src/tp/launch.h) and prints how the job ended;
 * returns its exit code */
int mc_run_job(int n, char **argv, double timeout);
/* the options of `manycoll run`: 0 and the index of PROG, or 2 */
int mc_run_parse(int argc, char **argv, int *n, double *timeout, int *prog);

/* the command: argv[1] names the subcommand (main.c calls it) */
int mc_cmd_main(int argc, char **argv);

int cmd_run(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_bench_rank(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_model(int argc, char **argv);
int cmd_sim(int argc, char **argv);
/* manycoll replay (replay.c) */
int cmd_replay(int argc, char **argv);
int cmd_tune(int argc, char **argv);
/* the options of `manycoll bench`, checked only: 0, or 2 */
int mc_bench_parse(int argc, char **argv);
int cmd_gcmc(int argc, char **argv);
/* the GCMC proxy's result (src/app/gcmc.h) as one JSON line: rank 0's,
 * on `ranks` ranks of machine `where` (gcmc_cmd.c) */
struct mc_gcmc_opts;
struct mc_gcmc_result;
void mc_gcmc_print(const struct mc_gcmc_opts *o,
                   const struct mc_gcmc_result *r, int ranks,
                   const char *where);
/* manycoll info --tuning (info_tuning.c) */
int info_tuning(int argc, char **argv);
/* manycoll info --comm-bytes (info_comm.c) */
int info_comm(int argc, char **argv);
/* tools/info_mpi.c: the PMPI libraries built, and how to use them */
void info_mpi(void);

/* "8,64,1K,1M" -> sizes; returns the count or -1 */
int mc_parse_size_list(const char *s, size_t *out, int max);
/* an option's value as a whole number in [lo, hi] (K/M/G suffixes
 * allowed) or a finite decimal number in [lo, hi]: 0, or a usage error
 * naming the command, the option and the range (returns 2) */
int mc_opt_int(const char *cmd, const char *opt, const char *v, long long lo,
               long long hi, long long *out);
int mc_opt_num(const char *cmd, const char *opt, const char *v, double lo,
               double hi, double *out);
/* tools/help.c: the usage of each subcommand. mc_help_print: 0, or -1
 * for a command without one; mc_help_wanted: 1 if argv asks for -h or
 * --help (for run, only among run's own options) */
int mc_help_print(const char *cmd, FILE *f);
void mc_help_list(FILE *f);
void mc_help_man(FILE *f, const char *version);
int mc_help_wanted(const char *cmd, int argc, char **argv);

/* Loads platform `name` for subcommand cmd: strictly, or with lenient
 * (--lenient) ignoring unknown keys, then named in one warning line on
 * stderr. MC_OK, or the loader's error (mc_last_error() says it; the
 * caller prints it, without a pointer to --help: the file is wrong, not
 * the command line). */
struct mc_platform;
int mc_tool_platform(const char *cmd, const char *name, int lenient,
                     struct mc_platform **p);

/* the usage error for option a given without a value: "needs a value" if
 * a is one of valued (NULL-terminated), else "unknown option"; returns 2 */
int mc_opt_no_value(const char *cmd, const char *a,
                    const char *const *valued);
/* 1 when MC_CMD_PARSE_ONLY=1: a subcommand returns 0 once its command
 * line is parsed and checked (the platform loaded and the ranks placed,
 * for sim and model), before it writes a file, starts ranks or
 * simulates. Not for users (not in `manycoll info`): the test
 * tests/doc_commands.py checks the docs' command lines with it. */
int mc_parse_only(void);
/* prints "manycoll <cmd>: <msg>" and where the usage is to stderr;
 * returns 2 */
int mc_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* prints ,"key":"s" with s escaped as JSON wants */
void mc_json_pair(const char *key, const char *s);

#endif
