"""``mini-iree-opt`` runs the cyclic garbage collector less often while it works, and only then."""

from __future__ import annotations

import gc

from conftest import run_opt

from mini_iree.compiler.tools.opt_main import _fewer_collections


def test_fewer_collections_inside_and_restored_after():
    before = gc.get_threshold()
    with _fewer_collections():
        inside = gc.get_threshold()
    assert inside[0] > before[0]
    assert gc.get_threshold() == before


def test_thresholds_restored_after_a_run(tmp_path):
    path = tmp_path / "f.mlir"
    path.write_text("func.func @f(%a: f32) -> f32 {\n  return %a : f32\n}\n")
    before = gc.get_threshold()
    result = run_opt([str(path), "-p", "canonicalize"])
    assert result.returncode == 0, result.stderr
    assert gc.get_threshold() == before


def test_thresholds_restored_after_an_error(tmp_path):
    path = tmp_path / "bad.mlir"
    path.write_text("func.func @f( {\n")
    before = gc.get_threshold()
    result = run_opt([str(path)])
    assert result.returncode == 1
    assert gc.get_threshold() == before
