"""``iree-stream-fuse-dispatch-bindings`` keeps results; the matmul reads its LHS and RHS from one binding."""

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
    return walkthrough_stream(tmp_path_factory.mktemp("fuse"))


@pytest.mark.parametrize("size", [0, 1, 130])
def test_walkthrough_matmul_keeps_its_results(matmul, size):
    text = verify_through(matmul, "iree-stream-fuse-dispatch-bindings", size)
    signature = re.search(r"func\.func @matmul_f32f32f32_dispatch_0_matmul_DxDxD_f32\(([^)]*)\)", text)
    assert signature is not None
    args = signature.group(1)
    # Two bindings, then the three offsets, then the four workload values (as IREE 3.13 prints it).
    assert args.count("!stream.binding") == 2 and args.count(": index") == 7
    dispatch = _body(text[text.index("stream.cmd.dispatch @matmul") :])
    assert len(re.findall(r"\b(ro|wo|rw) %", dispatch)) == 2
