# Model-tuned cache-coherence collectives (issue 5, parts 4 and 6): the
# per-level fan-out trees, tuning files (manycoll tune, MC_TUNING,
# manycoll info --tuning). The algorithms themselves go through the
# generated walk (coll_n*, sim_walk_*) like every registered algorithm.
# Run them with `ctest -R cc_`.

add_executable(test_ktree test_ktree.c)
target_link_libraries(test_ktree PRIVATE manycoll_static)
mc_include_view(test_ktree sched)
add_test(NAME cc_ktree COMMAND test_ktree)

# tuning files: the reader, then `manycoll tune` / `info --tuning` /
# MC_TUNING / the default location / precedence / errors, end to end
add_executable(test_tuning test_tuning.c)
target_link_libraries(test_tuning PRIVATE manycoll_static)
mc_include_view(test_tuning util ops tp coll select api)
add_test(NAME cc_tuning_parse COMMAND test_tuning parse)
add_test(NAME cc_tuning COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cc_tuning.sh
         ${MC_CMD} $<TARGET_FILE:test_tuning>)
set_tests_properties(cc_tuning PROPERTIES TIMEOUT 120)

# automatic parameters: the built-in model is xeonphi60.json's
add_executable(test_ccauto test_ccauto.c)
target_link_libraries(test_ccauto PRIVATE manycoll_static)
mc_include_view(test_ccauto util ops plat sched model tp coll select)
add_test(NAME cc_ccauto COMMAND test_ccauto)

# back-to-back cc-* calls, no barrier, root/tree/algorithm changing
add_executable(test_cc_stress test_cc_stress.c)
target_link_libraries(test_cc_stress PRIVATE manycoll)
foreach(n 3 5)
  add_test(NAME cc_stress_n${n} COMMAND ${MC_CMD} run -n ${n} --timeout 120
           $<TARGET_FILE:test_cc_stress> 1500)
endforeach()
