"""Reshapes and bitcasts outside dispatches through iree-stream-conversion, canonicalize and encode-host-tensors.

``flow.tensor.reshape``/``bitcast`` become ``stream.tensor.clone``; the
programs of ``convert_to_stream_reshape.mlir`` give the same results before
and after each pass, whether canonicalization drops the clone or it survives
to the interpreter (and to ``stream.async.clone``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from conftest import run_opt

HERE = Path(__file__).parent
CASES = HERE / "convert_to_stream_reshape.mlir"
CONVERT = "iree-stream-conversion{async-cast=true}"
PIPELINE = f"{CONVERT},canonicalize,iree-stream-encode-host-tensors{{era=3.13}}"


def _case(name: str) -> str:
    for chunk in CASES.read_text().split("// -----"):
        if f"@{name}(" in chunk:
            return chunk
    raise AssertionError(f"no case @{name}")


def _opt(text: str, tmp_path: Path, pipeline: str) -> str:
    source = tmp_path / "input.mlir"
    source.write_text(text)
    result = run_opt([str(source), "-p", pipeline])
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_lit_cases_keep_results():
    result = run_opt([str(CASES), "-p", PIPELINE, "--split-input-file", "--verify-each-with-interpreter"])
    assert result.returncode == 0, result.stderr
    chunks = CASES.read_text().count("// -----") + 1
    assert result.stderr.count("kept the results of 1 function") == 3 * chunks


def test_reshapes_run_before_and_after(tmp_path):
    """The dispatch reads the import's resource directly once the clones are gone; results do not change."""
    from mini_iree.compiler.interpreter import run

    source = _case("reshapes")
    converted = _opt(source, tmp_path, f"{CONVERT},canonicalize")
    assert "stream.tensor.clone" not in converted
    x = np.random.default_rng(0).standard_normal((3, 2, 2)).astype(np.float32)
    (before,) = run(source, "reshapes", x)
    (after,) = run(converted, "reshapes", x)
    np.testing.assert_array_equal(after, before)
    np.testing.assert_array_equal(after, 2 * x)


def test_surviving_clone_is_a_snapshot(tmp_path):
    """A kept clone runs (``stream.tensor.clone`` and, encoded, ``stream.async.clone``): the tied dispatch writes
    its own copy, the second result is still the input reshaped."""
    from mini_iree.compiler.interpreter import run

    source = _case("tied_reshape_kept")
    rng = np.random.default_rng(1)
    lhs, rhs = rng.standard_normal((4, 8)).astype(np.float32), rng.standard_normal((8, 4)).astype(np.float32)
    acc = rng.standard_normal(16).astype(np.float32)
    expected = [acc.reshape(4, 4) + lhs @ rhs, acc.reshape(4, 4)]
    for pipeline, op_name in [(f"{CONVERT},canonicalize", "stream.tensor.clone"), (PIPELINE, "stream.async.clone")]:
        lowered = _opt(source, tmp_path, pipeline)
        assert op_name in lowered
        results = run(lowered, "tied_reshape_kept", lhs, rhs, acc.copy())
        for result, want in zip(results, expected, strict=True):
            np.testing.assert_allclose(result, want, rtol=1e-5, atol=1e-5)


def test_bitcast_keeps_the_bytes(tmp_path):
    from mini_iree.compiler.interpreter import run

    source = _case("bitcast")
    x = np.arange(8, dtype=np.int32).reshape(2, 4) * 1000003
    converted = _opt(source, tmp_path, CONVERT)
    assert "stream.tensor.clone" in converted
    (result,) = run(converted, "bitcast", x)
    np.testing.assert_array_equal(result, x.reshape(-1).view(np.float32))
