"""``iree-stream-annotate-dispatch-arguments`` keeps results and annotates the walkthrough's matmul as IREE 3.13."""

from __future__ import annotations

import pytest
from stream_scheduling_programs import verify_through, walkthrough_stream


@pytest.fixture(scope="module")
def matmul(tmp_path_factory):
    return walkthrough_stream(tmp_path_factory.mktemp("arguments"))


@pytest.mark.parametrize("size", [0, 130])
def test_walkthrough_matmul_keeps_its_results(matmul, size):
    text = verify_through(matmul, "iree-stream-annotate-dispatch-arguments", size)
    expected = (
        "func.func @matmul_f32f32f32_dispatch_0_matmul_DxDxD_f32(%arg0: !stream.binding {stream.alignment = 64 : index}, "
        "%arg1: !stream.binding {stream.alignment = 64 : index}, %arg2: index {stream.values = [0 : index]}, "
        "%arg3: index, %arg4: index {stream.values = [0 : index]}, %arg5: index, %arg6: index, %arg7: index, %arg8: index)"
    )
    assert expected in text
