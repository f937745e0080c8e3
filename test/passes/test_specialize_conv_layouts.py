"""The CPU resolver's convolution layouts, as specialize-encodings serializes them, pack what they hold.

`iree-stream-specialize-encodings` writes the resolver's layout of each conv operand
(`specialize_encodings_conv.mlir` pins them); an encode dispatch storing into a binding
of that layout is then materialized as a `linalg.pack` with the layout's tile. Run
before (the binding holds the logical tensor) and after the materialization, the packed
output must be the logical one packed by the layout algebra.
"""

from __future__ import annotations

import numpy as np
import pytest

from mini_iree.compiler.era import era_profile
from mini_iree.compiler.interpreter import make_context, parse_module_text
from mini_iree.compiler.interpreter.hal_ops import run_dispatch
from mini_iree.compiler.layout.iree_encoding import encoding_relayout
from mini_iree.compiler.resolvers.registry import resolver_for, resolver_of
from mini_iree.dialects import hal
from mini_iree.passes.materialize_device_encoding import MaterializeDeviceEncodingPass

_MAPS = (
    "user_indexing_maps = [affine_map<(n, oh, ow, oc, fh, fw, ic) -> (n, oh + fh, ow + fw, ic)>, "
    "affine_map<(n, oh, ow, oc, fh, fw, ic) -> (fh, fw, ic, oc)>, "
    "affine_map<(n, oh, ow, oc, fh, fw, ic) -> (n, oh, ow, oc)>], iteration_sizes = [2, 10, 12, 24, 3, 3, 20]"
)
_TARGETS = {
    "avx512": '#hal.executable.target<"llvm-cpu", "xyz", {iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, '
    'target_triple = "x86_64-xyz-xyz", cpu_features = "+avx512f"}>',
    "neon": '#hal.executable.target<"llvm-cpu", "xyz", {iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, '
    'target_triple = "aarch64-xyz-xyz", cpu_features = "+neon"}>',
}
_OPERANDS = [(0, "2x12x14x20"), (1, "3x3x20x24"), (2, "2x10x12x24")]


def _encoded_type(index: int, shape: str) -> str:
    encoding = f"#iree_encoding.encoding<operand_index = {index} : index, op_type = conv, element_types = [f32, f32, f32], {_MAPS}>"
    return f"tensor<{shape}xf32, {encoding}>"


def _serialized_type(target_text: str, index: int, shape: str) -> tuple[str, object]:
    """The tensor type with the layout the target's resolver gives it, and that layout."""
    module = parse_module_text(f"func.func private @f(%arg0: {_encoded_type(index, shape)}) attributes {{hal.executable.target = {target_text}}}")
    func_op = next(iter(module.body.block.ops))
    target = func_op.attributes["hal.executable.target"]
    assert isinstance(target, hal.ExecutableTargetAttr)
    ty = func_op.function_type.inputs.data[0]
    layout = resolver_of(target).get_layout(ty, era_profile("3.13"))
    return f"tensor<{shape}xf32, #iree_encoding.layout<[{layout}]>>", layout


def _encode_dispatch(target_text: str, plain: str, serialized: str) -> str:
    return f"""
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
func.func @encode() attributes {{hal.executable.target = {target_text}}} {{
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:{plain}>
  %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<writeonly:{serialized}>
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0, 0, 0], sizes = [{", ".join(plain[7:-5].split("x"))}], strides = [1, 1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:{plain}> -> {plain}
  %3 = iree_encoding.set_encoding %2 : {plain} -> {serialized}
  iree_tensor_ext.dispatch.tensor.store %3, %1, offsets = [0, 0, 0, 0], sizes = [{", ".join(plain[7:-5].split("x"))}], strides = [1, 1, 1, 1] : {serialized} -> !iree_tensor_ext.dispatch.tensor<writeonly:{serialized}>
  return
}}
"""


@pytest.mark.parametrize("index,shape", _OPERANDS)
@pytest.mark.parametrize("target", sorted(_TARGETS))
def test_serialized_conv_layout_packs_its_tensor(target: str, index: int, shape: str) -> None:
    target_text = _TARGETS[target]
    serialized, layout = _serialized_type(target_text, index, shape)
    info = resolver_for(layout).serialized_info(layout)
    assert info is not None and not info.is_identity()
    assert info.inner_tile_sizes[0] == (16 if target == "avx512" else 8)
    text = _encode_dispatch(target_text, f"tensor<{shape}xf32>", serialized)
    before = parse_module_text(text)
    after = parse_module_text(text)
    MaterializeDeviceEncodingPass().apply(make_context(), after)
    assert any(op.name == "linalg.pack" for op in after.walk())
    dims = tuple(int(d) for d in shape.split("x"))
    logical = np.random.default_rng(index).integers(-3, 4, size=dims).astype(np.float32)
    relayout = encoding_relayout(info, dims)
    out_before = run_dispatch(before, "encode", [logical, np.zeros(dims, np.float32)])
    packed_zero = np.zeros(relayout.pack(logical).shape, np.float32)
    out_after = run_dispatch(after, "encode", [logical, packed_zero])
    expected = out_before[1].view(np.float32).reshape(dims)
    np.testing.assert_array_equal(expected, logical)
    got = out_after[1].view(np.float32).reshape(packed_zero.shape)
    np.testing.assert_array_equal(got, relayout.pack(logical))
