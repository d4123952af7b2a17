# NoCMsg (Yagna, Patil, Mueller): mesh schedules, mesh algorithms on the
# simulated message network, the reproduction.
add_executable(test_mesh test_mesh.c)
target_link_libraries(test_mesh PRIVATE manycoll_static)
add_test(NAME mesh_schedules COMMAND test_mesh)
add_executable(test_mesh_topo test_mesh_topo.c)
target_link_libraries(test_mesh_topo PRIVATE manycoll_static)
add_test(NAME mesh_topo COMMAND test_mesh_topo)
# the generated walk over the mesh algorithms on grids placed on the chip,
# with jitter: square, off-origin, thin, two cores per tile (SCC)
foreach(algo mesh-tree mesh-2step mesh mesh-rounds recursive-doubling)
  add_test(NAME sim_walk_grid2x2_${algo} COMMAND test_sim tilepro64
           --grid 2x2 --level full --jitter 11 --algo ${algo})
  add_test(NAME sim_walk_grid3x2_${algo} COMMAND test_sim tilepro64
           --grid 3x2@4,5 --level medium --jitter 12 --algo ${algo})
  add_test(NAME sim_walk_scc_grid_${algo} COMMAND test_sim scc48
           --grid 3x2@2,1 --level light --jitter 13 --algo ${algo})
endforeach()
add_test(NAME sim_walk_grid7x7_jitter COMMAND test_sim tilepro64 --grid 7x7
         --level light --jitter 14 --algo mesh-rounds)
add_executable(test_mesh_seq test_mesh_seq.c ${CMAKE_SOURCE_DIR}/tools/check.c)
target_include_directories(test_mesh_seq PRIVATE ${CMAKE_SOURCE_DIR}/tools)
target_link_libraries(test_mesh_seq PRIVATE manycoll_static)
foreach(seed 1 2 3)
  add_test(NAME mesh_back_to_back_${seed} COMMAND test_mesh_seq --jitter ${seed})
endforeach()
