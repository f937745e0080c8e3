"""``iree-stream-schedule-allocation`` keeps results: the encode dispatches write slices of one transient
allocation, the matmul reads both from it and writes its own result allocation."""

from __future__ import annotations

import re

import pytest
from stream_scheduling_programs import verify_through, walkthrough_stream


def _body(text: str) -> str:
    """A ``stream.cmd.dispatch`` up to its closing brace (its own line)."""
    lines = text.splitlines()
    end = next(i for i, line in enumerate(lines) if line.strip() == "}")
    return "\n".join(lines[:end])


@pytest.fixture(scope="module")
def matmul(tmp_path_factory):
    return walkthrough_stream(tmp_path_factory.mktemp("allocation"))


@pytest.mark.parametrize("size", [0, 1, 130])
def test_walkthrough_matmul_keeps_its_results(matmul, size):
    text = verify_through(matmul, "iree-stream-schedule-allocation", size)
    assert "stream.async.execute" not in text and "stream.async.dispatch" not in text
    assert text.count("stream.cmd.dispatch") == 3
    assert text.count("stream.resource.alloca") == 2 and text.count("stream.resource.dealloca") == 1
    pack = re.search(r"(%\w+):3 = stream\.resource\.pack", text)
    assert pack is not None
    packed = pack.group(1)
    # The matmul reads the encoded LHS and RHS at the two packed offsets of one resource.
    matmul_dispatch = text[text.index("stream.cmd.dispatch @matmul") :]
    reads = re.findall(r"ro (%\w+)\[(%\w+#\d) for", _body(matmul_dispatch))
    assert [offset for _, offset in reads] == [f"{packed}#1", f"{packed}#2"]
    assert reads[0][0] == reads[1][0]


def test_regions_of_other_ops_are_refused(tmp_path):
    from conftest import run_opt

    path = tmp_path / "clone.mlir"
    path.write_text(
        """
util.func public @main(%arg0: !stream.resource<*>, %arg1: index) -> !stream.resource<*> {
  %results, %result_timepoint = stream.async.execute with(%arg0 as %arg2: !stream.resource<*>{%arg1}) -> !stream.resource<*>{%arg1} {
    %0 = stream.async.clone %arg2 : !stream.resource<*>{%arg1} -> !stream.resource<*>{%arg1}
    stream.yield %0 : !stream.resource<*>{%arg1}
  } => !stream.timepoint
  %0 = stream.timepoint.await %result_timepoint => %results : !stream.resource<*>{%arg1}
  util.return %0 : !stream.resource<*>
}
"""
    )
    result = run_opt([str(path), "-p", "iree-stream-schedule-allocation"])
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "clone.mlir:4:10: error: 'stream.async.clone' op cannot be scheduled" in result.stderr
