"""Run the lit + FileCheck suite (test/dialects, test/passes, test/e2e) from pytest.

One `pytest` run then reports every test; a lit failure fails this test and
shows lit's output for the failing cases.
"""

import os
import subprocess
import sys
from pathlib import Path

TEST_DIR = Path(__file__).parent


def test_lit_suite():
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([os.path.dirname(sys.executable), env.get("PATH", "")])
    workers = str(max(1, min(4, os.cpu_count() or 1)))
    proc = subprocess.run(
        [sys.executable, "-c", "from lit.main import main; main()", "-q", "-j", workers, str(TEST_DIR)],
        capture_output=True,
        text=True,
        env=env,
    )
    assert proc.returncode == 0, f"lit failed:\n{proc.stdout}\n{proc.stderr}"
