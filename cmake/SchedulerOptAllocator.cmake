# The tools' memory allocator.
#
# MLIR allocates every operation, block, use-list node and uniqued storage
# on its own; an import of a large graph makes millions of small
# allocations and frees, and at a million nodes their heap no longer fits
# any cache. TCMalloc's per-size free lists serve them with fewer
# instructions and a denser heap than glibc's malloc: import + schedule
# about 10% faster from the corpus's 55-node graphs to the million-node
# generated dump, and 8% less memory at a million nodes (bench/README.md,
# "The allocator").
#
# Only the executables that compile (scheduler-opt, scheduler-translate and
# scheduler-corpus-bench, which times what they do) link it: the libraries
# and the C API leave the allocator to the programs that use them.
#
#   -DSCHEDULER_OPT_TCMALLOC=ON (default)  TCMalloc when it is found
#       (Debian: libgoogle-perftools-dev, libtcmalloc_minimal); glibc's
#       malloc otherwise, with a message saying so.
#   -DSCHEDULER_OPT_TCMALLOC=OFF           glibc's malloc.
#
# Sanitizer builds keep glibc's malloc: ASan brings its own allocator.
option(SCHEDULER_OPT_TCMALLOC
       "Link the compiling tools with TCMalloc when it is found" ON)

set(SCHEDULER_OPT_ALLOCATOR_LIBRARY "")
if(SCHEDULER_OPT_TCMALLOC AND NOT SCHEDULER_OPT_SANITIZE)
  if(SCHEDULER_OPT_STATIC)
    find_library(SCHEDULER_OPT_TCMALLOC_LIBRARY NAMES libtcmalloc_minimal.a)
  else()
    find_library(SCHEDULER_OPT_TCMALLOC_LIBRARY NAMES tcmalloc_minimal)
  endif()
  if(SCHEDULER_OPT_TCMALLOC_LIBRARY)
    set(SCHEDULER_OPT_ALLOCATOR_LIBRARY "${SCHEDULER_OPT_TCMALLOC_LIBRARY}")
    message(STATUS "Tools allocate with TCMalloc: ${SCHEDULER_OPT_TCMALLOC_LIBRARY}")
  else()
    message(STATUS "TCMalloc not found (Debian: libgoogle-perftools-dev): "
                   "the tools allocate with glibc's malloc")
  endif()
endif()

# Links `target` (an executable) with the allocator chosen above. Its
# malloc and free then replace glibc's for the whole process, libMLIR.so
# included.
function(scheduler_opt_link_allocator target)
  if(SCHEDULER_OPT_ALLOCATOR_LIBRARY)
    target_link_libraries(${target} PRIVATE ${SCHEDULER_OPT_ALLOCATOR_LIBRARY})
    if(SCHEDULER_OPT_STATIC)
      # The archive's objects need the C++ runtime and threads, which
      # -static resolves only when they follow it. libc.a's malloc.o still
      # comes in for the few functions TCMalloc does not define (LLVM's
      # Process::GetMallocUsage calls mallinfo2), and with it a second
      # malloc, free, realloc...: the linker keeps the first definition,
      # TCMalloc's, which precedes libc.a on the command line. The dynamic
      # build (CI's) still reports duplicate symbols of our own code.
      target_link_libraries(${target} PRIVATE stdc++ pthread)
      target_link_options(${target} PRIVATE
                          "LINKER:--allow-multiple-definition")
    endif()
  endif()
endfunction()
