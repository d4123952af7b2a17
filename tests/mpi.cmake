# libmanycoll_mpi (src/mpi), for every MPI variant built: tests/mpi/test_mpi
# compares MPI_X through the library with PMPI_X of the same MPI in the
# same run, flat (one node) and hierarchical (MC_MPI_NODE_SIZE makes
# "nodes" of consecutive ranks), and asks the library where calls went.
# MPI libraries leak by design: the leak checker is off for these, and
# the preload test (LD_PRELOAD into mpirun) cannot run under ASan.
# the launcher of MPI variant v, more ranks than CPUs allowed: into out
function(mc_mpi_run v out)
  set(run ${MC_MPI_${v}_RUN})
  if(v STREQUAL "openmpi")
    set(run ${run} --oversubscribe)
  endif()
  set(${out} ${run} PARENT_SCOPE)
endfunction()

foreach(v ${MC_MPI_VARIANTS})
  set(exe test_mpi_${v})
  add_executable(${exe} mpi/test_mpi.c mpi/test_mpi_cases.c mpi/test_mpi_v.c
                 mpi/test_mpi_nb.c mpi/test_mpi_scan.c)
  target_compile_options(${exe} PRIVATE ${MC_MPI_${v}_CFLAGS})
  # the library first, so its MPI_* come before the MPI library's
  target_link_libraries(${exe} PRIVATE manycoll_mpi_${v} ${MC_MPI_${v}_LIBS}
                        ${CMAKE_DL_LIBS})
  set(run ${MC_MPI_${v}_RUN})
  set(more "")
  if(v STREQUAL "openmpi")
    set(run ${run} --oversubscribe)
  else()
    # MPICH busy-polls (it never yields): each of its own collectives
    # takes milliseconds oversubscribed, so the reference calls dominate.
    # The type-and-op matrix runs at 2 ranks; more ranks (the hierarchy,
    # whose code does not depend on the ABI) with a few types.
    set(more --quick --tiny)
  endif()
  set(env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
      OMPI_MCA_mpi_yield_when_idle=1 MC_MPI_SEGMENT=1K MC_MPI_ML_MIN=512
      ASAN_OPTIONS=detect_leaks=0 MC_TUNING=none)
  # name; ranks; node size; expected path; options
  foreach(c "flat_n2;2;0;flat;" "flat_n3;3;0;flat;--quick"
            "hier_n4_2x2;4;2;hier;" "hier_n6_3x2;6;2;hier;--quick"
            "hier_n5_uneven;5;2;hier;--quick --uneven")
    list(GET c 0 name)
    list(GET c 1 n)
    list(GET c 2 k)
    list(GET c 3 expect)
    list(GET c 4 opt)
    separate_arguments(opt)
    set(m ${more})
    if(more AND n EQUAL 2)
      set(m --small)
    endif()
    # MPICH-ABI variants: fewer runs (the hierarchy's code does not
    # depend on the ABI; Open MPI's runs cover uneven nodes and 3 ranks)
    if(more AND (name STREQUAL "hier_n5_uneven" OR name STREQUAL "flat_n3"
                 OR (v STREQUAL "abi" AND name STREQUAL "hier_n6_3x2")))
      continue()
    endif()
    # the hierarchy itself where it is the case's subject; 3x2 leaves the
    # choice to the pick (the default, measure), on every communicator,
    # each built at its first call (MC_MPI_HIER_AFTER=1: the program
    # makes too few calls per communicator to build one by default)
    set(pick ";MC_MPI_HIER_AFTER=1")
    if(name STREQUAL "hier_n4_2x2" OR name STREQUAL "hier_n5_uneven")
      set(pick ";MC_MPI_HIER_PICK=hier")
    endif()
    add_test(NAME mpi_${v}_${name}
             COMMAND ${run} -n ${n} $<TARGET_FILE:${exe}> --expect ${expect}
                     ${opt} ${m})
    set_tests_properties(mpi_${v}_${name} PROPERTIES TIMEOUT 300
                         ENVIRONMENT "${env};MC_MPI_NODE_SIZE=${k}${pick}")
  endforeach()
  # the non-blocking cases flat at 3 ranks under every ABI: a wait on
  # manycoll's request progresses the MPI library (MPICH's probe of
  # MPI_COMM_SELF did not, and its coll/nonblocking3 hung)
  add_test(NAME mpi_${v}_nb_n3
           COMMAND ${run} -n 3 $<TARGET_FILE:${exe}> --nb)
  set_tests_properties(mpi_${v}_nb_n3 PROPERTIES TIMEOUT 120
                       ENVIRONMENT "${env};MC_MPI_NODE_SIZE=0")
