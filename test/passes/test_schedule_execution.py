"""``iree-stream-schedule-execution`` keeps results and groups the walkthrough's three dispatches in one region."""

from __future__ import annotations

import pytest
from stream_scheduling_programs import verify_through, walkthrough_stream


@pytest.fixture(scope="module")
def matmul(tmp_path_factory):
    return walkthrough_stream(tmp_path_factory.mktemp("schedule"))


@pytest.mark.parametrize("size", [0, 1, 130])
def test_walkthrough_matmul_keeps_its_results(matmul, size):
    text = verify_through(matmul, "iree-stream-schedule-execution", size)
    host = text[text.index("util.func public @matmul_f32f32f32") :]
    # One region: both encodes and the matmul; only the matmul's result leaves it.
    assert host.count("stream.async.execute") == 1
    region = host[host.index("stream.async.execute") : host.index("} => !stream.timepoint")]
    assert region.count("stream.async.dispatch") == 3
    assert "-> !stream.resource<*>{" in region.splitlines()[0]
    assert host.count("stream.timepoint.await") == 1
    assert "stream.async.dispatch" not in host.replace(region, "")
