# Installation and the CMake package (find_package(SchedulerOpt CONFIG)).
#
# The libraries need no rules here: add_mlir_library installs each one into
# the export set MLIR's CMake names "MLIRTargets" (add_mlir_library_install)
# and records it in the global property MLIR_EXPORTS. That set holds only
# this project's targets (MLIR itself is imported), so it is installed here
# as SchedulerOptTargets.cmake, and a library added later is exported
# without any change to this file. Headers, .td files and generated .inc
# files are installed by pattern for the same reason. A library declared
# with add_llvm_library instead would land in LLVM's export set, and
# install(EXPORT) below would refuse the libraries that link it: declare
# libraries with add_mlir_library (or add_mlir_dialect_library).

include(CMakePackageConfigHelpers)

# find_package matches the directory name against "SchedulerOpt" ignoring
# case, as it finds lib/cmake/mlir for MLIR.
set(SCHEDULER_OPT_INSTALL_PACKAGE_DIR "lib${LLVM_LIBDIR_SUFFIX}/cmake/scheduleropt")
get_property(SCHEDULER_OPT_EXPORTS GLOBAL PROPERTY MLIR_EXPORTS)

# Consumers of the exported libraries find the project's headers through
# the targets as well as through SCHEDULER_OPT_INCLUDE_DIRS.
foreach(target IN LISTS SCHEDULER_OPT_EXPORTS)
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "EXECUTABLE")
    continue()
  endif()
  target_include_directories(${target} INTERFACE
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endforeach()

# Hand-written headers and ODS sources, then the generated .inc files.
install(DIRECTORY include/scheduler-opt include/scheduler-opt-c
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  COMPONENT scheduler-opt-headers
  FILES_MATCHING
  PATTERN "*.h"
  PATTERN "*.td"
  PATTERN "CMakeFiles" EXCLUDE)
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/scheduler-opt
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  COMPONENT scheduler-opt-headers
  FILES_MATCHING
  PATTERN "*.inc"
  PATTERN "*.h"
  PATTERN "CMakeFiles" EXCLUDE)

# README, the hand-written docs and the references add_mlir_doc generates.
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR}
  COMPONENT scheduler-opt-docs)
install(DIRECTORY docs/ ${PROJECT_BINARY_DIR}/docs/
  DESTINATION ${CMAKE_INSTALL_DOCDIR}
  COMPONENT scheduler-opt-docs
  FILES_MATCHING
  PATTERN "*.md"
  PATTERN "CMakeFiles" EXCLUDE)

if(NOT SCHEDULER_OPT_STATIC)
  set(SCHEDULER_OPT_LINK_MLIR_DYLIB ON)
else()
  set(SCHEDULER_OPT_LINK_MLIR_DYLIB OFF)
endif()
set(SCHEDULER_OPT_CONFIG_MLIR_DIR "${MLIR_DIR}")

# The package in the build tree, for compilers built against a build
# directory without installing it.
set(build_package_dir "${PROJECT_BINARY_DIR}/${SCHEDULER_OPT_INSTALL_PACKAGE_DIR}")
export(EXPORT MLIRTargets FILE "${build_package_dir}/SchedulerOptTargets.cmake")
set(SCHEDULER_OPT_CONFIG_INCLUDE_DIRS
  "${PROJECT_SOURCE_DIR}/include;${PROJECT_BINARY_DIR}/include")
set(SCHEDULER_OPT_CONFIG_TOOLS_DIR "${PROJECT_BINARY_DIR}/bin")
configure_package_config_file(cmake/SchedulerOptConfig.cmake.in
  "${build_package_dir}/SchedulerOptConfig.cmake"
  INSTALL_DESTINATION "${build_package_dir}"
  INSTALL_PREFIX "${PROJECT_BINARY_DIR}")
write_basic_package_version_file(
  "${build_package_dir}/SchedulerOptConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)

# The package in the install tree, relocatable: paths relative to the
# config file's own location.
set(SCHEDULER_OPT_CONFIG_INCLUDE_DIRS "\${PACKAGE_PREFIX_DIR}/${CMAKE_INSTALL_INCLUDEDIR}")
set(SCHEDULER_OPT_CONFIG_TOOLS_DIR "\${PACKAGE_PREFIX_DIR}/${CMAKE_INSTALL_BINDIR}")
configure_package_config_file(cmake/SchedulerOptConfig.cmake.in
  "${PROJECT_BINARY_DIR}/CMakeFiles/SchedulerOptConfig.cmake"
  INSTALL_DESTINATION "${SCHEDULER_OPT_INSTALL_PACKAGE_DIR}")
install(FILES
  "${PROJECT_BINARY_DIR}/CMakeFiles/SchedulerOptConfig.cmake"
  "${build_package_dir}/SchedulerOptConfigVersion.cmake"
  DESTINATION "${SCHEDULER_OPT_INSTALL_PACKAGE_DIR}"
  COMPONENT scheduler-opt-cmake-exports)
install(EXPORT MLIRTargets
  FILE SchedulerOptTargets.cmake
  DESTINATION "${SCHEDULER_OPT_INSTALL_PACKAGE_DIR}"
  COMPONENT scheduler-opt-cmake-exports)