endforeach()

# An MPI test program of variant v, linked after the library (so that its
# MPI_* come before the MPI library's). Sets mpi_run to the launcher
# (Open MPI's oversubscribed) and mpi_quick to --quick where the MPI
# busy-polls oversubscribed (MPICH's ABI: its own calls take milliseconds
# here), for the program's shorter matrix; mpi_env to the environment
# every such run needs.
function(mc_mpi_test_exe v exe)
  add_executable(${exe} ${ARGN})
  target_compile_options(${exe} PRIVATE ${MC_MPI_${v}_CFLAGS})
  target_link_libraries(${exe} PRIVATE manycoll_mpi_${v} ${MC_MPI_${v}_LIBS}
                        ${CMAKE_DL_LIBS})
  set(run ${MC_MPI_${v}_RUN})
  set(q "")
  if(v STREQUAL "openmpi")
    set(run ${run} --oversubscribe)
  else()
    set(q --quick)
  endif()
  set(mpi_run ${run} PARENT_SCOPE)
  set(mpi_quick ${q} PARENT_SCOPE)
  set(mpi_env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
      OMPI_MCA_mpi_yield_when_idle=1 ASAN_OPTIONS=detect_leaks=0
      MC_TUNING=none PARENT_SCOPE)
endfunction()

# MPI's progress rule (tests/mpi/test_mpi_progress.c): a rank waiting in
# a collective manycoll took lets its pending point-to-point operations
# progress, for every collective, form and shape, at 2 and 3 ranks and as
# 2x2 "nodes". A case that hangs exits 3 after 10 s (its own alarm), well
# before the ctest timeout. MPICH busy-polls oversubscribed: its 3- and
# 4-rank runs take the shorter matrix (--quick).
foreach(v ${MC_MPI_VARIANTS})
  set(exe test_mpi_progress_${v})
  mc_mpi_test_exe(${v} ${exe} mpi/test_mpi_progress.c)
  # name; ranks; node size; expected path; options
  foreach(c "n2;2;0;flat;" "n3;3;0;flat;${mpi_quick}"
            "2x2;4;2;hier;${mpi_quick}")
    list(GET c 0 name)
    list(GET c 1 n)
    list(GET c 2 k)
    list(GET c 3 expect)
    list(GET c 4 opt)
    add_test(NAME mpi_${v}_progress_${name}
             COMMAND ${mpi_run} -n ${n} $<TARGET_FILE:${exe}>
                     --expect ${expect} ${opt})
    set_tests_properties(mpi_${v}_progress_${name} PROPERTIES TIMEOUT 120
      PROCESSORS 2 LABELS mpi
      ENVIRONMENT "${mpi_env};MC_MPI_NODE_SIZE=${k};MC_MPI_HIER_PICK=hier")
  endforeach()
endforeach()

