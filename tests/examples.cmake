# The guide's example programs (examples/*.c, docs/guide.md), built
# against the library as a user would (public header only) and run: each
# checks its own result and exits non-zero if it is wrong.
foreach(e every_collective stencil transpose)
  add_executable(example_${e} ${CMAKE_SOURCE_DIR}/examples/${e}.c)
  target_link_libraries(example_${e} PRIVATE manycoll m)
endforeach()
foreach(n 1 3 4)
  foreach(e stencil transpose)
    add_test(NAME example_${e}_n${n}
             COMMAND ${MC_CMD} run -n ${n} --timeout 120
                     $<TARGET_FILE:example_${e}>)
  endforeach()
endforeach()
add_test(NAME example_every_collective_n5
         COMMAND ${MC_CMD} run -n 5 --timeout 120
                 $<TARGET_FILE:example_every_collective>)
