"""Conversions between IREE encoding_info, XLA tiled layouts and CuTe layouts.

Every answer is checked here independently of the conversion's own check: the
source and the result must give every element the same offset (through the
shared `Relayout` index grid for XLA and IREE, `Layout.coordinate_grid` for
CuTe); every refusal must carry its named reason.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from mini_iree.compiler.layout import (
    XlaShape,
    encoding_relayout,
    format_encoding_info,
    parse_encoding_info,
    parse_shape,
    xla_relayout,
)
from mini_iree.compiler.layout import conversion as C
from mini_iree.compiler.layout.cute import Layout, parse_cute
from mini_iree.compiler.layout.xla_shape import COMBINE_DIMENSION, XlaLayout

GFX942_LHS = (
    '{innerDimsPos = [0, 1], innerTileSizes = [128, 16], outerDimsPerm = [0, 1], swizzle = {expandShape = '
    '[[["CrossThread", 4 : i16], ["CrossIntrinsic", 8 : i16], ["CrossThread", 4 : i16]], '
    '[["CrossIntrinsic", 4 : i16], ["CrossThread", 4 : i16]]], permutation = [1, 4, 0, 2, 3]}}'
)


def xla_grid(text_or_shape) -> np.ndarray:
    shape = parse_shape(text_or_shape) if isinstance(text_or_shape, str) else text_or_shape
    return xla_relayout(shape).index_grid()


def test_figure_2_to_cute_and_back():
    converted = C.xla_to_cute(parse_shape("bf16[4,8]{1,0:T(2,4)(2,1)}"))
    # Row r: (r % 2) then (r // 2) * 16; column c: 2 * c (the second tile interleaves pairs of rows).
    assert str(converted.cute) == "((2,2),8):((1,16),2)"
    assert np.array_equal(converted.cute.coordinate_grid(), xla_grid("bf16[4,8]{1,0:T(2,4)(2,1)}"))
    back = C.cute_to_xla(converted.cute, "bf16")
    assert np.array_equal(xla_grid(back.xla), xla_grid("bf16[4,8]{1,0:T(2,4)(2,1)}"))


def test_walkthrough_gpu_lhs_is_a_cute_layout():
    info = parse_encoding_info(GFX942_LHS)
    converted = C.iree_to_cute(info, (128, 16))
    assert np.array_equal(converted.cute.coordinate_grid(), encoding_relayout(info, (128, 16)).index_grid())
    assert converted.elements_checked == 128 * 16
    # Back to IREE: the same element map, the swizzle's dims now unnamed (CuTe has no thread kinds).
    back = C.cute_to_iree_converted(converted.cute)
    assert back.info.swizzle is not None
    assert np.array_equal(encoding_relayout(back.info, back.shape).index_grid(), converted.cute.coordinate_grid())


@pytest.mark.parametrize(
    ("source", "reason"),
    [
        ("f32[3,5]{1,0:T(2,2)}", "needs padding"),
        ("f32[8,8]{1,0:T(8,8)(3,1)}", "needs padding"),
        ("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}", "not expressible as strides"),
        ("f32[]{:T(2)}", "rank 0"),
    ],
)
def test_xla_to_cute_refusals(source, reason):
    with pytest.raises(C.Refused) as refused:
        C.xla_to_cute(parse_shape(source))
    assert refused.value.reason == reason


def test_padding_refusal_names_the_padded_tensor():
    with pytest.raises(C.Refused, match=r"the padded 4x6 tensor is \(\(2,2\),\(2,3\)\):\(\(2,12\),\(1,4\)\)"):
        C.xla_to_cute(parse_shape("f32[3,5]{1,0:T(2,2)}"))
    # ... and that layout is right for the padded tensor.
    assert np.array_equal(parse_cute("((2,2),(2,3)):((2,12),(1,4))").coordinate_grid(), xla_grid("f32[4,6]{1,0:T(2,2)}"))


@pytest.mark.parametrize(
    ("cute", "reason"),
    [
        ("(4,2):(0,1)", "not one-to-one"),
        ("(2,2):(1,1)", "not one-to-one"),
        ("4:2", "leaves holes"),
        ("(2,3):(-1,2)", "negative stride"),
    ],
)
def test_cute_to_xla_refusals(cute, reason):
    for convert in (C.cute_to_xla, C.cute_to_iree_converted):
        with pytest.raises(C.Refused) as refused:
            convert(parse_cute(cute))
        assert refused.value.reason == reason


def test_swizzle_refused_when_not_allowed():
    layout = parse_cute("((2,4)):((4,1))")  # an 8-element dim whose two factors swap places
    with pytest.raises(C.Refused) as refused:
        C.cute_to_iree(layout, allow_swizzle=False)
    assert refused.value.reason == "needs a swizzle"
    info, shape = C.cute_to_iree(layout)
    assert info.swizzle is not None and shape == (8,)
    assert encoding_relayout(info, shape).index_grid().tolist() == [0, 4, 1, 5, 2, 6, 3, 7]


def test_cute_holes_from_padding_become_a_padded_tile():
    # Column-major 3x5 with columns 4 apart: XLA pads the minor dim 3 -> 4.
    converted = C.cute_to_xla(parse_cute("(3,5):(1,4)"))
    assert converted.text == "f32[3,5]{0,1:T(4)}"
    assert np.array_equal(xla_grid(converted.xla), parse_cute("(3,5):(1,4)").coordinate_grid())


def test_xla_padding_kept_by_iree():
    converted = C.xla_to_iree(parse_shape("f32[3,5]{1,0:T(2,2)}"))
    assert format_encoding_info(converted.info) == "{innerDimsPos = [0, 1], innerTileSizes = [2, 2], outerDimsPerm = [0, 1]}"
    assert np.array_equal(encoding_relayout(converted.info, (3, 5)).index_grid(), xla_grid("f32[3,5]{1,0:T(2,2)}"))


def test_dropped_attributes_are_noted():
    converted = C.xla_to_cute(parse_shape("f32[4,6]{1,0:T(2,2)E(32)S(1)}"))
    assert any("E(32)" in n for n in converted.notes) and any("S(1)" in n for n in converted.notes)
    converted = C.xla_to_cute(parse_shape("f32[3]{0:T(8)}"))
    assert str(converted.cute) == "3:1" and any("8 elements" in n for n in converted.notes)


def test_empty_tensor_converts():
    converted = C.xla_to_cute(parse_shape("f32[0,3]{1,0:T(2,2)}"))
    assert converted.cute.size() == 0 and converted.cute.coordinate_grid().shape == (0, 3)


def random_xla(rng: random.Random) -> XlaShape:
    rank = rng.randint(1, 3)
    dims = tuple(rng.choice([1, 2, 3, 4, 6, 8]) for _ in range(rank))
    m2m = list(range(rank))
    rng.shuffle(m2m)
    tiles = []
    for _ in range(rng.choice([0, 1, 1, 2])):
        length = rng.randint(1, rank + 1)
        tile = [rng.choice([1, 2, 4, COMBINE_DIMENSION]) for _ in range(length - 1)] + [rng.choice([1, 2, 4])]
        tiles.append(tuple(tile))
    return XlaShape("f32", dims, XlaLayout(tuple(m2m), tuple(tiles)))


def test_random_xla_layouts_round_trip_or_are_refused_with_a_reason():
    rng = random.Random(7)
    outcomes: dict[str, int] = {}
    for _ in range(400):
        xla = random_xla(rng)
        grid = xla_grid(xla)
        try:
            cute = C.xla_to_cute(xla).cute
        except C.Refused as why:
            outcomes[why.reason] = outcomes.get(why.reason, 0) + 1
            assert why.reason in ("needs padding", "not expressible as strides"), why
            continue
        outcomes["cute"] = outcomes.get("cute", 0) + 1
        assert np.array_equal(cute.coordinate_grid(), grid)
        # A CuTe form of an XLA layout goes back to XLA and to IREE exactly, unless its holes come
        # from padding a dim the tensor does not have (a tile longer than the rank pads a unit dim).
        try:
            back = C.cute_to_xla(cute)
        except C.Refused as why:
            assert why.reason == "leaves holes" and xla_relayout(xla).padded_elements() > cute.size(), why
            outcomes["holes"] = outcomes.get("holes", 0) + 1
            continue
        assert np.array_equal(xla_grid(back.xla), grid)
        info, shape = C.cute_to_iree(cute)
        assert np.array_equal(encoding_relayout(info, shape).index_grid(), grid)
        iree = C.xla_to_iree(xla)
        assert np.array_equal(encoding_relayout(iree.info, shape).index_grid(), grid)
    assert outcomes.get("cute", 0) > 200 and outcomes.get("needs padding", 0) > 10, outcomes


def random_compact_cute(rng: random.Random) -> Layout:
    """A random permutation of the factors of a random tensor: always one-to-one onto 0..size-1."""
    rank = rng.randint(1, 3)
    factors = [(d, rng.choice([1, 2, 3, 4])) for d in range(rank) for _ in range(rng.randint(1, 3))]
    rng.shuffle(factors)
    stride, strides = 1, []
    for _, size in factors:
        strides.append(stride)
        stride *= size
    modes = []
    for d in range(rank):
        mine = [(s, st) for (dim, s), st in zip(factors, strides) if dim == d]
        modes.append((tuple(s for s, _ in mine), tuple(st for _, st in mine)))
    return Layout(tuple(m[0] for m in modes), tuple(m[1] for m in modes))


def test_random_compact_cute_layouts_convert_exactly():
    rng = random.Random(8)
    for _ in range(300):
        cute = random_compact_cute(rng)
        grid = cute.coordinate_grid()
        info, shape = C.cute_to_iree(cute)
        assert np.array_equal(encoding_relayout(info, shape).index_grid(), grid)
        xla = C.cute_to_xla(cute).xla
        assert np.array_equal(xla_grid(xla), grid)
        again = C.xla_to_cute(xla).cute
        assert np.array_equal(again.coordinate_grid(), grid)
