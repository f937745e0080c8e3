"""Layouts whose tiles the runtime chooses (VMVX with microkernels) keep what the program computes.

The resolver leaves every inner tile dynamic; iree-codegen-materialize-device-encoding
asks for them with `iree_codegen.query_tile_sizes`, which the interpreter answers as
the VMVX runtime's `query_tile_sizes.2d` microkernel does (M0 = N0 = 8, K0 = 4, per
operand role). Checked:

* the answers themselves, for an encoding and for a serialized VMVX layout (whose
  `encoding_attr` the query reads);
* a whole matmul function (set_encoding, fill, matmul, unset_encoding) run before and
  after the pass (``--verify-each-with-interpreter``) at several sizes;
* the pack and unpack dispatches of ``materialize_device_encoding_dt_targets.mlir``
  run before and after the pass: the packed binding holds the logical tensor packed
  with the runtime's tile.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import run_opt

from mini_iree.compiler.interpreter import make_context, parse_module_text
from mini_iree.compiler.interpreter.core import numpy_dtype
from mini_iree.compiler.interpreter.hal_ops import run_dispatch
from mini_iree.compiler.layout.iree_encoding import encoding_relayout
from mini_iree.compiler.resolvers.cpu import vmvx_runtime_encoding_info
from mini_iree.dialects import hal
from mini_iree.passes.materialize_device_encoding import MaterializeDeviceEncodingPass

PASS = "iree-codegen-materialize-device-encoding"
LIT_FILE = Path(__file__).with_name("materialize_device_encoding_dt_targets.mlir")

_MAPS = (
    "user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, "
    "affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]"
)


def _encoding(index: int) -> str:
    return f"#iree_encoding.encoding<operand_index = {index}, op_type = matmul, element_types = [i8, i8, i32], {_MAPS}>"


def _query_module(tensor_type: str) -> str:
    return f"""
