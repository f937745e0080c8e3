"""The parser reuses a type spelled again instead of lexing it again; results must not change.

``LocatedParser`` remembers each spelling of a type it parsed (``tensor<?x?xf32>``,
``tensor<4xf32, #iree_encoding.encoding<...>>``...) and, meeting the same text
again, skips over it. These cases check that a reused type is the type a fresh
parse gives, that spellings the cache cannot delimit (a string inside, a space
before ``<``) still parse, and that errors keep their positions.
"""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import TensorType

from mini_iree.compiler.ir.diagnostics import DiagnosticError
from mini_iree.compiler.ir.parsing import _type_text_end, parse_mlir
from mini_iree.compiler.ir.printer import print_module_to_string
from mini_iree.compiler.tools.opt_main import MiniIREEOptMain

ENCODED = """\
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
func.func @f(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> (tensor<?x?xf32, #encoding>, tensor<?x?xf32, #encoding>) {
  %0 = iree_encoding.set_encoding %a : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
  %1 = iree_encoding.set_encoding %b : tensor<?x?xf32> -> tensor<?x?xf32, #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>>
  return %0, %1 : tensor<?x?xf32, #encoding>, tensor<?x?xf32, #encoding>
}
"""


@pytest.fixture(scope="module")
def ctx():
    return MiniIREEOptMain([]).ctx


def test_spelling_ends():
    text = "tensor<?x?xf32, #e<m = affine_map<(d0) -> (d0)>>>, f32"
    end = _type_text_end(text, 0)
    assert text[:end] == "tensor<?x?xf32, #e<m = affine_map<(d0) -> (d0)>>>"
    assert _type_text_end("f32)", 0) == 3
    assert _type_text_end("!hal.buffer_view, i32", 0) == len("!hal.buffer_view")
    assert _type_text_end('!x.t<"a>b">', 0) is None  # a string may hold anything
    assert _type_text_end("tensor<4x", 0) is None  # unterminated: parsed (and reported) normally


def test_repeated_types_are_shared_and_equal(ctx):
    module = parse_mlir(ctx, ENCODED, "t.mlir")
    func = next(iter(module.body.block.ops))
    set0, set1 = list(func.body.block.ops)[:2]
    # Written the same way: one object. Written differently (alias vs inline): equal.
    assert func.body.block.args[0].type is func.body.block.args[1].type
    assert set0.operands[0].type is set1.operands[0].type
    assert set0.results[0].type == set1.results[0].type
    assert isinstance(set0.results[0].type, TensorType)


def test_printed_text_is_unchanged_by_reuse(ctx):
    # Parse the printed text again: both prints must be identical, and identical
    # to what parsing without any reuse gives (each type in a chunk of its own).
    module = parse_mlir(ctx, ENCODED, "t.mlir")
    text = print_module_to_string(module)
    assert print_module_to_string(parse_mlir(ctx, text, "t2.mlir")) == text
    assert text.count("tensor<?x?xf32, #encoding>") == 6


def test_spellings_the_cache_cannot_delimit_still_parse(ctx):
    text = """\
func.func @g(%a: tensor <4xf32>, %b: tensor<4xf32>) -> tensor <4xf32> {
  return %a : tensor<4xf32>
}
"""
    module = parse_mlir(ctx, text, "t.mlir")
    func = next(iter(module.body.block.ops))
    assert func.body.block.args[0].type == func.body.block.args[1].type


def test_errors_keep_their_positions(ctx):
    text = """\
func.func @h(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "test.op"(%a) : (tensor<4xf32>) -> tensor<4xf3
}
"""
    with pytest.raises(DiagnosticError) as err:
        parse_mlir(ctx, text, "t.mlir")
    assert str(err.value.diagnostics[0]).startswith("t.mlir:2:")
