"""The vecmat, batch matvec and batch vecmat of materialize_device_encoding_matvec.mlir compute the same after
materialization (the fill folded into the 4-D init, the unit dims of a batch matvec regrouped, an
unsigned operand zero-extended)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from conftest import run_opt

from mini_iree.compiler.interpreter import run

LIT_FILE = Path(__file__).with_name("materialize_device_encoding_matvec.mlir")


def _pieces() -> list[str]:
    return [p for p in LIT_FILE.read_text().split("// -----") if "func.func" in p]


def _materialize(tmp_path: Path, text: str) -> str:
    source = tmp_path / "piece.mlir"
    source.write_text(text)
    result = run_opt([str(source), "--iree-era=3.13", "-p", "iree-codegen-materialize-device-encoding"])
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_vecmat_keeps_results(tmp_path) -> None:
    text = _pieces()[0]
    after = _materialize(tmp_path, text)
    assert "linalg.mmt4d" in after
    rng = np.random.default_rng(0)
    a = rng.integers(-3, 4, 6).astype(np.float32)
    b = rng.integers(-3, 4, (6, 40)).astype(np.float32)
    (before,) = run(text, "vecmat", a, b)
    (got,) = run(after, "vecmat", a, b)
    np.testing.assert_array_equal(before, a @ b)
    np.testing.assert_array_equal(got, before)


def test_batch_matvec_keeps_results(tmp_path) -> None:
    text = _pieces()[1]
    after = _materialize(tmp_path, text)
    assert "linalg.batch_mmt4d" in after
    rng = np.random.default_rng(1)
    a = rng.integers(-3, 4, (2, 1, 5)).astype(np.float32)
    b = rng.integers(-3, 4, (2, 5)).astype(np.float32)
    c = rng.integers(-3, 4, (2, 1)).astype(np.float32)
    (before,) = run(text, "batch_matvec", a, b, c)
    (got,) = run(after, "batch_matvec", a, b, c)
    np.testing.assert_array_equal(before, np.einsum("bmk,bk->bm", a, b) + c)
    np.testing.assert_array_equal(got, before)


def test_batch_vecmat_unsigned_rhs_keeps_results(tmp_path) -> None:
    text = _pieces()[2]
    after = _materialize(tmp_path, text)
    assert "linalg.batch_mmt4d" in after and "arith.extui" in after
    rng = np.random.default_rng(2)
    a = rng.integers(-128, 128, (2, 12)).astype(np.int8)
    # Negative i8 values read as 128..255 unsigned, so a lost zero-extension shows.
    b = rng.integers(-128, 128, (2, 12, 40)).astype(np.int8)
    c = rng.integers(-50, 50, (2, 40)).astype(np.int32)
    (before,) = run(text, "batch_vecmat_ui8", a, b, c)
    (got,) = run(after, "batch_vecmat_ui8", a, b, c)
    unsigned_b = (b.astype(np.int32) & 0xFF)
    np.testing.assert_array_equal(before, np.einsum("bk,bkn->bn", a.astype(np.int32), unsigned_b) + c)
    np.testing.assert_array_equal(got, before)
