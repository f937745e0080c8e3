"""Each dispatch-creation pass turns one walkthrough dump into the next, up to whitespace.

The walkthrough's dumps (../shared/reference/seed-walkthrough/) are unindented
and wrapped by hand, so text is compared with comments and whitespace removed:
op order, SSA names, aliases and attributes must all agree.
"""

from __future__ import annotations

import re

import pytest
from conftest import REPO, require_reference, run_opt

# (input, pipeline, expected dump); "examples/..." inputs are relative to the repo.
STEPS = [
    ("examples/matmul.mlir",
     "iree-abi-wrap-entry-points,iree-dispatch-creation-form-dispatch-regions,"
     "iree-dispatch-creation-clone-producers-into-dispatch-regions",
     "00-annotate-data-tiling-hints.before.mlir"),
    ("00-annotate-data-tiling-hints.before.mlir", "iree-dispatch-creation-annotate-data-tiling-hints",
     "01-annotate-data-tiling-hints.after.mlir"),
    ("01-annotate-data-tiling-hints.after.mlir", "iree-dispatch-creation-set-encoding", "02-set-encoding.after.mlir"),
    ("02-set-encoding.after.mlir", "iree-dispatch-creation-hoist-encoding-ops", "03-hoist-encoding-ops.after.mlir"),
    ("04-hoist-encoding-ops.local-propagation.before.mlir", "iree-dispatch-creation-hoist-encoding-ops",
     "05-hoist-encoding-ops.local-propagation.after.mlir"),
    # The walkthrough prints dump 06 after canonicalize, and says so.
    ("03-hoist-encoding-ops.after.mlir", "iree-dispatch-creation-convert-encoding-to-flow,canonicalize",
     "06-convert-encoding-to-flow.after.mlir"),
    # The whole first half of the walkthrough, from the plain program.
    ("examples/matmul.mlir", "data-tiling-dispatch-creation", "06-convert-encoding-to-flow.after.mlir"),
]


def _normalized(text: str, keep_module: bool) -> str:
    lines = [line for line in text.splitlines() if not line.strip().startswith("//")]
    if not keep_module and "module {" in lines:
        start = lines.index("module {")
        end = max(i for i, line in enumerate(lines) if line.strip() == "}")
        lines = lines[:start] + lines[start + 1 : end]
    return re.sub(r"\s+", "", "\n".join(lines))


@pytest.mark.parametrize("source, pipeline, expected", STEPS, ids=lambda v: v.split(".")[0] if "." in v else None)
def test_pass_reproduces_walkthrough_dump(source: str, pipeline: str, expected: str):
    walkthrough = require_reference() / "seed-walkthrough"
    path = REPO / source if source.startswith("examples/") else walkthrough / source
    result = run_opt([str(path), "-p", pipeline])
    assert result.returncode == 0, result.stderr
    reference = (walkthrough / expected).read_text()
    keep_module = any(line.startswith("module") for line in reference.splitlines())
    assert _normalized(result.stdout, keep_module) == _normalized(reference, keep_module)
