"""IREE `encoding_info` on the layout algebra: the walkthrough's packed shapes
and permutations, linalg.pack semantics, the materialization ops, and the
bridge to XLA layouts."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_formulas import iree_linear_index

from mini_iree.compiler import layout as L

# The GPU (gfx942) layouts the data-tiling walkthrough prints for its matmul.
LHS = (
    '{innerDimsPos = [0, 1], innerTileSizes = [128, 16], outerDimsPerm = [0, 1], swizzle = {expandShape = '
    '[[["CrossThread", 4 : i16], ["CrossIntrinsic", 8 : i16], ["CrossThread", 4 : i16]], '
    '[["CrossIntrinsic", 4 : i16], ["CrossThread", 4 : i16]]], permutation = [1, 4, 0, 2, 3]}}'
)
RHS = (
    '{innerDimsPos = [1, 0], innerTileSizes = [128, 16], outerDimsPerm = [1, 0], swizzle = {expandShape = '
    '[[["CrossThread", 4 : i16], ["CrossThread", 16 : i16], ["CrossIntrinsic", 2 : i16]], '
    '[["CrossIntrinsic", 4 : i16], ["CrossThread", 4 : i16]]], permutation = [0, 2, 4, 1, 3]}}'
)
CPU_LHS = "{innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 1]}"
CPU_RHS = "{innerDimsPos = [1, 0], innerTileSizes = [8, 1], outerDimsPerm = [1, 0]}"


@pytest.mark.parametrize("text", [LHS, RHS, CPU_LHS, CPU_RHS])
def test_prints_as_the_walkthrough(text):
    assert L.format_encoding_info(L.parse_encoding_info(text)) == text
    assert L.format_encoding_info(L.parse_encoding_info("encoding_info = " + text)) == text


def test_dynamic_tile_size_round_trips():
    text = "{innerDimsPos = [0, 1], innerTileSizes = [-9223372036854775808, 1], outerDimsPerm = [0, 1]}"
    info = L.parse_encoding_info(text)
    assert L.format_encoding_info(info) == text
    assert L.inner_tiles(info) == (None, 1)
    assert L.packed_tensor_shape(info, (10, 7)) == (None, 7, None, 1)


@pytest.mark.parametrize(("text", "packed"), [(LHS, "?x?x8x4x4x4x4"), (RHS, "?x?x4x2x4x16x4")])
def test_walkthrough_packed_shapes(text, packed):
    relayout = L.encoding_relayout(L.parse_encoding_info(text), (None, None))
    assert L.format_shape(relayout.physical_shape) == packed


def test_walkthrough_materialization_ops():
    pack, expand, transpose = L.materialization_ops(L.parse_encoding_info(LHS), (None, None))
    assert pack == L.PackOp((0, 1), (128, 16), (0, 1), (None, None, 128, 16))
    assert expand.reassociation == ((0,), (1,), (2, 3, 4), (5, 6))
    assert L.format_shape(expand.result_shape) == "?x?x4x8x4x4x4"
    assert transpose.permutation == (0, 1, 3, 6, 2, 4, 5)
    inverse_transpose, collapse, unpack = L.unmaterialization_ops(L.parse_encoding_info(LHS), (None, None))
    assert inverse_transpose.permutation == L.inverse_permutation(transpose.permutation)
    assert collapse.reassociation == expand.reassociation
    assert unpack.result_shape == (None, None)


def _groups(info):
    return [[d.size for d in g] for g in info.swizzle.expand_shape], info.swizzle.permutation


@pytest.mark.parametrize(("text", "shape"), [(LHS, (130, 20)), (RHS, (40, 129))])
def test_swizzled_index_matches_pack_then_swizzle(text, shape):
    info = L.parse_encoding_info(text)
    relayout = L.encoding_relayout(info, shape)
    index = list(np.indices(shape).reshape(2, -1))
    groups, permutation = _groups(info)
    expected = iree_linear_index(
        index, shape, info.inner_dims_pos, info.inner_tile_sizes, info.outer_dims_perm, groups, permutation
    )
    np.testing.assert_array_equal(relayout.linear_index(index), expected)


def _run_ops(ops, array):
    """linalg.pack / expand_shape / transpose and their inverses, written out in numpy."""
    for op in ops:
        if isinstance(op, L.PackOp):
            tile_of = dict(zip(op.inner_dims_pos, op.inner_tiles))
            widths = [(0, -(-n // tile_of[d]) * tile_of[d] - n) if d in tile_of else (0, 0) for d, n in enumerate(array.shape)]
            array = np.pad(array, widths)
            split = []
            for d in range(array.ndim):
                split += [array.shape[d] // tile_of[d], tile_of[d]] if d in tile_of else [array.shape[d]]
            array = array.reshape(split)
            outer_axis, inner_axis, axis = {}, {}, 0
            for d in range(len(op.outer_dims_perm)):
                outer_axis[d] = axis
                if d in tile_of:
                    inner_axis[d] = axis + 1
                axis += 2 if d in tile_of else 1
            array = array.transpose([outer_axis[d] for d in op.outer_dims_perm] + [inner_axis[d] for d in op.inner_dims_pos])
        elif isinstance(op, L.UnPackOp):
            rank = len(op.outer_dims_perm)
            tile_of = dict(zip(op.inner_dims_pos, op.inner_tiles))
            order = list(op.outer_dims_perm)
            outer = {d: order.index(d) for d in range(rank)}
            inner = {d: rank + list(op.inner_dims_pos).index(d) for d in tile_of}
            axes = []
            for d in range(rank):
                axes += [outer[d], inner[d]] if d in tile_of else [outer[d]]
            array = array.transpose(axes)
            merged = []
            for d in range(rank):
                merged.append(array.shape[axes.index(outer[d])] * (tile_of.get(d, 1)))
            array = array.reshape(merged)[tuple(slice(0, s) for s in op.result_shape)]
        elif isinstance(op, (L.ExpandShapeOp, L.CollapseShapeOp)):
            array = array.reshape(op.result_shape)
        else:
            array = array.transpose(op.permutation)
    return array


@pytest.mark.parametrize(("text", "shape"), [(LHS, (130, 20)), (RHS, (40, 129)), (CPU_LHS, (10, 7)), (CPU_RHS, (7, 10))])
def test_materialization_ops_in_numpy(text, shape):
    info = L.parse_encoding_info(text)
    values = np.arange(1, int(np.prod(shape)) + 1).reshape(shape)
    packed = _run_ops(L.materialization_ops(info, shape), values)
    np.testing.assert_array_equal(packed, L.encoding_relayout(info, shape).pack(values))
    np.testing.assert_array_equal(_run_ops(L.unmaterialization_ops(info, shape), packed), values)


# -- random pack layouts -------------------------------------------------------------


@st.composite
def encodings(draw):
    rank = draw(st.integers(1, 3))
    dims = draw(st.lists(st.integers(1, 9), min_size=rank, max_size=rank))
    inner = draw(st.lists(st.integers(0, rank - 1), unique=True, max_size=rank))
    inner = list(draw(st.permutations(inner)))
    tiles = draw(st.lists(st.integers(1, 5), min_size=len(inner), max_size=len(inner)))
    outer = list(draw(st.permutations(range(rank))))
    text = f"{{innerDimsPos = {inner}, innerTileSizes = {tiles}, outerDimsPerm = {outer}}}"
    return tuple(dims), L.parse_encoding_info(text)


@settings(max_examples=150, deadline=None)
@given(encodings())
def test_pack_index_matches_linalg_pack(case):
    dims, info = case
    relayout = L.encoding_relayout(info, dims)
    index = list(np.indices(dims).reshape(len(dims), -1))
    expected = iree_linear_index(index, dims, info.inner_dims_pos, info.inner_tile_sizes, info.outer_dims_perm)
    np.testing.assert_array_equal(relayout.linear_index(index), expected)
    offsets = relayout.index_grid().ravel()
    assert len(np.unique(offsets)) == offsets.size and offsets.max() < relayout.padded_elements()


@settings(max_examples=150, deadline=None)
@given(encodings())
def test_encoding_and_its_xla_equivalent_give_the_same_indices(case):
    dims, info = case
    layout = L.iree_to_xla_layout(info, len(dims))
    xla = L.xla_relayout(L.parse_shape(f"f32[{','.join(map(str, dims))}]{layout}"))
    index = list(np.indices(dims).reshape(len(dims), -1))
    expected = iree_linear_index(index, dims, info.inner_dims_pos, info.inner_tile_sizes, info.outer_dims_perm)
    np.testing.assert_array_equal(xla.linear_index(index), expected)


@st.composite
def swizzled_encodings(draw):
    """2-D pack layouts whose tiles are split into random groups and permuted."""
    tiles = [draw(st.sampled_from([2, 4, 6, 8, 12])) for _ in range(2)]
    groups = []
    for tile in tiles:
        group, rest = [], tile
        while rest > 1 and len(group) < 2:
            factor = draw(st.sampled_from([f for f in range(2, rest + 1) if rest % f == 0]))
            group.append(factor)
            rest //= factor
        if rest > 1:
            group.append(rest)
        groups.append(group)
    permutation = list(draw(st.permutations(range(sum(map(len, groups))))))
    inner = list(draw(st.permutations([0, 1])))
    outer = list(draw(st.permutations([0, 1])))
    expand = ", ".join("[" + ", ".join(f'["CrossThread", {g} : i16]' for g in group) + "]" for group in groups)
    text = (
        f"{{innerDimsPos = {inner}, innerTileSizes = {tiles}, outerDimsPerm = {outer}, "
        f"swizzle = {{expandShape = [{expand}], permutation = {permutation}}}}}"
    )
    dims = (draw(st.integers(1, 25)), draw(st.integers(1, 25)))
    return dims, L.parse_encoding_info(text), groups, permutation


@settings(max_examples=60, deadline=None)
@given(swizzled_encodings())
def test_swizzle_as_repeated_xla_tiles(case):
    # A swizzle is XLA repeated tiling too: the bridge finds the tiles, and they
    # agree with pack-then-swizzle element by element.
    dims, info, groups, permutation = case
    layout = L.iree_to_xla_layout(info, 2)
    xla = L.xla_relayout(L.parse_shape(f"f32[{dims[0]},{dims[1]}]{layout}"))
    index = list(np.indices(dims).reshape(2, -1))
    expected = iree_linear_index(
        index, dims, info.inner_dims_pos, info.inner_tile_sizes, info.outer_dims_perm, groups, permutation
    )
    np.testing.assert_array_equal(xla.linear_index(index), expected)


def test_bridge_walkthrough_cpu_layouts():
    assert str(L.iree_to_xla_layout(L.parse_encoding_info(CPU_LHS), 2)) == "{1,0:T(8,1)}"
    assert str(L.iree_to_xla_layout(L.parse_encoding_info(CPU_RHS), 2)) == "{0,1:T(8,1)}"


@pytest.mark.parametrize(("text", "shape"), [(LHS, (130, 20)), (RHS, (40, 129))])
def test_bridge_walkthrough_gpu_layouts(text, shape):
    info = L.parse_encoding_info(text)
    layout = L.iree_to_xla_layout(info, 2)
    xla = L.xla_relayout(L.parse_shape(f"f32[{shape[0]},{shape[1]}]{layout}"))
    np.testing.assert_array_equal(xla.index_grid(), L.encoding_relayout(info, shape).index_grid())


def test_bridge_says_why_not():
    text = "{innerDimsPos = [0], innerTileSizes = [-9223372036854775808], outerDimsPerm = [0, 1]}"
    with pytest.raises(L.NotExpressible, match="dynamic"):
        L.iree_to_xla_layout(L.parse_encoding_info(text), 2)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{innerDimsPos = [0, 1]", "cannot parse encoding_info"),
        ("{innerDimsPos = [0, 1]}", "encoding_info must be"),
        ("{innerDimsPos = [0, 2], innerTileSizes = [8, 1], outerDimsPerm = [0, 1]}", "index 2 is out of bounds"),
        ("{innerDimsPos = [0, 1], innerTileSizes = [8], outerDimsPerm = [0, 1]}", r"innerTileSizes size \(1\)"),
        ("{innerDimsPos = [0, 1], innerTileSizes = [8, 0], outerDimsPerm = [0, 1]}", "must be positive"),
        ("{innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 0]}", "duplicate index 0"),
        ("{innerDimsPos = [0], innerTileSizes = [8], outerDimsPerm = [0]}", r"outerDimsPerm size \(1\) does not match"),
    ],
)
def test_encoding_errors(text, message):
    with pytest.raises(L.EncodingInfoError, match=message):
        L.encoding_relayout(L.parse_encoding_info(text), (10, 7))