# The pick across nodes (src/mpi/pick.c, tests/mpi/test_mpi_pick.c) at 4
# ranks as 2x2 "nodes": measured (and said in MC_MPI_VERBOSE's report),
# forced per collective, and with the skew hook, under which the ranks'
# own times disagree: a pick that skipped the allreduce would split the
# ranks between the two sides (MC_TIMEOUT ends such a run in seconds).
foreach(v ${MC_MPI_VARIANTS})
  set(exe test_mpi_pick_${v})
  mc_mpi_test_exe(${v} ${exe} mpi/test_mpi_pick.c)
  set(run ${mpi_run})
  set(q ${mpi_quick})
  set(env ${mpi_env} MC_MPI_NODE_SIZE=2 MC_TIMEOUT=20 MC_MPI_HIER_AFTER=1)
  set(forced "mpi,allreduce:hier,bcast:measure")
  add_test(NAME mpi_${v}_pick_2x2
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/expect_run.sh 0
                   "across nodes: <=64 B (hier|mpi) \\(hier [0-9.]+ us, mpi [0-9.]+ us\\); <=(4|256) KiB (hier|mpi) \\(hier"
                   -- ${run} -n 4 $<TARGET_FILE:${exe}> --expect measure ${q})
  add_test(NAME mpi_${v}_pick_forced_2x2
           COMMAND ${run} -n 4 $<TARGET_FILE:${exe}> --expect ${forced} ${q})
  add_test(NAME mpi_${v}_pick_skew_2x2
           COMMAND ${run} -n 4 $<TARGET_FILE:${exe}> --expect skew ${q})
  set_tests_properties(mpi_${v}_pick_2x2 PROPERTIES TIMEOUT 120
                       ENVIRONMENT "${env};MC_MPI_VERBOSE=1")
  set_tests_properties(mpi_${v}_pick_forced_2x2 PROPERTIES TIMEOUT 120
                       ENVIRONMENT "${env};MC_MPI_HIER_PICK=${forced}")
  set_tests_properties(mpi_${v}_pick_skew_2x2 PROPERTIES TIMEOUT 120
                       ENVIRONMENT "${env};MC_MPI_HIER_PICK_SKEW=1")
  # the default MC_MPI_HIER_AFTER (128): 127 barriers to MPI, then built
  add_test(NAME mpi_${v}_pick_after_2x2
           COMMAND ${run} -n 4 $<TARGET_FILE:${exe}> --expect measure
                   --after 128 ${q})
  set_tests_properties(mpi_${v}_pick_after_2x2 PROPERTIES TIMEOUT 120
    ENVIRONMENT "${mpi_env};MC_MPI_NODE_SIZE=2;MC_TIMEOUT=20")
endforeach()

# Random differential test of collective results (tests/mpi/mpi_diff.c):
# MPI_X through the library against a reference each rank computes, as
# 2x2 "nodes" with the default settings, where a communicator's first
# calls go to MPI whole (MC_MPI_HIER_AFTER), exscan and scan always do
# (no hierarchical form), and both MPIs get some narrow or unsigned
# reductions wrong. `--side lib`: MPICH 4.0.2 alone crashes in some cases.
foreach(v ${MC_MPI_VARIANTS})
  mc_mpi_test_exe(${v} test_mpi_diff_${v} mpi/mpi_diff.c mpi/mpi_diff_run.c
                  mpi/mpi_diff_ref.c)
  add_test(NAME mpi_${v}_diff_2x2
           COMMAND ${mpi_run} -n 4 $<TARGET_FILE:test_mpi_diff_${v}>
                   --cases 300 --side lib)
  set_tests_properties(mpi_${v}_diff_2x2 PROPERTIES TIMEOUT 120
    ENVIRONMENT "${mpi_env};MC_MPI_NODE_SIZE=2;MC_TIMEOUT=20")
endforeach()

# `manycoll info` lists every variant built, with its preload line
foreach(v ${MC_MPI_VARIANTS})
  add_test(NAME info_mpi_${v}
           COMMAND sh -c "\"$1\" info | grep -F \"$2\""
                   sh $<TARGET_FILE:manycoll_cmd>
                   $<TARGET_FILE:manycoll_mpi_${v}>)
endforeach()

