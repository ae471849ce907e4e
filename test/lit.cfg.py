# -*- Python -*-
# lit configuration for scheduler-opt: FileCheck tests of the IR, plus the
# GoogleTest unit tests (unittests/) run as one lit suite.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "SCHEDULER_OPT"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".txt"]
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

tools = ["scheduler-opt", "scheduler-translate", "fusion-graph-gen",
         "fusion-corpus-bench", "FileCheck", "not", "count"]
llvm_config.add_tool_substitutions(tools, [config.scheduler_opt_tools_dir,
                                           config.llvm_tools_dir])

if config.enable_unittests:
    config.available_features.add("unittests")
