"""Named linalg ops copy their hidden body from one built per signature.

A copy must be what the constructors build (same ops, types, properties, block
argument names), belong to its op alone, and the op must be what the IRDL
constructor makes (``operandSegmentSizes`` included).
"""

from __future__ import annotations

import io

from xdsl.dialects import test as xdsl_test
from xdsl.dialects.builtin import DenseArrayBase, IntegerType, TensorType, f16, f32, i8, i32
from xdsl.ir import Region

from mini_iree.compiler.ir.parsing import parse_mlir
from mini_iree.compiler.ir.printer import MLIRPrinter
from mini_iree.compiler.tools.opt_main import MiniIREEOptMain
from mini_iree.dialects import linalg


def _generic_text(region: Region) -> str:
    stream = io.StringIO()
    MLIRPrinter(stream=stream, print_generic_format=True).print_region(region)
    return stream.getvalue()


def _values(*types):
    return [xdsl_test.TestOp(result_types=[t]).res[0] for t in types]


def test_matmul_bodies_are_fresh_copies_of_the_built_one():
    for lhs, rhs, acc in [(f32, f32, f32), (i8, i8, i32), (f16, f16, f32), (IntegerType(1),) * 3]:
        types = [TensorType(lhs, [4, 8]), TensorType(rhs, [8, 16]), TensorType(acc, [4, 16])]
        built = linalg.build_multiply_accumulate_region(types)
        a, b, c = _values(*types)
        first = linalg.MatmulOp([a, b], [c])
        second = linalg.MatmulOp([a, b], [c])
        assert _generic_text(first.body) == _generic_text(second.body) == _generic_text(built)
        assert [arg.name_hint for arg in first.body.block.args] == ["in", "in", "out"]
        # Nothing is shared between two ops' bodies.
        assert first.body.block is not second.body.block
        assert not set(map(id, first.body.block.ops)) & set(map(id, second.body.block.ops))
        first.verify()


def test_fill_body_is_xdsls():
    value, out = _values(f32, TensorType(f32, [4, 8]))
    fill = linalg.FillOp([value], [out])
    from xdsl.dialects.linalg.ops import FillOp as XdslFillOp

    reference = XdslFillOp.get_hidden_region([value], [out])
    assert _generic_text(fill.body) == _generic_text(reference)
    assert isinstance(fill, XdslFillOp)
    fill.verify()


def test_parsed_named_ops_are_what_the_constructor_builds():
    ctx = MiniIREEOptMain([]).ctx
    text = """
    func.func @f(%a: tensor<?x?xi8>, %b: tensor<?x?xi8>, %c: tensor<?x?xi32>) -> tensor<?x?xi32> {
      %zero = arith.constant 0 : i32
      %f = linalg.fill ins(%zero : i32) outs(%c : tensor<?x?xi32>) -> tensor<?x?xi32>
      %m = linalg.matmul ins(%a, %b : tensor<?x?xi8>, tensor<?x?xi8>) outs(%f : tensor<?x?xi32>) -> tensor<?x?xi32>
      return %m : tensor<?x?xi32>
    }
    """
    module = parse_mlir(ctx, text, "t.mlir")
    module.verify()
    ops = list(next(iter(module.ops)).body.block.ops)
    fill, matmul = ops[1], ops[2]
    for op, built in [
        (fill, linalg.FillOp(fill.inputs, fill.outputs, [r.type for r in fill.results])),
        (matmul, linalg.MatmulOp(matmul.inputs, matmul.outputs)),
    ]:
        assert type(op) is type(built)
        assert op.properties == built.properties
        assert list(op.properties) == list(built.properties)
        assert op.attributes == built.attributes
        assert [r.type for r in op.results] == [r.type for r in built.results]
        assert _generic_text(op.body) == _generic_text(built.body)
    assert matmul.properties["operandSegmentSizes"] == DenseArrayBase.from_list(i32, [2, 1])


def test_fill_build_with_other_arguments_takes_the_irdl_constructor():
    value, out = _values(f32, TensorType(f32, [4]))
    # Operations rather than values: the IRDL constructor takes their results.
    fill = linalg.FillOp.build(
        operands=[[value.owner], [out.owner]],
        result_types=[[out.type]],
        regions=[linalg.FillOp.get_hidden_region([value], [out])],
    )
    assert list(fill.operands) == [value, out]
    fill.verify()


def test_fill_prints_as_xdsls_named_op_printer():
    from xdsl.dialects.builtin import IntegerAttr, StringAttr
    from xdsl.dialects.linalg.abstract_ops import NamedOperation

    value, out, out2 = _values(f32, TensorType(f32, [4]), TensorType(f32, [2]))
    fills = [
        linalg.FillOp([value], [out]),
        linalg.FillOp([value], [out], attributes={"b": StringAttr("x"), "a": IntegerAttr(1, i32)}),
        linalg.FillOp.build(
            operands=[[value], [out, out2]],
            result_types=[[out.type, out2.type]],
            regions=[linalg.FillOp.get_hidden_region([value], [out, out2])],
        ),
        linalg.FillOp.build(
            operands=[[value], [out]], result_types=[[]], regions=[linalg.FillOp.get_hidden_region([value], [out])]
        ),
    ]
    for fill in fills:
        ours, theirs = io.StringIO(), io.StringIO()
        fill.print(MLIRPrinter(stream=ours))
        NamedOperation.print(fill, MLIRPrinter(stream=theirs))
        assert ours.getvalue() == theirs.getvalue()
        assert ours.getvalue().startswith((" ins(", " {"))
