"""A matmul with a broadcast operand (a loop only the result has) gets no packed layout.

Packed layouts are built from batch/M/N/K dims alone; the result's broadcast loop
would be left out of `outerDimsPerm` (an invalid pack). Every resolver therefore
gives all three operands the identity layout, and the contraction runs unpacked,
also when a data-tiling hint was preset on it.
"""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import DYNAMIC_INDEX, f32
from xdsl.ir.affine import AffineExpr, AffineMap

from mini_iree.compiler.resolvers import resolve_encoding_info
from mini_iree.compiler.resolvers.targets import parse_target
from mini_iree.dialects.iree_encoding import EncodingAttr, EncodingOpType


def _map(*dims: int) -> AffineMap:
    return AffineMap(3, 0, tuple(AffineExpr.dimension(d) for d in dims))


def _encoding(index: int, lhs: AffineMap) -> EncodingAttr:
    maps = [lhs, _map(2, 1), _map(0, 1)]
    return EncodingAttr(index, EncodingOpType.MATMUL, [f32, f32, f32], maps, [DYNAMIC_INDEX] * 3)


@pytest.mark.parametrize("target", ["x86_64:+avx,+avx2,+fma", "vmvx", "vmvx:ukernels=all", "gfx942"])
@pytest.mark.parametrize("index", [0, 1, 2])
def test_broadcast_lhs_gets_the_identity_layout(target: str, index: int):
    info = resolve_encoding_info(parse_target(target), _encoding(index, _map(2)))
    assert info is not None and info.is_identity()


@pytest.mark.parametrize("target", ["x86_64:+avx,+avx2,+fma", "vmvx", "gfx942"])
def test_plain_matmul_still_packs(target: str):
    info = resolve_encoding_info(parse_target(target), _encoding(2, _map(0, 2)))
    assert info is not None and not info.is_identity()
