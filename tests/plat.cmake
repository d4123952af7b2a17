# Platform files (src/plat, docs/platforms.md): every key is checked
# against the schema of src/plat/platform_keys.c; a typo fails with the
# key named and the nearest known one suggested, --lenient warns instead.
add_test(NAME plat_keys
         COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/plat_keys.py ${MC_CMD})
