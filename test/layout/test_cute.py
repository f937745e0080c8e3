"""CuTe layouts: notation, evaluation, and the algebra's defining properties.

The properties are the post-conditions CUTLASS's own unit tests check
(coalesce keeps the function, `R(i) == A(B(i))` for a composition, a complement
never meets its layout, inverses undo the layout), and the exact results are the
worked examples of CUTLASS's `02_layout_algebra.md`. Parity with NVIDIA's
`pycute` itself is in test/parity/.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from mini_iree.compiler.layout import cute
from mini_iree.compiler.layout.cute import CuteError, Layout, parse_cute, parse_tiler


def offsets_by_loop(layout: Layout) -> list[int]:
    """The function by its definition, one index at a time (the reference for `offsets`)."""
    return [layout(i) for i in range(layout.size())]


@pytest.mark.parametrize(
    ("text", "printed"),
    [
        ("(2,(3,4)):(1,(2,6))", "(2,(3,4)):(1,(2,6))"),
        ("(2, (3, 4)):(1, (2, 6))", "(2,(3,4)):(1,(2,6))"),  # pycute's print
        ("(_2,_4):(_1,_2)", "(2,4):(1,2)"),  # CuTe C++ static integers
        ("8:1", "8:1"),
        ("(4,8)", "(4,8):(1,4)"),  # a shape alone: compact column-major strides
        ("((2,4)):((4,1))", "((2,4)):((4,1))"),
        ("(3,2):(-1,0)", "(3,2):(-1,0)"),
    ],
)
def test_notation_round_trips(text, printed):
    layout = parse_cute(text)
    assert str(layout) == printed
    assert parse_cute(str(layout)) == layout


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty string"),
        ("(2,3):(1)", "not congruent"),
        ("(2,3", "expected ')'"),
        ("(2,3):(1,2) x", "unexpected 'x'"),
        ("(2,a):(1,2)", "expected an integer"),
        ("(" * 40 + "1" + ")" * 40, "nest deeper"),
        ("(-2,3)", "negative size"),
    ],
)
def test_bad_notation(text, message):
    with pytest.raises(CuteError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_cute(text)


def test_evaluation_is_colexicographic():
    layout = parse_cute("(2,(3,4)):(1,(2,6))")
    assert layout.size() == 24 and layout.cosize() == 1 + 1 * 1 + 2 * 2 + 3 * 6
    assert layout((1, (2, 3))) == 1 + 4 + 18
    assert layout((1, 11)) == layout((1, (2, 3)))  # a mode's 1-D index splits colexicographically
    assert layout.offsets().tolist() == offsets_by_loop(layout)
    grid = layout.coordinate_grid()
    assert grid.shape == (2, 12)
    assert all(grid[i, j] == layout((i, j)) for i in range(2) for j in range(12))


def test_docs_worked_examples():
    """Results printed in CUTLASS's docs (media/docs/cpp/cute/02_layout_algebra.md)."""
    assert str(cute.coalesce(parse_cute("(2,(1,6)):(1,(6,2))"))) == "12:1"
    assert str(cute.coalesce(parse_cute("(2,(1,6)):(1,(6,2))"), (1, 1))) == "(2,6):(1,2)"
    assert str(cute.composition(parse_cute("(6,2):(8,2)"), parse_cute("(4,3):(3,1)"))) == "((2,2),3):((24,2),8)"
    assert str(cute.composition(parse_cute("20:2"), parse_cute("(5,4):(4,1)"))) == "(5,4):(8,2)"
    assert str(cute.composition(parse_cute("(10,2):(16,4)"), parse_cute("(5,4):(1,5)"))) == "(5,(2,2)):(16,(80,4))"
    a = parse_cute("(12,(4,8)):(59,(13,1))")
    assert str(cute.composition(a, parse_tiler("<3:4, 8:2>"))) == "(3,(2,4)):(236,(26,1))"
    assert str(cute.composition(a, parse_tiler("<3:1, 8:1>"))) == "(3,(4,2)):(59,(13,1))"
    for layout, cotarget, expected in [
        ("4:1", 24, "6:4"), ("6:4", 24, "4:1"), ("(4,6):(1,4)", 24, "1:0"), ("4:2", 24, "(2,3):(1,8)"),
        ("(2,4):(1,6)", 24, "3:2"), ("(2,2):(1,6)", 24, "(3,2):(2,12)"),
    ]:  # fmt: skip
        assert str(cute.complement(parse_cute(layout), cotarget)) == expected
    divided = cute.logical_divide(parse_cute("(4,2,3):(2,1,8)"), parse_cute("4:2"))
    assert str(divided) == "((2,2),(2,3)):((4,1),(2,8))"
    tiled = cute.logical_divide(parse_cute("(9,(4,8)):(59,(13,1))"), parse_tiler("<3:3, (2,4):(1,8)>"))
    assert str(tiled[0][0]) == "3:177" and str(tiled[1][0]) == "(2,4):(13,2)"
    zipped = cute.zipped_divide(parse_cute("(9,(4,8)):(59,(13,1))"), parse_tiler("<3:3, (2,4):(1,8)>"))
    assert str(zipped[0]) == "(3,(2,4)):(177,(13,2))"  # layout<0>(zipped_divide(a, b)) == composition(a, b)
    assert str(cute.logical_product(parse_cute("(2,2):(4,1)"), parse_cute("6:1"))) == "((2,2),(2,3)):((4,1),(2,8))"
    # blocked_product of a 2x5 row-major block over a 3x4 column-major arrangement, mode 0 coalesced.
    blocked = cute.blocked_product(parse_cute("(2,5):(5,1)"), parse_cute("(3,4):(1,3)"))
    assert str(blocked) == "(6,(5,4)):(5,(1,30))"


