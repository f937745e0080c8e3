"""CuTe's XOR swizzles (`Sw<B,M,S> o offset o layout`): the function, the notation, and conversions refusing it."""

from __future__ import annotations

import numpy as np
import pytest

from mini_iree.compiler.layout import conversion as C
from mini_iree.compiler.layout.cute import CuteError, parse_cute
from mini_iree.compiler.layout.cute_swizzle import Swizzle, SwizzledLayout, parse_any_cute


def by_bits(offset: int, bits: int, base: int, shift: int) -> int:
    """The definition bit by bit: bit (base + i) ^= bit (base + shift + i), for a positive shift."""
    out = offset
    for i in range(bits):
        out ^= ((offset >> (base + shift + i)) & 1) << (base + i)
    return out


def test_swizzle_xors_the_bits_it_names():
    swizzle = Swizzle(3, 4, 3)
    values = np.arange(1 << 10)
    assert swizzle(values).tolist() == [by_bits(int(v), 3, 4, 3) for v in values]
    # A swizzle is its own inverse and permutes every aligned block it spans.
    assert np.array_equal(swizzle(swizzle(values)), values)
    assert sorted(swizzle(values).tolist()) == values.tolist()


def test_negative_shift_looks_lower():
    swizzle = Swizzle(2, 1, -4)  # bits 5..6 take the XOR of bits 1..2
    for v in range(1 << 8):
        expected = v ^ (((v >> 1) & 3) << 5)
        assert swizzle(v) == expected


@pytest.mark.parametrize(
    ("text", "printed"),
    [
        ("Sw<3,4,3> o 0 o (8,64):(64,1)", "Sw<3,4,3> o 0 o (8,64):(64,1)"),
        ("SW_3_4_3 o 0 o (8, 64):(64, 1)", "Sw<3,4,3> o 0 o (8,64):(64,1)"),  # pycute's print
        ("Sw<1,0,2> o (4,4):(4,1)", "Sw<1,0,2> o 0 o (4,4):(4,1)"),
        ("Sw<1,0,2> o _3 o (4,4):(4,1)", "Sw<1,0,2> o 3 o (4,4):(4,1)"),
    ],
)
def test_notation(text, printed):
    layout = parse_any_cute(text)
    assert str(layout) == printed and parse_any_cute(printed) == layout


@pytest.mark.parametrize("text", ["Sw<3,4> o (8,64):(64,1)", "Sw<3,4,1> o (8,64):(64,1)", "Sw<3,4,3> o", "Sw<30,30,30> o 4:1"])
def test_bad_swizzles(text):
    with pytest.raises(CuteError):
        parse_any_cute(text)


def test_swizzled_grid_is_the_swizzle_of_the_layout():
    layout = parse_any_cute("Sw<1,0,2> o 0 o (4,4):(4,1)")
    plain = parse_cute("(4,4):(4,1)").coordinate_grid()
    assert np.array_equal(layout.coordinate_grid(), plain ^ ((plain >> 2) & 1))
    assert layout((1, 0)) == 5 and layout.size() == 16 and layout.cosize() == 16


def test_conversions_refuse_a_swizzle():
    swizzled = parse_any_cute("Sw<3,4,3> o (8,64):(64,1)")
    for convert in (C.cute_to_xla, C.cute_to_iree_converted):
        with pytest.raises(C.Refused) as refused:
            convert(swizzled)
        assert refused.value.reason == "needs a swizzle"
    # A swizzle of no bits at offset 0 is the plain layout.
    assert C.cute_to_xla(SwizzledLayout(Swizzle(0, 4, 3), 0, parse_cute("(8,64):(64,1)"))).text == "f32[8,64]{1,0}"
    with pytest.raises(C.Refused, match="has an offset"):
        C.cute_to_xla(SwizzledLayout(Swizzle(0, 4, 3), 3, parse_cute("(8,64):(64,1)")))
