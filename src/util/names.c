#include <string.h>

#include "util/names.h"

static const char *const dt_names[MC_DTYPE_COUNT] = {
    "int8", "int16", "int32", "int64", "uint8",
    "uint16", "uint32", "uint64", "float32", "float64",
    "float16", "bfloat16", "complex64", "complex128", "float-int",
    "double-int", "2int", "long-int"};
static const char *const op_names[MC_OP_BUILTIN_COUNT] = {
    "sum", "prod", "min", "max", "band", "bor", "bxor", "land", "lor",
    "minloc", "maxloc"};

const char *mc_dtype_name(mc_dtype_t dt)
{
    return (unsigned)dt < MC_DTYPE_COUNT ? dt_names[dt] : "?";
}

const char *mc_op_name(mc_op_t op)
{
    return (unsigned)op < MC_OP_BUILTIN_COUNT ? op_names[op]
           : (int)op < 0                      ? "?"
                                              : "user";
}

/* indexed like dt_names (its first twelve) */
static const char *const dt_short[] = {"i8",  "i16", "i32", "i64",
                                       "u8",  "u16", "u32", "u64",
                                       "f32", "f64", "f16", "bf16"};
_Static_assert(MC_INT8 == 0 && MC_BFLOAT16 == 11,
               "the short names follow the first twelve types");

const char *mc_dtype_short_name(mc_dtype_t dt)
{
    return (unsigned)dt < sizeof dt_short / sizeof *dt_short ? dt_short[dt]
                                                             : NULL;
}

int mc_dtype_from_short_name(const char *s, mc_dtype_t *out)
{
    for (size_t i = 0; i < sizeof dt_short / sizeof *dt_short; i++)
        if (strcmp(s, dt_short[i]) == 0) {
            *out = (mc_dtype_t)i;
            return 0;
        }
    return -1;
}

int mc_dtype_from_name(const char *s, mc_dtype_t *out)
{
    for (int i = 0; i < MC_DTYPE_COUNT; i++)
        if (strcmp(s, dt_names[i]) == 0) {
            *out = (mc_dtype_t)i;
            return 0;
        }
    return -1;
}

int mc_op_from_name(const char *s, mc_op_t *out)
{
    for (int i = 0; i < MC_OP_BUILTIN_COUNT; i++)
        if (strcmp(s, op_names[i]) == 0) {
            *out = (mc_op_t)i;
            return 0;
        }
    return -1;
}
