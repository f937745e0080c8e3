"""iree-stream-conversion: reproduces walkthrough dump 10 and keeps every program's results."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from conftest import REPO, require_reference, run_opt

PASS = "iree-stream-conversion"
HERE = Path(__file__).parent
CASES = HERE / "convert_to_stream.mlir"
INVALID = HERE / "convert_to_stream_invalid.mlir"


def _opt(*args: str) -> str:
    result = run_opt([*args])
    assert result.returncode == 0, result.stderr
    return result.stdout


def normalize_ssa_names(text: str) -> str:
    """``text`` with every SSA name replaced by its order of first appearance (``%v0``, ``%v1``, ...).

    Two printings of the same IR that differ only in value names normalise to
    the same text. Quoted strings (``iree.abi.declaration``) are left alone.
    """
    names: dict[str, str] = {}

    def rename(match: re.Match[str]) -> str:
        return names.setdefault(match.group(0), f"%v{len(names)}")

    parts = re.split(r'("(?:[^"\\]|\\.)*")', text)
    return "".join(part if part.startswith('"') else re.sub(r"%[A-Za-z0-9_$.-]+", rename, part) for part in parts)


def test_normalizer_is_not_trivial():
    assert normalize_ssa_names("%a = f(%b, %a)") == normalize_ssa_names("%x = f(%y, %x)")
    assert normalize_ssa_names("%a = f(%b, %a)") != normalize_ssa_names("%x = f(%x, %y)")


def test_walkthrough_09_becomes_10():
    ref = require_reference() / "seed-walkthrough"
    output = _opt(str(ref / "09-convert-to-stream.before.mlir"), "-p", PASS)
    expected = _opt(str(ref / "10-convert-to-stream.after.mlir"))
    assert normalize_ssa_names(output) == normalize_ssa_names(expected)


@pytest.mark.parametrize("dynamic_size", [0, 1, 37])
def test_walkthrough_09_keeps_results(dynamic_size):
    ref = require_reference() / "seed-walkthrough"
    result = run_opt(
        [
            str(ref / "09-convert-to-stream.before.mlir"),
            "-p",
            PASS,
            "--verify-each-with-interpreter",
            f"--interpreter-dynamic-size={dynamic_size}",
        ]
    )
    assert result.returncode == 0, result.stderr
    assert "kept the results of 1 function" in result.stderr


def test_async_cast_option_prints_iree_3_13_boundary():
    """``async-cast=true``: imports and exports change lifetime with 3.13's ``stream.async.cast``, results unchanged."""
    ref = require_reference()
    result = run_opt(
        [
            str(ref / "seed-walkthrough" / "09-convert-to-stream.before.mlir"),
            "-p",
            f"{PASS}{{async-cast=true}}",
            "--verify-each-with-interpreter",
        ]
    )
    assert result.returncode == 0, result.stderr
    casts = [line.strip() for line in result.stdout.splitlines() if "stream.async.cast" in line]
    assert len(casts) == 3 and "stream.async.transfer" not in result.stdout
    # The import's cast reads as IREE 3.13 prints it (const-weight dump 10, up to names).
    iree = (ref / "iree-3.13" / "const-weight-matmul" / "10_SpecializeEncodingsPass.mlir").read_text()
    iree_cast = next(line.strip() for line in iree.splitlines() if "stream.async.cast" in line)
    assert normalize_ssa_names(casts[0]) == normalize_ssa_names(iree_cast)


@pytest.mark.parametrize("dynamic_size", [0, 3, 16])
def test_hand_written_cases_keep_results(dynamic_size):
    """Every case of the lit test (static, dynamic, tied, constant weight, two devices) runs the same after the pass."""
    result = run_opt(
        [
            str(CASES),
            "--split-input-file",
            "-p",
            PASS,
            "--verify-each-with-interpreter",
            f"--interpreter-dynamic-size={dynamic_size}",
        ]
    )
    assert result.returncode == 0, result.stderr
    chunks = CASES.read_text().count("// -----") + 1
    assert result.stderr.count("kept the results of 1 function") == chunks


def _case(name: str) -> str:
    """The ``// -----`` chunk of the lit test that defines ``@name``."""
    for chunk in CASES.read_text().split("// -----"):
        if f"@{name}(" in chunk:
            return chunk
    raise AssertionError(f"no case @{name}")


def _convert(text: str, tmp_path: Path) -> str:
    source = tmp_path / "input.mlir"
    source.write_text(text)
    return _opt(str(source), "-p", PASS)


