# The OC-Bcast paper's model (issue 4, part 3): formulas 1-16 on scc48,
# Table 2, the modelled latency claims, the command line, and the model in
# layout mode against the contention-free simulator. Run them with
# `ctest -R ocbmodel`.

add_executable(test_ocbmodel test_ocbmodel.c)
target_link_libraries(test_ocbmodel PRIVATE manycoll_static)
mc_include_view(test_ocbmodel util plat sched model)
add_test(NAME ocbmodel_formulas COMMAND test_ocbmodel)

add_test(NAME ocbmodel_vs_sim
         COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/ocbmodel_vs_sim.py
                 $<TARGET_FILE:manycoll_cmd>)

# the command line: Table 2 as JSON, one prediction with the sim's fields
add_test(NAME ocbmodel_table2_cmd
         COMMAND python3 ${MC_EXPECT_OUTPUT} --rows 8
                 "\"algo\":\"ocbcast:k=7\",\"paper_MBps\":34.30,.*\"ours_MBps\":32.98"
                 -- ${MC_CMD} model --platform scc48 --table2 --json)
add_test(NAME ocbmodel_predict_cmd
         COMMAND python3 ${MC_EXPECT_OUTPUT} --rows 1
                 "\"platform\":\"scc48\",\"coll\":\"bcast\",\"algo\":\"binomial\",\"ranks\":48,\"root\":0,\"bytes\":32,\"lat_us\":22.3680,\"bw_MBps\":1.4306,\"done_min_us\":15.1550,\"done_max_us\":22.3680,\"done_stdev_us\":[0-9.]+,\"events\":0,\"events_per_s\":0,\"source\":\"model\",\"mode\":\"paper\""
                 -- ${MC_CMD} model --platform scc48 --coll bcast --algo
                 binomial --sizes 1L --json)
add_test(NAME ocbmodel_sizes_lines
         COMMAND python3 ${MC_EXPECT_OUTPUT} --rows 2
                 "\n32 [^\n]*chunk=3072[^\n]*\n6144 "
                 -- ${MC_CMD} model --platform scc48 --coll bcast --algo
                 ocbcast:k=7,chunk=96L --unit lines --sizes 1-192/191)
add_test(NAME ocbmodel_bad_algo
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/expect_run.sh 2
                 "algo: unknown algorithm 'x'" --
                 ${MC_CMD} model --platform scc48 --coll bcast --algo x
                 --sizes 8)
add_test(NAME ocbmodel_bad_param
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/expect_run.sh 2
                 "parameter 'q'" --
                 ${MC_CMD} model --platform scc48 --coll bcast
                 --algo ocbcast:q=1)
