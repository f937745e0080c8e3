"""The scaled (MX) matmul of materialize_device_encoding_scaled.mlir computes the same after
materialization on gfx950: packed and swizzled for the scaled MFMA, one inner_tiled op, unpacked.

f4E2M1FN and f8E8M0FNU tensors are ml_dtypes' float4_e2m1fn and float8_e8m0fnu (f4 values and
powers of two as scales).
"""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
from conftest import run_opt
from xdsl.dialects.builtin import Float4E2M1FNType, Float8E8M0FNUType

from mini_iree.compiler.interpreter import core, run

LIT_FILE = Path(__file__).with_name("materialize_device_encoding_scaled.mlir")
PASS = "func.func(iree-codegen-materialize-device-encoding{test-gpu-encoding-resolver=gpu_data_tiling})"
FP4_VALUES = np.array([0, 0.5, 1, 1.5, 2, 3, 4, 6], np.float32)


def test_scaled_matmul_keeps_results(tmp_path: Path) -> None:
    assert core.numpy_dtype(Float4E2M1FNType()) == np.dtype(ml_dtypes.float4_e2m1fn)
    assert core.numpy_dtype(Float8E8M0FNUType()) == np.dtype(ml_dtypes.float8_e8m0fnu)
    text = next(p for p in LIT_FILE.read_text().split("// -----") if "@scaled_matmul(" in p)
    source = tmp_path / "piece.mlir"
    source.write_text(text)
    result = run_opt([str(source), "--iree-era=3.13", "-p", PASS, "--iree-gpu-test-target=gfx950"])
    assert result.returncode == 0, result.stderr
    after = result.stdout
    assert "iree_codegen.inner_tiled" in after and "#iree_encoding" not in after
    rng = np.random.default_rng(0)

    def fp4(shape):
        return rng.choice(FP4_VALUES, shape) * rng.choice([-1, 1], shape).astype(np.float32)

    def scales(shape):
        return np.exp2(rng.integers(-3, 4, shape)).astype(np.float32)

    a, b = fp4((20, 5, 32)), fp4((17, 5, 32))
    sa, sb = scales((20, 5)), scales((17, 5))
    c = rng.integers(-4, 5, (20, 17)).astype(np.float32)
    args = [a.astype(ml_dtypes.float4_e2m1fn), b.astype(ml_dtypes.float4_e2m1fn)]
    args += [sa.astype(ml_dtypes.float8_e8m0fnu), sb.astype(ml_dtypes.float8_e8m0fnu), c]
    (before,) = run(text, "scaled_matmul", *args)
    (got,) = run(after, "scaled_matmul", *args)
    expected = c + np.einsum("mkb,nkb->mn", a * sa[:, :, None], b * sb[:, :, None])
    np.testing.assert_allclose(before, expected, rtol=1e-5)
    np.testing.assert_allclose(got, before, rtol=1e-5)
