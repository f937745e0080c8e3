"""annotate-data-tiling-hints + set-encoding keep every program's results, and report misuse.

Each program runs through both passes with ``--verify-each-with-interpreter``:
the interpreter executes every public function before and after each pass on
the same random inputs and fails if a result changes. Each program must also
come out with encodings, so that the check covers the rewrite and not a no-op.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REFERENCE, reference_missing, run_opt

ANNOTATE = "iree-dispatch-creation-annotate-data-tiling-hints"
BOTH = f"{ANNOTATE},iree-dispatch-creation-set-encoding"

_TRANSPOSE_B_MAPS = """
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
"""

PROGRAMS: dict[str, str] = {
    "matmul_static_f32": """
func.func @matmul_static_f32(%lhs: tensor<7x13xf32>, %rhs: tensor<13x5xf32>) -> tensor<7x5xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<7x5xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<7x5xf32>) -> tensor<7x5xf32>
  %0 = linalg.matmul ins(%lhs, %rhs : tensor<7x13xf32>, tensor<13x5xf32>) outs(%f : tensor<7x5xf32>) -> tensor<7x5xf32>
  return %0 : tensor<7x5xf32>
}
""",
    "matmul_dynamic_f32": """
func.func @matmul_dynamic_f32(%lhs: tensor<?x?xf32>, %rhs: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %lhs, %c0 : tensor<?x?xf32>
  %n = tensor.dim %rhs, %c1 : tensor<?x?xf32>
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %0 = linalg.matmul ins(%lhs, %rhs : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
""",
    "matmul_accumulate_dynamic_f32": """
func.func @matmul_accumulate_dynamic_f32(%lhs: tensor<?x?xf32>, %rhs: tensor<?x?xf32>, %acc: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = linalg.matmul ins(%lhs, %rhs : tensor<?x?xf32>, tensor<?x?xf32>) outs(%acc : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
""",
    "matmul_f16_f32": """
func.func @matmul_f16_f32(%lhs: tensor<?x16xf16>, %rhs: tensor<16x?xf16>, %acc: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = linalg.matmul ins(%lhs, %rhs : tensor<?x16xf16>, tensor<16x?xf16>) outs(%acc : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
""",
    "matmul_i8_i32": """
func.func @matmul_i8_i32(%lhs: tensor<6x?xi8>, %rhs: tensor<?x9xi8>) -> tensor<6x9xi32> {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<6x9xi32>
  %f = linalg.fill ins(%c0 : i32) outs(%e : tensor<6x9xi32>) -> tensor<6x9xi32>
  %0 = linalg.matmul ins(%lhs, %rhs : tensor<6x?xi8>, tensor<?x9xi8>) outs(%f : tensor<6x9xi32>) -> tensor<6x9xi32>
  return %0 : tensor<6x9xi32>
}
""",
    "batch_matmul": """
func.func @batch_matmul(%lhs: tensor<3x?x8xf32>, %rhs: tensor<3x8x?xf32>, %acc: tensor<3x?x?xf32>) -> tensor<3x?x?xf32> {
  %0 = linalg.batch_matmul ins(%lhs, %rhs : tensor<3x?x8xf32>, tensor<3x8x?xf32>) outs(%acc : tensor<3x?x?xf32>) -> tensor<3x?x?xf32>
  return %0 : tensor<3x?x?xf32>
}
""",
    "matvec": """
func.func @matvec(%lhs: tensor<?x12xf32>, %rhs: tensor<12xf32>, %acc: tensor<?xf32>) -> tensor<?xf32> {
  %0 = linalg.matvec ins(%lhs, %rhs : tensor<?x12xf32>, tensor<12xf32>) outs(%acc : tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
""",
    "vecmat": """
func.func @vecmat(%lhs: tensor<12xf32>, %rhs: tensor<12x?xf32>, %acc: tensor<?xf32>) -> tensor<?xf32> {
  %0 = linalg.vecmat ins(%lhs, %rhs : tensor<12xf32>, tensor<12x?xf32>) outs(%acc : tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
""",
    "matmul_transpose_b_generic": _TRANSPOSE_B_MAPS
    + """
func.func @matmul_transpose_b_generic(%lhs: tensor<?x10xf32>, %rhs: tensor<?x10xf32>, %acc: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%lhs, %rhs : tensor<?x10xf32>, tensor<?x10xf32>) outs(%acc : tensor<?x?xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %1 = arith.mulf %in, %in_0 : f32
    %2 = arith.addf %out, %1 : f32
    linalg.yield %2 : f32
  } -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
""",
    "matmul_unsigned_lhs_generic": """
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @matmul_unsigned_lhs_generic(%lhs: tensor<4x8xi8>, %rhs: tensor<8x6xi8>, %acc: tensor<4x6xi32>) -> tensor<4x6xi32> {
  %0 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%lhs, %rhs : tensor<4x8xi8>, tensor<8x6xi8>) outs(%acc : tensor<4x6xi32>) {
  ^bb0(%in: i8, %in_0: i8, %out: i32):
    %1 = arith.extui %in : i8 to i32
    %2 = arith.extsi %in_0 : i8 to i32
    %3 = arith.muli %1, %2 : i32
    %4 = arith.addi %out, %3 : i32
    linalg.yield %4 : i32
  } -> tensor<4x6xi32>
  return %0 : tensor<4x6xi32>
}
""",
    "two_matmuls_bias_relu": """
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
func.func @two_matmuls_bias_relu(%x: tensor<?x16xf32>, %w0: tensor<16x32xf32>, %b0: tensor<32xf32>, %w1: tensor<32x8xf32>) -> tensor<?x8xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x16xf32>
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty(%m) : tensor<?x32xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<?x32xf32>) -> tensor<?x32xf32>
  %h = linalg.matmul ins(%x, %w0 : tensor<?x16xf32>, tensor<16x32xf32>) outs(%f0 : tensor<?x32xf32>) -> tensor<?x32xf32>
  %r = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%h, %b0 : tensor<?x32xf32>, tensor<32xf32>) outs(%e0 : tensor<?x32xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %1 = arith.addf %in, %bias : f32
    %2 = arith.maximumf %1, %zero : f32
    linalg.yield %2 : f32
  } -> tensor<?x32xf32>
  %e1 = tensor.empty(%m) : tensor<?x8xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?x8xf32>) -> tensor<?x8xf32>
  %y = linalg.matmul ins(%r, %w1 : tensor<?x32xf32>, tensor<32x8xf32>) outs(%f1 : tensor<?x8xf32>) -> tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}
""",
    "matmul_zero_size_dim": """
func.func @matmul_zero_size_dim(%lhs: tensor<0x12xf32>, %rhs: tensor<12x5xf32>) -> tensor<0x5xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<0x5xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<0x5xf32>) -> tensor<0x5xf32>
  %0 = linalg.matmul ins(%lhs, %rhs : tensor<0x12xf32>, tensor<12x5xf32>) outs(%f : tensor<0x5xf32>) -> tensor<0x5xf32>
  return %0 : tensor<0x5xf32>
}
""",
}

# Number of ops each program should have data-tiled.
EXPECTED_MATMULS = {"two_matmuls_bias_relu": 2}


def _write(tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"{name}.mlir"
    path.write_text(PROGRAMS[name])
    return path


@pytest.mark.parametrize("name", sorted(PROGRAMS))
@pytest.mark.parametrize("extra", [[], ["--interpreter-dynamic-size=3"]], ids=["random-size", "size-3"])
def test_results_are_kept(tmp_path: Path, name: str, extra: list[str]) -> None:
    result = run_opt([str(_write(tmp_path, name)), "-p", BOTH, "--verify-each-with-interpreter", *extra])
    assert result.returncode == 0, result.stderr
    expected = EXPECTED_MATMULS.get(name, 1)
    assert result.stdout.count("iree_encoding.unset_encoding") == expected
    assert result.stdout.count("iree_encoding.set_encoding") == 3 * expected - result.stdout.count("linalg.fill ins")
    assert "iree.opt.data_tiling" not in result.stdout


@pytest.mark.parametrize(
    "name", ["matmul_dynamic_f32", "matmul_accumulate_dynamic_f32", "two_matmuls_bias_relu"]
)
def test_results_are_kept_with_encoding_dims(tmp_path: Path, name: str) -> None:
    pipeline = BOTH + "{encoding-dims=true}"
    result = run_opt([str(_write(tmp_path, name)), "-p", pipeline, "--verify-each-with-interpreter"])
    assert result.returncode == 0, result.stderr
    assert "encoding_dims{" in result.stdout


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_results_are_kept_with_matmul_k(tmp_path: Path, name: str) -> None:
    """encoding-option=matmulk: the same rewrite with `#iree_encoding.matmul_k` encodings."""
    pipeline = BOTH + "{encoding-option=matmulk}"
    result = run_opt([str(_write(tmp_path, name)), "-p", pipeline, "--verify-each-with-interpreter"])
    assert result.returncode == 0, result.stderr
    expected = EXPECTED_MATMULS.get(name, 1)
    assert result.stdout.count("iree_encoding.unset_encoding") == expected
    assert "#iree_encoding.matmul_k<k_dims = [" in result.stdout
    assert "#iree_encoding.encoding<" not in result.stdout


def test_dynamic_dims_of_size_zero(tmp_path: Path) -> None:
    result = run_opt(
        [str(_write(tmp_path, "matmul_dynamic_f32")), "-p", BOTH, "--verify-each-with-interpreter",
         "--interpreter-dynamic-size=0"]
    )
    assert result.returncode == 0, result.stderr


def test_walkthrough_program_is_kept() -> None:
    before = REFERENCE / "seed-walkthrough" / "00-annotate-data-tiling-hints.before.mlir"
    if not before.is_file():
        pytest.skip(reference_missing())
    result = run_opt([str(before), "-p", BOTH, "--verify-each-with-interpreter", "--interpreter-dynamic-size=5"])
    assert result.returncode == 0, result.stderr
    assert "iree_encoding.unset_encoding" in result.stdout


def test_single_op_type_option(tmp_path: Path) -> None:
    path = _write(tmp_path, "matmul_static_f32")
    only_matmul = run_opt([str(path), "-p", ANNOTATE + "{data-tiling-op-types=matmul}"])
    assert only_matmul.returncode == 0, only_matmul.stderr
    assert "iree.opt.data_tiling" in only_matmul.stdout
    no_matmul = run_opt([str(path), "-p", ANNOTATE + "{data-tiling-op-types=convolution}"])
    assert no_matmul.returncode == 0, no_matmul.stderr
    assert "iree.opt.data_tiling" not in no_matmul.stdout


@pytest.mark.parametrize(
    "pipeline, message",
    [
        (
            "iree-dispatch-creation-annotate-data-tiling-hints{data-tiling-op-types=attention}",
            "unknown data-tiling op type 'attention' (expected one of: matmul, scaled_matmul, convolution)",
        ),
        (
            "iree-dispatch-creation-set-encoding{encoding-option=padding encoding-dims=true}",
            "encoding-dims=true needs encoding-option=default: 'padding' encodings carry no iteration sizes",
        ),
        (
            "iree-dispatch-creation-set-encoding{encoding-option=tiled}",
            "unknown encoding-option 'tiled' (expected one of: default, matmulk, padding)",
        ),
    ],
)
def test_bad_options(tmp_path: Path, pipeline: str, message: str) -> None:
    result = run_opt([str(_write(tmp_path, "matmul_static_f32")), "-p", pipeline])
    assert result.returncode != 0
    assert message in result.stderr


HINTED_ELEMENTWISE = """
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @hint_on_elementwise(%a: tensor<16x8xf32>, %b: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %e = tensor.empty() : tensor<16x8xf32>
  %0 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<16x8xf32>, tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) attrs = {iree.opt.data_tiling} {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %1 = arith.addf %in, %in_0 : f32
    linalg.yield %1 : f32
  } -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
"""

HINTED_ENCODED_OPERAND = """
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [16, 8, 32]>
func.func @hint_on_encoded_operand(%lhs: tensor<16x32xf32, #encoding>, %rhs: tensor<32x8xf32>, %acc: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = linalg.matmul {iree.opt.data_tiling} ins(%lhs, %rhs : tensor<16x32xf32, #encoding>, tensor<32x8xf32>) outs(%acc : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
"""


@pytest.mark.parametrize(
    "program, message",
    [
        (
            HINTED_ELEMENTWISE,
            ":5:8: error: 'linalg.generic' op has the data-tiling hint but data-tiling encodings are only "
            "derived for contractions",
        ),
        (
            HINTED_ENCODED_OPERAND,
            ":7:8: error: 'linalg.matmul' op has the data-tiling hint but an operand already has an encoding",
        ),
    ],
)
def test_preset_hint_on_unsupported_op_is_an_error(tmp_path: Path, program: str, message: str) -> None:
    path = tmp_path / "input.mlir"
    path.write_text(program)
    result = run_opt([str(path), "-p", "iree-dispatch-creation-set-encoding"])
    assert result.returncode != 0
    assert message in result.stderr


PRESET_SET_ENCODINGS = """
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32]>
func.func @encoded_fills(%m: index, %hi: index) -> (tensor<?x24xf32, #encoding>, tensor<?x24xf32, #encoding>, tensor<?x20xf32, #encoding>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty(%m) : tensor<?x20xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x20xf32>) -> tensor<?x20xf32>
  %same = tensor.pad %f low[0, 0] high[%hi, 4] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<?x20xf32> to tensor<?x24xf32>
  %other = tensor.pad %f low[0, 0] high[%hi, 4] {
  ^bb0(%i: index, %j: index):
    tensor.yield %one : f32
  } : tensor<?x20xf32> to tensor<?x24xf32>
  %0 = iree_encoding.set_encoding %same : tensor<?x24xf32> -> tensor<?x24xf32, #encoding>
  %1 = iree_encoding.set_encoding %other : tensor<?x24xf32> -> tensor<?x24xf32, #encoding>
  %2 = iree_encoding.set_encoding %f : tensor<?x20xf32> -> tensor<?x20xf32, #encoding>
  return %0, %1, %2 : tensor<?x24xf32, #encoding>, tensor<?x24xf32, #encoding>, tensor<?x20xf32, #encoding>
}
"""


def test_fill_folds_keep_results(tmp_path: Path) -> None:
    """FoldFillWithPad and FoldFillWithSetEncoding on set_encodings already in the program."""
    path = tmp_path / "input.mlir"
    path.write_text(PRESET_SET_ENCODINGS)
    result = run_opt([str(path), "-p", "iree-dispatch-creation-set-encoding", "--verify-each-with-interpreter"])
    assert result.returncode == 0, result.stderr
    # Only the pad with another value than the fill's is still padded and encoded.
    assert result.stdout.count("tensor.pad") == 1
    assert result.stdout.count("iree_encoding.set_encoding") == 1
    assert result.stdout.count("linalg.fill") == 3


def test_sizes_read_through_a_producer_keep_results(tmp_path: Path) -> None:
    """encoding_dims read off the operand carrying each loop of a broadcast producer."""
    cases = (Path(__file__).parent / "set_encoding.mlir").read_text().split("// -----")
    (case,) = [c for c in cases if "@sizes_through_broadcast(" in c]
    path = tmp_path / "input.mlir"
    path.write_text(case)
    result = run_opt(
        [str(path), "-p", "iree-dispatch-creation-set-encoding{encoding-dims=true}", "--verify-each-with-interpreter",
         "--interpreter-dynamic-size=3"]
    )
    assert result.returncode == 0, result.stderr
    assert "kept the results of 1 function" in result.stderr
    assert result.stdout.count("encoding_dims{%arg2, %dim") == 3
