"""Wrapping entry points and forming dispatch regions keep every program's results.

Each program runs through ``iree-abi-wrap-entry-points``,
``iree-dispatch-creation-form-dispatch-regions`` (followed by
``iree-dispatch-creation-clone-producers-into-dispatch-regions``, which brings the
fills and empties the dispatches read into them), or both, with the interpreter
comparing each public function's results before and after every pass.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO, run_opt

WRAP = "iree-abi-wrap-entry-points"
FORM = "iree-dispatch-creation-form-dispatch-regions,iree-dispatch-creation-clone-producers-into-dispatch-regions"


def _contraction(name: str, lhs: str, rhs: str, out: str, zero: str, op: str = "linalg.matmul") -> str:
    """A ``fill`` + contraction program; each dynamic size of the result is read from an operand.

    ``out`` is written with operand references for its dynamic sizes, such as
    ``tensor<{lhs.0}x{rhs.1}xf32>``: that size is ``tensor.dim`` of the operand along the axis.
    """
    types = {"lhs": lhs, "rhs": rhs}
    lines: list[str] = []
    sizes: list[str] = []
    shape = out[len("tensor<") : -1].split("x")
    for index, size in enumerate(shape[:-1]):
        if not size.startswith("{"):
            continue
        operand, axis = size.strip("{}").split(".")
        lines.append(f"  %axis{index} = arith.constant {axis} : index")
        lines.append(f"  %d{index} = tensor.dim %{operand}, %axis{index} : {types[operand]}")
        sizes.append(f"%d{index}")
        shape[index] = "?"
    out = "tensor<" + "x".join(shape) + ">"
    element = zero.split(": ")[1]
    return "\n".join(
        [
            f"func.func @{name}(%lhs: {lhs}, %rhs: {rhs}) -> {out} {{",
            *lines,
            f"  %zero = arith.constant {zero}",
            f"  %0 = tensor.empty({', '.join(sizes)}) : {out}",
            f"  %1 = linalg.fill ins(%zero : {element}) outs(%0 : {out}) -> {out}",
            f"  %2 = {op} ins(%lhs, %rhs : {lhs}, {rhs}) outs(%1 : {out}) -> {out}",
            f"  return %2 : {out}",
            "}",
        ]
    )


BIAS_RELU = """
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @mlp(%x: tensor<?x16xf32>, %w1: tensor<16x32xf32>, %b1: tensor<32xf32>, %w2: tensor<32x8xf32>) -> tensor<?x8xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x16xf32>
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty(%m) : tensor<?x32xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x32xf32>) -> tensor<?x32xf32>
  %2 = linalg.matmul ins(%x, %w1 : tensor<?x16xf32>, tensor<16x32xf32>) outs(%1 : tensor<?x32xf32>) -> tensor<?x32xf32>
  %3 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%2, %b1 : tensor<?x32xf32>, tensor<32xf32>) outs(%0 : tensor<?x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %r = arith.maximumf %s, %cst : f32
    linalg.yield %r : f32
  } -> tensor<?x32xf32>
  %4 = tensor.empty(%m) : tensor<?x8xf32>
  %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<?x8xf32>) -> tensor<?x8xf32>
  %6 = linalg.matmul ins(%3, %w2 : tensor<?x32xf32>, tensor<32x8xf32>) outs(%5 : tensor<?x8xf32>) -> tensor<?x8xf32>
  return %6 : tensor<?x8xf32>
}
"""

PRODUCER_CONSUMER = """
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @matmul_ew_both(%arg0: tensor<?x?xf32>, %bk: tensor<?xf32>, %arg1: tensor<?x?xf32>, %bn: tensor<?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %arg0, %c0 : tensor<?x?xf32>
  %k = tensor.dim %arg0, %c1 : tensor<?x?xf32>
  %n = tensor.dim %arg1, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %k) : tensor<?x?xf32>
  %lhs = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%arg0, %bk : tensor<?x?xf32>, tensor<?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty(%m, %n) : tensor<?x?xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %2 = linalg.matmul ins(%lhs, %arg1 : tensor<?x?xf32>, tensor<?x?xf32>) outs(%1 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %3 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%2, %bn : tensor<?x?xf32>, tensor<?xf32>) outs(%0 : tensor<?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %r = arith.maximumf %s, %cst : f32
    linalg.yield %r : f32
  } -> tensor<?x?xf32>
  return %3 : tensor<?x?xf32>
}
"""

# A transposed consumer, a scalar argument, several results and a small
# constant weight cloned into the dispatch.
MIXED = """
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @mixed(%x: tensor<3x3xf32>, %scale: f32, %y: tensor<?x3xf32>) -> (tensor<3x3xf32>, f32, tensor<?x3xf32>) {
  %c0 = arith.constant 0 : index
  %w = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]> : tensor<3x3xf32>
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<3x3xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<3x3xf32>) -> tensor<3x3xf32>
  %2 = linalg.matmul ins(%x, %w : tensor<3x3xf32>, tensor<3x3xf32>) outs(%1 : tensor<3x3xf32>) -> tensor<3x3xf32>
  %3 = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%2 : tensor<3x3xf32>) outs(%0 : tensor<3x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %scale : f32
    linalg.yield %s : f32
  } -> tensor<3x3xf32>
  %m = tensor.dim %y, %c0 : tensor<?x3xf32>
  %4 = tensor.empty(%m) : tensor<?x3xf32>
  %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<?x3xf32>) -> tensor<?x3xf32>
  %6 = linalg.matmul ins(%y, %w : tensor<?x3xf32>, tensor<3x3xf32>) outs(%5 : tensor<?x3xf32>) -> tensor<?x3xf32>
  return %3, %scale, %6 : tensor<3x3xf32>, f32, tensor<?x3xf32>
}
"""

F32_ZERO = "0.000000e+00 : f32"
PROGRAMS: dict[str, str] = {
    "matmul_static": _contraction("matmul_static", "tensor<5x7xf32>", "tensor<7x3xf32>", "tensor<5x3xf32>", F32_ZERO),
    "matmul_f32": _contraction(
        "matmul_f32", "tensor<?x?xf32>", "tensor<?x?xf32>", "tensor<{lhs.0}x{rhs.1}xf32>", F32_ZERO
    ),
    "matmul_f16_f32": _contraction(
        "matmul_f16_f32", "tensor<?x?xf16>", "tensor<?x?xf16>", "tensor<{lhs.0}x{rhs.1}xf32>", F32_ZERO
    ),
    "matmul_i8_i32": _contraction(
        "matmul_i8_i32", "tensor<?x?xi8>", "tensor<?x?xi8>", "tensor<{lhs.0}x{rhs.1}xi32>", "0 : i32"
    ),
    "batch_matmul": _contraction(
        "batch_matmul", "tensor<2x?x?xf32>", "tensor<2x?x?xf32>", "tensor<2x{lhs.1}x{rhs.2}xf32>", F32_ZERO,
        op="linalg.batch_matmul",
    ),
    "matvec": _contraction(
        "matvec", "tensor<?x?xf32>", "tensor<?xf32>", "tensor<{lhs.0}xf32>", F32_ZERO, op="linalg.matvec"
    ),
    "vecmat": _contraction(
        "vecmat", "tensor<?xf32>", "tensor<?x?xf32>", "tensor<{rhs.1}xf32>", F32_ZERO, op="linalg.vecmat"
    ),
    # K is a static 0: the result is the fill value whatever the dynamic sizes.
    "zero_k": _contraction(
        "zero_k", "tensor<?x0xf32>", "tensor<0x?xf32>", "tensor<{lhs.0}x{rhs.1}xf32>", "1.000000e+00 : f32"
    ),
    "bias_relu_between_matmuls": BIAS_RELU,
    "producer_consumer_elementwise": PRODUCER_CONSUMER,
    "mixed": MIXED,
}


def _write(tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"{name}.mlir"
    path.write_text(PROGRAMS[name])
    return path


@pytest.mark.parametrize("passes", [f"{WRAP},{FORM}", WRAP, FORM])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
@pytest.mark.parametrize("size", [0, 1, 6])
def test_passes_keep_results(tmp_path: Path, name: str, passes: str, size: int):
    path = _write(tmp_path, name)
    result = run_opt([str(path), "-p", passes, "--verify-each-with-interpreter", f"--interpreter-dynamic-size={size}"])
    assert result.returncode == 0, result.stderr


def test_walkthrough_example_keeps_results():
    for size in (0, 4):
        result = run_opt(
            [str(REPO / "examples" / "matmul.mlir"), "-p", f"{WRAP},{FORM}", "--verify-each-with-interpreter",
             f"--interpreter-dynamic-size={size}"]
        )
        assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    ("name", "regions"),
    # In @mixed the matmul's consumer reads it transposed, so it does not tile
    # with the matmul and gets a dispatch of its own, as in IREE.
    [("matmul_f32", 1), ("bias_relu_between_matmuls", 2), ("producer_consumer_elementwise", 2), ("mixed", 3)],
)
def test_dispatch_count(tmp_path: Path, name: str, regions: int):
    result = run_opt([str(_write(tmp_path, name)), "-p", f"{WRAP},{FORM}"])
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("flow.dispatch.region") == regions
    assert "func.func" not in result.stdout
    # Every linalg op of the program is now inside a dispatch.
    body = result.stdout.split("util.func")[1]
    outside = [line for line in body.splitlines() if line.startswith("    ") and not line.startswith("     ")]
    assert not any("linalg." in line for line in outside)
