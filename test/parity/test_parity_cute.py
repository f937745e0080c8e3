"""CuTe layout algebra against NVIDIA's pycute (nvidia-cutlass 4.2.0.0), element by element.

Every case of CUTLASS's pycute unit tests and the worked examples of its docs
(`cute_cases.py`), plus seeded random layouts: our result and pycute's must be
the same layout (shape and stride) and give every coordinate the same offset.
"""

from __future__ import annotations

import random

import cute_cases as cases
import pytest
from parity_support import require

from mini_iree.compiler.layout import cute

pycute = require("pycute", "NVIDIA's pycute, from the nvidia-cutlass wheel")


def ours(spec) -> cute.Layout:
    return cute.Layout(*spec)


def theirs(spec):
    return pycute.Layout(*spec)


def same(mine: cute.Layout, reference) -> None:
    """Same shape and stride, and the same offset for every 1-D index of the domain."""
    assert (mine.shape, mine.stride) == (reference.shape, reference.stride), f"{mine} != {reference}"
    assert mine.size() == pycute.size(reference)
    assert mine.offsets().tolist() == [reference(i) for i in range(pycute.size(reference))]


def test_notation_prints_as_pycute_reads():
    for shape, stride in cases.COALESCE + cases.COMPLEMENT:
        reference = theirs((shape, stride))
        assert cute.parse_cute(str(reference)) == ours((shape, stride))  # pycute's print, read back


@pytest.mark.parametrize("spec", cases.COALESCE, ids=str)
def test_coalesce(spec):
    same(cute.coalesce(ours(spec)), pycute.coalesce(theirs(spec)))


@pytest.mark.parametrize("spec", cases.COMPLEMENT, ids=str)
def test_complement(spec):
    same(cute.complement(ours(spec)), pycute.complement(theirs(spec)))


@pytest.mark.parametrize(("spec", "cotarget"), cases.COMPLEMENT_DOCS, ids=str)
def test_complement_docs(spec, cotarget):
    same(cute.complement(ours(spec), cotarget), pycute.complement(theirs(spec), cotarget))


@pytest.mark.parametrize(("a", "b"), cases.COMPOSITION, ids=str)
def test_composition(a, b):
    same(cute.composition(ours(a), ours(b)), pycute.composition(theirs(a), theirs(b)))


@pytest.mark.parametrize(("a", "tiler"), cases.COMPOSITION_TILER_DOCS, ids=str)
def test_composition_tiler(a, tiler):
    same(cute.composition(ours(a), tuple(map(ours, tiler))), pycute.composition(theirs(a), tuple(map(theirs, tiler))))


@pytest.mark.parametrize("spec", cases.LEFT_INVERSE, ids=str)
def test_left_inverse(spec):
    same(cute.left_inverse(ours(spec)), pycute.left_inverse(theirs(spec)))


@pytest.mark.parametrize("spec", cases.RIGHT_INVERSE, ids=str)
def test_right_inverse(spec):
    same(cute.right_inverse(ours(spec)), pycute.right_inverse(theirs(spec)))


@pytest.mark.parametrize(("a", "b"), cases.LOGICAL_DIVIDE_DOCS, ids=str)
def test_logical_divide(a, b):
    same(cute.logical_divide(ours(a), ours(b)), pycute.logical_divide(theirs(a), theirs(b)))


@pytest.mark.parametrize(("a", "tiler"), cases.DIVIDE_TILER_DOCS, ids=str)
def test_divides_by_tiler(a, tiler):
    mine, reference = ours(a), theirs(a)
    t_mine, t_ref = tuple(map(ours, tiler)), tuple(map(theirs, tiler))
    same(cute.logical_divide(mine, t_mine), pycute.logical_divide(reference, t_ref))
    same(cute.zipped_divide(mine, t_mine), pycute.zipped_divide(reference, t_ref))
    same(cute.tiled_divide(mine, t_mine), pycute.tiled_divide(reference, t_ref))


@pytest.mark.parametrize(("a", "b"), cases.LOGICAL_PRODUCT_DOCS, ids=str)
def test_logical_product(a, b):
    same(cute.logical_product(ours(a), ours(b)), pycute.logical_product(theirs(a), theirs(b)))


@pytest.mark.parametrize(("a", "tiler"), cases.PRODUCT_TILER_DOCS, ids=str)
def test_products_by_tiler(a, tiler):
    mine, reference = ours(a), theirs(a)
    t_mine, t_ref = tuple(map(ours, tiler)), tuple(map(theirs, tiler))
    same(cute.logical_product(mine, t_mine), pycute.logical_product(reference, t_ref))
    same(cute.zipped_product(mine, t_mine), pycute.zipped_product(reference, t_ref))
    same(cute.tiled_product(mine, t_mine), pycute.tiled_product(reference, t_ref))


def _random_spec(rng: random.Random, max_modes: int = 3):
    """A random nested (shape, stride) of at most 2,048 elements, nesting at most two levels deep."""
    def mode(depth: int):
        if depth < 2 and rng.random() < 0.3:
            subs = [mode(depth + 1) for _ in range(rng.randint(1, 2))]
            return tuple(s for s, _ in subs), tuple(d for _, d in subs)
        return rng.randint(1, 6), rng.choice([0, 1, 2, 3, 4, 6, 8, 12, 16, 24])

    while True:
        modes = [mode(0) for _ in range(rng.randint(1, max_modes))]
        spec = modes[0] if len(modes) == 1 else (tuple(s for s, _ in modes), tuple(d for _, d in modes))
        if cute.product(spec[0]) <= 2048:
            return spec


