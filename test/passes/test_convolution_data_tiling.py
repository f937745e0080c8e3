"""Convolution data tiling keeps results: hints and encodings, then CPU materialization."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_opt

HERE = Path(__file__).parent
ANNOTATE = "iree-dispatch-creation-annotate-data-tiling-hints{data-tiling-op-types=convolution}"


def test_hints_and_encodings_keep_results():
    result = run_opt([str(HERE / "annotate_set_encoding_conv.mlir"), "-p", f"{ANNOTATE},iree-dispatch-creation-set-encoding",
                      "--verify-each-with-interpreter"])  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("kept the results of 1 function") == 2


@pytest.mark.parametrize("seed", [0, 1])
def test_materialized_convolution_keeps_results(seed: int):
    # The packs, the 9-D data-tiled generic and the unpack compute the convolution.
    result = run_opt([str(HERE / "materialize_device_encoding_conv.mlir"), "-p", "iree-codegen-materialize-device-encoding",
                      "--verify-each-with-interpreter", f"--interpreter-seed={seed}"])  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "kept the results of 1 function" in result.stderr
    assert "linalg.conv_2d_nhwc_hwcf" not in result.stdout
