# -*- Python -*-
# lit configuration of the downstream example: its own tool, the installed
# scheduler-opt tools, LLVM's FileCheck.

import os

import lit.formats
from lit.llvm import llvm_config

config.name = "DOWNSTREAM"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.downstream_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.substitutions.append(("%examples",
                             os.path.dirname(os.path.dirname(config.test_source_root))))

llvm_config.use_default_substitutions()
if os.path.exists(os.path.join(config.downstream_tools_dir, "downstream-capi")):
    config.available_features.add("capi")
llvm_config.add_tool_substitutions(
    ["downstream-opt", "downstream-capi", "scheduler-opt", "FileCheck", "not"],
    [config.downstream_tools_dir, config.scheduler_opt_tools_dir,
     config.llvm_tools_dir])
