"""The matmul and the linalg.index generic of materialize_device_encoding_gpu_targets.mlir compute
the same after materialization on RDNA3 (gfx1100, WMMA tiles) and CDNA1 (gfx908, first-generation
MFMA tiles)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import run_opt

from mini_iree.compiler.interpreter import run

LIT_FILE = Path(__file__).with_name("materialize_device_encoding_gpu_targets.mlir")
PASS = "func.func(iree-codegen-materialize-device-encoding{test-gpu-encoding-resolver=gpu_data_tiling})"


def _materialize(tmp_path: Path, name: str, arch: str) -> tuple[str, str]:
    text = next(p for p in LIT_FILE.read_text().split("// -----") if f"@{name}(" in p)
    source = tmp_path / "piece.mlir"
    source.write_text(text)
    result = run_opt([str(source), "--iree-era=3.13", "-p", PASS, f"--iree-gpu-test-target={arch}"])
    assert result.returncode == 0, result.stderr
    return text, result.stdout


@pytest.mark.parametrize("arch", ["gfx1100", "gfx908"])
def test_packed_matmul_keeps_results(tmp_path: Path, arch: str) -> None:
    text, after = _materialize(tmp_path, "packed_matmul", arch)
    assert "iree_codegen.inner_tiled" in after and "#iree_encoding" not in after
    rng = np.random.default_rng(0)
    a = rng.integers(-128, 128, (37, 45)).astype(np.int8)
    b = rng.integers(-128, 128, (45, 21)).astype(np.int8)
    c = rng.integers(-50, 50, (37, 21)).astype(np.int32)
    (before,) = run(text, "packed_matmul", a, b, c)
    (got,) = run(after, "packed_matmul", a, b, c)
    np.testing.assert_array_equal(before, a.astype(np.int32) @ b.astype(np.int32) + c)
    np.testing.assert_array_equal(got, before)


@pytest.mark.parametrize("arch", ["gfx1100", "gfx908"])
def test_linalg_index_on_swizzled_tiles_keeps_results(tmp_path: Path, arch: str) -> None:
    """Each element still sees its own (row, column): the lower triangle survives, padding aside."""
    text, after = _materialize(tmp_path, "lower_triangle", arch)
    assert "linalg.index 4" in after and "#iree_encoding" not in after
    x = np.arange(1, 37 * 21 + 1, dtype=np.float32).reshape(37, 21)
    (before,) = run(text, "lower_triangle", x)
    (got,) = run(after, "lower_triangle", x)
    np.testing.assert_array_equal(before, np.tril(x))
    np.testing.assert_array_equal(got, before)
