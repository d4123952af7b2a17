/*
 * The names of the public datatypes and operations ("float64", "sum"), as
 * the command line, error messages and MC_CHECK_ARGS write them.
 */
#ifndef MC_NAMES_H
#define MC_NAMES_H

#include "manycoll.h"

/* "?" for a value that is not a datatype */
const char *mc_dtype_name(mc_dtype_t dt);
/* "user" for an op made by mc_op_create, "?" for a negative one */
const char *mc_op_name(mc_op_t op);
/* 0 and the value, or -1 for an unknown name */
int mc_dtype_from_name(const char *s, mc_dtype_t *out);
/* The recordings' short names of the twelve scalar types ("i8" .. "f64",
 * "f16", "bf16": manycoll::datatype in the OTF2 archives, docs/replay.md);
 * NULL for a type that has none. The reverse: 0 and the type, or -1. */
const char *mc_dtype_short_name(mc_dtype_t dt);
int mc_dtype_from_short_name(const char *s, mc_dtype_t *out);
int mc_op_from_name(const char *s, mc_op_t *out);

#endif