def random_layout(rng: random.Random, max_modes: int = 3) -> Layout:
    """A random nested layout (at most 2,048 elements, two levels deep) with small strides, some 0."""
    def mode(depth: int):
        if depth < 2 and rng.random() < 0.3:
            subs = [mode(depth + 1) for _ in range(rng.randint(1, 2))]
            return tuple(s for s, _ in subs), tuple(d for _, d in subs)
        return rng.randint(1, 6), rng.choice([0, 1, 2, 3, 4, 6, 8, 12, 16])

    while True:
        modes = [mode(0) for _ in range(rng.randint(1, max_modes))]
        layout = Layout(*modes[0]) if len(modes) == 1 else Layout(
            tuple(s for s, _ in modes), tuple(d for _, d in modes))
        if layout.size() <= 2048:
            return layout


def test_offsets_match_the_definition_on_random_layouts():
    rng = random.Random(0)
    for _ in range(300):
        layout = random_layout(rng)
        assert layout.offsets().tolist() == offsets_by_loop(layout)


def strides_divide(layout: Layout) -> bool:
    """In stride order, each stride a multiple of where the previous mode ends: then `(L, L*)` is exact."""
    end = 1
    for stride, size in sorted(zip(cute.flatten(layout.stride), cute.flatten(layout.shape))):
        if size == 1 or stride == 0:
            continue
        if stride % end:
            return False
        end = stride * size
    return True


