"""mini-iree-opt stays light: numpy is never imported on its path."""

import subprocess
import sys

from conftest import REFERENCE, REPO

SCRIPT = """
import sys, io, contextlib
from mini_iree.compiler.tools.opt_main import main
with contextlib.redirect_stdout(io.StringIO()):
    for path in sys.argv[1:]:
        main([path])
print(sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'ml_dtypes')))
"""


def test_opt_does_not_import_numpy():
    files = [str(REPO / "examples" / "matmul.mlir")]
    if REFERENCE.is_dir():
        files += [str(p) for p in sorted((REFERENCE / "seed-walkthrough").glob("*.mlir"))]
    out = subprocess.run([sys.executable, "-c", SCRIPT, *files], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout
