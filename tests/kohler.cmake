# Kohler et al. (docs/papers/kohler.md): the two-sided flavours at the
# sizes where they differ, on the simulator (with jitter) and on shm.
add_executable(test_flavours test_flavours.c)
target_link_libraries(test_flavours PRIVATE mc_oracle manycoll_static)
mc_include_view(test_flavours ${MC_TOOLS_LAYERS})
add_test(NAME flavours_sim_n13 COMMAND test_flavours --sim scc48 --ranks 13
         --jitter 11)
add_test(NAME flavours_sim_n4 COMMAND test_flavours --sim scc48 --ranks 4
         --jitter 12)
add_test(NAME flavours_shm_n3 COMMAND ${MC_CMD} run -n 3 --timeout 300
         $<TARGET_FILE:test_flavours>)
# the simulator's caches and local-MPB knob against their definitions
add_executable(test_cache test_cache.c)
target_link_libraries(test_cache PRIVATE manycoll_static)
mc_include_view(test_cache ${MC_TOOLS_LAYERS})
add_test(NAME sim_cache COMMAND test_cache)
# the GCMC proxy on shm and on the simulator, the same moves and energy
add_test(NAME gcmc_proxy COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/gcmc_proxy.py
         $<TARGET_FILE:manycoll_cmd>)
# the paper's numbers against the simulated SCC (docs/papers/kohler.md):
# the three fitted ratios hold, the predictions within their tolerances,
# the known misses reported (14 sizes, one call each; kohler_repro_full,
# in `make repro`: the page's sweep of 528..600, as the paper timed it)
add_test(NAME kohler_repro
         COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/kohler_repro.py
                 $<TARGET_FILE:manycoll_cmd>)
add_test(NAME kohler_repro_full
         COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/kohler_repro.py
                 $<TARGET_FILE:manycoll_cmd> --full)
set_tests_properties(kohler_repro_full PROPERTIES TIMEOUT 3600)