# failures: an error in a call, a failed setup, a dead rank; and the
# documented use, LD_PRELOAD around mpirun, with a program that does not
# link the library (not under ASan: its runtime must be loaded first)
foreach(v ${MC_MPI_VARIANTS})
  mc_mpi_run(${v} run)
  set(env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
      OMPI_MCA_mpi_yield_when_idle=1 ASAN_OPTIONS=detect_leaks=0
      MC_TUNING=none)
  add_executable(test_mpi_errors_${v} mpi/test_mpi_errors.c)
  target_compile_options(test_mpi_errors_${v} PRIVATE ${MC_MPI_${v}_CFLAGS})
  target_link_libraries(test_mpi_errors_${v} PRIVATE manycoll_mpi_${v}
                        ${MC_MPI_${v}_LIBS})
  set(e $<TARGET_FILE:test_mpi_errors_${v}>)
  add_test(NAME mpi_${v}_error_in_call COMMAND ${run} -n 3 ${e} --call)
  add_test(NAME mpi_${v}_error_in_setup
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/expect_run.sh 0
                   "unknown barrier algorithm 'bogus'.*go to MPI" --
                   ${run} -n 2 ${e} --setup)
  add_test(NAME mpi_${v}_dead_rank
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/mpi/expect_end.sh 60
                   "signal|killed|KILLED|exited|died|dead" -- ${run} -n 3 ${e}
                   --dead)
  set_tests_properties(mpi_${v}_error_in_call mpi_${v}_dead_rank
                       PROPERTIES ENVIRONMENT "${env}" TIMEOUT 90)
  set_tests_properties(mpi_${v}_error_in_setup PROPERTIES
                       ENVIRONMENT "${env};MC_ALGO_BARRIER=bogus" TIMEOUT 90)
  if(NOT MC_SANITIZE)
    add_executable(test_mpi_plain_${v} mpi/test_mpi.c mpi/test_mpi_cases.c
                   mpi/test_mpi_v.c mpi/test_mpi_nb.c
                   mpi/test_mpi_scan.c)
    target_compile_options(test_mpi_plain_${v} PRIVATE
                           ${MC_MPI_${v}_CFLAGS})
    target_link_libraries(test_mpi_plain_${v} PRIVATE ${MC_MPI_${v}_LIBS}
                          ${CMAKE_DL_LIBS})
    add_test(NAME mpi_${v}_preload
             COMMAND ${run} -n 2 $<TARGET_FILE:test_mpi_plain_${v}>
                     --expect flat --quick --tiny)
    set_tests_properties(mpi_${v}_preload PROPERTIES TIMEOUT 120
      ENVIRONMENT "${env};LD_PRELOAD=$<TARGET_FILE:manycoll_mpi_${v}>")
  endif()
endforeach()

