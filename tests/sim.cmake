# The simulator: the generated walk on simulated chips (with jitter), the
# cost formulas, the contention experiment, golden outputs.
add_executable(test_sim test_sim.c walk.c)
target_link_libraries(test_sim PRIVATE mc_oracle manycoll_static)
mc_include_view(test_sim util ops plat sim tp coll select api job oracle)

add_test(NAME sim_walk_scc48 COMMAND test_sim scc48 --level medium --contention none)
# 49 cores of an 8x8 mesh (7x7 used): the light and the medium walk, in
# `make repro` (label long); make test walks every algorithm on scc48's
# 6x4 mesh (medium), and the mesh algorithms on tilepro64's 7x7, 3x2 and
# 2x2 grids (nocmsg.cmake)
add_test(NAME sim_walk_tilepro64 COMMAND test_sim tilepro64 --level light
         --contention none)
add_test(NAME sim_walk_tilepro64_medium COMMAND test_sim tilepro64
         --level medium --contention none)
# jitter on all 48 cores: three seeds in `make repro` (make test has jitter
# on 13 of them, on 20 of xeonphi60, 256 of mesh16x16, 240 of vscc240)
foreach(seed 1 2 3)
  add_test(NAME sim_walk_scc48_jitter${seed}
           COMMAND test_sim scc48 --level light --jitter ${seed})
endforeach()
add_test(NAME sim_walk_odd_ranks_jitter COMMAND test_sim scc48 --ranks 13
         --level light --jitter 7 --contention none)
# every algorithm on a chip of hundreds of cores (256 here; 1,024, four
# times the cost, in `make repro`)
add_test(NAME sim_walk_mesh16x16 COMMAND test_sim mesh16x16 --level tiny
         --contention none --jitter 5)
add_test(NAME sim_walk_mesh32x32 COMMAND test_sim mesh32x32 --level tiny
         --contention none --jitter 5)
# A core that runs past the bottom of its stack stops the simulation with
# a message naming it and the size (stack_guard.c: the guard page's fault;
# core 0 goes deepest, creating the communicator's tables), not a bare
# segmentation fault; a stack that is large enough runs.
add_test(NAME sim_stack_overflow
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/expect_run.sh 134
                 "simulated core [0-9]+ overflowed its 4096-byte stack .*--stack-size"
                 -- $<TARGET_FILE:manycoll_cmd> sim --platform mesh4x4
                 --coll bcast --algo binomial --sizes 8 --stack-size 4K)
if(NOT MC_SANITIZE)
  add_test(NAME sim_stack_small_enough
           COMMAND $<TARGET_FILE:manycoll_cmd> sim --platform mesh4x4
                   --coll bcast --algo binomial --sizes 8 --stack-size 16K
                   --check)
endif()

# several chips behind one host: every algorithm across the host link,
# writes acknowledged by the host (240 ranks) and by the target (53 ranks:
# chips 0 and 1 whole, 5 cores of chip 2)
add_test(NAME sim_walk_vscc240_jitter COMMAND test_sim vscc240 --level tiny
         --jitter 3)
add_test(NAME sim_walk_vscc240_routing_odd COMMAND test_sim vscc240-routing
         --ranks 53 --level light --jitter 9)
# iRCCE's pipelining on one chip (MC_P2P_PIPE; 4,000-byte halves)
add_test(NAME sim_walk_scc48_pipe COMMAND test_sim scc48 --ranks 13
         --level light --jitter 3)
set_tests_properties(sim_walk_scc48_pipe PROPERTIES
                     ENVIRONMENT MC_P2P_PIPE=1000)
# the other two schemes between chips (the walks above run the default,
# local put / local get through the host's virtual DMA): remote put /
# local get, and RCCE's local put / remote get from the host's copy
foreach(s rp_lg lp_rg)
  add_test(NAME sim_walk_vscc240_${s} COMMAND test_sim vscc240 --ranks 53
           --level tiny --jitter 5)
  set_tests_properties(sim_walk_vscc240_${s} PROPERTIES
                       ENVIRONMENT MC_P2P_SCHEME=${s})
endforeach()

# the host's DMA completes before its core's jittered register write is
# acknowledged: the engine schedules that at the present, never in the
# past (a past event under the root made a core run twice and hang)
add_test(NAME sim_vscc240_dma_jitter
         COMMAND python3 ${MC_EXPECT_OUTPUT} --rows 1 "\"check\":true" --
                 $<TARGET_FILE:manycoll_cmd> sim --platform vscc240
                 --coll alltoall --algo pairwise --sizes 64 --jitter 1
                 --check --json)
set_tests_properties(sim_vscc240_dma_jitter PROPERTIES TIMEOUT 60)

add_executable(test_sim_model test_sim_model.c)
target_link_libraries(test_sim_model PRIVATE manycoll_static)
mc_include_view(test_sim_model util ops plat sim tp)
add_test(NAME sim_formulas COMMAND test_sim_model formulas)
add_test(NAME sim_mpb_contention COMMAND test_sim_model contention)
# golden numbers of every registered algorithm and variant; under
# ASan+UBSan the hand-picked runs only (the numbers are the normal build's
# to check; the walks above run every algorithm under the sanitizers)
if(MC_SANITIZE)
  set(golden_only --hand-picked)