func.func @main() -> (index, index) {{
  %0:2 = iree_codegen.query_tile_sizes {tensor_type} -> index, index
  return %0#0, %0#1 : index, index
}}
"""


def _run(text: str) -> list:
    from mini_iree.compiler.interpreter import find_function, make_interpreter

    module = parse_module_text(text)
    return list(make_interpreter(module).call_op(find_function(module, "main"), ()))


@pytest.mark.parametrize("index,tiles", [(0, [8, 4]), (1, [8, 4]), (2, [8, 8])])
def test_query_answers_the_runtime_tile_of_each_operand(index: int, tiles: list[int]) -> None:
    """LHS: M0 x K0, RHS: N0 x K0 (its tiles are transposed), result: M0 x N0."""
    assert _run(_query_module(f"tensor<?x?xi8, {_encoding(index)}>")) == tiles


def test_query_of_a_serialized_layout_reads_its_encoding() -> None:
    layout = (
        f"#iree_encoding.layout<[#iree_cpu.vmvx_encoding_resolver<configuration = {{encoding_attr = {_encoding(1)}, "
        "encoding_info = {innerDimsPos = [1, 0], innerTileSizes = [-9223372036854775808, -9223372036854775808], "
        "outerDimsPerm = [1, 0]}}>]>"
    )
    assert _run(_query_module(f"tensor<?x?xi8, {layout}>")) == [8, 4]


def test_query_without_a_contraction_encoding_fails() -> None:
    with pytest.raises(Exception, match="the runtime has no tile sizes"):
        _run(_query_module("tensor<?x?xi8>"))


_MATMUL = """
#target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb", {iree.encoding.resolver = #iree_cpu.vmvx_encoding_resolver<>, ukernels = "all"}>
#lhs = #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [f32, f32, f32], MAPS>
#rhs = #iree_encoding.encoding<operand_index = 1, op_type = matmul, element_types = [f32, f32, f32], MAPS>
#out = #iree_encoding.encoding<operand_index = 2, op_type = matmul, element_types = [f32, f32, f32], MAPS>
func.func @main(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> attributes {hal.executable.target = #target} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %k = tensor.dim %a, %c1 : tensor<?x?xf32>
  %n = tensor.dim %b, %c1 : tensor<?x?xf32>
  %0 = iree_encoding.set_encoding %a encoding_dims{%m, %n, %k} : tensor<?x?xf32> -> tensor<?x?xf32, #lhs>
  %1 = iree_encoding.set_encoding %b encoding_dims{%m, %n, %k} : tensor<?x?xf32> -> tensor<?x?xf32, #rhs>
  %2 = tensor.empty(%m, %n) : tensor<?x?xf32, #out>
  %3 = linalg.fill ins(%zero : f32) outs(%2 : tensor<?x?xf32, #out>) -> tensor<?x?xf32, #out>
  %4 = linalg.matmul ins(%0, %1 : tensor<?x?xf32, #lhs>, tensor<?x?xf32, #rhs>) outs(%3 : tensor<?x?xf32, #out>) -> tensor<?x?xf32, #out>
  %5 = iree_encoding.unset_encoding %4 encoding_dims{%m, %n, %k} : tensor<?x?xf32, #out> -> tensor<?x?xf32>{%m, %n}
  return %5 : tensor<?x?xf32>
}
""".replace("MAPS", _MAPS)


@pytest.mark.parametrize("size", [1, 9, 21])
def test_matmul_with_runtime_tiles_keeps_results(tmp_path: Path, size: int) -> None:
    path = tmp_path / "matmul.mlir"
    path.write_text(_MATMUL)
    result = run_opt(
        [str(path), "--iree-era=3.13", "-p", PASS, "--verify-each-with-interpreter", f"--interpreter-dynamic-size={size}"]
    )
    assert result.returncode == 0, result.stderr
    assert "kept the results" in result.stderr
    assert "iree_codegen.query_tile_sizes" in result.stdout and "tensor<?x?x?x?xf32>" in result.stdout


def _runtime_cases() -> list[str]:
    return [c for c in LIT_FILE.read_text().split("// -----") if "func.func @vmvx_ukernel" in c and "binding.subspan" in c]


def _case_name(case: str) -> str:
    return case.split("func.func @", 1)[1].split("(", 1)[0]


@pytest.mark.parametrize("sizes", [(16, 16), (1, 1), (13, 19)])
@pytest.mark.parametrize("case", _runtime_cases(), ids=_case_name)
def test_runtime_tiled_dispatch_keeps_results(case: str, sizes: tuple[int, int]) -> None:
    rng = np.random.default_rng(0)
    before = parse_module_text(case)
    after = parse_module_text(case)
    MaterializeDeviceEncodingPass().apply(make_context(), after)
    assert any(op.name == "iree_codegen.query_tile_sizes" for op in after.walk())
    func_op = next(op for op in before.walk() if op.name == "func.func")
    subspans = [op for op in func_op.walk() if isinstance(op, hal.InterfaceBindingSubspanOp)]
    constants = list(sizes)
    logical_in, packed_in, relayouts = [], [], []
    for subspan in subspans:
        ty = subspan.result.type.bound_type
        # A static binding keeps its shape; a dynamic one takes the push constants in order.
        dims = iter(constants)
        shape = tuple(next(dims) if s < 0 else s for s in ty.get_shape())
        encoding = ty.encoding
        relayout = None
        if encoding is not None and hasattr(encoding, "get_operand_index"):
            relayout = encoding_relayout(vmvx_runtime_encoding_info(encoding), shape)
        relayouts.append(relayout)
        dtype = numpy_dtype(ty.get_element_type())
        array = rng.integers(-3, 4, size=shape).astype(dtype) if subspan.result.type.can_read() else np.zeros(shape, dtype)
        logical_in.append(array)
        packed_in.append(array if relayout is None else relayout.pack(array))
    name = func_op.sym_name.data
    out_before = run_dispatch(before, name, logical_in, constants)
    out_after = run_dispatch(after, name, packed_in, constants)
    written = [i for i, s in enumerate(subspans) if not s.result.type.can_read()]
    assert len(written) == 1
    index = written[0]
    expected = out_before[index].view(logical_in[index].dtype).reshape(logical_in[index].shape)
    got = out_after[index].view(packed_in[index].dtype).reshape(packed_in[index].shape)
    if relayouts[index] is not None:
        np.testing.assert_array_equal(got, relayouts[index].pack(expected))
        got = relayouts[index].unpack(got)
    np.testing.assert_array_equal(got, expected)
