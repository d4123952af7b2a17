# The recording (MC_MPI_TRACE, src/mpi/trace*.c): an unmodified MPI
# program (tests/mpi/test_mpi_trace.c, linked with the MPI only) runs
# under the drop-in (LD_PRELOAD) with MC_MPI_TRACE, and
# tests/mpi/check_trace.py reads the archive with otf2-print and checks
# every event against the calls the program made. The mini-application
# examples/cg.c runs the same way at 2 and 4 ranks; its 4-rank archive
# stays at build/traces/cg4/ for the replay's tests. Each takes a few
# seconds. Needs OTF2 (MC_OTF2) and otf2-print (otf2-tools). The 3-rank
# runs read the clock with clock_gettime (MC_MPI_TRACE_TSC=0), the others
# with the TSC where this machine lets them (src/mpi/trace_impl.h).
find_program(MC_OTF2_PRINT otf2-print)
find_package(Python3 COMPONENTS Interpreter QUIET)
if(NOT MC_HAVE_OTF2 OR NOT MC_OTF2_PRINT OR NOT Python3_FOUND OR MC_SANITIZE)
  message(STATUS "manycoll: the recording's tests skipped (they need OTF2, "
          "otf2-print from otf2-tools, python3, and no sanitizer)")
  return()
endif()
set(mc_trace_run ${CMAKE_CURRENT_SOURCE_DIR}/mpi/trace_run.sh)
set(mc_trace_check
    "${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/mpi/check_trace.py {}")
foreach(v ${MC_MPI_VARIANTS})
  set(lib $<TARGET_FILE:manycoll_mpi_${v}>)
  set(env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
      OMPI_MCA_mpi_yield_when_idle=1 MC_TUNING=none)
  if(v STREQUAL "openmpi")
    set(run ${MC_MPI_${v}_RUN} --oversubscribe -x MC_MPI_TRACE
        -x MC_MPI_TRACE_TSC -x LD_PRELOAD=${lib})
  else()
    set(run ${MC_MPI_${v}_RUN} -genv LD_PRELOAD ${lib})
  endif()
  add_executable(test_mpi_trace_${v} mpi/test_mpi_trace.c)
  target_compile_options(test_mpi_trace_${v} PRIVATE ${MC_MPI_${v}_CFLAGS})
  target_link_libraries(test_mpi_trace_${v} PRIVATE ${MC_MPI_${v}_LIBS})
  foreach(n 2 3)
    set(t mpi_${v}_trace_n${n})
    add_test(NAME ${t}
             COMMAND ${mc_trace_run} ${CMAKE_BINARY_DIR}/traces/${t}
                     "${mc_trace_check} ${n}" -- ${run} -n ${n}
                     $<TARGET_FILE:test_mpi_trace_${v}>)
    set(tsc auto)
    if(n EQUAL 3)
      set(tsc 0)
    endif()
    set_tests_properties(${t} PROPERTIES TIMEOUT 120 LABELS mpi
                         ENVIRONMENT "${env};MC_MPI_TRACE_TSC=${tsc}")
  endforeach()
endforeach()

# the mini-application (examples/cg.c): built with each MPI's wrapper
# flags as a user would, run under the drop-in with MC_MPI_TRACE; it exits
# 1 if the solve did not converge, and otf2-print must read its archive.
# Open MPI at 2 and 4 ranks (its 4-rank archive: build/traces/cg4/, for
# the replay's tests), MPICH at 2 (MPICH busy-polls oversubscribed).
foreach(v ${MC_MPI_VARIANTS})
  set(lib $<TARGET_FILE:manycoll_mpi_${v}>)
  add_executable(example_cg_${v} ${CMAKE_SOURCE_DIR}/examples/cg.c)
  target_compile_options(example_cg_${v} PRIVATE ${MC_MPI_${v}_CFLAGS})
  target_link_libraries(example_cg_${v} PRIVATE ${MC_MPI_${v}_LIBS} m)
  if(v STREQUAL "openmpi")
    set(run ${MC_MPI_${v}_RUN} --oversubscribe -x MC_MPI_TRACE
        -x LD_PRELOAD=${lib})
    set(ranks 2 4)
  else()
    set(run ${MC_MPI_${v}_RUN} -genv LD_PRELOAD ${lib})
    set(ranks 2)
  endif()
  foreach(n ${ranks})
    set(dir ${CMAKE_BINARY_DIR}/traces/cg${n})
    if(NOT v STREQUAL "openmpi")
      set(dir ${CMAKE_BINARY_DIR}/traces/cg${n}_${v})
    endif()
    add_test(NAME mpi_${v}_cg_trace_n${n}
             COMMAND ${mc_trace_run} ${dir} - -- ${run} -n ${n}
                     $<TARGET_FILE:example_cg_${v}>)
    set_tests_properties(mpi_${v}_cg_trace_n${n} PROPERTIES TIMEOUT 120
      LABELS mpi PASS_REGULAR_EXPRESSION "converged"
      FAIL_REGULAR_EXPRESSION "NOT converged"
      ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_mpi_yield_when_idle=1;MC_TUNING=none")
  endforeach()
endforeach()
