# Cache-coherence model (issue 5, modelling half): profiles, the min-max
# models of Ramos & Hoefler Table 4.1, the Appendix B optimiser, and
# `manycoll calibrate --quick`. Run them with `ctest -R ccmodel`.

foreach(t test_profile test_ccmodel test_appendix_b)
  add_executable(${t} ${t}.c)
  target_link_libraries(${t} PRIVATE manycoll_static PkgConfig::JANSSON)
  mc_include_view(${t} util plat model)
endforeach()

add_test(NAME ccmodel_profile COMMAND $<TARGET_FILE:test_profile>
         WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
add_test(NAME ccmodel_models COMMAND $<TARGET_FILE:test_ccmodel>)
add_test(NAME ccmodel_appendix_b COMMAND $<TARGET_FILE:test_appendix_b>
         ${CMAKE_CURRENT_SOURCE_DIR}/data/appendix_b.json)

# calibrate in quick mode writes a profile that loads, with its skips
set(MC_CALIB_QUICK ${CMAKE_CURRENT_BINARY_DIR}/calibrate_quick.json)
add_test(NAME ccmodel_calibrate_quick
         COMMAND sh -c "\"$0\" calibrate --quick -o \"$1\" && \"$2\" --check-calibrated \"$1\""
                 ${MC_CMD} ${MC_CALIB_QUICK} $<TARGET_FILE:test_profile>)
set_tests_properties(ccmodel_calibrate_quick PROPERTIES TIMEOUT 60)

# the command line of the optimiser
add_test(NAME ccmodel_optimize_barrier
         COMMAND python3 ${MC_EXPECT_OUTPUT} --rows 59
                 "\"ranks\": 60, \"m\": 4, \"rounds\": 3, \"min_ns\": 3562.800"
                 -- ${MC_CMD} model optimize --profile xeonphi60 --coll
                 barrier --ranks 2-60 --json)
add_test(NAME ccmodel_optimize_bcast
         COMMAND python3 ${MC_EXPECT_OUTPUT} --rows 2
                 "\"ranks\": 30, \"d\": 2, \"k\": \\[5, 5\\].*\n.*\"ranks\": 60, \"d\": 3, \"k\": \\[4, 4, 3\\]"
                 -- ${MC_CMD} model optimize --profile xeonphi60 --coll
                 bcast-small --ranks 30,60 --json)
add_test(NAME ccmodel_missing_fit
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/expect_run.sh 1
                 "no contention fit" -- ${MC_CMD} model optimize
                 --profile sandybridge2s --coll bcast-small --ranks 4)
# `model --platform` is the OC-Bcast paper's model (tests/ocbmodel.cmake);
# the cache-coherence subcommands must still route past it
add_test(NAME ccmodel_platform_reserved
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/expect_run.sh 2
                 "unknown algorithm 'x'" --
                 ${MC_CMD} model --platform scc48 --coll bcast --algo x
                 --sizes 8)
# Eq. 2.1 on the xeonphi60 profile gives the report's estimate column
# (Table 2.6, E-E on middle-distance cores: 479.1 ns = 8.603 + 235.796 +
# 234.702, Table 1.6)
add_test(NAME ccmodel_pingpong_estimate
         COMMAND python3 ${MC_EXPECT_OUTPUT} --rows 18
                 "\"states\": \"E-E\", \"location\": \"middle-core\", \"measured_ns\": 497.100, \"full_ns\": 479.1"
                 -- ${MC_CMD} model pingpong --profile xeonphi60 --json)
