"""From flow.dispatch.region to flow.executable + flow.dispatch, with devices (walkthrough dump 08 -> 09).

The walkthrough's example through ``data-tiling-dispatch-creation``, target
device assignment and the outlining passes must print dump 09 (SSA names
normalised; the walkthrough's ``iree.abi.stub``/``iree.reflection`` function
attributes are not emitted by our wrap-entry-points and are ignored). Every
program of Inputs/ must keep its results through the outlining passes.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import REPO, require_reference, run_opt

INPUTS = Path(__file__).parent / "Inputs"

DEVICES = "iree-hal-assign-target-devices{targetDevices=gfx942},iree-hal-materialize-target-devices"
OUTLINING = ",".join(
    [
        "iree-dispatch-creation-convert-dispatch-regions-to-workgroups",
        "iree-flow-capture-dynamic-dims",
        "canonicalize",
        "cse",
        "iree-flow-outline-dispatch-regions",
        "iree-flow-annotate-dispatches",
        "iree-flow-deduplicate-executables",
    ]
)

# A function with two identical dispatches: deduplication leaves one executable.
TWO_DISPATCHES = """
func.func @twice(%x: tensor<8x8xf32>, %w1: tensor<8x8xf32>, %y: tensor<8x8xf32>, %w2: tensor<8x8xf32>)
    -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<8x8xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = linalg.matmul ins(%x, %w1 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%1 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %3 = linalg.matmul ins(%y, %w2 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%1 : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %2, %3 : tensor<8x8xf32>, tensor<8x8xf32>
}
"""


def normalise(text: str) -> list[str]:
    """Lines without comments, indentation and ABI attributes; SSA names numbered by first appearance."""
    lines = []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("//"):
            continue
        lines.append(re.sub(r" attributes \{iree\.abi\.stub, iree\.reflection = \{.*?\}\}", "", stripped))
    names: dict[str, str] = {}
    joined = re.sub(r"%[A-Za-z0-9_$.\-]+", lambda m: names.setdefault(m.group(0), f"%v{len(names)}"), "\n".join(lines))
    return joined.splitlines()


def test_walkthrough_dump_09():
    reference = require_reference() / "seed-walkthrough" / "09-convert-to-stream.before.mlir"
    result = run_opt(
        [str(REPO / "examples" / "matmul.mlir"), "-p", f"data-tiling-dispatch-creation,{DEVICES},{OUTLINING}"]
    )
    assert result.returncode == 0, result.stderr
    assert normalise(result.stdout) == normalise(reference.read_text())


def test_devices_first_gives_the_same_module():
    """Devices assigned before or after dispatch creation: the same dump-09 module."""
    matmul = str(REPO / "examples" / "matmul.mlir")
    after = run_opt([matmul, "-p", f"data-tiling-dispatch-creation,{DEVICES},{OUTLINING}"])
    before = run_opt([matmul, "-p", f"{DEVICES},data-tiling-dispatch-creation,{OUTLINING}"])
    assert after.returncode == 0 and before.returncode == 0, after.stderr + before.stderr
    assert after.stdout == before.stdout


@pytest.fixture(scope="module")
def dispatch_created(tmp_path_factory) -> dict[str, Path]:
    """Each program of Inputs/ (and the two-dispatch one) after data-tiling-dispatch-creation."""
    out = tmp_path_factory.mktemp("dispatch_created")
    sources = {p.stem: p for p in sorted(INPUTS.glob("*.mlir"))}
    two = out / "two_dispatches_source.mlir"
    two.write_text(TWO_DISPATCHES)
    sources["two_dispatches"] = two
    forms = {}
    for name, path in sources.items():
        result = run_opt([str(path), "-p", "data-tiling-dispatch-creation"])
        assert result.returncode == 0, result.stderr
        forms[name] = out / f"{name}.mlir"
        forms[name].write_text(result.stdout)
    return forms


PROGRAMS = sorted(p.stem for p in INPUTS.glob("*.mlir")) + ["two_dispatches"]


@pytest.mark.parametrize("size", [0, 1, 7])
@pytest.mark.parametrize("name", PROGRAMS)
def test_outlining_keeps_results(dispatch_created, name: str, size: int):
    result = run_opt(
        [
            str(dispatch_created[name]),
            "-p",
            f"{DEVICES},{OUTLINING}",
            "--verify-each-with-interpreter",
            f"--interpreter-dynamic-size={size}",
        ]
    )
    assert result.returncode == 0, result.stderr
    assert "flow.dispatch.region" not in result.stdout
    assert "flow.dispatch @" in result.stdout


def test_const_weight_initializer_and_global(dispatch_created):
    result = run_opt([str(dispatch_created["const_weight"]), "-p", f"{DEVICES},{OUTLINING}"])
    assert result.returncode == 0, result.stderr
    # The encoded weight is still computed once, in the initializer, and read in the dispatch.
    assert "util.initializer" in result.stdout and "flow.tensor.encode" in result.stdout
    assert re.search(r"flow\.dispatch @matmul_const_weight_dispatch_0::@\w+\[%\w+\]\(.*%__hoisted", result.stdout)


def test_identical_dispatches_share_one_executable(dispatch_created):
    result = run_opt([str(dispatch_created["two_dispatches"]), "-p", f"{DEVICES},{OUTLINING}"])
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("flow.executable private") == 1
    assert result.stdout.count("flow.dispatch @twice_dispatch_0::@twice_dispatch_0_matmul_8x8x8_f32") == 2
