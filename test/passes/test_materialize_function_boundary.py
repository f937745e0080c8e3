"""Materialized function boundaries keep what the function computes.

The swizzled, dynamically shaped argument of ``@unset_swizzled_argument``
(``materialize_device_encoding_function_boundary.mlir``) is unset before the
pass from the logical tensor and after it from that tensor packed and swizzled
by the layout algebra (numpy): both give the logical tensor back.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mini_iree.compiler.interpreter import make_context, parse_module_text, run
from mini_iree.compiler.layout.iree_encoding import encoding_relayout
from mini_iree.compiler.materialize_encoding.layouts import LayoutSource, find_target
from mini_iree.passes.materialize_device_encoding import MaterializeDeviceEncodingPass

LIT_FILE = Path(__file__).with_name("materialize_device_encoding_function_boundary.mlir")
ERA = "walkthrough"


@pytest.mark.parametrize("shape", [(1, 1), (37, 130), (128, 129)])
def test_unset_of_swizzled_argument_gives_the_tensor_back(shape: tuple[int, int]) -> None:
    case = next(c for c in LIT_FILE.read_text().split("// -----") if "@unset_swizzled_argument" in c)
    before = parse_module_text(case)
    after = parse_module_text(case)
    MaterializeDeviceEncodingPass(gpu_era=ERA).apply(make_context(), after)
    func_op = next(op for op in before.walk() if op.name == "func.func")
    argument = func_op.regions[0].blocks[0].args[0]
    info = LayoutSource(find_target(func_op), ERA).info(func_op, argument.type)
    assert info is not None and info.swizzle is not None
    logical = np.random.default_rng(0).integers(-9, 10, size=shape).astype(np.float32)
    packed = encoding_relayout(info, shape).pack(logical)
    m, n = shape
    (expected,) = run(before, "unset_swizzled_argument", logical, m, n)
    (got,) = run(after, "unset_swizzled_argument", packed, m, n)
    np.testing.assert_array_equal(expected, logical)
    np.testing.assert_array_equal(got, logical)


def test_materialized_arguments_keep_their_locations() -> None:
    # As MLIR's signature conversion: a packed argument is the same argument, at the same place.
    case = next(c for c in LIT_FILE.read_text().split("// -----") if "@unset_swizzled_argument" in c)
    module = parse_module_text(case)
    func_op = next(op for op in module.walk() if op.name == "func.func")
    before = [arg.location for arg in func_op.regions[0].blocks[0].args]
    MaterializeDeviceEncodingPass(gpu_era=ERA).apply(make_context(), module)
    after = [arg.location for arg in func_op.regions[0].blocks[0].args]
    assert after == before
    assert all(type(loc).__name__ == "FileLineColLoc" for loc in after)
