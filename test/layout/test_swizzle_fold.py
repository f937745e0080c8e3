"""IREE 3.13's single-reshape lowering of a swizzle whose transpose moves no data
(isSwizzlePermutationLayoutNoOp, getSwizzleFoldedReassociation): which swizzles
qualify, the reassociation, and that the folded ops pack exactly as the
expand_shape + transpose chain does."""

from __future__ import annotations

import numpy as np
import pytest
from test_encoding_info import LHS, _run_ops

from mini_iree.compiler import layout as L
from mini_iree.compiler.layout import iree_encoding as E


def _info(tiles, groups, permutation, outer_perm=(0, 1), dims_pos=(0, 1)):
    def dim(size):
        return f'["CrossIntrinsic", {size} : i16]' if size != 1 else '["Internal", 1 : i16]'

    expand = ", ".join("[" + ", ".join(dim(s) for s in g) + "]" for g in groups)
    return L.parse_encoding_info(
        f"{{innerDimsPos = {list(dims_pos)}, innerTileSizes = {list(tiles)}, outerDimsPerm = {list(outer_perm)}, "
        f"swizzle = {{expandShape = [{expand}], permutation = {list(permutation)}}}}}"
    )


# The CPU generic-scalar ACC (2 x 4 intrinsics): unit dims move past the 4.
ACC = _info((2, 4), [[2, 1], [4, 1]], [0, 2, 1, 3])
# The AVX-512 LHS (29 intrinsics in M): the identity on a tile with a unit piece.
LHS_29 = _info((29, 1), [[29, 1], [1]], [0, 1, 2])
# The AVX-512 RHS with one intrinsic in N: nothing to reshape.
RHS_16 = _info((16, 1), [[16], [1]], [0, 1], (1, 0), (1, 0))
# A tile of 1 whose only piece the permutation puts after the next tile's 4.
UNGROUPABLE = _info((1, 4), [[1], [4]], [1, 0])


def test_layout_noop_transposes() -> None:
    assert E.swizzle_transpose_is_layout_noop(ACC.swizzle)
    assert E.swizzle_transpose_is_layout_noop(UNGROUPABLE.swizzle)
    assert not E.swizzle_transpose_is_layout_noop(L.parse_encoding_info(LHS).swizzle)
    assert not E.swizzle_transpose_is_layout_noop(_info((8, 4), [[2, 4], [4]], [1, 0, 2]).swizzle)


def test_folded_reassociation() -> None:
    assert E.swizzle_folded_reassociation(2, (2, 4), ACC.swizzle) == ((0,), (1,), (2,), (3, 4, 5))
    assert E.swizzle_folded_reassociation(2, (29, 1), LHS_29.swizzle) == ((0,), (1,), (2,), (3, 4))
    # The trailing unit dims go to the last tile, not to the first tile of 1.
    info = _info((1, 8), [[1], [8, 1]], [0, 1, 2])
    assert E.swizzle_folded_reassociation(2, (1, 8), info.swizzle) == ((0,), (1,), (2,), (3, 4))
    assert E.swizzle_folded_reassociation(2, (1, 4), UNGROUPABLE.swizzle) is None


def test_folded_ops() -> None:
    pack, expand = L.materialization_ops(ACC, (3, 4), fold_noop_swizzle=True)
    assert expand == L.ExpandShapeOp(((0,), (1,), (2,), (3, 4, 5)), (2, 1, 2, 4, 1, 1))
    collapse, unpack = L.unmaterialization_ops(ACC, (3, 4), fold_noop_swizzle=True)
    assert collapse == L.CollapseShapeOp(expand.reassociation, pack.result_shape)
    # A swizzle that changes no shape lowers to the pack alone.
    assert len(L.materialization_ops(RHS_16, (7, 20), fold_noop_swizzle=True)) == 1
    assert len(L.unmaterialization_ops(RHS_16, (7, 20), fold_noop_swizzle=True)) == 1
    # Not foldable: the general chain stays.
    assert len(L.materialization_ops(UNGROUPABLE, (3, 7), fold_noop_swizzle=True)) == 3
    assert len(L.unmaterialization_ops(UNGROUPABLE, (3, 7), fold_noop_swizzle=True)) == 3
    # Without the option (the walkthrough's IREE): always expand_shape + transpose.
    assert len(L.materialization_ops(ACC, (3, 4))) == 3


@pytest.mark.parametrize(("info", "shape"), [(ACC, (3, 9)), (LHS_29, (40, 3)), (RHS_16, (5, 20)), (UNGROUPABLE, (2, 7))])
def test_folded_ops_pack_as_the_chain(info, shape) -> None:
    values = np.arange(1, int(np.prod(shape)) + 1).reshape(shape)
    packed = _run_ops(L.materialization_ops(info, shape, fold_noop_swizzle=True), values)
    np.testing.assert_array_equal(packed, _run_ops(L.materialization_ops(info, shape), values))
    np.testing.assert_array_equal(packed, L.encoding_relayout(info, shape).pack(values))
    back = _run_ops(L.unmaterialization_ops(info, shape, fold_noop_swizzle=True), packed)
    np.testing.assert_array_equal(back, values)
