# -*- Python -*-
# lit configuration for the Mirage tests.

import os
import re

import lit.formats
from lit.llvm import llvm_config

config.name = "MIRAGE"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.mirage_obj_root, "test")
# Inputs/ holds data that tests read; it holds no tests of its own.
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%mirage_src_root", config.mirage_src_root))
config.substitutions.append(("%mirage_obj_root", config.mirage_obj_root))
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%mlir_include_dir", config.mlir_include_dir))

# The public implementation's saved µGraphs are not in the repository
# (MIRAGE_MUGRAPHS_DIR, docs/Building.md); tests that read them declare
# `REQUIRES: mugraphs`.
if os.path.isdir(config.mugraphs_dir):
    config.available_features.add("mugraphs")
    config.substitutions.append(("%mugraphs", config.mugraphs_dir))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

tool_dirs = [config.mirage_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["mirage-bundle", "mirage-opt", "mirage-pass-fuzz", "mirage-translate"], tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
# Python helpers of the tests import the in-tree `mirage` package.
llvm_config.with_environment("PYTHONPATH",
                             os.path.join(config.mirage_src_root, "python"),
                             append_path=True)

# The compiler version this build embeds (Mirage/Support/Version.h): tuning
# databases that tests write must name it to be read.
with open(os.path.join(config.mirage_obj_root, "include", "Mirage", "Support",
                       "Version.inc")) as version:
    config.substitutions.append(
        ("%mirage_compiler_version",
         re.search(r'"(.*)"', version.read()).group(1)))
# mirage-superoptimize reads no user's tuning database in a test.
config.environment["MIRAGE_TUNING_DB"] = os.path.join(
    config.test_exec_root, "no-tuning-database.json")
