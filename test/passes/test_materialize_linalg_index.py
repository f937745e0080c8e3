"""The causal masks of materialize_device_encoding_linalg_index{,_gpu}.mlir compute the same after
materialization: their `linalg.index` ops read original indices rebuilt from the packed loops
(plain CPU tiles, and swizzled GPU tiles)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from conftest import run_opt

from mini_iree.compiler.interpreter import run

LIT_FILE = Path(__file__).with_name("materialize_device_encoding_linalg_index.mlir")
GPU_LIT_FILE = Path(__file__).with_name("materialize_device_encoding_linalg_index_gpu.mlir")
GPU_PIPELINE = (
    "builtin.module(func.func(iree-codegen-materialize-device-encoding{test-gpu-encoding-resolver=gpu_data_tiling}))"
)


def _check(tmp_path: Path, text: str, options: list[str], marker: str) -> None:
    source = tmp_path / "piece.mlir"
    source.write_text(text)
    result = run_opt([str(source), "--iree-era=3.13", *options])
    assert result.returncode == 0, result.stderr
    after = result.stdout
    assert marker in after
    a = np.random.default_rng(0).integers(-3, 4, (20, 40)).astype(np.float32)
    (before,) = run(text, "causal_mask", a)
    (got,) = run(after, "causal_mask", a)
    rows, cols = np.indices((20, 40))
    np.testing.assert_array_equal(before, a + np.where(rows >= cols, 0.0, -1.0e30).astype(np.float32))
    np.testing.assert_array_equal(got, before)


def test_causal_mask_keeps_results(tmp_path) -> None:
    _check(tmp_path, LIT_FILE.read_text(), ["-p", "iree-codegen-materialize-device-encoding"], "linalg.unpack")


def test_swizzled_causal_mask_keeps_results(tmp_path) -> None:
    options = [f"--pass-pipeline={GPU_PIPELINE}", "--iree-gpu-test-target=gfx942"]
    _check(tmp_path, GPU_LIT_FILE.read_text(), options, "linalg.transpose")
