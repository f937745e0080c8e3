"""``iree-stream-layout-slices`` lays slices out as the interpreter's ``stream.resource.pack`` does."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import REPO, run_opt
from stream_scheduling_programs import verify_through, walkthrough_stream

from mini_iree.compiler.interpreter import parse_module_text, run

LIT = REPO / "test" / "passes" / "layout_slices.mlir"


@pytest.fixture(scope="module")
def matmul(tmp_path_factory):
    return walkthrough_stream(tmp_path_factory.mktemp("slices"))


@pytest.mark.parametrize("size", [0, 130])
def test_walkthrough_matmul_keeps_its_results(matmul, size):
    text = verify_through(matmul, "iree-stream-layout-slices", size)
    assert "stream.resource.pack" not in text
    # The RHS sits right after the LHS: its offset is the LHS's byte size, a multiple of 64.
    assert "arith.divui" not in text


@pytest.mark.parametrize("case", ["static_then_dynamic", "shared_bin"])
@pytest.mark.parametrize("m,n", [(0, 0), (1, 3), (5, 100)])
def test_offsets_equal_the_interpreters_packing(tmp_path, case, m, n):
    """The lit cases' offsets, before (interpreted pack) and after the pass (arithmetic), on the same sizes."""
    chunks = LIT.read_text().split("// -----")
    chunk = next(c for c in chunks if f"@{case}(" in c)
    text = chunk.replace("util.return %2#0 : index", "util.return %2#0, %2#1, %2#2 : index, index, index")
    text = text.replace(") -> index {", ") -> (index, index, index) {", 1)
    path = tmp_path / "pack.mlir"
    path.write_text(text)
    after = run_opt([str(path), "-p", "iree-stream-layout-slices"])
    assert after.returncode == 0, after.stderr
    args = (np.int64(m), np.int64(n))
    before_values = run(parse_module_text(text, "before"), case, *args)
    after_values = run(parse_module_text(after.stdout, "after"), case, *args)
    assert [int(v) for v in before_values] == [int(v) for v in after_values]
