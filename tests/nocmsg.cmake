# NoCMsg (Yagna, Patil, Mueller): mesh schedules, mesh algorithms on the
# simulated message network, the reproduction.
add_executable(test_mesh test_mesh.c)
target_link_libraries(test_mesh PRIVATE manycoll_static)
add_test(NAME mesh_schedules COMMAND test_mesh)
add_executable(test_mesh_topo test_mesh_topo.c)
target_link_libraries(test_mesh_topo PRIVATE manycoll_static)
add_test(NAME mesh_topo COMMAND test_mesh_topo)
