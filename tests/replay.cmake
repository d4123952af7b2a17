# manycoll replay (src/replay, docs/replay_replay_part.md): archives of a
# known program written by tests/replay_gen.c, in the contract's form and
# in Score-P's, replayed and checked by tests/replay_check.py
add_executable(replay_gen replay_gen.c)
target_link_libraries(replay_gen PRIVATE PkgConfig::OTF2)
add_test(NAME replay_cli COMMAND python3
         ${CMAKE_CURRENT_SOURCE_DIR}/replay_check.py ${MC_CMD}
         $<TARGET_FILE:replay_gen> ${CMAKE_CURRENT_BINARY_DIR}/replay_tmp)
set_tests_properties(replay_cli PROPERTIES TIMEOUT 120)
