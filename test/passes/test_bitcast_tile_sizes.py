"""adjust_tile_sizes_for_bitcast: tiles of a tensor whose sub-byte values were packed into wider storage."""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerType, f16, f32, i8
from xdsl.parser import Parser

from mini_iree.compiler.materialize_encoding.layouts import adjust_tile_sizes_for_bitcast
from mini_iree.compiler.resolvers.gpu import _context
from mini_iree.dialects.iree_codegen import MaterializeEncodingInfo, SwizzleDim, TileSwizzle
from mini_iree.dialects.iree_encoding import EncodingAttr

MAPS = (
    "[affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, "
    "affine_map<(d0, d1, d2) -> (d0, d1)>]"
)


def _rhs(types: str, original: str | None) -> EncodingAttr:
    extra = f", original_element_type = {original}" if original else ""
    text = (
        f"#iree_encoding.encoding<operand_index = 1, op_type = matmul, element_types = [{types}]{extra}, "
        f"user_indexing_maps = {MAPS}>"
    )
    attr = Parser(_context(), text).parse_attribute()
    assert isinstance(attr, EncodingAttr)
    return attr


def test_two_i4_per_i8_halve_the_innermost_tile() -> None:
    info = MaterializeEncodingInfo([1, 0], [32, 8], [1, 0])
    got = adjust_tile_sizes_for_bitcast(_rhs("i16, ui4, i32", "ui4"), i8, info)
    assert got.inner_tile_sizes == [32, 4]
    assert info.inner_tile_sizes == [32, 8]  # the resolver's (cached) info is left alone


def test_the_innermost_swizzle_dim_shrinks_too() -> None:
    swizzle = TileSwizzle(
        [[SwizzleDim.cross_thread(128)], [SwizzleDim.cross_intrinsic(2), SwizzleDim.cross_thread(4), SwizzleDim.internal(4)]],
        [0, 1, 2, 3],
    )
    info = MaterializeEncodingInfo([1, 0], [128, 32], [1, 0], swizzle)
    got = adjust_tile_sizes_for_bitcast(_rhs("f16, f16, f32", "f16"), f32, info)
    assert got.inner_tile_sizes == [128, 16]
    assert got.swizzle is not None
    assert [d.size for d in got.swizzle.expand_shape[1]] == [2, 4, 2]
    assert got.swizzle.expand_shape[1][-1] == SwizzleDim.internal(2)


def test_no_original_type_or_same_storage_changes_nothing() -> None:
    info = MaterializeEncodingInfo([1, 0], [16, 4], [1, 0])
    assert adjust_tile_sizes_for_bitcast(_rhs("f16, f16, f32", None), f32, info) is info
    assert adjust_tile_sizes_for_bitcast(_rhs("i4, i4, i32", "i4"), IntegerType(4), info) is info
    assert adjust_tile_sizes_for_bitcast(_rhs("f16, f16, f32", "f16"), f16, info) is info
