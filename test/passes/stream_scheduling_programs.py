"""Stream programs shared by the tests of the scheduling and dispatch-ABI passes.

``walkthrough_stream`` is the walkthrough's matmul after ``data-tiling-stream``
(gfx942: walkthrough dump 17); ``SCHEDULING`` lists IREE's passes from there to
HAL interfaces in pipeline order; ``verify_through`` runs a prefix of them with
``--verify-each-with-interpreter``, so each pass is checked against the
program's results before it.
"""

from __future__ import annotations

from pathlib import Path

from conftest import REPO, run_opt

MATMUL = REPO / "examples" / "matmul.mlir"

SCHEDULING = [
    "iree-stream-materialize-copy-on-write",
    "iree-stream-schedule-execution",
    "iree-stream-schedule-allocation",
    "iree-stream-layout-slices",
    "iree-stream-fuse-dispatch-bindings",
    "iree-stream-annotate-dispatch-arguments",
    "iree-stream-annotate-dispatch-assumptions",
    "iree-stream-pack-dispatch-operands",
    "canonicalize",
    "cse",
    "iree-stream-fold-uniform-operands",
    "cse",
    "iree-hal-materialize-interfaces",
]


def walkthrough_stream(directory: Path, target: str = "gfx942", era: str = "walkthrough") -> Path:
    """The walkthrough's matmul after the stream half of the pipeline, written to ``directory``."""
    pipeline = f"data-tiling-dispatch-creation{{era={era}}},data-tiling-stream{{target={target} era={era}}}"
    result = run_opt([str(MATMUL), "-p", pipeline])
    assert result.returncode == 0, result.stderr
    path = directory / f"matmul_{target.replace(':', '_').replace(',', '_').replace('+', '')}_{era}.mlir"
    path.write_text(result.stdout)
    return path


def verify_through(path: Path, last: str, size: int = 9) -> str:
    """Runs ``SCHEDULING`` up to and including ``last``, every pass checked by the interpreter."""
    passes = SCHEDULING[: SCHEDULING.index(last) + 1]
    result = run_opt([str(path), "-p", ",".join(passes), "--verify-each-with-interpreter", f"--interpreter-dynamic-size={size}"])
    assert result.returncode == 0, result.stderr
    assert f"pass '{last}' kept the results" in result.stderr, result.stderr
    return result.stdout
