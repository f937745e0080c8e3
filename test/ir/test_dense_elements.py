"""Dense elements: a splat keeps one element from parsing to printing, and a literal's shape is checked where it is written."""

from __future__ import annotations

import tracemalloc

import numpy as np
from conftest import run_opt
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType, f32, i8

from mini_iree.compiler.interpreter import run
from mini_iree.compiler.ir.dense_elements import dense_elements, element_values, is_splat

HUGE_SPLAT = """func.func @f() -> tensor<99999999xf32> {
  %0 = arith.constant dense<0.0> : tensor<99999999xf32>
  return %0 : tensor<99999999xf32>
}
"""


def test_a_huge_splat_parses_and_prints_without_its_elements(tmp_path):
    path = tmp_path / "splat.mlir"
    path.write_text(HUGE_SPLAT)
    tracemalloc.start()
    try:
        result = run_opt([str(path)])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.returncode == 0, result.stderr
    assert "dense<0.000000e+00> : tensor<99999999xf32>" in result.stdout
    assert peak < 50 * 2**20, f"peak {peak / 2**20:.0f} MiB"


def test_a_literal_of_the_wrong_shape_is_reported_at_the_literal(tmp_path):
    path = tmp_path / "shape.mlir"
    path.write_text(
        "func.func @f() -> tensor<2xf32> {\n"
        "  %c0 = arith.constant 0 : index\n"
        "  %c1 = arith.constant 1 : index\n"
        "  %0 = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<2xf32>\n"
        "  return %0 : tensor<2xf32>\n"
        "}\n"
    )
    result = run_opt([str(path)])
    assert result.returncode == 1
    assert result.stderr.splitlines()[0] == (
        f"{path}:4:23: error: inferred shape of elements literal ([3]) does not match type ([2])"
    )


def test_equal_elements_are_stored_as_a_splat_however_they_are_written(tmp_path):
    path = tmp_path / "forms.mlir"
    path.write_text(
        "func.func @f() -> (tensor<2x2xi32>, tensor<2x2xi32>, tensor<3xi8>) {\n"
        '  %0 = arith.constant dense<"0x01000000"> : tensor<2x2xi32>\n'
        "  %1 = arith.constant dense<[[1, 1], [1, 1]]> : tensor<2x2xi32>\n"
        "  %2 = arith.constant dense<[1, 2, 255]> : tensor<3xi8>\n"
        "  return %0, %1, %2 : tensor<2x2xi32>, tensor<2x2xi32>, tensor<3xi8>\n"
        "}\n"
    )
    result = run_opt([str(path)])
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("dense<1> : tensor<2x2xi32>") == 2
    assert "dense<[1, 2, -1]> : tensor<3xi8>" in result.stdout
    a, b, c = run(path.read_text(), "f")
    np.testing.assert_array_equal(a, np.ones((2, 2), np.int32))
    np.testing.assert_array_equal(b, np.ones((2, 2), np.int32))
    np.testing.assert_array_equal(c, np.array([1, 2, -1], np.int8))


def test_dense_elements_is_the_canonical_form():
    splat = dense_elements(TensorType(f32, [3, 2]), [0.5] * 6)
    assert splat == dense_elements(TensorType(f32, [3, 2]), [0.5])
    assert len(splat.data.data) == 4 and is_splat(splat)
    assert element_values(splat) == (0.5,) * 6
    full = dense_elements(TensorType(i8, [3]), [1, 2, 255])
    assert not is_splat(full) and element_values(full) == (1, 2, -1)
    expanded = DenseIntOrFPElementsAttr.from_list(TensorType(f32, [4]), [2.0, 2.0, 2.0, 2.0])
    assert is_splat(expanded)
    assert not is_splat(dense_elements(TensorType(f32, [0, 3]), []))
