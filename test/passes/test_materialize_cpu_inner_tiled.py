"""The matmuls of materialize_device_encoding_cpu_inner_tiled.mlir compute the same after
materialization with `enable_inner_tiled`: packed and swizzled for a CPU MMA intrinsic,
one iree_codegen.inner_tiled op with an `#iree_cpu.data_tiled_mma_layout` kind, unpacked.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import run_opt

from mini_iree.compiler.interpreter import run

LIT_FILE = Path(__file__).with_name("materialize_device_encoding_cpu_inner_tiled.mlir")
PASS = "func.func(iree-codegen-materialize-device-encoding)"

# A matmul of narrow integers on AVX2, which has no intrinsic for them: the generic scalar
# one. (The interpreter holds no i4, so sub-byte K groups are pinned by the lit test only.)
GENERIC = """
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#lhs = #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [ELT, ELT, i32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [7, 8, 5]>
#rhs = #iree_encoding.encoding<operand_index = 1, op_type = matmul, element_types = [ELT, ELT, i32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [7, 8, 5]>
#res = #iree_encoding.encoding<operand_index = 2, op_type = matmul, element_types = [ELT, ELT, i32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [7, 8, 5]>
func.func @generic(%a: tensor<7x5xELT>, %b: tensor<5x8xELT>, %c: tensor<7x8xi32>) -> tensor<7x8xi32> attributes {
  hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {target_triple = "x86_64-xyz-xyz", cpu_features = "+avx2,+fma", enable_inner_tiled = true, iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>}>
} {
  %0 = iree_encoding.set_encoding %a : tensor<7x5xELT> -> tensor<7x5xELT, #lhs>
  %1 = iree_encoding.set_encoding %b : tensor<5x8xELT> -> tensor<5x8xELT, #rhs>
  %2 = iree_encoding.set_encoding %c : tensor<7x8xi32> -> tensor<7x8xi32, #res>
  %3 = linalg.matmul ins(%0, %1 : tensor<7x5xELT, #lhs>, tensor<5x8xELT, #rhs>) outs(%2 : tensor<7x8xi32, #res>) -> tensor<7x8xi32, #res>
  %4 = iree_encoding.unset_encoding %3 : tensor<7x8xi32, #res> -> tensor<7x8xi32>
  return %4 : tensor<7x8xi32>
}
"""


def _materialize(text: str, tmp_path: Path) -> str:
    source = tmp_path / "piece.mlir"
    source.write_text(text)
    result = run_opt([str(source), "--iree-era=3.13", "-p", PASS])
    assert result.returncode == 0, result.stderr
    after = result.stdout
    assert "iree_codegen.inner_tiled" in after and "#iree_cpu.data_tiled_mma_layout" in after
    assert "#iree_encoding" not in after and "linalg.mmt4d" not in after
    return after


@pytest.mark.parametrize(
    ("name", "m", "n", "k"), [("matmul_avx512", 5, 20, 7), ("matmul_narrow_n", 20, 4, 3)]
)
def test_f32_matmul_keeps_results(tmp_path: Path, name: str, m: int, n: int, k: int) -> None:
    text = next(p for p in LIT_FILE.read_text().split("// -----") if f"@{name}(" in p)
    after = _materialize(text, tmp_path)
    rng = np.random.default_rng(0)
    a, b, c = (rng.integers(-4, 5, shape).astype(np.float32) for shape in ((m, k), (k, n), (m, n)))
    (before,) = run(text, name, a, b, c)
    (got,) = run(after, name, a, b, c)
    np.testing.assert_array_equal(before, c + a @ b)
    np.testing.assert_array_equal(got, before)


@pytest.mark.parametrize(("element_type", "kind"), [("i8", "intrinsics_n = 3, lhs_type = i8"), ("i16", "intrinsics_n = 3, lhs_type = i16")])
def test_generic_scalar_matmul_keeps_results(tmp_path: Path, element_type: str, kind: str) -> None:
    text = GENERIC.replace("ELT", element_type)
    after = _materialize(text, tmp_path)
    assert "MMA_GENERIC_SCALAR_1x1x1_REG16" in after and kind in after
    rng = np.random.default_rng(1)
    a, b = (rng.integers(-8, 8, shape).astype(f"int{element_type[1:]}") for shape in ((7, 5), (5, 8)))
    c = rng.integers(-50, 50, (7, 8)).astype(np.int32)
    (before,) = run(text, "generic", a, b, c)
    (got,) = run(after, "generic", a, b, c)
    np.testing.assert_array_equal(before, c + a.astype(np.int32) @ b.astype(np.int32))
    np.testing.assert_array_equal(got, before)