else()
  set(golden_only)
endif()
# a collective called 400 times costs per call what it costs over 10, on
# every kind of built-in platform, with and without contention
add_test(NAME sim_steady COMMAND python3
         ${CMAKE_CURRENT_SOURCE_DIR}/sim_steady.py $<TARGET_FILE:manycoll_cmd>)
add_test(NAME sim_golden COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/sim_golden.py
         $<TARGET_FILE:manycoll_cmd> ${golden_only})
# the same numbers from the radix heap (src/sim/evq.c), which only runs
# from 2,048 cores unless told: every 4th run here, all in `make repro`
add_test(NAME sim_golden_radix COMMAND python3
         ${CMAKE_CURRENT_SOURCE_DIR}/sim_golden.py $<TARGET_FILE:manycoll_cmd>
         --sample 4)
add_test(NAME sim_golden_radix_all COMMAND python3
         ${CMAKE_CURRENT_SOURCE_DIR}/sim_golden.py $<TARGET_FILE:manycoll_cmd>)
set_tests_properties(sim_golden_radix sim_golden_radix_all PROPERTIES
                     ENVIRONMENT "MC_SIM_EVQ=radix")
add_test(NAME ocbcast_repro COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/ocbcast_repro.py
         $<TARGET_FILE:manycoll_cmd>)
# the cache-coherent chip model (cost_cc.c)
add_test(NAME sim_walk_xeonphi60 COMMAND test_sim xeonphi60 --ranks 20
         --level light --jitter 4)
# under ASan+UBSan: one small walk per cost model (MPBs with contention,
# coherence, a message network, the host link between chips), the
# shortest that still crosses each model's code
if(MC_SANITIZE)
  add_test(NAME sim_walk_asan_mpb COMMAND test_sim scc48 --ranks 7
           --level light --jitter 1)
  add_test(NAME sim_walk_asan_cc COMMAND test_sim xeonphi60 --ranks 6
           --level light --jitter 4)
  add_test(NAME sim_walk_asan_msg COMMAND test_sim tilepro64-udn
           --grid 3x3@2,2 --level tiny --jitter 21)
  add_test(NAME sim_walk_asan_host COMMAND test_sim vscc240-routing
           --ranks 53 --level tiny --jitter 9)
endif()

# 16,384 cores: flag words stored sparsely (src/sim/flagmap.c, the dense
# area would be 4 GiB), every result checked; the stacks in one mapping
foreach(c bcast barrier allreduce reduce)
  add_test(NAME sim_sparse_flags_${c}
           COMMAND python3 ${MC_EXPECT_OUTPUT} --rows 1 "\"check\":true" --
                   $<TARGET_FILE:manycoll_cmd> sim --platform mesh128x128
                   --coll ${c} --sizes 8 --check --json)
endforeach()

# What a communicator costs a rank stays O(1): 4 KiB private bytes per rank
# in the simulator at 4,096 and 16,384 ranks (the rules shared by the
# ranks of a process, per-peer state only for the peers used; 1.4 KiB at
# this commit); on shm 16 KiB at 2 and 8 ranks (the rules are per
# process there, about 860 bytes per collective, 16 collectives; dense
# per-peer arrays up to 256 ranks)
add_test(NAME comm_bytes_sim
         COMMAND $<TARGET_FILE:manycoll_cmd> info --comm-bytes --shm ""
                 --sim mesh64x64,mesh128x128 --bound 4096)
add_test(NAME comm_bytes_shm
         COMMAND $<TARGET_FILE:manycoll_cmd> info --comm-bytes --shm 2,8
                 --sim "" --bound 16384)

# several chips behind one host (platforms/vscc240.json, docs/papers/vscc.md)
add_executable(test_vscc test_vscc.c)
target_link_libraries(test_vscc PRIVATE manycoll_static)
mc_include_view(test_vscc util ops plat sim tp)
foreach(t layout formulas ratio host chips task)
  add_test(NAME vscc_${t} COMMAND test_vscc ${t})
endforeach()
# the vSCC paper's numbers, and our hierarchical collectives on five chips
add_test(NAME vscc_repro
         COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/vscc_repro.py
                 $<TARGET_FILE:manycoll_cmd>)

# the simulator as a library call (src/job/sim_job.h): a job's statistics,
# its refusals, a failing rank; and the one out-of-memory policy, in
# children with a limited address space (not under ASan, whose shadow
# memory does not fit such a limit)
add_executable(test_sim_job test_sim_job.c)
target_link_libraries(test_sim_job PRIVATE manycoll_static)
mc_include_view(test_sim_job util ops plat sim job)
add_test(NAME sim_job_api COMMAND test_sim_job api)
add_test(NAME sim_job_oom COMMAND test_sim_job oom)
add_test(NAME sim_job_oom_full COMMAND test_sim_job oom --full)

# a coherent chip's lines in flight (outstanding): one line as before, a
# long copy k times as fast (src/sim/cost_cc.c)
add_test(NAME sim_inflight COMMAND python3
         ${CMAKE_CURRENT_SOURCE_DIR}/sim_inflight.py $<TARGET_FILE:manycoll_cmd>)
