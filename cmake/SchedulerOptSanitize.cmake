# Sanitizer and fuzzing configurations (docs/Reliability.md).
#
#   -DSCHEDULER_OPT_SANITIZE="address;undefined"   every target built with
#       ASan + UBSan; the first report aborts (-fno-sanitize-recover=all).
#   -DSCHEDULER_OPT_FUZZ=ON                        the libFuzzer targets in
#       fuzz/ (clang only); all code gets libFuzzer's coverage
#       instrumentation (-fsanitize=fuzzer-no-link).
#
# The MLIR and LLVM libraries from Debian stay uninstrumented: reports cover
# our code and what it makes those libraries do.
set(SCHEDULER_OPT_SANITIZE "" CACHE STRING
    "Sanitizers to build with, e.g. address;undefined (empty: none)")
option(SCHEDULER_OPT_FUZZ "Build the libFuzzer targets in fuzz/ (clang)" OFF)

if(SCHEDULER_OPT_SANITIZE)
  string(REPLACE ";" "," _sanitizers "${SCHEDULER_OPT_SANITIZE}")
  # vptr needs RTTI, which LLVM-style builds turn off.
  set(_flags "-fsanitize=${_sanitizers} -fno-sanitize-recover=all"
             "-fno-omit-frame-pointer")
  if("undefined" IN_LIST SCHEDULER_OPT_SANITIZE)
    list(APPEND _flags "-fno-sanitize=vptr")
  endif()
  string(JOIN " " _flags ${_flags})
  string(APPEND CMAKE_C_FLAGS " ${_flags}")
  string(APPEND CMAKE_CXX_FLAGS " ${_flags}")
  string(APPEND CMAKE_EXE_LINKER_FLAGS " -fsanitize=${_sanitizers}")
  string(APPEND CMAKE_SHARED_LINKER_FLAGS " -fsanitize=${_sanitizers}")
endif()

if(SCHEDULER_OPT_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "SCHEDULER_OPT_FUZZ needs clang (libFuzzer)")
  endif()
  string(APPEND CMAKE_C_FLAGS " -fsanitize=fuzzer-no-link")
  string(APPEND CMAKE_CXX_FLAGS " -fsanitize=fuzzer-no-link")
endif()
