"""Host reshapes through stream: flow.tensor.reshape -> stream.tensor.clone -> (elided | stream.async.clone).

Each step runs under the interpreter on the same inputs: the clone reads the
reshaped tensor's row-major bytes, so the results stay those of the source.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_opt

# A collapse returned twice (so that encode-host-tensors cannot fold the clone
# away) and a collapse fed to an elementwise dispatch.
PROGRAM = """
func.func @reshapes(%a: tensor<?x4xf32>, %b: tensor<3x?xf32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %flat = tensor.collapse_shape %a [[0, 1]] : tensor<?x4xf32> into tensor<?xf32>
  %fb = tensor.collapse_shape %b [[0, 1]] : tensor<3x?xf32> into tensor<?xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %fb, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%fb : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %x : f32
    linalg.yield %m : f32
  } -> tensor<?xf32>
  return %flat, %flat, %sq : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}
"""

TO_STREAM = (
    "data-tiling-dispatch-creation{target=x86_64:+avx512f},"
    "iree-dispatch-creation-convert-dispatch-regions-to-workgroups,"
    "iree-dispatch-creation-convert-tensor-to-flow,"
    "iree-flow-capture-dynamic-dims,canonicalize,cse,"
    "iree-flow-outline-dispatch-regions,"
    "iree-stream-conversion"
)


@pytest.mark.parametrize("size", [1, 5])
def test_clones_run_and_encode_to_async_clones(tmp_path: Path, size: int):
    source = tmp_path / "reshapes.mlir"
    source.write_text(PROGRAM)
    result = run_opt(
        [
            str(source),
            "-p",
            TO_STREAM + ",iree-stream-encode-host-tensors",
            "--verify-each-with-interpreter",
            f"--interpreter-dynamic-size={size}",
            "--mlir-print-ir-after=iree-stream-conversion",
        ]
    )
    assert result.returncode == 0, result.stderr
    # Both host reshapes became clones; the one with two uses is copied, the others fold.
    assert result.stderr.count("stream.tensor.clone on(") == 2
    assert "stream.tensor.clone" not in result.stdout
    assert result.stdout.count("stream.async.clone") == 1


def test_canonicalize_elides_the_clones(tmp_path: Path):
    source = tmp_path / "reshapes.mlir"
    source.write_text(PROGRAM)
    result = run_opt(
        [str(source), "-p", TO_STREAM + ",canonicalize", "--verify-each-with-interpreter", "--interpreter-dynamic-size=3"]
    )
    assert result.returncode == 0, result.stderr
    assert "stream.tensor.clone" not in result.stdout
    # The dispatch reads the collapsed tensor from the import's resource itself.
    assert "stream.tensor.dispatch" in result.stdout
