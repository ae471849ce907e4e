# -*- Python -*-
# lit configuration for scheduler-opt: FileCheck tests of the IR, plus the
# GoogleTest unit tests (unittests/) run as one lit suite.

import os
import shutil
import sys

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "SCHEDULER_OPT"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".txt", ".c"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.scheduler_opt_obj_root, "test")
config.excludes = ["Inputs", "CMakeLists.txt", "README.txt", "LICENSE.txt",
                   "lit.cfg.py", "lit.site.cfg.py", "lib"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%shlibext", config.llvm_shlib_ext))
config.substitutions.append(("%src_root", config.scheduler_opt_src_root))
config.substitutions.append(("%bindir", config.scheduler_opt_tools_dir))
config.substitutions.append(("%examples",
                             os.path.join(config.scheduler_opt_src_root, "examples")))
config.substitutions.append(("%corpus",
                             os.path.join(config.scheduler_opt_src_root, "corpus", "inductor")))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.scheduler_opt_tools_dir, append_path=True)

tools = ["scheduler-opt", "scheduler-translate", "scheduler-graph-gen",
         "scheduler-corpus-bench", "scheduler-opt-capi-test", "FileCheck", "not", "count", "mlir-runner"]
llvm_config.add_tool_substitutions(tools, [config.scheduler_opt_tools_dir,
                                           config.llvm_tools_dir])

if config.enable_unittests:
    config.available_features.add("unittests")

# The CPU lowering runs under the LLVM JIT with MLIR's runner utilities.
llvm_lib_dir = os.path.join(os.path.dirname(config.llvm_tools_dir), "lib")
runner_libs = ",".join(
    os.path.join(llvm_lib_dir, "lib%s%s" % (name, config.llvm_shlib_ext))
    for name in ("mlir_c_runner_utils", "mlir_runner_utils"))
config.substitutions.append(("%mlir_runner_libs", runner_libs))
config.substitutions.append(("%jit_run", "mlir-runner -e main "
                             "-entry-point-result=void -shared-libs=" + runner_libs))
config.substitutions.append(("%resize_graph", "%s %s" % (
    sys.executable, os.path.join(config.scheduler_opt_src_root, "test",
                                 "Inputs", "resize_graph.py"))))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%compare_runs", "%s %s" % (
    sys.executable, os.path.join(config.scheduler_opt_src_root, "test",
                                 "Inputs", "compare_runs.py"))))
config.substitutions.append(("%compare_kernels", "%s %s" % (
    sys.executable, os.path.join(config.scheduler_opt_src_root, "test",
                                 "Inputs", "compare_kernels.py"))))
config.substitutions.append(("%workloads", os.path.join(
    config.scheduler_opt_src_root, "bench", "workloads")))

# Tests that assemble PTX need ptxas (CUDA), which CI does not have.
ptxas = shutil.which("ptxas") or next(
    (p for p in (os.path.join(os.environ.get(v, ""), "bin", "ptxas")
                 for v in ("CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"))
     if os.environ.get(v) and os.path.exists(p)), None)
if not ptxas and os.path.exists("/usr/local/cuda/bin/ptxas"):
    ptxas = "/usr/local/cuda/bin/ptxas"
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
