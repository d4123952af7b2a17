/*
 * src/coll/fast.c with its MC_ASSERTs on in every build (util/assert.h),
 * linked into test_fast_slots ahead of the library's copy: the slot
 * ownership of the fast paths is checked where tests/mutants/run.py
 * builds, a release build (every symbol of fast.c is defined here, so the
 * linker takes none from libmanycoll.a).
 */
#undef MC_ASSERTS
#define MC_ASSERTS 1
#include "../src/coll/fast.c"
