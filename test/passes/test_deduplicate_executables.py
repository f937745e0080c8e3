"""deduplicate-executables merges executables identical up to their names; dispatch sites still compute the same."""

from __future__ import annotations

from pathlib import Path

from conftest import run_opt

PASS = "iree-flow-deduplicate-executables"
LIT = Path(__file__).parent / "deduplicate_executables.mlir"


def test_lit_cases_keep_results():
    result = run_opt([str(LIT), "-p", PASS, "--verify-each-with-interpreter"])
    assert result.returncode == 0, result.stderr
    assert "kept the results of 1 function" in result.stderr
    assert result.stdout.count("flow.executable private") == 2


def test_different_bodies_stay_apart():
    # Running it twice changes nothing more: what is left is all different.
    once = run_opt([str(LIT), "-p", PASS])
    twice = run_opt([str(LIT), "-p", f"{PASS},{PASS}"])
    assert once.returncode == 0 and twice.returncode == 0
    assert once.stdout == twice.stdout
