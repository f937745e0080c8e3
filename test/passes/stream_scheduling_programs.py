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

from mini_iree.passes import get_all_pipelines

MATMUL = REPO / "examples" / "matmul.mlir"

def _scheduling() -> list[str]:
    # The pipeline's own list (data-tiling-codegen), from its first pass to materialize-interfaces.
    passes = get_all_pipelines()["data-tiling-codegen"].expand().split(",")
    return passes[: passes.index("iree-hal-materialize-interfaces") + 1]


SCHEDULING = _scheduling()


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
    names = [entry.partition("{")[0] for entry in SCHEDULING]
    passes = SCHEDULING[: names.index(last) + 1]
    result = run_opt([str(path), "-p", ",".join(passes), "--verify-each-with-interpreter", f"--interpreter-dynamic-size={size}"])
    assert result.returncode == 0, result.stderr
    assert f"pass '{last}' kept the results" in result.stderr, result.stderr
    return result.stdout
