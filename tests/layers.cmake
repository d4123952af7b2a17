# The layers are enforced by the build (cmake/layers.cmake): every include
# that crosses a layer the wrong way fails to compile; every allowed one
# compiles. Run with `ctest -R layers`.
set(mc_probe_args -DCC=${CMAKE_C_COMPILER} -DSRC=${CMAKE_SOURCE_DIR}
    -DVIEWS=${CMAKE_BINARY_DIR}/views
    -DOUT=${CMAKE_CURRENT_BINARY_DIR}/layer_probes)
# lists go as "a,b,c": a ';' would split the command's arguments
# the library's layers and the support layers above them (src/oracle)
set(mc_all ${MC_LAYERS} ${MC_SUPPORT_LAYERS})
string(REPLACE ";" "," mc_l "${mc_all}")
list(APPEND mc_probe_args -DLAYERS=${mc_l})
foreach(l ${mc_all})
  string(REPLACE ";" "," mc_l "${MC_LAYER_SEES_${l}}")
  list(APPEND mc_probe_args -DSEES_${l}=${mc_l})
endforeach()
add_test(NAME layers_enforced
         COMMAND ${CMAKE_COMMAND} ${mc_probe_args}
                 -P ${CMAKE_SOURCE_DIR}/cmake/layer_probe.cmake)

# the flag-line map and MPB layout (src/coll/flags.h, team.h)
add_executable(test_flags test_flags.c)
target_link_libraries(test_flags PRIVATE manycoll_static)
mc_include_view(test_flags util ops tp coll)
add_test(NAME layers_flag_map COMMAND test_flags)

# the registry's start-up check, and the fallbacks the selection settles
add_executable(test_registry test_registry.c)
target_link_libraries(test_registry PRIVATE manycoll_static)
mc_include_view(test_registry util ops tp coll select)
add_test(NAME registry_check COMMAND test_registry)

# selection rules shared by the teams with the same inputs
# (src/select/rules.h)
add_executable(test_rules test_rules.c)
target_link_libraries(test_rules PRIVATE manycoll_static)
mc_include_view(test_rules util ops tp coll select)
add_test(NAME select_rules_shared COMMAND test_rules)

# the public header's version and the library's (mc_version)
add_executable(test_version test_version.c)
target_link_libraries(test_version PRIVATE manycoll)
add_test(NAME api_version COMMAND test_version)
