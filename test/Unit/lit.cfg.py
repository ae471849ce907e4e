# -*- Python -*-
# Runs the GoogleTest binaries of unittests/ as lit tests.

import os

import lit.formats

config.name = "SCHEDULER_OPT_UNIT"
config.suffixes = []
config.test_exec_root = os.path.join(config.scheduler_opt_obj_root, "unittests")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")

if not config.enable_unittests:
    config.unsupported = True