# two real nodes on this machine (network, UTS and mount namespaces joined
# by a veth pair; tests/mpi/two_nodes.sh): MPI itself sees two hosts and
# the hierarchy's inter-node phase goes over TCP. Needs root: skipped
# (status 77) with the reason elsewhere.
if(TARGET manycoll_mpi_openmpi AND MC_MPI_openmpi_RUN)
  add_test(NAME mpi_openmpi_two_nodes
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/mpi/two_nodes.sh
                   ${MC_MPI_openmpi_RUN} -x MC_MPI_SEGMENT -x MC_MPI_ML_MIN
                   -x MC_TUNING -x MC_MPI_VERBOSE --mca mpi_yield_when_idle 1
                   $<TARGET_FILE:test_mpi_openmpi> --expect hier --quick)
  set_tests_properties(mpi_openmpi_two_nodes PROPERTIES TIMEOUT 300
    SKIP_RETURN_CODE 77 RUN_SERIAL TRUE
    ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;MC_MPI_SEGMENT=1K;MC_MPI_ML_MIN=512;MC_TUNING=none;MC_MPI_VERBOSE=1;ASAN_OPTIONS=detect_leaks=0")
endif()

# the Open MPI variant preloaded under MPICH says which variant to use,
# in one line, and stays out of the way: the program runs right under
# MPICH alone. The MPICH variant under Open MPI cannot (its wrappers take
# handles as ints and would cut Open MPI's pointers): it says so when it
# is loaded and the ranks stop with status 1, not a crash.
if(TARGET manycoll_mpi_openmpi AND TARGET test_mpi_plain_mpich)
  add_test(NAME mpi_wrong_variant
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/expect_run.sh 0
                   "this is libmanycoll_mpi_openmpi.so, for Open MPI, but the program runs MPICH.*preload libmanycoll_mpi_mpich.so"
                   -- ${MC_MPI_mpich_RUN} -n 2 -genv LD_PRELOAD
                   $<TARGET_FILE:manycoll_mpi_openmpi>
                   $<TARGET_FILE:test_mpi_plain_mpich> --expect off --quick
                   --tiny)
  set_tests_properties(mpi_wrong_variant PROPERTIES TIMEOUT 120
                       ENVIRONMENT MC_TUNING=none)
endif()

# the MPICH variant under Open MPI: its exported functions are stubs that
# jump to Open MPI's own (src/mpi/stubs.cmake); where there are none
# (architectures other than x86-64 and aarch64), it stops with status 1
if(TARGET manycoll_mpi_mpich AND TARGET test_mpi_plain_openmpi)
  if(MC_MPI_mpich_STUBS)
    set(want 0 "this is libmanycoll_mpi_mpich.so, for MPICH, but the program runs Open MPI.*preload libmanycoll_mpi_openmpi.so.*every MPI call goes to the MPI untouched")
  else()
    set(want 1 "this is libmanycoll_mpi_mpich.so, for MPICH, but the program runs Open MPI.*preload libmanycoll_mpi_openmpi.so.*stopping")
  endif()
  add_test(NAME mpi_wrong_variant_mpich
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/expect_run.sh ${want}
                   -- ${MC_MPI_openmpi_RUN} --oversubscribe -n 2
                   -x LD_PRELOAD=$<TARGET_FILE:manycoll_mpi_mpich>
                   $<TARGET_FILE:test_mpi_plain_openmpi> --expect off --quick
                   --tiny)
  set_tests_properties(mpi_wrong_variant_mpich PROPERTIES TIMEOUT 120
    ENVIRONMENT "MC_TUNING=none;OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
endif()

# every MPI_X the MPICH variant exports is a stub: one exported without
# would run its C code, with cut handles, under Open MPI
if(TARGET manycoll_mpi_mpich AND MC_MPI_mpich_STUBS)
  add_test(NAME mpi_mpich_stubs
           COMMAND sh -c "nm -D --defined-only \"$1\" | awk '$3 ~ /^MPI_/ {print $3}' | sort | diff - \"$2\""
                   sh $<TARGET_FILE:manycoll_mpi_mpich> ${MC_MPI_mpich_STUBS})
endif()

# Open MPI's predefined handles must stay weak references (src/mpi/abi.h):
# a strong one stops mpirun and shells at load under LD_PRELOAD
if(TARGET manycoll_mpi_openmpi)
  add_test(NAME mpi_openmpi_weak_handles
           COMMAND sh -c "! nm -D --undefined-only \"$1\" | grep -E ' U ompi_'"
                   sh $<TARGET_FILE:manycoll_mpi_openmpi>)
endif()

# each variant loads into a program that is not MPI (mpirun's shells);
# an ASan build's library needs the ASan runtime loaded first
foreach(v openmpi mpich)
  if(TARGET manycoll_mpi_${v} AND NOT MC_SANITIZE)
    add_test(NAME mpi_${v}_preload_into_shell
             COMMAND sh -c "LD_PRELOAD=\"$1\" /bin/true"
                     sh $<TARGET_FILE:manycoll_mpi_${v}>)
  endif()
endforeach()

# many communicators made and freed (issue 44): each dup and each half
# after the first reuses its node's parked communicator, and every
# topology comes from the world's table without communicating (counted by
# mc_mpi_setup_counts, not timed), flat and as 2x2 "nodes" (built at the
# first call, MC_MPI_HIER_AFTER=1: the run makes too few calls per
# communicator to build one by default)
foreach(v ${MC_MPI_VARIANTS})
  mc_mpi_run(${v} run)
  add_executable(test_mpi_churn_${v} mpi/test_mpi_churn.c)
  target_compile_options(test_mpi_churn_${v} PRIVATE ${MC_MPI_${v}_CFLAGS})
  target_link_libraries(test_mpi_churn_${v} PRIVATE manycoll_mpi_${v}
                        ${MC_MPI_${v}_LIBS} ${CMAKE_DL_LIBS})
  foreach(c "flat_n4;0" "hier_n4_2x2;2")
    list(GET c 0 name)
    list(GET c 1 k)
    add_test(NAME mpi_${v}_churn_${name}
             COMMAND ${run} -n 4 $<TARGET_FILE:test_mpi_churn_${v}>)
    set_tests_properties(mpi_${v}_churn_${name} PROPERTIES TIMEOUT 120
      ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_mpi_yield_when_idle=1;ASAN_OPTIONS=detect_leaks=0;MC_TUNING=none;MC_MPI_NODE_SIZE=${k};MC_MPI_HIER_AFTER=1")
  endforeach()
endforeach()
