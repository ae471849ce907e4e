# SCHEDULER_OPT_STATIC: self-contained tools that can be copied to another
# Linux machine (for example the GPU machine, to time scheduler-opt beside
# PyTorch there).
#
# Debian's MLIR packages ship static MLIR libraries, but their exported
# targets link LLVM through "LLVM" (libLLVM.so, which drags in z3, ICU,
# libxml2, ...: well over 100 MB). Here every such link is redirected to
# LLVM's static component archives, and the C and C++ runtimes are linked
# statically too. The LLVM components the MLIR libraries need are listed
# explicitly; a missing one shows up as an undefined symbol at link time.

# scheduler-opt's --fusion-to-ptx translates to LLVM IR, runs LLVM's
# optimizer and the NVPTX back end; the other tools need Support only (the
# linker keeps only what a tool references).
set(SCHEDULER_OPT_STATIC_LLVM_LINK_COMPONENTS
    NVPTX Passes Linker IRReader Core Remarks Support Demangle
    CACHE STRING "LLVM components linked statically instead of libLLVM.so")
llvm_map_components_to_libnames(_llvm_static_libs
  ${SCHEDULER_OPT_STATIC_LLVM_LINK_COMPONENTS})

# Our own targets: map LINK_COMPONENTS to static libraries, not the dylib.
set(LLVM_LINK_LLVM_DYLIB OFF)

# The imported MLIR targets: replace "LLVM" in their link interfaces.
get_property(_imported DIRECTORY PROPERTY IMPORTED_TARGETS)
foreach(_target IN LISTS _imported)
  get_target_property(_libs ${_target} INTERFACE_LINK_LIBRARIES)
  if(NOT _libs)
    continue()
  endif()
  list(FIND _libs LLVM _index)
  if(_index EQUAL -1)
    continue()
  endif()
  list(REMOVE_ITEM _libs LLVM)
  list(APPEND _libs ${_llvm_static_libs})
  set_target_properties(${_target} PROPERTIES INTERFACE_LINK_LIBRARIES "${_libs}")
endforeach()

# LLVMSupport's interface names the shared z3, zlib and zstd. The tools
# never use z3 (SMT solving); the PTX back end references zlib and zstd
# (compressed sections), so their static archives are linked instead
# (Debian: zlib1g-dev, libzstd-dev).
find_library(SCHEDULER_OPT_LIBZ_STATIC NAMES libz.a)
find_library(SCHEDULER_OPT_LIBZSTD_STATIC NAMES libzstd.a)
if(NOT SCHEDULER_OPT_LIBZ_STATIC OR NOT SCHEDULER_OPT_LIBZSTD_STATIC)
  message(FATAL_ERROR "SCHEDULER_OPT_STATIC needs the static zlib and zstd "
                      "libraries (Debian: zlib1g-dev libzstd-dev)")
endif()
set_target_properties(LLVMSupport PROPERTIES
  INTERFACE_LINK_LIBRARIES
  "LLVMDemangle;${SCHEDULER_OPT_LIBZ_STATIC};${SCHEDULER_OPT_LIBZSTD_STATIC};pthread;rt;dl;m")

if(SCHEDULER_OPT_SANITIZE)
  # The sanitizer runtimes need the dynamic loader (ASan refuses a fully
  # static program): glibc stays shared, the C++ runtime is linked in.
  set(CMAKE_EXE_LINKER_FLAGS
      "${CMAKE_EXE_LINKER_FLAGS} -static-libstdc++ -static-libgcc")
else()
  set(CMAKE_EXE_LINKER_FLAGS "${CMAKE_EXE_LINKER_FLAGS} -static")
endif()
