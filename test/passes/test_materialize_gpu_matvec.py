"""The GPU matvec and vecmat of materialize_device_encoding_gpu_matvec.mlir compute the same after
materialization in IREE 3.13's form (one iree_codegen.inner_tiled over the op's two loops, the
vector operands holding whole intrinsic tiles).

No set_encoding reaches a whole-tile vector layout (IREE's fails), so the test packs the
operands itself: the matrix with its layout (the layout algebra), the vector into every row
of the missing dim of its tile, the init likewise. Then every column of the result tile must
hold the logical result.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import run_opt

from mini_iree.compiler.interpreter import parse_module_text, run
from mini_iree.compiler.layout.iree_encoding import encoding_relayout, swizzle_relayout
from mini_iree.compiler.resolvers.gpu import get_encoding_info, rocm_target

LIT_FILE = Path(__file__).with_name("materialize_device_encoding_gpu_matvec.mlir")
PASS = "func.func(iree-codegen-materialize-device-encoding{test-gpu-encoding-resolver=gpu_data_tiling})"


def _piece(name: str) -> str:
    return next(p for p in LIT_FILE.read_text().split("// -----") if f"@{name}(" in p)


def _infos(text: str):
    func_op = next(op for op in parse_module_text(text).walk() if op.name == "func.func")
    target = rocm_target("gfx942", era="3.13")
    return [get_encoding_info(target, arg.type.encoding, "3.13") for arg in func_op.body.blocks[0].args]


def _whole_tiles(vector: np.ndarray, info, rows: int, vector_first: bool) -> np.ndarray:
    """The vector packed along its tile and repeated over the `rows` of the dim it lacks
    (the swizzle group it keeps), then swizzled: outer x swizzled whole tile."""
    (tile,) = info.inner_tile_sizes
    outer = -(-vector.shape[0] // tile)
    padded = np.zeros(outer * tile, vector.dtype)
    padded[: vector.shape[0]] = vector
    chunks = padded.reshape(outer, 1, tile) if not vector_first else padded.reshape(outer, tile, 1)
    plain = np.broadcast_to(chunks, (outer, rows, tile) if not vector_first else (outer, tile, rows)).copy()
    return swizzle_relayout((outer,), info.swizzle).pack(plain)


def _columns(result: np.ndarray, info, length: int) -> np.ndarray:
    """Each column of the whole result tiles, unswizzled: (columns, length)."""
    plain = swizzle_relayout(result.shape[:1], info.swizzle).unpack(result)
    return plain.transpose(2, 0, 1).reshape(plain.shape[2], -1)[:, :length]


def _materialize(text: str, tmp_path: Path) -> str:
    source = tmp_path / "piece.mlir"
    source.write_text(text)
    result = run_opt([str(source), "--iree-era=3.13", "--iree-gpu-test-target=gfx942", "-p", PASS])
    assert result.returncode == 0, result.stderr
    assert "iree_codegen.inner_tiled" in result.stdout and "#iree_encoding" not in result.stdout
    return result.stdout


def test_matvec_keeps_results(tmp_path: Path) -> None:
    text = _piece("matvec")
    after = _materialize(text, tmp_path)
    lhs_info, rhs_info, acc_info = _infos(text)
    rng = np.random.default_rng(0)
    a = rng.integers(-3, 4, (20, 40)).astype(np.float16)
    x = rng.integers(-3, 4, 40).astype(np.float16)
    y = rng.integers(-3, 4, 20).astype(np.float32)
    (before,) = run(text, "matvec", a, x, y)
    np.testing.assert_array_equal(before, y + a.astype(np.float32) @ x.astype(np.float32))
    packed_a = encoding_relayout(lhs_info, a.shape).pack(a)
    # x: one K chunk per N row of the N x K tile; y: one M chunk per N column of the M x N tile.
    packed_x = _whole_tiles(x, rhs_info, 16, vector_first=False)
    packed_y = _whole_tiles(y, acc_info, 16, vector_first=True)
    (got,) = run(after, "matvec", packed_a, packed_x, packed_y)
    for column in _columns(got, acc_info, 20):
        np.testing.assert_array_equal(column, before)


@pytest.mark.parametrize("seed", [1, 2])
def test_vecmat_keeps_results(tmp_path: Path, seed: int) -> None:
    text = _piece("vecmat")
    after = _materialize(text, tmp_path)
    lhs_info, rhs_info, acc_info = _infos(text)
    rng = np.random.default_rng(seed)
    x = rng.integers(-128, 128, 50).astype(np.int8)
    b = rng.integers(-128, 128, (50, 70)).astype(np.int8)
    y = rng.integers(-50, 50, 70).astype(np.int32)
    (before,) = run(text, "vecmat", x, b, y)
    np.testing.assert_array_equal(before, y + x.astype(np.int32) @ b.astype(np.int32))
    # x: one K chunk per M row of the M x K tile; y: one N chunk per M row of the M x N tile.
    packed_x = _whole_tiles(x, lhs_info, 16, vector_first=False)
    packed_b = encoding_relayout(rhs_info, b.shape).pack(b)
    packed_y = _whole_tiles(y, acc_info, 16, vector_first=False)
    (got,) = run(after, "vecmat", packed_x, packed_b, packed_y)
    plain = swizzle_relayout(got.shape[:1], acc_info.swizzle).unpack(got)  # N1 x M0 x N0
    for row in plain.transpose(1, 0, 2).reshape(plain.shape[1], -1)[:, :70]:
        np.testing.assert_array_equal(row, before)