def test_const_weight_runs_as_a_matmul(tmp_path):
    """The converted program (initializer, resource globals, stream dispatch) computes X @ W."""
    from mini_iree.compiler.interpreter import run

    converted = _convert(_case("matmul_const_weight"), tmp_path)
    assert "tensor<" not in converted.split("util.func public @matmul_const_weight")[1].split("stream.tensor")[0]
    weight = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9], [-1, -2, 0.5]], np.float32)
    x = np.random.default_rng(0).standard_normal((5, 4)).astype(np.float32)
    (result,) = run(converted, "matmul_const_weight", x)
    np.testing.assert_allclose(result, x @ weight, rtol=1e-5, atol=1e-5)


def test_two_devices_transfer_and_run(tmp_path):
    from mini_iree.compiler.interpreter import run

    converted = _convert(_case("two_devices"), tmp_path)
    assert "to(#hal.device.affinity<@device_b>)" in converted
    assert "from(#hal.device.affinity<@device_b>) -> to(#hal.device.affinity<@device_a>)" in converted
    assert "stream.affinity =" not in converted
    x = np.array([[1, 2], [3, 4]], np.float32)
    (result,) = run(converted, "two_devices", x)
    np.testing.assert_allclose(result, x @ x)


def test_tied_dispatch_accumulates(tmp_path):
    from mini_iree.compiler.interpreter import run

    converted = _convert(_case("dispatch_static_tied"), tmp_path)
    rng = np.random.default_rng(1)
    lhs, rhs, acc = (rng.standard_normal(s).astype(np.float32) for s in [(4, 8), (8, 4), (4, 4)])
    (result,) = run(converted, "dispatch_static_tied", lhs, rhs, acc)
    np.testing.assert_allclose(result, acc + lhs @ rhs, rtol=1e-5, atol=1e-5)


def test_import_asserts_the_shape(tmp_path):
    """The hal.buffer_view.assert the pass adds rejects a buffer view of the wrong shape."""
    from mini_iree.compiler.interpreter import run
    from mini_iree.compiler.interpreter.core import InterpreterError

    converted = _convert(_case("import_export_static"), tmp_path)
    with pytest.raises(InterpreterError, match="input0"):
        run(converted, "import_export_static", np.zeros((8, 4), np.float32))


@pytest.mark.parametrize(
    ("marker", "message"),
    [
        ("host_tensor_op", "failed to legalize operation 'tensor.empty'"),
        ("dispatch_region_left", "failed to legalize operation 'flow.dispatch.region'"),
        ("import_waits", "failed to legalize operation 'hal.tensor.import': fence waits are not supported"),
        ("func.func @fn(", "dynamic dispatch dimensions not properly captured"),
    ],
)
def test_unconvertible_ops_are_errors(tmp_path, marker, message):
    chunk = next(c for c in INVALID.read_text().split("// -----") if marker in c)
    source = tmp_path / "bad.mlir"
    source.write_text(chunk)
    result = run_opt([str(source), "-p", PASS])
    assert result.returncode == 1
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


# The whole chain from the e2e inputs, once the passes between dispatch
# creation and stream conversion exist.
CHAIN = [
    "data-tiling-dispatch-creation",
    "iree-hal-assign-target-devices{targetDevices=gfx942}",
    "iree-hal-materialize-target-devices",
    "iree-dispatch-creation-convert-dispatch-regions-to-workgroups",
    "iree-dispatch-creation-convert-tensor-to-flow",
    "iree-flow-capture-dynamic-dims",
    "canonicalize",
    "cse",
    "iree-flow-outline-dispatch-regions",
    "iree-flow-annotate-dispatches",
    PASS,
]


@pytest.mark.parametrize("name", sorted(p.name for p in (REPO / "test" / "e2e" / "Inputs").glob("*.mlir")))
def test_e2e_inputs_through_stream_conversion(name):
    result = run_opt(
        [
            str(REPO / "test" / "e2e" / "Inputs" / name),
            "-p",
            ",".join(CHAIN),
            "--verify-each-with-interpreter",
            "--interpreter-dynamic-size=5",
        ]
    )
    assert result.returncode == 0, result.stderr
    assert "stream.tensor.dispatch" in result.stdout
    assert "flow.dispatch " not in result.stdout


def test_output_reparses_unchanged(tmp_path):
    """No conversion cast or other temporary survives: the output parses and prints back to itself."""
    output = _opt(str(CASES), "--split-input-file", "-p", PASS)
    assert "unrealized_conversion_cast" not in output
    printed = tmp_path / "out.mlir"
    printed.write_text(output)
    assert _opt(str(printed), "--split-input-file") == output
