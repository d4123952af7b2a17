/*
 * Every environment variable manycoll reads, in one table (config.c) with
 * its default and help; `manycoll info` prints the table.
 */
#ifndef MC_CONFIG_H
#define MC_CONFIG_H

typedef struct mc_envvar {
    const char *name;
    const char *def;  /* default, as a string ("" = unset) */
    const char *help;
} mc_envvar_t;

/* The table, closed by an entry with name == NULL. */
extern const mc_envvar_t mc_envvars[];

/* Value of a registered variable: the environment's, else the default.
 * Asking for an unregistered name is a bug and aborts. */
const char *mc_env(const char *name);
long long mc_env_ll(const char *name);
double mc_env_double(const char *name);
/* Parses a size with an optional K/M/G suffix (powers of two); -1 on error */
long long mc_parse_size(const char *s);

#endif
