"""IREE 3.13's own IR reads and lowers: compute barriers, ``util.func`` entry points, ``iree.abi.stub`` wrappers.

IREE 3.13's dumps after HoistIntoGlobals (``reference/iree-3.13/*/09_*``) still
carry the compute barriers of its entry-point wrapping. They go through the
rest of mini-iree's pipeline, keep their results at every pass, and with the
3.13 options their host function comes out as IREE 3.13's own after
MaterializeEncodings.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import require_reference, run_opt
from test_convert_to_stream import normalize_ssa_names

HERE = Path(__file__).parent
CASES = HERE / "convert_to_stream_iree313.mlir"

# The stream half with IREE 3.13's per-pass options (async-cast, gpu-era and era).
STREAM_313 = "data-tiling-stream{era=3.13}"

# Dumps with data the interpreter can run (const-weight-matmul's weight is elided).
RUNNABLE = ["dynamic-matmul", "elementwise-producer-consumer", "gfx942-dynamic-matmul"]


def _dump(program: str, prefix: str) -> Path:
    return next((require_reference() / "iree-3.13" / program).glob(f"{prefix}_*.mlir"))


def _host_function(text: str) -> list[str]:
    """The public ``util.func`` of a module, SSA names normalised, one entry per line."""
    match = re.search(r"^  util\.func public @\w+\(.*?^  }$", text, re.S | re.M)
    assert match is not None
    return normalize_ssa_names(match.group(0)).splitlines()


def test_lit_cases_keep_results():
    result = run_opt([str(CASES), "-p", "iree-stream-conversion{async-cast=true}", "--split-input-file",
                      "--verify-each-with-interpreter"])
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("kept the results of 1 function") == 4


@pytest.mark.parametrize("program", [*RUNNABLE, "const-weight-matmul"])
def test_iree313_dumps_compile_to_the_end(program):
    # Barriers included: before, stream conversion failed with `failed to legalize operation`.
    source = _dump(program, "09")
    assert "compute_barrier" in source.read_text()
    args = [str(source), "-p", "data-tiling-stream,data-tiling-codegen"]
    if program in RUNNABLE:
        args.append("--verify-each-with-interpreter")
    result = run_opt(args)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "compute_barrier" not in result.stdout
    assert "iree.abi.stub, iree.reflection = {iree.abi.declaration = " in result.stdout


@pytest.mark.parametrize("program", RUNNABLE)
def test_iree313_host_function_matches_iree(program):
    # The host function after MaterializeEncodings, from IREE's own dump 09, is
    # IREE 3.13's dump 13/14 up to SSA names. Only the workload of the dispatches
    # of outlined dispatch regions differs: IREE deduplicates and reorders it.
    ours = run_opt([str(_dump(program, "09")), "-p", STREAM_313])
    assert ours.returncode == 0, ours.stderr[-3000:]
    theirs = next(p for p in _dump(program, "09").parent.glob("1[34]_MaterializeEncodingsPass.mlir"))
    mine, iree = _host_function(ours.stdout), _host_function(theirs.read_text())
    assert len(mine) == len(iree)
    workload_lines = 0
    for line, expected in zip(mine, iree):
        if re.search(r"stream\.async\.dispatch .*_dispatch_\d+::", line):
            workload_lines += 1
            assert line.split("[", 1)[0] == expected.split("[", 1)[0]
            continue
        assert line == expected
    assert workload_lines >= 1


@pytest.mark.parametrize("program", [*RUNNABLE, "const-weight-matmul"])
def test_iree313_stream_dumps_compile_to_the_end(program):
    # IREE 3.13's IR after SpecializeEncodings (`stream.async.cast` at the
    # boundary, `stream.async.clone` of the hoisted weight in the initializer)
    # goes through mini-iree's later passes, keeping its results.
    source = _dump(program, "10")
    args = [str(source), "-p", "iree-stream-encode-host-tensors{era=3.13},iree-stream-encode-device-tensors,"
            "iree-stream-materialize-encodings,data-tiling-codegen"]
    if program in RUNNABLE:
        args.append("--verify-each-with-interpreter")
    result = run_opt(args)
    assert result.returncode == 0, result.stderr[-3000:]
    if program == "const-weight-matmul":
        assert result.stdout.count("stream.async.clone on(#hal.device.affinity<@__device_0>)") == 3
