# `make install`, then a program written only against the public header,
# built with pkg-config, runs under `manycoll run -n 4`; and the header
# compiles as C++.
add_test(NAME install_pkgconfig
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/install_test.sh
                 ${CMAKE_BINARY_DIR} ${CMAKE_SOURCE_DIR})

# every subcommand: --help and -h print the usage, an unknown option is
# exit 2 naming it, the usage's options are the parser's; --version; man
add_test(NAME cli_help
         COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/cli_help.py
                 $<TARGET_FILE:manycoll_cmd>)
# every manycoll command line of the README's, the guide's and
# docs/replay.md's shell blocks, and the options of the README's synopsis, pass the command's
# parser (MC_CMD_PARSE_ONLY=1: checked, not run)
add_test(NAME doc_commands
         COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/doc_commands.py
                 $<TARGET_FILE:manycoll_cmd> ${CMAKE_SOURCE_DIR}/README.md
                 ${CMAKE_SOURCE_DIR}/docs/guide.md
                 ${CMAKE_SOURCE_DIR}/docs/replay.md)
# sim with several --algo: one table, ratios, the same numbers in --json
add_test(NAME cli_sim_compare
         COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/sim_compare.py
                 $<TARGET_FILE:manycoll_cmd>)