def test_algebra_post_conditions_on_random_layouts():
    """CUTLASS's unit-test post-conditions, on random layouts (skipping those CuTe's checks reject)."""
    rng = random.Random(1)
    checked = {"coalesce": 0, "composition": 0, "complement": 0, "right_inverse": 0, "left_inverse": 0}
    for _ in range(400):
        a, b = random_layout(rng), random_layout(rng, 2)
        r = cute.coalesce(a)
        assert r.size() == a.size() and r.offsets().tolist() == a.offsets().tolist()
        assert len(cute.coalesce(r).modes()) == len(r.modes())  # nothing left to merge
        checked["coalesce"] += 1
        try:
            c = cute.composition(a, b)
        except CuteError:
            pass
        else:
            # Left distributivity defines it mode by mode: A o (B0, B1) = (A o B0, A o B1) ...
            assert c.size() == b.size() if not isinstance(b.shape, tuple) else len(c) == len(b)
            for k, mode in enumerate(b.modes() if isinstance(b.shape, tuple) else [b]):
                part = c[k] if isinstance(b.shape, tuple) else c
                # ... and a single mode s:d within A's domain is R(i) = A(i * d).
                if not isinstance(mode.shape, tuple) and mode.cosize() <= a.size():
                    assert [part(i) for i in range(part.size())] == [a(mode(i)) for i in range(mode.size())]
                    checked["composition"] += 1
        try:
            comp = cute.complement(a)
        except CuteError:
            pass
        else:
            image = set(a.offsets().tolist())
            assert not (set(comp.offsets().tolist()) & image) - {0}
            checked["complement"] += 1
        inverse = cute.right_inverse(a)
        assert [a(inverse(i)) for i in range(inverse.size())] == list(range(inverse.size()))
        checked["right_inverse"] += 1
        if cute.is_injective(a) and strides_divide(a):
            try:
                left = cute.left_inverse(a)
            except CuteError:
                continue
            assert [left(a(i)) for i in range(a.size())] == list(range(a.size()))
            checked["left_inverse"] += 1
    assert min(checked.values()) >= 20, checked


def test_divide_and_product_shapes():
    a, b = parse_cute("(4,2,3):(2,1,8)"), parse_cute("4:2")
    divided = cute.logical_divide(a, b)
    # Mode 0 is the tile B picks out of A; mode 1 walks the tiles (A o B*).
    assert divided[0].offsets().tolist() == [a(b(i)) for i in range(4)]
    assert sorted(divided.offsets().tolist()) == sorted(a.offsets().tolist())
    tiled = cute.tiled_divide(parse_cute("(8,8):(1,8)"), parse_tiler("<2:1, 4:1>"))
    assert str(tiled) == "((2,4),4,2):((1,8),2,32)"
    flat = cute.flat_divide(parse_cute("(8,8):(1,8)"), parse_tiler("<2:1, 4:1>"))
    assert [m.size() for m in flat.modes()] == [2, 4, 4, 2]
    product = cute.logical_product(parse_cute("(2,2):(4,1)"), parse_cute("(4,2):(2,1)"))
    assert product.size() == 32 and cute.is_injective(product)
    raked = cute.raked_product(parse_cute("(2,2):(1,2)"), parse_cute("(3,3):(1,3)"))
    assert [m.size() for m in raked.modes()] == [6, 6]
    # Raked: the block's elements are spread a whole replica apart.
    assert raked((1, 0)) - raked((0, 0)) == 4


def test_algebra_refusals():
    with pytest.raises(CuteError, match="stride 3 does not divide shape 4"):
        cute.composition(parse_cute("(4,6):(1,5)"), parse_cute("2:3"))
    with pytest.raises(CuteError, match="overlap"):
        cute.complement(parse_cute("(2,2):(1,1)"))
    with pytest.raises(CuteError, match="size-0"):
        cute.complement(parse_cute("0:1"))
    with pytest.raises(CuteError, match="tiler with 3 modes"):
        cute.composition(parse_cute("(4,4):(1,4)"), parse_tiler("<2:1, 2:1, 2:1>"))


def test_compact_and_injective():
    assert cute.is_compact(parse_cute("(4,8):(8,1)"))
    assert not cute.is_compact(parse_cute("4:2")) and cute.is_injective(parse_cute("4:2"))
    assert not cute.is_injective(parse_cute("(4,2):(0,1)"))
    assert np.array_equal(parse_cute("(4,2):(0,1)").coordinate_grid(), [[0, 1]] * 4)
