# cmake -P cmake/layer_probe.cmake: proves that the build enforces the
# layers (cmake/layers.cmake). For every layer L and every other layer M it
# compiles a probe that includes M's main header with L's include view; the
# probe must compile if L may see M and fail otherwise. And a layer may see
# only layers listed before it (LAYERS is in order, lowest first), so the
# layers form no circle.
#   -DCC=compiler -DSRC=source dir -DVIEWS=build/views -DOUT=scratch dir
#   -DLAYERS=util,ops,... -DSEES_<L>=a,b,... for each layer
set(face_util util/error.h)
set(face_ops ops/ops.h)
set(face_plat plat/platform.h)
set(face_sched sched/sched.h)
set(face_sim sim/engine.h)
set(face_model model/ccmodel.h)
set(face_tp tp/tp.h)
set(face_coll coll/coll.h)
set(face_select select/select.h)
set(face_api api/comm.h)
set(face_job job/sim_job.h)
set(face_hier hier/hier.h)
set(face_oracle oracle/check.h)
set(face_app app/gcmc.h)
set(face_replay replay/replay.h)
set(face_trace trace/trace.h)

string(REPLACE "," ";" LAYERS "${LAYERS}")
list(LENGTH LAYERS nlayers)
if(nlayers LESS 2)
  message(FATAL_ERROR "LAYERS names ${nlayers} layer(s)")
endif()
file(MAKE_DIRECTORY ${OUT})
set(bad 0)
set(probes 0)
set(below "")
foreach(l ${LAYERS})
  string(REPLACE "," ";" SEES_${l} "${SEES_${l}}")
  foreach(m ${SEES_${l}})
    list(FIND below ${m} i)
    if(i EQUAL -1)
      message("FAIL: layer ${l} sees ${m}, which is not below it "
              "(cmake/layers.cmake lists the layers lowest first)")
      math(EXPR bad "${bad} + 1")
    endif()
  endforeach()
  list(APPEND below ${l})
  foreach(m ${LAYERS})
    if(m STREQUAL l)
      continue()
    endif()
    if(NOT DEFINED face_${m})
      message(FATAL_ERROR "layer ${m} has no main header in ${CMAKE_CURRENT_LIST_FILE}")
    endif()
    set(probe ${OUT}/${l}_includes_${m}.c)
    file(WRITE ${probe} "#include \"${face_${m}}\"\nint mc_probe;\n")
    execute_process(
      COMMAND ${CC} -std=c11 -D_GNU_SOURCE -fsyntax-only
              -I${SRC}/include -I${VIEWS}/mc_${l} ${probe}
      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    math(EXPR probes "${probes} + 1")
    list(FIND SEES_${l} ${m} allowed)
    if(allowed GREATER -1 AND NOT rc EQUAL 0)
      message("FAIL: src/${l} may include ${face_${m}}, but it does not "
              "compile there:\n${err}")
      math(EXPR bad "${bad} + 1")
    elseif(allowed EQUAL -1 AND rc EQUAL 0)
      message("FAIL: src/${l} must not see layer ${m}, yet "
              "#include \"${face_${m}}\" compiles there")
      math(EXPR bad "${bad} + 1")
    elseif(allowed EQUAL -1 AND "${l}:${m}" MATCHES "^(coll:api|coll:model|sim:tp)$")
      message("as it should, src/${l} cannot include ${face_${m}}:\n${err}")
    endif()
  endforeach()
endforeach()
if(bad)
  message(FATAL_ERROR "${bad} layer probe(s) failed")
endif()
message("layers: ${probes} probes; every wrong-way include fails to "
        "compile, every allowed one compiles")
