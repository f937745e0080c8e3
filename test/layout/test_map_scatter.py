"""map_scatter bodies built from a layout agree with the layout's own indices,
and the walkthrough's accumulator unpack has IREE's linearize/delinearize shape."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from test_relayout import _text, tiled_shapes

from mini_iree.compiler import layout as L

# The walkthrough's GPU accumulator layout (the matmul result, 4x8x2x4x16x4 tiles).
ACC = (
    '{innerDimsPos = [0, 1], innerTileSizes = [128, 128], outerDimsPerm = [0, 1], swizzle = {expandShape = '
    '[[["CrossThread", 4 : i16], ["CrossIntrinsic", 8 : i16], ["Internal", 4 : i16]], '
    '[["CrossThread", 4 : i16], ["CrossThread", 16 : i16], ["CrossIntrinsic", 2 : i16]]], '
    "permutation = [3, 1, 5, 0, 4, 2]}}"
)


def test_walkthrough_accumulator_unpack_body():
    relayout = L.encoding_relayout(L.parse_encoding_info(ACC), (None, None))
    assert L.format_shape(relayout.physical_shape) == "?x?x4x8x2x4x16x4"
    body = L.map_scatter_indexing(relayout)
    first, second, in_bounds = body.stages
    # %56 = affine.linearize_index disjoint [%arg0, %arg1, %arg5, %arg3, %arg7, %arg2, %arg6, %arg4]
    #         by (%dim, %dim_0, 4, 8, 4, 4, 16, 2); %57:4 = affine.delinearize_index %56 into (%dim_1, %dim_2, 128, 128)
    assert first.operands == (0, 1, 5, 3, 7, 2, 6, 4)
    assert first.linearize_basis == (None, None, 4, 8, 4, 4, 16, 2)
    assert first.delinearize_basis == (None, None, 128, 128)
    # %58 = affine.linearize_index disjoint [%57#0, %57#2, %57#1, %57#3] by (%dim_3, 128, %dim_4, 128)
    assert second.operands == (0, 2, 1, 3)
    assert second.linearize_basis == (None, 128, None, 128)
    # %60..%62: the padded index compared with the logical sizes.
    assert in_bounds == L.InBounds((0, 1), (None, None))


def _check(relayout):
    physical = relayout.physical_shape
    offsets = np.arange(int(np.prod(physical)))
    packed_index = list(np.unravel_index(offsets, physical))
    logical, mask = L.map_scatter_indexing(relayout).evaluate(packed_index)
    expected, is_element = relayout.delinearize(offsets)
    np.testing.assert_array_equal(mask, is_element[: offsets.size])
    for got, want in zip(logical, expected):
        np.testing.assert_array_equal(got[mask], want[mask])
    # Forward (set_encoding): logical -> packed coordinates, never masked.
    index = list(np.indices(relayout.logical_shape).reshape(len(relayout.logical_shape), -1))
    packed, mask = L.map_scatter_indexing(relayout, unpack=False).evaluate(index)
    assert mask.all()
    for got, want in zip(packed, relayout.physical_index(index)):
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("shape", [(130, 200), (128, 128), (1, 1)])
def test_accumulator_body_matches_layout(shape):
    _check(L.encoding_relayout(L.parse_encoding_info(ACC), shape))


@settings(max_examples=100, deadline=None)
@given(tiled_shapes())
def test_xla_layout_body_matches_layout(case):
    _check(L.xla_relayout(L.parse_shape(_text(*case))))