def _both(op_ours, op_theirs, *args_specs):
    """Our result and pycute's, or (None, None) when both refuse (CuTe's checks)."""
    try:
        reference = op_theirs(*(theirs(s) for s in args_specs))
    except (AssertionError, ZeroDivisionError):
        reference = None
    try:
        mine = op_ours(*(ours(s) for s in args_specs))
    except cute.CuteError:
        mine = None
    return mine, reference


def test_random_layouts_agree():
    """600 seeded random pairs through every operation: the same layout, or a case outside CuTe's definition."""
    rng = random.Random(2026)
    compared = rejected = 0
    operations = [
        (cute.coalesce, pycute.coalesce, 1),
        (cute.filter_layout, pycute.filter, 1),
        (cute.right_inverse, pycute.right_inverse, 1),
        (cute.left_inverse, pycute.left_inverse, 1),
        (cute.complement, pycute.complement, 1),
        (cute.composition, pycute.composition, 2),
        (cute.logical_divide, pycute.logical_divide, 2),
        (cute.logical_product, pycute.logical_product, 2),
    ]
    for _ in range(600):
        a, b = _random_spec(rng), _random_spec(rng, 2)
        for op_ours, op_theirs, arity in operations:
            mine, reference = _both(op_ours, op_theirs, *([a, b][:arity]))
            if reference is None:
                continue  # pycute's asserts reject it; ours may refuse too or give CuTe C++'s answer
            if mine is None:
                # pycute checks less than CuTe C++: show the case breaks a precondition CuTe states.
                assert _precondition_broken(op_ours, a, b), f"{op_ours.__name__}{(a, b)[:arity]}: we refuse {reference}"
                rejected += 1
                continue
            assert mine is not None, f"{op_ours.__name__}{(a, b)[:arity]}: pycute gives {reference}, we refuse"
            same(mine, reference)
            compared += 1
    assert compared > 3000
    assert rejected < compared  # every rejection above was shown to be outside CuTe's definition


INNER_COMPOSITION = {
    # The composition each operation is defined by (CuTe's logical_divide / logical_product).
    cute.composition: lambda a, b: (a, b),
    cute.logical_divide: lambda a, b: (a, pycute.make_layout(b, pycute.complement(b, pycute.size(a)))),
    cute.logical_product: lambda a, b: (pycute.complement(a, pycute.size(a) * pycute.cosize(b)), b),
}


def _one_to_one(spec) -> bool:
    """CuTe's complement needs modes that, in stride order, each start past the end of the previous one
    (so the layout is one-to-one and its holes are whole multiples): CuTe C++ asserts it, pycute does not."""
    layout = cute.filter_layout(ours(spec))
    end = 1
    for stride, size in sorted(zip(cute.flatten(layout.stride), cute.flatten(layout.shape))):
        if size == 1 or stride == 0:
            continue
        if stride < end:
            return False
        end = stride * size
    return True


def _precondition_broken(op, a, b) -> bool:
    """The case is outside CuTe's definition: a complement of an overlapping layout (complement,
    left_inverse, and the complements inside divide and product), or a composition whose shapes do not
    divide (CuTe C++'s shape_div check), whose pycute answer then is not A(B(i))."""
    if op in (cute.complement, cute.left_inverse, cute.logical_product) and not _one_to_one(a):
        return True
    if op is cute.logical_divide and not _one_to_one(b):
        return True
    if op in INNER_COMPOSITION:
        inner_a, inner_b = INNER_COMPOSITION[op](theirs(a), theirs(b))
        try:
            return not _is_composition(pycute.composition(inner_a, inner_b), inner_a, inner_b)
        except (AssertionError, ZeroDivisionError):
            return True
    return False


def _is_composition(result, a, b) -> bool:
    """`result(i) == a(b(i))` for every i of b's domain (each top-level mode of b alone, as CuTe composes)."""
    modes = [b[i] for i in range(len(b))] if isinstance(b.shape, tuple) else [b]
    parts = [result[i] for i in range(len(result))] if isinstance(b.shape, tuple) else [result]
    if len(parts) != len(modes):
        return False
    for part, mode in zip(parts, modes):
        n = pycute.size(mode)
        if pycute.size(part) != n or any(part(i) != a(mode(i)) for i in range(n)):
            return False
    return True


SWIZZLES = [(1, 0, 2), (2, 0, 2), (3, 4, 3), (2, 3, 3), (3, 3, -3), (2, 1, -4), (0, 4, 3)]
SWIZZLED_LAYOUTS = [((8, 64), (64, 1)), ((8, 8), (8, 1)), ((4, (4, 8)), (1, (4, 16))), ((16, 16), (1, 16))]


@pytest.mark.parametrize("bits_base_shift", SWIZZLES, ids=str)
def test_swizzled_layouts(bits_base_shift):
    """`Sw<B,M,S> o offset o layout` against pycute's ComposedLayout(Swizzle, offset, layout), every element."""
    from mini_iree.compiler.layout.cute_swizzle import Swizzle, SwizzledLayout, parse_any_cute

    swizzle_module = require("pycute.swizzle", "pycute's Swizzle")
    for spec in SWIZZLED_LAYOUTS:
        for offset in (0, 5):
            mine = SwizzledLayout(Swizzle(*bits_base_shift), offset, ours(spec))
            reference = swizzle_module.ComposedLayout(swizzle_module.Swizzle(*bits_base_shift), offset, theirs(spec))
            assert mine.offsets().tolist() == [reference(i) for i in range(pycute.size(reference))]
            # pycute prints SW_B_M_S o offset o layout; we read that and print CuTe C++'s Sw<B,M,S>.
            assert parse_any_cute(str(reference)) == mine
