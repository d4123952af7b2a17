# bench/: smoke tests of the measuring tools. They check results, never
# timings (timings on a shared machine are not a test).

# manycoll bench --cache cold: every call on a different buffer set, checked
foreach(coll allreduce bcast alltoall)
  add_test(NAME bench_cache_cold_${coll}
           COMMAND ${MC_CMD} bench -n 2 --coll ${coll} --cache cold --check
                   --sizes 8,4K,64K --iters 30 --warmup 3)
endforeach()

# bench/mpi_compare at 2 ranks, when MPI was found (SKIP otherwise: CI has
# no MPI). MPI libraries leak by design, so not under ASan's leak checker.
if(TARGET mpi_compare)
  set(mc_mpi_compare $<TARGET_FILE:mpi_compare>)
  set(mc_mpiexec ${MPIEXEC_EXECUTABLE})
else()
  set(mc_mpi_compare none)
  set(mc_mpiexec none)
endif()
add_test(NAME bench_mpi_compare
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/bench_mpi_smoke.sh
                 ${mc_mpiexec} ${mc_mpi_compare})
set_tests_properties(bench_mpi_compare PROPERTIES SKIP_RETURN_CODE 77
                     TIMEOUT 120)

# bench/device_check.sh --quick (issue 44): the whole device check at 2
# ranks with tiny sizes; a rank count above the CPUs must be skipped with
# a line. Checks the reports' sections and keys and that every table has
# rows (an installed MPI without rows fails; one not installed must be
# reported so). Never looks at timings.
add_test(NAME bench_device_check_quick
         COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/device_check_verify.py
                 ${CMAKE_SOURCE_DIR}/bench/device_check.sh ${CMAKE_BINARY_DIR}
                 ${CMAKE_CURRENT_BINARY_DIR}/device_check_quick
                 --ranks 2,4096)
set_tests_properties(bench_device_check_quick PROPERTIES PROCESSORS 2
                     TIMEOUT 180)

# bench/icount_check.py (make icount-check, issue 44): instructions and
# cache lines touched per small call at 2 ranks against the committed
# baseline of this build configuration; SKIP without valgrind or without
# a baseline for this compiler and LTO setting. Deterministic (valgrind),
# but 15-30 s: labelled long (make repro) and icount, not in make test.
add_test(NAME bench_icount_check
         COMMAND python3 ${CMAKE_SOURCE_DIR}/bench/icount_check.py
                 --build ${CMAKE_BINARY_DIR})
set_tests_properties(bench_icount_check PROPERTIES SKIP_RETURN_CODE 77
                     PROCESSORS 2 TIMEOUT 300 LABELS "long;icount")
# the same calls through MPI_* with the drop-in preloaded (its own
# baseline entry; about 3 minutes: MPI's start-up under valgrind)
foreach(v ${MC_MPI_VARIANTS})
  add_test(NAME bench_icount_check_mpi_${v}
           COMMAND python3 ${CMAKE_SOURCE_DIR}/bench/icount_check.py
                   --build ${CMAKE_BINARY_DIR} --mpi ${v})
  set_tests_properties(bench_icount_check_mpi_${v} PROPERTIES
                       SKIP_RETURN_CODE 77 PROCESSORS 2 TIMEOUT 900
                       LABELS "long;icount")
endforeach()
