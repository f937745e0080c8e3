# lit configuration for mini-iree's FileCheck tests (test/dialects, test/passes, test/e2e).
import os
import shutil
import sys

import lit.formats

config.name = "mini-iree"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["Inputs", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.test_source_root, "Output")

# Tools come from the environment the project is installed in: the directory of
# the running Python first, then PATH.
bin_dir = os.path.dirname(sys.executable)
config.environment["PATH"] = os.pathsep.join([bin_dir, os.environ.get("PATH", "")])
for var in ("HOME", "PYTHONPATH", "TMPDIR"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

shared_dir = os.path.abspath(os.path.join(config.test_source_root, "..", "..", "shared"))
config.substitutions.append(("%shared", shared_dir))
# Tests that read ../shared (the reference dumps) say `REQUIRES: shared`, so a
# checkout without it skips them instead of failing.
if os.path.isdir(os.path.join(shared_dir, "reference")):
    config.available_features.add("shared")
config.substitutions.append(("%examples", os.path.abspath(os.path.join(config.test_source_root, "..", "examples"))))

if shutil.which("filecheck", path=config.environment["PATH"]) is None:
    lit_config.fatal("filecheck not found; install the test extra: pip install -e '.[test]'")
