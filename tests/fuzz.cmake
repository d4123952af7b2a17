# Fuzzing targets (tests/fuzz/): the platform, profile and tuning-file
# readers and the command line. Built with tests/fuzz/driver.c they run a
# few seconds each in `make test` (replay of the seed corpus, then random
# mutations; under ASan+UBSan in the sanitizer build); built with clang's
# libFuzzer (-DMC_FUZZ=ON, `make fuzz`) they run as long as asked.
set(MC_FZ ${CMAKE_CURRENT_SOURCE_DIR}/fuzz)
if(MC_SANITIZE)
  set(mc_fuzz_seconds 4)
else()
  set(mc_fuzz_seconds 2)
endif()
foreach(t platform tuning profile args)
  add_executable(fuzz_${t} ${MC_FZ}/fuzz_${t}.c ${MC_FZ}/fuzz_common.c)
  target_include_directories(fuzz_${t} PRIVATE ${MC_FZ}
                             ${CMAKE_SOURCE_DIR}/tools)
  target_link_libraries(fuzz_${t} PRIVATE mc_tool_objs)
  mc_include_view(fuzz_${t} ${MC_TOOLS_LAYERS})
  if(MC_FUZZ)
    target_link_options(fuzz_${t} PRIVATE -fsanitize=fuzzer)
    target_compile_definitions(fuzz_${t} PRIVATE MC_LIBFUZZER)
  else()
    target_sources(fuzz_${t} PRIVATE ${MC_FZ}/driver.c)
    add_test(NAME fuzz_${t} COMMAND fuzz_${t} ${MC_FZ}/corpus/${t}
             --seconds ${mc_fuzz_seconds})
    set_tests_properties(fuzz_${t} PROPERTIES TIMEOUT 120
                         ENVIRONMENT MC_TUNING=none)
  endif()
endforeach()
