# NoCMsg (Yagna, Patil, Mueller): mesh schedules, mesh algorithms on the
# simulated message network, the reproduction.
add_executable(test_mesh test_mesh.c)
target_link_libraries(test_mesh PRIVATE manycoll_static)
mc_include_view(test_mesh util plat sched sim)
add_test(NAME mesh_schedules COMMAND test_mesh)
add_executable(test_mesh_topo test_mesh_topo.c)
target_link_libraries(test_mesh_topo PRIVATE manycoll_static)
mc_include_view(test_mesh_topo ${MC_TOOLS_LAYERS})
add_test(NAME mesh_topo COMMAND test_mesh_topo)
# the generated walk over the mesh algorithms on grids placed on the chip,
# with jitter: square, off-origin, thin, two cores per tile (SCC); one
# level lighter under ASan+UBSan (8-10x slower)
if(MC_SANITIZE)
  set(mesh_full medium)
  set(mesh_medium light)
else()
  set(mesh_full full)
  set(mesh_medium medium)
endif()
foreach(algo mesh-tree mesh-2step mesh mesh-rounds recursive-doubling)
  add_test(NAME sim_walk_grid2x2_${algo} COMMAND test_sim tilepro64
           --grid 2x2 --level ${mesh_full} --jitter 11 --algo ${algo})
  add_test(NAME sim_walk_grid3x2_${algo} COMMAND test_sim tilepro64
           --grid 3x2@4,5 --level ${mesh_medium} --jitter 12 --algo ${algo})
  add_test(NAME sim_walk_scc_grid_${algo} COMMAND test_sim scc48
           --grid 3x2@2,1 --level light --jitter 13 --algo ${algo})
endforeach()
add_test(NAME sim_walk_grid7x7_jitter COMMAND test_sim tilepro64-udn
         --grid 7x7 --level light --jitter 14 --algo mesh-rounds)
# every algorithm on the message network (cost_msg.c), with jitter
add_test(NAME sim_walk_udn_grid3x3_jitter COMMAND test_sim tilepro64-udn
         --grid 3x3@2,2 --level ${mesh_medium} --jitter 21)
add_executable(test_mesh_seq test_mesh_seq.c)
target_link_libraries(test_mesh_seq PRIVATE mc_oracle manycoll_static)
mc_include_view(test_mesh_seq ${MC_TOOLS_LAYERS})
foreach(seed 1 2 3)
  add_test(NAME mesh_back_to_back_${seed} COMMAND test_mesh_seq --jitter ${seed})
endforeach()
# trees down a machine's hierarchy: hwloc synthetic topologies, and the
# algorithms on real processes placed on a synthetic machine (MC_BIND).
# A build without hwloc has no synthetic machines (HWLOC_SYNTHETIC): it
# skips these, saying why, and runs the algorithms placed on this
# machine as Linux's sysfs describes it instead.
if(MC_HAVE_HWLOC)
  add_executable(test_hier_tree test_hier_tree.c)
  target_link_libraries(test_hier_tree PRIVATE manycoll_static PkgConfig::HWLOC)
  mc_include_view(test_hier_tree util ops sched tp)
  add_test(NAME hier_trees COMMAND test_hier_tree)
  foreach(n 3 5 8)
    add_test(NAME coll_hier_n${n} COMMAND ${MC_CMD} run -n ${n} --timeout 300
             $<TARGET_FILE:test_coll> --algo hier --level ${mesh_full})
    set_tests_properties(coll_hier_n${n} PROPERTIES ENVIRONMENT
      "MC_BIND=1;HWLOC_SYNTHETIC=pack:2 l3:2 core:2 pu:1")
  endforeach()
  add_executable(test_hier_shm test_hier_shm.c)
  target_link_libraries(test_hier_shm PRIVATE manycoll_static)
  mc_include_view(test_hier_shm ${MC_TOOLS_LAYERS})
  add_test(NAME hier_shm_places COMMAND ${MC_CMD} run -n 6 --timeout 60
           $<TARGET_FILE:test_hier_shm>)
  set_tests_properties(hier_shm_places PROPERTIES ENVIRONMENT
    "MC_BIND=1;HWLOC_SYNTHETIC=pack:2 l3:2 core:2 pu:1")
  # the sysfs source of a build without hwloc gives hwloc's ids, here
  # and on made-up machines (src/tp/hwtopo_sysfs.c compiled in)
  add_executable(test_hwtopo_sysfs test_hwtopo_sysfs.c
                 ${CMAKE_SOURCE_DIR}/src/tp/hwtopo_sysfs.c)
  target_link_libraries(test_hwtopo_sysfs PRIVATE manycoll_static
                        PkgConfig::HWLOC)
  mc_include_view(test_hwtopo_sysfs util ops tp)
  add_test(NAME hier_sysfs_vs_hwloc COMMAND test_hwtopo_sysfs)
else()
  foreach(t hier_trees coll_hier_n3 coll_hier_n5 coll_hier_n8 hier_shm_places)
    add_test(NAME ${t} COMMAND sh -c "echo 'skipped: needs hwloc synthetic topologies (HWLOC_SYNTHETIC); this build has no hwloc (MC_HWLOC)'; exit 77")
    set_tests_properties(${t} PROPERTIES SKIP_RETURN_CODE 77)
  endforeach()
  foreach(n 3 5)
    add_test(NAME coll_hier_sysfs_n${n} COMMAND ${MC_CMD} run -n ${n}
             --timeout 300 $<TARGET_FILE:test_coll> --algo hier --level light)
    set_tests_properties(coll_hier_sysfs_n${n} PROPERTIES ENVIRONMENT
      "MC_BIND=1")
  endforeach()
endif()
# the paper reproduced (docs/papers/nocmsg.md); seconds, not under ASan
add_test(NAME nocmsg_repro COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/nocmsg_repro.py
         $<TARGET_FILE:manycoll_cmd>)
# where there is no grid and no known hierarchy (shm, unbound) the walk
# skips these algorithms; their fallbacks, named explicitly:
foreach(algo mesh-tree mesh-2step mesh mesh-rounds hier)
  add_test(NAME coll_fallback_${algo} COMMAND ${MC_CMD} run -n 3 --timeout 120
           $<TARGET_FILE:test_coll> --algo ${algo} --level light)
endforeach()
# what `manycoll sim --json` says ran instead, with its own parameters
add_test(NAME sim_fallback_json COMMAND python3
         ${CMAKE_CURRENT_SOURCE_DIR}/sim_fallback.py $<TARGET_FILE:manycoll_cmd>)
