# Hardening (faults, misuse, hostile input): one regression test per
# finding of the adversarial campaign, the thread tests, a short fuzzing
# run and a short fault-injection (chaos) run. Sources in tests/harden/;
# `ctest -R harden` runs them. docs/security.md says what they defend.
set(MC_H ${CMAKE_CURRENT_SOURCE_DIR}/harden)

foreach(t test_threads test_limits)
  add_executable(${t} ${MC_H}/${t}.c)
  target_link_libraries(${t} PRIVATE manycoll Threads::Threads)
endforeach()

add_test(NAME harden_threads_comm COMMAND ${MC_CMD} run -n 3 --timeout 120
         $<TARGET_FILE:test_threads> comm)
add_test(NAME harden_threads_ops COMMAND test_threads ops 3000000)
add_test(NAME harden_limits COMMAND test_limits)

# mismatched arguments: bounded single-copy reads, and MC_CHECK_ARGS
add_executable(test_mismatch ${MC_H}/test_mismatch.c)
target_link_libraries(test_mismatch PRIVATE manycoll)
add_test(NAME harden_mismatch_bounds COMMAND ${MC_CMD} run -n 3 --timeout 120
         $<TARGET_FILE:test_mismatch> bounds)
add_test(NAME harden_mismatch_check COMMAND ${MC_CMD} run -n 4 --timeout 120
         $<TARGET_FILE:test_mismatch> check)
set_tests_properties(harden_mismatch_bounds harden_mismatch_check PROPERTIES
                     ENVIRONMENT "MC_TIMEOUT=30;MC_CHECK_ARGS=0")
set_tests_properties(harden_mismatch_check PROPERTIES
                     ENVIRONMENT "MC_TIMEOUT=30;MC_CHECK_ARGS=1")

# ranks that go away: early exit, death inside a split, the first death
# named, a job killed whole while starting
add_executable(test_departures ${MC_H}/test_departures.c)
target_link_libraries(test_departures PRIVATE manycoll)
add_test(NAME harden_early_exit
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/expect_run.sh 3
                 "rank 2 .*exited with status 3" --
                 ${MC_CMD} run -n 3 --timeout 60
                 $<TARGET_FILE:test_departures> early_exit)
add_test(NAME harden_split_death
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/expect_run.sh 137
                 "rank 1 .*killed by signal 9" --
                 ${MC_CMD} run -n 4 --timeout 60
                 $<TARGET_FILE:test_departures> split_death)
add_test(NAME harden_first_death
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/expect_run.sh 137
                 "rank 3 .*killed by signal 9" --
                 ${MC_CMD} run -n 4 --timeout 60
                 $<TARGET_FILE:test_departures> first_death)
set_tests_properties(harden_early_exit harden_split_death harden_first_death
                     PROPERTIES ENVIRONMENT MC_TIMEOUT=30)
add_test(NAME harden_timeout_names_writer
         COMMAND ${MC_CMD} run -n 3 --timeout 60
                 $<TARGET_FILE:test_departures> stall)
set_tests_properties(harden_timeout_names_writer PROPERTIES
                     ENVIRONMENT MC_TIMEOUT=1)
# ... and with a spin of 2e9 polls before yielding: the waits still time
# out after MC_TIMEOUT (rank 1 leaves after 6 s; a wait that spun past
# that would end "left", not timed out)
add_test(NAME harden_timeout_long_spin
         COMMAND ${MC_CMD} run -n 3 --timeout 60
                 $<TARGET_FILE:test_departures> stall)
set_tests_properties(harden_timeout_long_spin PROPERTIES
                     ENVIRONMENT "MC_TIMEOUT=1;MC_SPIN=2000000000")
add_test(NAME harden_whole_kill
         COMMAND python3 ${MC_H}/whole_kill.py ${MC_CMD}
                 $<TARGET_FILE:test_departures>)

# hostile command lines, environment, platform, profile and tuning files
add_test(NAME harden_inputs
         COMMAND python3 ${MC_H}/inputs.py ${MC_CMD}
                 $<TARGET_FILE:test_departures>)
set_tests_properties(harden_inputs PROPERTIES TIMEOUT 300)

add_test(NAME harden_shm_full
         COMMAND ${MC_H}/in_small_shm.sh 1m $<TARGET_FILE:test_limits>
                 shm_full)
set_tests_properties(harden_shm_full PROPERTIES SKIP_RETURN_CODE 77)

# who may read a rank's memory (Yama scope 1, stood in for by the test)
add_executable(test_ptracer ${MC_H}/test_ptracer.c)
target_link_libraries(test_ptracer PRIVATE manycoll_static ${CMAKE_DL_LIBS})
add_test(NAME harden_ptracer COMMAND test_ptracer)

# split names others cannot predict or take first
add_executable(test_split_plant ${MC_H}/test_split_plant.c)
target_link_libraries(test_split_plant PRIVATE manycoll)
add_test(NAME harden_split_plant COMMAND ${MC_CMD} run -n 4 --timeout 60
         $<TARGET_FILE:test_split_plant>)

# the checking mode on in part of the suite: the walk at 3 and 5 ranks,
# the splits, the back-to-back cc-* calls (every call's arguments are
# compared on every rank; a mismatch would fail the test)
set_tests_properties(coll_n3 coll_n5 split_n4 split_n5 cc_stress_n3
                     harden_threads_comm PROPERTIES ENVIRONMENT
                     MC_CHECK_ARGS=1)

# the ThreadSanitizer build (make tsan) runs the thread tests only
if(MC_TSAN)
  add_test(NAME tsan_threads_comm COMMAND ${MC_CMD} run -n 3 --timeout 300
           $<TARGET_FILE:test_threads> comm)
  add_test(NAME tsan_threads_ops COMMAND test_threads ops 200000)
  set_tests_properties(tsan_threads_comm tsan_threads_ops PROPERTIES
                       LABELS tsan ENVIRONMENT
                       "TSAN_OPTIONS=halt_on_error=1 exitcode=66")
endif()

# one rank of a fault-injection run (make chaos; a short run here)
add_executable(chaos_rank ${MC_H}/chaos_rank.c)
target_link_libraries(chaos_rank PRIVATE mc_oracle manycoll_static)
mc_include_view(chaos_rank ${MC_TOOLS_LAYERS})
add_test(NAME harden_chaos_short
         COMMAND python3 ${MC_H}/chaos.py --build ${CMAKE_BINARY_DIR}
                 --faults 20 --quiet)
set_tests_properties(harden_chaos_short PROPERTIES TIMEOUT 300)

add_executable(test_units ${MC_H}/test_units.c)
target_link_libraries(test_units PRIVATE manycoll_static Threads::Threads)
mc_include_view(test_units util ops tp)
add_test(NAME harden_units COMMAND test_units)

# the one hash map (src/util/map.h)
add_executable(test_map ${MC_H}/test_map.c)
target_link_libraries(test_map PRIVATE manycoll_static)
mc_include_view(test_map util)
add_test(NAME harden_map COMMAND test_map)
