"""materialize-target-devices: device globals keep results, and a second run adds nothing."""

from __future__ import annotations

from pathlib import Path

from conftest import REPO, run_opt

LIT = Path(__file__).parent / "materialize_target_devices.mlir"
ASSIGN = "iree-hal-assign-target-devices{targetDevices=gfx942}"
MATERIALIZE = "iree-hal-materialize-target-devices"


def test_lit_cases_keep_results():
    # The last case is an expected error; the others have a function or nothing to run.
    args = [str(LIT), "--split-input-file", "--verify-diagnostics", "-p", MATERIALIZE]
    result = run_opt([*args, "--verify-each-with-interpreter"])
    assert result.returncode == 0, result.stderr


def test_materializing_twice_adds_no_devices():
    matmul = str(REPO / "examples" / "matmul.mlir")
    once = run_opt([matmul, "-p", f"{ASSIGN},{MATERIALIZE}", "--verify-each-with-interpreter"])
    twice = run_opt([matmul, "-p", f"{ASSIGN},{MATERIALIZE},{ASSIGN},{MATERIALIZE}"])
    assert once.returncode == 0 and twice.returncode == 0, once.stderr + twice.stderr
    assert once.stdout == twice.stdout
    assert once.stdout.count("util.global private @__device_") == 1
