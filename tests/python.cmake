# The Python package's tests (python/tests, pytest), with the package
# staged in build/python. Not under ASan (the interpreter is not built
# with it). mpi4py for each MPI comes from `make python-deps`.
if(MC_PYTHON)
  set(mc_py_env PYTHONPATH=${CMAKE_BINARY_DIR}/python MC_TUNING=none
      MC_MPI4PY_DIR=${CMAKE_BINARY_DIR})
  foreach(t coll errors sim mpi)
    add_test(NAME python_${t}
             COMMAND ${CMAKE_COMMAND} -E env ${mc_py_env}
                     ${Python_EXECUTABLE} -m pytest -q -p no:cacheprovider
                     ${CMAKE_SOURCE_DIR}/python/tests/test_${t}.py)
    set_tests_properties(python_${t} PROPERTIES TIMEOUT 600)
  endforeach()
  # manycoll.replay (python/tests/test_replay.py): on tests/replay_gen's
  # archive, and on the mini-application's recording after its test
  # (the fixture; tests/replay.cmake)
  # (without OTF2: that manycoll.replay raises UnsupportedError)
  if(MC_HAVE_OTF2)
    set(mc_py_replay_env REPLAY_GEN_EXE=$<TARGET_FILE:replay_gen>
        REPLAY_CG4_DIR=${CMAKE_BINARY_DIR}/traces/cg4)
  else()
    set(mc_py_replay_env REPLAY_NO_OTF2=1)
  endif()
  add_test(NAME python_replay
           COMMAND ${CMAKE_COMMAND} -E env ${mc_py_env} ${mc_py_replay_env}
                   ${Python_EXECUTABLE} -m pytest -q -p no:cacheprovider
                   ${CMAKE_SOURCE_DIR}/python/tests/test_replay.py)
  set_tests_properties(python_replay PROPERTIES TIMEOUT 600)
else()
  add_test(NAME python COMMAND ${CMAKE_COMMAND} -E echo
           "python: SKIP: built without the Python package (MC_PYTHON=OFF)")
  set_tests_properties(python PROPERTIES SKIP_REGULAR_EXPRESSION "SKIP")
endif()
