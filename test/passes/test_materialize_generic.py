"""All-parallel generics on encoded tensors keep what they compute when materialized.

Every case of ``materialize_device_encoding_generic.mlir`` (several results,
outputs written transposed, interchanged onto a swizzled gfx942 layout) is run
with ``hal_ops.run_dispatch`` before and after the pass: before, an encoded
binding holds the logical tensor; after, the tensor packed by the layout
algebra (numpy). Every output binding, unpacked, must equal the logical
output, and, packed, its packing, padding included (unless the body reads
`linalg.index`, which makes the padding hold values of their own).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mini_iree.compiler.interpreter import make_context, parse_module_text, run
from mini_iree.compiler.interpreter.core import numpy_dtype
from mini_iree.compiler.interpreter.hal_ops import run_dispatch
from mini_iree.compiler.layout.iree_encoding import encoding_relayout
from mini_iree.compiler.materialize_encoding.layouts import LayoutSource, find_target
from mini_iree.dialects import hal
from mini_iree.passes.materialize_device_encoding import MaterializeDeviceEncodingPass

LIT_FILE = Path(__file__).with_name("materialize_device_encoding_generic.mlir")
ERA = "walkthrough"


def _cases() -> list[str]:
    """The dispatch functions (their data in bindings)."""
    return [c for c in LIT_FILE.read_text().split("// -----") if "hal.interface.binding.subspan" in c]


def _case_name(case: str) -> str:
    return case.split("func.func @", 1)[1].split("(", 1)[0]


@pytest.mark.parametrize("case", _cases(), ids=_case_name)
def test_generic_keeps_results(case: str) -> None:
    rng = np.random.default_rng(0)
    before = parse_module_text(case)
    after = parse_module_text(case)
    MaterializeDeviceEncodingPass(gpu_era=ERA).apply(make_context(), after)
    func_op = next(op for op in before.walk() if op.name == "func.func")
    subspans = [op for op in func_op.walk() if isinstance(op, hal.InterfaceBindingSubspanOp)]
    layouts = LayoutSource(find_target(func_op), ERA)

    logical_in, packed_in, relayouts = [], [], []
    for subspan in subspans:
        ty = subspan.result.type.bound_type
        shape = tuple(ty.get_shape())
        info = layouts.info(subspan, ty)
        relayout = None if info is None or info.is_identity() else encoding_relayout(info, shape)
        dtype = numpy_dtype(ty.get_element_type())
        if subspan.result.type.can_read():
            array = rng.integers(-9, 10, size=shape).astype(dtype)
        else:
            array = np.zeros(shape, dtype)
        relayouts.append(relayout)
        logical_in.append(array)
        packed_in.append(array if relayout is None else relayout.pack(array))

    name = func_op.sym_name.data
    out_before = run_dispatch(before, name, logical_in, [])
    out_after = run_dispatch(after, name, packed_in, [])
    checked = 0
    for index, subspan in enumerate(subspans):
        if subspan.result.type.can_read():
            continue
        expected = out_before[index].view(logical_in[index].dtype).reshape(logical_in[index].shape)
        got = out_after[index].view(packed_in[index].dtype).reshape(packed_in[index].shape)
        relayout = relayouts[index]
        assert relayout is not None, "every output of these cases is packed"
        np.testing.assert_array_equal(relayout.unpack(got), expected)
        if "linalg.index" not in case:
            # The padding too (a body reading its indices computes something there as well).
            np.testing.assert_array_equal(got, relayout.pack(expected))
        checked += 1
    assert checked >= 1
    # The logical results are what the op computes (not zeros left by a skipped store).
    assert any(np.any(out_before[i]) for i, s in enumerate(subspans) if not s.result.type.can_read())


def test_index_on_swizzled_tiles() -> None:
    """`@swizzled_index` on a packed, swizzled argument gives the packing of what it computes."""
    case = next(c for c in LIT_FILE.read_text().split("// -----") if "@swizzled_index" in c)
    before = parse_module_text(case)
    after = parse_module_text(case)
    MaterializeDeviceEncodingPass(gpu_era=ERA).apply(make_context(), after)
    func_op = next(op for op in before.walk() if op.name == "func.func")
    ty = func_op.regions[0].blocks[0].args[0].type
    info = LayoutSource(find_target(func_op), ERA).info(func_op, ty)
    assert info is not None and info.swizzle is not None
    relayout = encoding_relayout(info, tuple(ty.get_shape()))
    logical = np.random.default_rng(0).integers(-9, 10, size=ty.get_shape()).astype(np.int32)
    (expected,) = run(before, "swizzled_index", logical)
    (got,) = run(after, "swizzled_index", relayout.pack(logical))
    i, j = np.indices(logical.shape)
    np.testing.assert_array_equal(expected, logical + 100 * i + j)
    np.testing.assert_array_equal(got, relayout.pack(expected))
