"""The programs of materialize_device_encoding_swizzle_fold.mlir compute the same after
materialization in IREE 3.13's form: swizzles that move only unit dims lowered to one
reshape (or nothing), set/unset round trips folded away."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import run_opt

from mini_iree.compiler.interpreter import run

LIT_FILE = Path(__file__).with_name("materialize_device_encoding_swizzle_fold.mlir")
PASS = "func.func(iree-codegen-materialize-device-encoding)"


def _piece(name: str) -> str:
    return next(p for p in LIT_FILE.read_text().split("// -----") if f"@{name}(" in p)


def _materialize(text: str, tmp_path: Path, era: str) -> str:
    source = tmp_path / "piece.mlir"
    source.write_text(text)
    result = run_opt([str(source), f"--iree-era={era}", "-p", PASS])
    assert result.returncode == 0, result.stderr
    assert "#iree_encoding" not in result.stdout
    return result.stdout


@pytest.mark.parametrize("era", ["3.13", "walkthrough"])
def test_matmul_keeps_results(tmp_path: Path, era: str) -> None:
    text = _piece("matmul_unit_swizzles")
    after = _materialize(text, tmp_path, era)
    assert ("linalg.transpose" in after) == (era == "walkthrough")
    rng = np.random.default_rng(0)
    a, b, c = (rng.integers(-4, 5, shape).astype(np.float32) for shape in ((6, 3), (3, 16), (6, 16)))
    (before,) = run(text, "matmul_unit_swizzles", a, b, c)
    (got,) = run(after, "matmul_unit_swizzles", a, b, c)
    np.testing.assert_array_equal(before, c + a @ b)
    np.testing.assert_array_equal(got, before)


@pytest.mark.parametrize(("name", "shape"), [("acc_round_trip", (2, 4)), ("acc_padded_round_trip", (3, 4))])
def test_round_trip_keeps_values(tmp_path: Path, name: str, shape: tuple[int, int]) -> None:
    text = _piece(name)
    after = _materialize(text, tmp_path, "3.13")
    assert "linalg.transpose" not in after and "tensor.expand_shape" not in after
    x = np.random.default_rng(1).integers(-9, 10, shape).astype(np.float32)
    (before,) = run(text, name, x)
    (got,) = run(after, name, x)
    np.testing.assert_array_equal(before, x)
    np.testing.assert_array_equal(got, x)
