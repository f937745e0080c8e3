"""The layout algebra against the seed's worked examples and the documents' formulas.

The expected numbers come from docs/tiled_layout.md (17, Figure 2, the `*`
equivalence) and from the independent formulas in reference_formulas.py.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mini_iree.compiler import layout as L

from reference_formulas import STAR, xla_linear_index


def relayout(text: str) -> L.Relayout:
    return L.xla_relayout(L.parse_shape(text))


# -- the seed's worked examples ---------------------------------------------------


def test_worked_example_17():
    # Tile index (1,1) in a 2x3 grid of 2x2 tiles, within-tile (0,1): (1*3+1)*4 + 1.
    assert int(relayout("F32[3,5]{1,0:T(2,2)}").linear_index([2, 3])) == (1 * 3 + 1) * 2 * 2 + (0 * 2 + 1)


def test_figure_2_grid():
    # Figure 2: each 2x4 tile holds 8 consecutive offsets, and within it each
    # column's two rows are adjacent (the (2,1) sub-tile: BF16 packing).
    grid = relayout("bf16[4,8]{1,0:T(2,4)(2,1)}").index_grid()
    rows, cols = np.indices((4, 8))
    tile = (rows // 2) * 2 + cols // 4
    expected = tile * 8 + (cols % 4) * 2 + rows % 2
    np.testing.assert_array_equal(grid, expected)


def test_combined_dims_equal_collapsed_shape():
    combined = relayout("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}")
    collapsed = relayout("f32[112,110]{1,0:T(2,3)}")
    index = np.indices((2, 7, 8, 11, 10)).reshape(5, -1)
    rows = (index[0] * 7 + index[1]) * 8 + index[2]
    cols = index[3] * 10 + index[4]
    np.testing.assert_array_equal(combined.linear_index(list(index)), collapsed.linear_index([rows, cols]))
    assert combined.padded_elements() == collapsed.padded_elements() == 112 * 111


def test_figure_4_repeated_tile_reaches_cross_tile_dims():
    # bf16[8,8] with (2,4)(2,1,1,1): element (6,5) -> 51 (docs/tiled_layout.md).
    text = "bf16[8,8]{1,0:T(2,4)(2,1,1,1)}"
    assert int(relayout(text).linear_index([6, 5])) == 51
    assert int(relayout(text).linear_index([6, 5])) == int(xla_linear_index([6, 5], [8, 8], [1, 0], [(2, 4), (2, 1, 1, 1)])[0])


# -- random layouts against the document's formula -------------------------------


@st.composite
def tiled_shapes(draw):
    rank = draw(st.integers(1, 4))
    dims = draw(st.lists(st.integers(1, 7), min_size=rank, max_size=rank))
    minor_to_major = draw(st.permutations(range(rank)))
    tiles = []
    length = rank
    for _ in range(draw(st.integers(0, 2))):
        size = draw(st.integers(1, length + 1))
        tile = draw(st.lists(st.integers(1, 5), min_size=size, max_size=size))
        if size > 1 and draw(st.booleans()):
            tile[draw(st.integers(0, size - 2))] = STAR  # never the most-minor position
        tiles.append(tuple(tile))
        length = max(length, size) + size - tile.count(STAR)  # rank after this tile
    return dims, list(minor_to_major), tiles


def _text(dims, minor_to_major, tiles):
    tile_text = "".join("(" + ",".join("*" if t == STAR else str(t) for t in tile) + ")" for tile in tiles)
    attrs = ":T" + tile_text if tiles else ""
    return f"f32[{','.join(map(str, dims))}]{{{','.join(map(str, minor_to_major))}{attrs}}}"


@settings(max_examples=150, deadline=None)
@given(tiled_shapes())
def test_index_matches_document_formula(case):
    dims, minor_to_major, tiles = case
    layout = relayout(_text(dims, minor_to_major, tiles))
    index = list(np.indices(dims).reshape(len(dims), -1))
    expected, padded = xla_linear_index(index, dims, minor_to_major, tiles)
    np.testing.assert_array_equal(layout.linear_index(index), expected)
    assert layout.padded_elements() == padded


@settings(max_examples=150, deadline=None)
@given(tiled_shapes())
def test_index_is_one_to_one_into_padded_range(case):
    layout = relayout(_text(*case))
    offsets = layout.index_grid().ravel()
    padded = layout.padded_elements()
    assert offsets.min() >= 0 and offsets.max() < padded
    assert len(np.unique(offsets)) == offsets.size


@settings(max_examples=150, deadline=None)
@given(tiled_shapes())
def test_explained_steps_in_numpy_put_every_element_at_its_index(case):
    layout = relayout(_text(*case))
    dims = case[0]
    values = np.arange(1, int(np.prod(dims)) + 1, dtype=np.int64).reshape(dims)
    # The steps `explain` prints, run one by one on a numpy array.
    packed = layout.pack(values, padding_value=0).ravel()
    offsets = layout.index_grid()
    np.testing.assert_array_equal(packed[offsets], values)
    # Everything else is padding.
    assert np.count_nonzero(packed) == values.size
    np.testing.assert_array_equal(layout.unpack(packed), values)


@settings(max_examples=100, deadline=None)
@given(tiled_shapes())
def test_delinearize_inverts_the_index(case):
    layout = relayout(_text(*case))
    dims = case[0]
    offsets = np.arange(layout.padded_elements())
    index, is_element = layout.delinearize(offsets)
    assert int(is_element.sum()) == int(np.prod(dims))
    grid = layout.index_grid()
    element_index = [i[is_element] for i in index]
    np.testing.assert_array_equal(grid[tuple(element_index)], offsets[is_element])


def test_tail_alignment_pads_the_buffer_only():
    aligned = relayout("f32[3,5]{1,0:T(2,2)L(7)}")
    plain = relayout("f32[3,5]{1,0:T(2,2)}")
    np.testing.assert_array_equal(aligned.index_grid(), plain.index_grid())
    assert aligned.padded_elements() == 28
    _, is_element = aligned.delinearize(np.arange(28))
    assert not is_element[24:].any()


def test_index_exprs_agree_with_physical_index():
    layout = relayout("bf16[5,9]{0,1:T(2,4)(2,1)}")
    exprs = layout.index_exprs()
    physical = layout.physical_index(list(np.indices((5, 9)).reshape(2, -1)))
    for position, (i, j) in enumerate(np.ndindex(5, 9)):
        assert [e.eval([i, j], []) for e in exprs] == [int(p[position]) for p in physical]


def test_rank_zero_and_rank_one():
    assert int(relayout("u32[]{:T(128)}").linear_index([])) == 0
    assert relayout("u32[]{:T(128)}").padded_elements() == 128
    # The document applies the tile to [1,7]: (5) -> tile (0,1), within (0,1): 1*8 + 1.
    assert int(relayout("f32[7]{0:T(2,4)}").linear_index([5])) == 9
