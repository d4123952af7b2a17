# src/hier: the hierarchical collectives with manycoll as the provider
# (no MPI needed), on "nodes" made of consecutive ranks, uneven nodes and
# round-robin placement.
add_executable(test_hier test_hier.c)
target_link_libraries(test_hier PRIVATE mc_oracle manycoll_static)
mc_include_view(test_hier ${MC_TOOLS_LAYERS})
foreach(shape "4;--node-size;2" "6;--node-size;3" "6;--node-size;2"
              "5;--node-size;2" "4;--nodes;2")
  list(GET shape 0 n)
  list(GET shape 1 opt)
  list(GET shape 2 k)
  string(REPLACE "--" "" tag "${opt}")
  add_test(NAME hier_n${n}_${tag}${k}
           COMMAND ${MC_CMD} run -n ${n} --timeout 300
                   $<TARGET_FILE:test_hier> ${opt} ${k})
endforeach()
