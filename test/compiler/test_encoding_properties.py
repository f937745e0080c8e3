"""Contraction and encoding queries give the same answers when remembered.

``contraction_dims``, ``get_encoding_properties`` and
``tensor_type_with_encoding`` remember what they derive from immutable
attributes (maps, iterator types, operand and element types), by object
identity. Each case asks about ops sharing those objects and ops with equal
but distinct ones, and compares with the answer computed from scratch; the
parts that read the body (the multiply-accumulate check, unsigned element
types) must still follow the body of each op.
"""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import ModuleOp

from mini_iree.compiler.analysis import encoding_properties as ep
from mini_iree.compiler.ir.parsing import parse_mlir
from mini_iree.compiler.tools.opt_main import MiniIREEOptMain

PROGRAM = """\
func.func @f(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>,
             %i: tensor<4x8xi8>, %j: tensor<8x16xi8>, %k: tensor<4x16xi32>) -> () {
  %0 = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%i, %j : tensor<4x8xi8>, tensor<8x16xi8>) outs(%k : tensor<4x16xi32>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %xe = arith.extui %x : i8 to i32
    %ye = arith.extsi %y : i8 to i32
    %m = arith.muli %xe, %ye : i32
    %s = arith.addi %acc, %m : i32
    linalg.yield %s : i32
  } -> tensor<4x16xi32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%i, %j : tensor<4x8xi8>, tensor<8x16xi8>) outs(%k : tensor<4x16xi32>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %xe = arith.extsi %x : i8 to i32
    %ye = arith.extsi %y : i8 to i32
    %m = arith.muli %xe, %ye : i32
    %s = arith.addi %acc, %m : i32
    linalg.yield %s : i32
  } -> tensor<4x16xi32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%i, %j : tensor<4x8xi8>, tensor<8x16xi8>) outs(%k : tensor<4x16xi32>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %xe = arith.extsi %x : i8 to i32
    %ye = arith.extsi %y : i8 to i32
    %m = arith.addi %xe, %ye : i32
    %s = arith.addi %acc, %m : i32
    linalg.yield %s : i32
  } -> tensor<4x16xi32>
  return
}
"""


@pytest.fixture
def ops() -> list:
    main = MiniIREEOptMain(args=["-"])
    module = parse_mlir(main.ctx, PROGRAM.encode(), "input.mlir", 0)
    assert isinstance(module, ModuleOp)
    function = next(iter(module.body.block.ops))
    return [op for op in function.body.block.ops if op.results]


def _clear_caches() -> None:
    for cache in (ep._INFERRED_DIMS, ep._MATCHING_ITERATORS, ep._PROPERTIES_BY_IDENTITY, ep._TYPES_WITH_ENCODING):
        cache.clear()
    ep._ENCODING_PROPERTIES.clear()


def _fresh(query, op):
    _clear_caches()
    return query(op)


@pytest.mark.parametrize("query", [ep.contraction_dims, ep.get_encoding_properties, ep.is_supported_contraction_op])
def test_remembered_answers_are_the_computed_ones(ops: list, query) -> None:
    fresh = [_fresh(query, op) for op in ops]
    _clear_caches()
    # Asked in turn and twice over, so that every op meets answers remembered for the others.
    for _ in range(2):
        assert [query(op) for op in ops] == fresh


def test_answers_follow_each_body(ops: list) -> None:
    signed_matmul, unsigned_lhs, signed, not_a_contraction = ops[0], ops[2], ops[3], ops[4]
    # %2 and %3 share maps, iterator types and operand types; only the body tells them apart.
    lhs_unsigned = ep.get_encoding_properties(unsigned_lhs).inputs[0]
    lhs_signed = ep.get_encoding_properties(signed).inputs[0]
    assert str(lhs_unsigned.element_types) == "[ui8, i8, i32]"
    assert str(lhs_signed.element_types) == "[i8, i8, i32]"
    # %4 has the same maps and iterator types but adds instead of multiplying.
    assert ep.contraction_dims(signed) is not None
    assert ep.contraction_dims(not_a_contraction) is None
    assert ep.get_encoding_properties(not_a_contraction) is None
    assert ep.get_encoding_properties(signed_matmul).inputs[0].iteration_sizes is not None


def test_equal_results_for_ops_sharing_attributes(ops: list) -> None:
    first, second = ops[0], ops[1]
    assert ep.get_encoding_properties(first) == ep.get_encoding_properties(second)


def test_tensor_type_with_encoding(ops: list) -> None:
    props = ep.get_encoding_properties(ops[0])
    ty = ops[0].operands[0].type
    encoded = ep.tensor_type_with_encoding(ty, props.inputs[0])
    assert encoded.encoding == props.inputs[0]
    assert encoded.get_shape() == ty.get_shape() and encoded.element_type == ty.element_type
    assert ep.tensor_type_with_encoding(ty, props.inputs[0]) is encoded
    assert ep.tensor_type_with_encoding(ty, props.inputs[1]).encoding == props.inputs[1]
