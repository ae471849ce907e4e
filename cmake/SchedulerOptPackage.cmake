# The Debian package of the install (scripts/build-deb.sh runs cpack):
# tools, libraries, headers, CMake package and docs under /usr, next to
# LLVM 22's packages from apt.llvm.org / Debian.

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME scheduler-opt)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "PyTorch Inductor's kernel-fusion scheduler as an MLIR dialect and passes")
set(CPACK_PACKAGE_DESCRIPTION
    "The fusion dialect, its scheduling passes and pipelines (--fusion-schedule, \
--fusion-to-ptx, --fusion-to-cpu), the importer of Inductor's ir_pre_fusion.txt \
dumps, the tools scheduler-opt and scheduler-translate, the libraries, headers \
and CMake package (find_package(SchedulerOpt)) for MLIR compilers, and the C \
API (libSchedulerOpt-C.so).")
set(CPACK_PACKAGE_CONTACT "scheduler-opt developers <scheduler-opt@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# The libraries the binaries load (libc6, libstdc++6, libmlir-22, ...),
# from the shlibs files of the installed packages. libLLVM is named below as
# well: the tools find it through /usr/lib/llvm-22/lib, where llvm-22-dev
# owns the link to libllvm22's file, so dpkg-shlibdeps does not always
# attribute it to libllvm22.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# What the development files need: find_package(SchedulerOpt) finds MLIR
# (MLIRConfig.cmake in libmlir-22-dev, mlir-tblgen in mlir-22-tools, which
# its exported targets name) and through it LLVM (llvm-22-dev); the headers
# include MLIR's. The static libraries were compiled against MLIR
# ${LLVM_PACKAGE_VERSION}'s headers: any 22.1 release keeps that ABI.
set(SCHEDULER_OPT_MLIR_MIN "1:${LLVM_PACKAGE_VERSION}")
set(SCHEDULER_OPT_MLIR_NEXT "1:${LLVM_VERSION_MAJOR}.${LLVM_VERSION_MINOR}.999")
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libllvm${LLVM_VERSION_MAJOR} (>= ${SCHEDULER_OPT_MLIR_MIN}), \
libmlir-${LLVM_VERSION_MAJOR}-dev (>= ${SCHEDULER_OPT_MLIR_MIN}), \
libmlir-${LLVM_VERSION_MAJOR}-dev (<< ${SCHEDULER_OPT_MLIR_NEXT}), \
mlir-${LLVM_VERSION_MAJOR}-tools (>= ${SCHEDULER_OPT_MLIR_MIN}), \
mlir-${LLVM_VERSION_MAJOR}-tools (<< ${SCHEDULER_OPT_MLIR_NEXT}), \
llvm-${LLVM_VERSION_MAJOR}-dev (>= ${SCHEDULER_OPT_MLIR_MIN}), \
llvm-${LLVM_VERSION_MAJOR}-dev (<< ${SCHEDULER_OPT_MLIR_NEXT})")

include(CPack)
