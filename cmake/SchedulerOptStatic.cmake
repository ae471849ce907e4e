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

set(SCHEDULER_OPT_STATIC_LLVM_COMPONENTS LLVMRemarks LLVMSupport LLVMDemangle
    CACHE STRING "Static LLVM component libraries that replace libLLVM.so")

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
  list(APPEND _libs ${SCHEDULER_OPT_STATIC_LLVM_COMPONENTS})
  set_target_properties(${_target} PROPERTIES INTERFACE_LINK_LIBRARIES "${_libs}")
endforeach()

# LLVMSupport's interface names shared z3, zlib and zstd for optional
# features (SMT solving, compressed sections) that the tools never call;
# with static archives only the objects they use are linked, so those
# libraries are not needed.
set_target_properties(LLVMSupport PROPERTIES
  INTERFACE_LINK_LIBRARIES "LLVMDemangle;pthread;rt;dl;m")

set(CMAKE_EXE_LINKER_FLAGS "${CMAKE_EXE_LINKER_FLAGS} -static")
