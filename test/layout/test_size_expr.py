"""Size expressions: what they evaluate to, and what each IR spelling of them computes.

The packed sizes of `pack_steps` / `unpack_steps`, evaluated at random sizes,
must be the shapes numpy gives (`np.pad` to whole tiles, reshape, transpose),
whichever dims are static; each of the three lowerings (`affine.apply`,
`arith.ceildivsi`/`muli`, lowerPack's `divsi`), run by the interpreter, must
give the evaluated value.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Block, Region

from mini_iree.compiler.interpreter import run
from mini_iree.compiler.layout import size_expr as S
from mini_iree.compiler.layout.pack_lowering import Slice, pack_steps, shape_of, unpack_steps
from mini_iree.compiler.layout.size_lowering import AFFINE, ARITH, LOWER_PACK, SizeLowering
from mini_iree.compiler.layout.steps import Pad


@st.composite
def packs(draw):
    """A tensor shape, which of its dims are dynamic, and a pack of it."""
    rank = draw(st.integers(1, 3))
    shape = draw(st.lists(st.integers(1, 13), min_size=rank, max_size=rank))
    dynamic = draw(st.lists(st.booleans(), min_size=rank, max_size=rank))
    inner = draw(st.permutations(range(rank)).map(lambda p: p[: draw(st.integers(0, rank))]))
    tiles = draw(st.lists(st.integers(1, 8), min_size=len(inner), max_size=len(inner)))
    perm = draw(st.permutations(range(rank)))
    return shape, dynamic, list(inner), tiles, list(perm)


def _sizes(shape, dynamic):
    return [S.Dim(("d", i)) if dyn else S.Const(n) for i, (n, dyn) in enumerate(zip(shape, dynamic))]


def _numpy_pack(x: np.ndarray, inner, tiles, perm) -> list[np.ndarray]:
    """lowerPack in numpy, independently of the layout algebra: pad, expand, transpose."""
    tile_of = dict(zip(inner, tiles))
    padded = np.pad(x, [(0, -n % tile_of[d]) if d in tile_of else (0, 0) for d, n in enumerate(x.shape)])
    expanded_shape: list[int] = []
    outer_axis, inner_axis = {}, {}
    for d, n in enumerate(padded.shape):
        outer_axis[d] = len(expanded_shape)
        if d in tile_of:
            inner_axis[d] = len(expanded_shape) + 1
            expanded_shape += [n // tile_of[d], tile_of[d]]
        else:
            expanded_shape.append(n)
    expanded = padded.reshape(expanded_shape)
    order = [outer_axis[d] for d in perm] + [inner_axis[d] for d in inner]
    return [padded, expanded, np.transpose(expanded, order)]


@settings(max_examples=100, deadline=None)
@given(packs())
def test_packed_sizes_are_numpys_shapes(pack):
    shape, dynamic, inner, tiles, perm = pack
    sizes = _sizes(shape, dynamic)
    dims = {("d", i): n for i, n in enumerate(shape)}
    steps = pack_steps(sizes, inner, tiles, perm)
    padded, expanded, packed = _numpy_pack(np.zeros(shape), inner, tiles, perm)

    # The pad is there unless every tiled dim is statically a whole number of tiles.
    has_pad = isinstance(steps[0].step, Pad)
    assert has_pad == any(dynamic[d] and t != 1 or shape[d] % t for d, t in zip(inner, tiles))
    if has_pad:
        assert [S.evaluate(s, dims) for s in steps[0].sizes] == list(padded.shape)
    assert [S.evaluate(s, dims) for s in steps[-2].sizes] == list(expanded.shape)
    assert [S.evaluate(s, dims) for s in steps[-1].sizes] == list(packed.shape)
    # What is static is the numpy shape; what is dynamic stays unknown.
    for sized in steps:
        assert all(s is None or s == S.evaluate(e, dims) for s, e in zip(shape_of(sized.sizes), sized.sizes))
    static_sizes = _sizes(shape, [False] * len(shape))
    assert shape_of(pack_steps(static_sizes, inner, tiles, perm)[-1].sizes) == packed.shape

    # Unpacking the packed sizes gives back the logical ones (after the slice that drops the padding).
    back = unpack_steps(steps[-1].sizes, inner, perm, sizes)
    assert [S.evaluate(s, dims) for s in back[-1].sizes] == shape
    if isinstance(back[-1].step, Slice):
        assert [S.evaluate(s, dims) for s in back[-2].sizes] == list(padded.shape)


def _run_lowered(exprs, spelling, dims: dict[int, int]) -> list[int]:
    """Lower `exprs` into `func.func @f(%d0, %d1, ...)` and run it with the interpreter."""
    block = Block(arg_types=[IndexType()] * len(dims))

    def constant(value: int):
        op = arith.ConstantOp(IntegerAttr(value, IndexType()))
        block.add_op(op)
        return op.result

    lowering = SizeLowering(spelling, block.add_op, constant, lambda dim: block.args[dim.source[1]])
    results = [lowering.ssa(e) for e in exprs]
    block.add_op(func.ReturnOp(*results))
    function = func.FuncOp("f", ([IndexType()] * len(dims), [IndexType()] * len(results)), Region(block))
    module = ModuleOp([function])
    module.verify()
    return [int(v) for v in run(module, "f", *(dims[i] for i in range(len(dims))))]


def _pack_size_exprs(shape, dynamic, inner, tiles, perm):
    sizes = _sizes(shape, dynamic)
    exprs = [e for sized in pack_steps(sizes, inner, tiles, perm) for e in sized.sizes]
    # The host's padded element count (a storage size): ceildivsi + muli per tiled dim.
    count: S.SizeExpr = S.Const(1)
    tile_of = dict(zip(inner, tiles))
    for d, s in enumerate(sizes):
        count = S.mul(count, S.pad_to_multiple(s, tile_of[d]) if d in tile_of else s)
    return [*exprs, count]


@pytest.mark.parametrize("spelling", [AFFINE, ARITH, LOWER_PACK])
@settings(max_examples=15, deadline=None)
@given(pack=packs())
def test_each_lowering_computes_the_evaluated_value(spelling, pack):
    shape, dynamic, inner, tiles, perm = pack
    exprs = _pack_size_exprs(shape, dynamic, inner, tiles, perm)
    if spelling != ARITH:
        # A product of two run-time sizes is not affine.
        exprs = [e for e in exprs if not _has_dynamic_product(e)]
    dims = dict(enumerate(shape))
    expected = [S.evaluate(e, lambda source: dims[source[1]]) for e in exprs]
    assert _run_lowered(exprs, spelling, dims) == expected


def _has_dynamic_product(expr) -> bool:
    if not isinstance(expr, S.Op):
        return False
    if expr.kind == "mul" and sum(S.constant_value(o) is None for o in expr.operands) > 1:
        return True
    return any(_has_dynamic_product(o) for o in expr.operands)


def test_max_and_unsigned_ceildiv_in_arith():
    a, b = S.Dim(("d", 0)), S.Dim(("d", 1))
    exprs = [S.maximum(S.mul(a, 3), b), S.ceildivu(S.add(a, b), 8), S.add(S.div(S.mul(b, 4), 4), 1)]
    dims = {0: 5, 1: 17}
    expected = [S.evaluate(e, lambda source: dims[source[1]]) for e in exprs]
    assert expected == [17, 3, 18]
    assert _run_lowered(exprs, ARITH, dims) == expected


def test_constructors_fold_as_mlir_does():
    d = S.Dim("n")
    assert S.mul(3, 4) == S.Const(12)
    assert S.mul(d, 1) is d and S.ceildiv(d, 1) is d and S.add(d, 0) is d
    assert S.mul(d, 0) == S.Const(0)
    product = S.mul(4, d)
    assert isinstance(product, S.Op) and product.operands == (d, S.Const(4))  # the constant goes right
    assert S.maximum(d, d) is d
    assert S.padded(3, 10, 4) == S.Const(12)
    # Equal-looking computations stay two computations.
    assert S.ceildiv(d, 8) != S.ceildiv(d, 8)


def test_affine_spelling_prints_as_iree():
    """The `affine.apply` maps are IREE's: ceildiv of a dim, and the reified pad size."""
    from mini_iree.compiler.ir.printer import print_module_to_string

    block = Block(arg_types=[IndexType(), IndexType()])
    lowering = SizeLowering(AFFINE, block.add_op, leaf=lambda dim: block.args[dim.source])
    outer = S.ceildiv(S.Dim(0), 16)
    lowering.ssa(outer)
    lowering.ssa(S.padded(S.Dim(1), S.Dim(0), 16))
    lowering.ssa(S.padded(5, S.Dim(0), 16))
    text = "\n".join(print_module_to_string(op) for op in block.ops)
    assert "affine_map<()[s0] -> (s0 ceildiv 16)>" in text
    assert "affine_map<()[s0, s1, s2] -> (s0 * 16 - s1 + s2)>" in text
    assert "#map()[%1, %2, %2]" in text  # the source is a symbol at each use
    # A static outer count folds into the map, as makeComposedAffineApply does.
    assert "affine_map<()[s0, s1] -> (-s0 + 80 + s1)>" in text
