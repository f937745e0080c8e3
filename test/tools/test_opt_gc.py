"""``mini-iree-opt`` leaves the cyclic garbage collector out of its work, collects
between phases only once many objects piled up, and restores it afterwards."""

from __future__ import annotations

import gc

from conftest import run_opt

from mini_iree.compiler.tools import opt_main
from mini_iree.compiler.tools.opt_main import _collect_if_grown, _fewer_collections


def test_no_automatic_collections_inside_and_restored_after():
    assert gc.isenabled()
    with _fewer_collections():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_left_disabled_when_it_was_disabled():
    gc.disable()
    try:
        with _fewer_collections():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_young_objects_collected_once_past_the_limit(monkeypatch):
    monkeypatch.setattr(opt_main, "_YOUNG_OBJECTS_LIMIT", 1000)
    with _fewer_collections():
        gc.collect(1)
        keep = [[i] for i in range(5000)]
        assert gc.get_count()[0] > 1000
        _collect_if_grown()
        assert gc.get_count()[0] < 1000
    del keep


def test_collector_restored_after_a_run(tmp_path):
    path = tmp_path / "f.mlir"
    path.write_text("func.func @f(%a: f32) -> f32 {\n  return %a : f32\n}\n")
    result = run_opt([str(path), "-p", "canonicalize"])
    assert result.returncode == 0, result.stderr
    assert gc.isenabled()


def test_collector_restored_after_an_error(tmp_path):
    path = tmp_path / "bad.mlir"
    path.write_text("func.func @f( {\n")
    result = run_opt([str(path)])
    assert result.returncode == 1
    assert gc.isenabled()
