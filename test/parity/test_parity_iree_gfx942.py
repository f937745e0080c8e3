"""mini-iree's gfx942 materialization (IREE 3.13 era) decides as IREE 3.13 did on the recorded programs."""

from __future__ import annotations

import json

import pytest
from conftest import run_opt
from iree_materialization import EXPECTED, PRINTED_PASSES, PROGRAMS, facts

RECORDED = json.loads(EXPECTED.read_text())


def test_every_program_is_recorded():
    assert sorted(RECORDED) == sorted(p.name for p in PROGRAMS.glob("*.mlir"))
    assert all(RECORDED[name]["inner_tiled_kinds"] and RECORDED[name]["packs"] for name in RECORDED)


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_materialization_equals_iree_3_13(name: str):
    flags = [f"--mlir-print-ir-after={p}" for p in PRINTED_PASSES]
    result = run_opt([str(PROGRAMS / name), "-p", "data-tiling{target=gfx942 era=3.13}", *flags])
    assert result.returncode == 0, result.stderr
    assert facts(result.stderr) == RECORDED[name]
