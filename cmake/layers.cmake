# The layers of src/ (docs/architecture.md), one object library each.
# A layer sees include/ (the public header), its own headers and those of
# the layers it names, nothing else: each target gets an "include view", a
# directory of links named after the layers it may see, as its only way
# into src/. So `#include "api/comm.h"` in src/coll/ fails to compile
# ("No such file or directory"); tests/layers.cmake checks every pair.
#
#   util      errors, environment table, data paths, JSON reading
#   ops       datatypes and reduction kernels
#   plat      platform and calibration-profile descriptions (data)
#   sched     pure schedules of (rank, size, params)
#   sim       the chip simulator's engine and cost model
#   model     analytic models, optimiser, calibration experiments
#   tp        the transport interface, shm and the simulator transport
#   coll      the algorithms and what they share; the team
#   select    registry, selection rules, tuning files, automatic parameters
#   api       the public functions and the communicator
#   job       a simulated job in one call (platform, engine, a
#             communicator per rank, the run, its statistics): the
#             command, Python and the tests simulate through it. It uses
#             the API's communicator, whose headers show the team and the
#             selection (coll, select)
#   hier      hierarchical collectives over a provider (the public API of
#             each node, the MPI library between nodes): sees include/,
#             like a program, and ops for the 16-bit float conversions
#
# Support layers sit above the library and are not part of libmanycoll:
#
#   oracle    the test oracle (inputs, a scalar reference, verification,
#             the barrier's arrival record, the hierarchy's cases): the
#             static library mc_oracle, linked by the command, the tests
#             and Python, never by libmanycoll.so
#   app       application proxies on the communicator (GCMC, Kohler et
#             al.): on shared memory (`manycoll gcmc`) and on every core
#             of a simulated chip (`manycoll sim --app`, through job)
#   replay    an MPI run's OTF2 trace replayed on a simulated chip
#             (`manycoll replay`, Python's manycoll.replay): reads OTF2
#             with libotf2, which libmanycoll.so does not link
#   trace     a C API program's recording (MC_TRACE, api/trace.h) made
#             into an OTF2 archive by `manycoll run`: it reads the log
#             format (util/tracelog.h) and writes with libotf2; and a
#             simulation's spans (sim/engine.h) as OTF2 (`--trace X.otf2`)

set(MC_LAYER_SEES_util "")
set(MC_LAYER_SEES_ops util)
set(MC_LAYER_SEES_plat util)
set(MC_LAYER_SEES_sched "")
set(MC_LAYER_SEES_sim util plat)
set(MC_LAYER_SEES_model util plat sched)
set(MC_LAYER_SEES_tp util ops sched sim plat)
set(MC_LAYER_SEES_coll util ops tp sched)
set(MC_LAYER_SEES_select util ops coll tp sched model plat)
set(MC_LAYER_SEES_api util ops coll tp select)
set(MC_LAYER_SEES_job util ops plat sim tp coll select api)
set(MC_LAYER_SEES_hier ops)
set(MC_LAYERS util ops plat sched sim model tp coll select api job hier)
set(MC_LAYER_SEES_oracle util ops sched tp coll hier)
set(MC_LAYER_SEES_app util ops plat sched sim tp coll select api job)
set(MC_LAYER_SEES_replay util ops plat sched sim tp coll select api job)
set(MC_LAYER_SEES_trace util plat sim)
set(MC_SUPPORT_LAYERS oracle app replay trace)

# mc_include_view(TARGET LAYER...): TARGET sees include/ and these layers
function(mc_include_view target)
  set(view ${CMAKE_BINARY_DIR}/views/${target})
  file(REMOVE_RECURSE ${view})
  file(MAKE_DIRECTORY ${view})
  foreach(l ${ARGN})
    if(NOT IS_DIRECTORY ${CMAKE_SOURCE_DIR}/src/${l})
      message(FATAL_ERROR "mc_include_view(${target}): no layer src/${l}")
    endif()
    file(CREATE_LINK ${CMAKE_SOURCE_DIR}/src/${l} ${view}/${l} SYMBOLIC)
  endforeach()
  target_include_directories(${target} PRIVATE ${CMAKE_SOURCE_DIR}/include
                             ${view})
  # an MC_ASSERT in a header names src/tp/tp.h, not the view's link
  target_compile_options(${target} PRIVATE -fmacro-prefix-map=${view}/=src/)
endfunction()

# mc_layer(NAME): object library mc_NAME of src/NAME/*.c
function(mc_layer name)
  file(GLOB srcs CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/${name}/*.c)
  add_library(mc_${name} OBJECT ${srcs})
  mc_include_view(mc_${name} ${name} ${MC_LAYER_SEES_${name}})
  # the shared library exports the public API only (MC_API in manycoll.h)
  set_target_properties(mc_${name} PROPERTIES C_VISIBILITY_PRESET hidden)
endfunction()
