# Profile-guided optimization of our own code (GCC), for the static release
# tools: bench/configure_static.sh trains the profile with
# bench/train_profile.sh (docs/Reliability.md says how, and how the output is
# checked to stay the same).
#
#   -DSCHEDULER_OPT_PROFILE=generate  instrumented build: every run of a tool
#       adds its counters to SCHEDULER_OPT_PROFILE_DIR.
#   -DSCHEDULER_OPT_PROFILE=use       optimized with those counters: hot
#       paths laid out and inlined by measured frequency. Functions the
#       training never ran keep the usual optimization
#       (-fprofile-partial-training), so graphs unlike the training ones lose
#       nothing.
#
# The profile names each object by its path below the build directory
# (-fprofile-prefix-path), so the instrumented build and the optimized one
# can live in different directories. The MLIR and LLVM libraries from Debian
# are prebuilt and stay as they are.
set(SCHEDULER_OPT_PROFILE "" CACHE STRING
    "Profile-guided optimization: generate, use, or empty (none)")
set(SCHEDULER_OPT_PROFILE_DIR "${CMAKE_BINARY_DIR}/profile" CACHE PATH
    "Where -fprofile-generate writes and -fprofile-use reads the counters")

if(SCHEDULER_OPT_PROFILE)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    message(FATAL_ERROR "SCHEDULER_OPT_PROFILE needs GCC's profile format; "
                        "${CMAKE_CXX_COMPILER_ID} is configured")
  endif()
  set(_prefix "-fprofile-prefix-path=${CMAKE_BINARY_DIR}")
  if(SCHEDULER_OPT_PROFILE STREQUAL "generate")
    # Counters updated atomically: the tools may run their context's threads.
    set(_flags "-fprofile-generate=${SCHEDULER_OPT_PROFILE_DIR}"
               "-fprofile-update=prefer-atomic" "${_prefix}")
    string(APPEND CMAKE_EXE_LINKER_FLAGS " -fprofile-generate")
    string(APPEND CMAKE_SHARED_LINKER_FLAGS " -fprofile-generate")
  elseif(SCHEDULER_OPT_PROFILE STREQUAL "use")
    # A function whose code changed since the training no longer matches
    # its counters, and GCC optimizes it without them. Silenced: every
    # function of the generated headers warns anyway, since those headers
    # live in each build directory and their paths differ between the two
    # builds (the counters still apply: only the lines' checksum differs).
    set(_flags "-fprofile-use=${SCHEDULER_OPT_PROFILE_DIR}"
               "-fprofile-partial-training" "-fprofile-correction"
               "-Wno-missing-profile" "-Wno-coverage-mismatch" "${_prefix}")
  else()
    message(FATAL_ERROR "SCHEDULER_OPT_PROFILE must be generate, use or "
                        "empty, not '${SCHEDULER_OPT_PROFILE}'")
  endif()
  string(JOIN " " _flags ${_flags})
  string(APPEND CMAKE_C_FLAGS " ${_flags}")
  string(APPEND CMAKE_CXX_FLAGS " ${_flags}")
endif()
