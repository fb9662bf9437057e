# Locate MuJoCo and provide the imported target mujoco::mujoco.
#   MUJOCO_DIR set: a pip-installed `mujoco` package directory (include/mujoco/*.h and a versioned
#                   libmujoco.so.X.Y.Z next to it) or an install prefix (include/, lib/).
#   otherwise:      find_package(mujoco CONFIG), e.g. a MuJoCo built and installed from source.

if(TARGET mujoco::mujoco)
  return()
endif()

if(MUJOCO_DIR)
  find_path(MUJOCO_INCLUDE_DIR mujoco/mujoco.h PATHS "${MUJOCO_DIR}/include" NO_DEFAULT_PATH)
  file(GLOB _acs_mujoco_libs
       "${MUJOCO_DIR}/libmujoco.so.*" "${MUJOCO_DIR}/libmujoco.so"
       "${MUJOCO_DIR}/lib/libmujoco.so*" "${MUJOCO_DIR}/lib64/libmujoco.so*"
       "${MUJOCO_DIR}/libmujoco.*.dylib" "${MUJOCO_DIR}/lib/libmujoco*.dylib")
  list(SORT _acs_mujoco_libs)
  list(LENGTH _acs_mujoco_libs _acs_n)
  if(NOT MUJOCO_INCLUDE_DIR OR _acs_n EQUAL 0)
    message(FATAL_ERROR "MUJOCO_DIR=${MUJOCO_DIR} holds no include/mujoco/mujoco.h and "
                        "libmujoco.so*: point it at a pip-installed mujoco package directory "
                        "or a MuJoCo install prefix")
  endif()
  list(GET _acs_mujoco_libs 0 MUJOCO_LIBRARY)
  add_library(mujoco::mujoco SHARED IMPORTED GLOBAL)
  set_target_properties(mujoco::mujoco PROPERTIES
    IMPORTED_LOCATION "${MUJOCO_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${MUJOCO_INCLUDE_DIR}")
  get_filename_component(MUJOCO_LIBRARY_DIR "${MUJOCO_LIBRARY}" DIRECTORY)
  message(STATUS "acs: MuJoCo from MUJOCO_DIR: ${MUJOCO_LIBRARY}")
else()
  find_package(mujoco CONFIG)
  if(NOT mujoco_FOUND)
    message(FATAL_ERROR "MuJoCo not found: set MUJOCO_DIR (for example the directory of a "
                        "pip-installed mujoco package, as scripts/setup.sh does) or install "
                        "MuJoCo so that find_package(mujoco) finds it")
  endif()
  get_target_property(MUJOCO_LIBRARY mujoco::mujoco LOCATION)
  get_target_property(MUJOCO_INCLUDE_DIR mujoco::mujoco INTERFACE_INCLUDE_DIRECTORIES)
  get_filename_component(MUJOCO_LIBRARY_DIR "${MUJOCO_LIBRARY}" DIRECTORY)
  message(STATUS "acs: MuJoCo from find_package(mujoco): ${MUJOCO_LIBRARY}")
endif()

# the version of the headers (mjVERSION_HEADER: 3012000 is 3.12.0)
get_target_property(_acs_mj_inc mujoco::mujoco INTERFACE_INCLUDE_DIRECTORIES)
foreach(_dir ${_acs_mj_inc})
  if(EXISTS "${_dir}/mujoco/mujoco.h")
    file(STRINGS "${_dir}/mujoco/mujoco.h" _acs_mj_ver REGEX "#define mjVERSION_HEADER")
  endif()
endforeach()
if(_acs_mj_ver MATCHES "mjVERSION_HEADER ([0-9]+)")
  math(EXPR _major "${CMAKE_MATCH_1} / 1000000")
  math(EXPR _minor "(${CMAKE_MATCH_1} / 1000) % 1000")
  math(EXPR _patch "${CMAKE_MATCH_1} % 1000")
  set(MUJOCO_VERSION "${_major}.${_minor}.${_patch}")
  message(STATUS "acs: MuJoCo headers version ${MUJOCO_VERSION}")
endif()
