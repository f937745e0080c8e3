"""Layout transfers of iree-codegen-materialize-device-encoding keep what dispatch functions compute.

Each dispatch function of ``materialize_device_encoding_relayout.mlir`` loads or stores a
tensor whose layout differs from its binding's; it runs with ``hal_ops.run_dispatch`` before
and after the pass (an encoded binding holding the logical tensor before, the packed one
after), and the output, unpacked, must equal the logical output.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_materialize_device_encoding import _case_name, _check_dispatch

LIT_FILE = Path(__file__).with_name("materialize_device_encoding_relayout.mlir")


def _cases() -> list[str]:
    return [c for c in LIT_FILE.read_text().split("// -----") if "hal.interface.binding.subspan" in c and "() attr" in c]


def test_every_transfer_case_runs() -> None:
    assert [_case_name(c) for c in _cases()] == [
        "load_plain_as_encoded",
        "store_encoded_as_plain",
        "load_and_store_with_layout_transfers",
    ]


@pytest.mark.parametrize("sizes", [(1, 1), (13, 7), (37, 130)])
@pytest.mark.parametrize("case", _cases(), ids=_case_name)
def test_dispatch_function_keeps_results(case: str, sizes: tuple[int, ...]) -> None:
    _check_dispatch(case, sizes, "walkthrough")
