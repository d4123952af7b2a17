# the index of the ranks by chip of a node split above the recorded size
# (src/replay/chips.c) against the scans it replaced; no OTF2 needed
add_executable(test_replay_chips test_replay_chips.c)
target_link_libraries(test_replay_chips PRIVATE mc_replay manycoll_static)
mc_include_view(test_replay_chips ${MC_TOOLS_LAYERS})
add_test(NAME replay_chips COMMAND test_replay_chips)

# SimGrid's time-independent traces (src/replay/read_ti.c), written by the
# test for a known program and replayed; no OTF2 needed
find_package(Python3 COMPONENTS Interpreter QUIET)
add_test(NAME replay_ti COMMAND ${Python3_EXECUTABLE}
         ${CMAKE_CURRENT_SOURCE_DIR}/replay_ti_check.py ${MC_CMD}
         ${CMAKE_CURRENT_BINARY_DIR}/replay_ti_tmp)
set_tests_properties(replay_ti PROPERTIES TIMEOUT 120)

# manycoll replay (src/replay, docs/replay.md). Without OTF2 (MC_OTF2=OFF,
# or AUTO finding none) the command says so in one line and exits 2;
# replay_no_otf2 checks that and nothing else runs.
if(NOT MC_HAVE_OTF2)
  add_test(NAME replay_no_otf2
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/expect_run.sh 2
                   "^manycoll replay: .*built without OTF2.*libopen-trace-format2-dev"
                   -- ${MC_CMD} replay none.otf2 --platform scc48)
  # MC_TRACE: said before the job starts, not after it ran
  add_test(NAME trace_capi_no_otf2
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/expect_run.sh 2
                   "^manycoll run: MC_TRACE: .*built without OTF2"
                   -- env MC_TRACE=${CMAKE_CURRENT_BINARY_DIR}
                   ${MC_CMD} run -n 1 true)
  return()
endif()
find_package(Python3 COMPONENTS Interpreter QUIET)
# archives of a known program written by tests/replay_gen.c, in the
# contract's form and in Score-P's, replayed and checked by
# tests/replay_check.py (a few seconds)
add_executable(replay_gen replay_gen.c)
target_link_libraries(replay_gen PRIVATE PkgConfig::OTF2)
add_test(NAME replay_cli COMMAND ${Python3_EXECUTABLE}
         ${CMAKE_CURRENT_SOURCE_DIR}/replay_check.py gen ${MC_CMD}
         $<TARGET_FILE:replay_gen> ${CMAKE_CURRENT_BINARY_DIR}/replay_tmp)
set_tests_properties(replay_cli PROPERTIES TIMEOUT 120)

# MC_TRACE: a C API program recorded under `manycoll run` (src/api/trace.c,
# src/trace), its archive checked call by call, then replayed; and
# examples/every_collective.c recorded and replayed above its size
add_executable(test_trace_capi test_trace_capi.c)
target_link_libraries(test_trace_capi PRIVATE manycoll)
add_test(NAME trace_capi COMMAND ${Python3_EXECUTABLE}
         ${CMAKE_CURRENT_SOURCE_DIR}/trace_capi_check.py ${MC_CMD}
         $<TARGET_FILE:test_trace_capi> $<TARGET_FILE:example_every_collective>
         ${CMAKE_CURRENT_BINARY_DIR}/trace_capi_tmp)
set_tests_properties(trace_capi PROPERTIES TIMEOUT 120)

# the OTF2 writer of simulated spans (--trace NAME.otf2) on spans that
# nest, overlap and have no length
add_executable(test_trace_spans test_trace_spans.c)
target_link_libraries(test_trace_spans PRIVATE mc_trace manycoll_static)
mc_include_view(test_trace_spans ${MC_TOOLS_LAYERS})
add_test(NAME trace_spans COMMAND ${Python3_EXECUTABLE}
         ${CMAKE_CURRENT_SOURCE_DIR}/trace_spans_check.py
         $<TARGET_FILE:test_trace_spans>
         ${CMAKE_CURRENT_BINARY_DIR}/trace_spans_tmp)

# the mini-application's 4-rank recording (tests/mpi_trace.cmake,
# build/traces/cg4) replayed at 4 and 48 ranks on scc48, 1,024 on
# mesh32x32 and 65,536 on mesh256x256; the 65,536 one is labelled long
# (tests/CMakeLists.txt). Each has a timeout of a few times what it took
# on this shared 2-CPU VM (docs/replay.md, 2026-11-29): under a second;
# 1,024 ranks 3-7 s at load 5-8 (2.5 s of CPU); 65,536 ranks 22 min at
# load 4-6 (11.4 min of CPU, 787 MB), so an hour says that it has become
# much slower (or that the machine is far busier). The recording is the
# fixture, so the order holds under ctest -j.
if(NOT TEST mpi_openmpi_cg_trace_n4)
  return()
endif()
set_tests_properties(mpi_openmpi_cg_trace_n4 PROPERTIES
                     FIXTURES_SETUP replay_cg4)
foreach(run "scc48;4;60" "scc48;48;60" "mesh32x32;1024;300"
        "mesh256x256;65536;3600")
  list(GET run 0 plat)
  list(GET run 1 n)
  list(GET run 2 timeout)
  add_test(NAME replay_cg4_${plat}_n${n}
           COMMAND ${Python3_EXECUTABLE}
                   ${CMAKE_CURRENT_SOURCE_DIR}/replay_check.py cg ${MC_CMD}
                   ${CMAKE_BINARY_DIR}/traces/cg4 ${plat} ${n})
  set_tests_properties(replay_cg4_${plat}_n${n} PROPERTIES TIMEOUT ${timeout}
                       FIXTURES_REQUIRED replay_cg4)
endforeach()
if(TEST python_replay)
  set_tests_properties(python_replay PROPERTIES FIXTURES_REQUIRED replay_cg4)
endif()
