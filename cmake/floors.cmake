# The floors of the house (docs/architecture.md), each a static library locksim_<floor> built from
# <floor>/*.cpp, that the compiler keeps from reaching sideways or up.
#
# A floor sees itself and, transitively, the floors it stands on, and nothing else: it compiles
# against its own view, ${CMAKE_BINARY_DIR}/floors/<floor>/, a folder of links to exactly those
# source folders. `#include "sim/world.hpp"` from a model file therefore fails to compile with
# "No such file or directory", however the targets happen to be linked. Tests and benchmarks see
# the whole tree.
#
# floors/floors.txt lists each floor and what it sees, for the test that checks every include
# against it (verify/unit/layers_test.cpp), headers included only from higher floors among them.

set(LOCKSIM_FLOORS_DIR ${CMAKE_BINARY_DIR}/floors)
file(REMOVE_RECURSE ${LOCKSIM_FLOORS_DIR})
file(MAKE_DIRECTORY ${LOCKSIM_FLOORS_DIR})
file(WRITE ${LOCKSIM_FLOORS_DIR}/floors.txt "# <floor>: <the floors it may include, itself first>\n")

# locksim_floor(<floor> [ON <floor>...] [LINK <library>...])
#   ON: the floors it stands on (their libraries are linked, their folders seen);
#   LINK: outside libraries its headers or sources use.
function(locksim_floor floor)
  cmake_parse_arguments(PARSE_ARGV 1 F "" "" "ON;LINK")
  if(NOT EXISTS ${CMAKE_SOURCE_DIR}/${floor})
    message(FATAL_ERROR "locksim_floor(${floor}): no folder ${CMAKE_SOURCE_DIR}/${floor}")
  endif()
  set(below "")
  foreach(on IN LISTS F_ON)
    get_property(known GLOBAL PROPERTY LOCKSIM_FLOOR_SEES_${on} SET)
    if(NOT known)
      message(FATAL_ERROR "locksim_floor(${floor}): floor '${on}' must be declared before the floors on it")
    endif()
    get_property(on_sees GLOBAL PROPERTY LOCKSIM_FLOOR_SEES_${on})
    list(APPEND below ${on_sees})
  endforeach()
  list(REMOVE_DUPLICATES below)
  list(SORT below)
  set(sees ${floor} ${below})
  set_property(GLOBAL PROPERTY LOCKSIM_FLOOR_SEES_${floor} ${sees})

  set(view ${LOCKSIM_FLOORS_DIR}/${floor})
  file(MAKE_DIRECTORY ${view})
  foreach(seen IN LISTS sees)
    file(CREATE_LINK ${CMAKE_SOURCE_DIR}/${seen} ${view}/${seen} SYMBOLIC)
  endforeach()
  list(JOIN sees " " sees_text)
  file(APPEND ${LOCKSIM_FLOORS_DIR}/floors.txt "${floor}: ${sees_text}\n")

  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/${floor}/*.cpp)
  list(FILTER sources EXCLUDE REGEX "/main\\.cpp$")
  add_library(locksim_${floor} STATIC ${sources})
  target_include_directories(locksim_${floor} PRIVATE ${view})
  foreach(on IN LISTS F_ON)
    target_link_libraries(locksim_${floor} PUBLIC locksim_${on})
  endforeach()
  if(F_LINK)
    target_link_libraries(locksim_${floor} PUBLIC ${F_LINK})
  endif()
endfunction()
