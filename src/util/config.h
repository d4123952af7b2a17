/*
 * Every environment variable manycoll reads, in one table (config.c) with
 * its default, help and the values it accepts; `manycoll info` prints the
 * table. A value outside its range is an error naming the variable and the
 * range (mc_env_int, mc_env_num), never a silent default.
 */
#ifndef MC_CONFIG_H
#define MC_CONFIG_H

/* what a variable holds */
enum {
    MC_ENV_TEXT = 0, /* free text (a path, a name, an algorithm spec) */
    MC_ENV_INT,      /* an integer, K/M/G suffixes allowed (powers of 2) */
    MC_ENV_NUM,      /* a finite decimal number (e.g. seconds) */
};

typedef struct mc_envvar {
    const char *name;
    const char *def;  /* default, as a string ("" = unset) */
    const char *help;
    int kind;         /* MC_ENV_* */
    double min, max;  /* accepted range (MC_ENV_INT, MC_ENV_NUM) */
    long long mult;   /* MC_ENV_INT: the value must be a multiple (0: any) */
} mc_envvar_t;

/* The table, closed by an entry with name == NULL. */
extern const mc_envvar_t mc_envvars[];

/* Value of a registered variable: the environment's, else the default.
 * Asking for an unregistered name is a bug and aborts. */
const char *mc_env(const char *name);
/* The value of MC_ALGO_<COLL> of collective coll (an mc_coll_t), "" if
 * unset; held like the others (below). */
const char *mc_env_algo(int coll);
/* The value of an MC_ENV_INT / MC_ENV_NUM variable, checked against its
 * range: MC_OK, or MC_ERR_ARG with a message naming the variable, its
 * text and the range. */
int mc_env_int(const char *name, long long *out);
int mc_env_num(const char *name, double *out);
/* Between mc_env_hold() and mc_env_release() on a thread, each variable
 * is read from the environment and parsed once, at its first use, and
 * later reads return that: for a thread that hosts many ranks reading the
 * same variables (the simulator's cores, each making its communicator,
 * while mc_sim_run runs). Changes to the environment in between are not
 * seen; an invalid value is not kept (each read fails, with its message).
 * Calls nest; other threads are not affected. */
void mc_env_hold(void);
void mc_env_release(void);
/* "an integer in [-1, 1000000]" for messages and `manycoll info` */
void mc_env_describe_range(const mc_envvar_t *e, char *buf, unsigned len);
/* The MC_ variables of the environment that manycoll does not know (a
 * misspelled MC_ALGO_BCST would otherwise be ignored in silence): how
 * many, and their names, comma-separated, in buf. */
int mc_env_unknown(char *buf, unsigned len);
/* Parses a size with an optional K/M/G suffix (powers of two), optionally
 * followed by "B" or "iB": a whole non-negative number of bytes below
 * 2^62; -1 on error (a fraction such as 0.5 or 1.5 bytes is an error,
 * 0.5K is 512) */
long long mc_parse_size(const char *s);
/* A whole number of text s (optional sign, K/M/G suffixes) in [lo, hi]:
 * 0, or -1 if it is not one */
int mc_parse_int(const char *s, long long lo, long long hi, long long *out);

#endif
