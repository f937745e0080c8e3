"""deduplicate-executables compares executables by structure, as IREE does; dispatch sites still compute the same."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import REPO, run_opt

PASS = "iree-flow-deduplicate-executables"
LIT = Path(__file__).parent / "deduplicate_executables_structure.mlir"


def _matmul_chain(n: int) -> str:
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        from bench_compile import matmul_chain
    finally:
        sys.path.pop(0)
    return matmul_chain(n)


def test_lit_cases_keep_results():
    # Every chunk's function computes the same before and after the merge.
    result = run_opt([str(LIT), "-p", PASS, "--split-input-file", "--verify-each-with-interpreter"])
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("kept the results of 1 function") == 3


def test_second_run_changes_nothing():
    once = run_opt([str(LIT), "-p", PASS, "--split-input-file"])
    twice = run_opt([str(LIT), "-p", f"{PASS},{PASS}", "--split-input-file"])
    assert once.returncode == 0 and twice.returncode == 0
    assert once.stdout == twice.stdout


@pytest.mark.parametrize("target", ["gfx942", "x86_64:+avx512f"])
def test_matmul_chain_keeps_one_executable_per_distinct_dispatch(tmp_path, target):
    # 12 chained matmuls: the first reads the function's argument, the other 11 the
    # previous result, and all 11 are the same code under other SSA names. What is
    # left: 2 matmul executables and the 2 encoding executables (LHS and RHS).
    # IREE 3.13 ends with 5 (also for 20 and 400 matmuls): its dispatch formation
    # fuses the next matmul's LHS set_encoding into each matmul dispatch, so its
    # last matmul, with no next one, is a third kind of dispatch.
    source = tmp_path / "chain.mlir"
    source.write_text(_matmul_chain(12))
    result = run_opt([str(source), "-p", f"data-tiling{{target={target}}}", "--verify-each-with-interpreter"])
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.count("\n  hal.executable private @") == 4
