# continuum_precompile_examples(DIRECTORY HEADER...): the programs of DIRECTORY (its own targets, not
# its subdirectories') compile with one precompiled header of HEADER..., built once with the first
# program's flags and reused by the others (REUSE_FROM: their flags must match, so a program with its
# own -O, e.g. a test area's CONTINUUM_AREA_OPTIMIZATION, keeps compiling without it).
# For clang (CONTINUUM_PRECOMPILE_HEADERS, set by scripts/test.sh's sanitized build): a unit that only
# includes the umbrella (examples/quickstart.cpp) then compiles in 1.4 s of CPU instead of 9.4 s
# (-O0, ASan+UBSan); g++'s precompiled headers were measured slower than parsing (docs/CONTRIBUTING.md).
function(continuum_precompile_examples directory)
  get_property(_targets DIRECTORY "${directory}" PROPERTY BUILDSYSTEM_TARGETS)
  set(_donor "")
  foreach(_target IN LISTS _targets)
    get_target_property(_type ${_target} TYPE)
    get_target_property(_optimization ${_target} CONTINUUM_AREA_OPTIMIZATION)
    if(NOT _type STREQUAL "EXECUTABLE" OR _optimization)
      continue()
    endif()
    if(_donor)
      target_precompile_headers(${_target} REUSE_FROM ${_donor})
    else()
      target_precompile_headers(${_target} PRIVATE ${ARGN})
      set(_donor ${_target})
    endif()
  endforeach()
endfunction()
