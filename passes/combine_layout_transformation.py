"""`iree-codegen-combine-layout-transformation`: fold a relayout chain into one `iree_linalg_ext.map_scatter`.

Starting from each `iree_codegen.store_to_buffer` (IREE's `dispatch` scope), the
producer chain of relayout ops -- `linalg.pack`, `linalg.unpack`,
`tensor.expand_shape`, `tensor.collapse_shape`, `linalg.transpose` (or a
transpose-like `linalg.generic`), `tensor.extract_slice` with zero offsets and
unit strides, `linalg.copy` -- becomes one `map_scatter %src into %empty` whose
region maps every source index to its destination index: a reshape is one
`affine.linearize_index` / `affine.delinearize_index` pair, a transpose only
reorders indices, a slice (the tail an unpack drops) is an `arith.cmpi ult` mask.
A pack's padding values are written straight into the stored buffer by
`scf.forall` loops after the store, one loop nest per padded dimension.

The chain is read into the layout algebra (`compiler/layout`: pad / reshape /
transpose steps of a `Relayout`; a pack or unpack through the algebra's
`pack_steps` / `unpack_steps`, MLIR's lowerPack / lowerUnPack) and the region is
built from `map_scatter_indexing`, so the index arithmetic exists once. Sizes
are the algebra's size expressions over the SSA values the chain already has,
or `tensor.dim` of the chain's source, emitted in lowerPack's spelling as IREE's
folding leaves them (`s0 * 128 - s1 + s2` for a padded size, `divsi` by the tile).

IREE 3.13 (`iree-codegen-combine-result-layout-transformation`, and the GPU pass
in the 3.13 era) builds the region as its patterns do, one op at a time from the
source (`_build_forward_region`): each reshape group by group (one linearize per
collapsed group, one delinearize per expanded one), a pack split by its
destination's outer sizes, no mask for a slice that keeps everything. A lone
`tensor.pad` (static amounts) is folded too, with a loop nest for each non-zero
low and high pad; its source moves by the low padding.

Before combining, relayouts sink below an elementwise consumer
(`compiler/combine_layout/propagation.py`). Scopes: `dispatch` (chains ending in
`store_to_buffer`), `dispatch-reshape` (3.13: only chains with a reshape) and
`workgroup` (chains a workgroup `scf.forall` inserts with
`tensor.parallel_insert_slice`; reshape-only chains and pads are left alone).

Left alone: chains whose intermediate values have other uses, chains with
several pads, a pad whose value is not a constant or whose amounts are dynamic,
non-zero-offset or strided or rank-reducing slices, dynamic inner tiles,
rank-0 reshapes; in the walkthrough's form also chains with both a pack's pad and
a slice. Like MLIR's greedy pattern driver, the pass also erases ops
left without uses (e.g. the dispatch-tensor subspans bufferization leaves).
`iree-codegen-combine-result-layout-transformation` is IREE 3.13's name (it
prints `map_store`); `GPUCombineLayoutTransformationPass`
(`iree-codegen-gpu-combine-layout-transformation`) distributes the padding loops
to workgroups then threads, as the walkthrough's dump 23 shows.

IREE: `Codegen/Common/CombineLayoutTransformation.cpp`, `Codegen/Common/Transforms.cpp`,
`Codegen/Common/GPU/GPUCombineLayoutTransformation.cpp`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, scf as xdsl_scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    IndexType,
    IntegerAttr,
    LocationAttr,
    ModuleOp,
    TensorType,
    i1,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import Pure
from xdsl.utils.exceptions import PassFailedException

from mini_iree.compiler.ir.locations import fused_location, give_location
from mini_iree.compiler.ir.queries import transpose_like_permutation
from mini_iree.compiler.ir.selective_walker import SelectivePatternRewriteWalker
from mini_iree.compiler.layout.shapes import inverse_permutation
from mini_iree.compiler.layout.size_expr import Const, Dim, Op, SizeExpr, constant_value
from mini_iree.compiler.layout.size_lowering import LOWER_PACK, SizeLowering
from mini_iree.dialects import affine, gpu, iree_codegen, iree_linalg_ext, linalg, tensor
from mini_iree.dialects.scf import ForallOp

# ---------------------------------------------------------------------------
# Sizes: how to get (or recompute) each dynamic size the region needs
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class TensorDim:
    """What a size reads when the chain does not say it: `tensor.dim %tensor, %cI`,
    created afresh wherever it is needed (as IREE's folding does)."""

    tensor: SSAValue
    index: int


class _Builder:
    """Creates ops before `anchor`, constants at the top of the function (MLIR's folder places them there).

    Every op it creates takes `location`: the relayout chain the new ops replace.
    """

    def __init__(
        self, anchor: Operation, entry: Block, location: LocationAttr, shared: _Builder | None = None
    ):
        self.anchor = anchor
        self.entry = entry
        self.location = location
        self.constants: dict[tuple[int, Attribute], SSAValue] = {}
        if shared is not None:
            self.constants = shared.constants
        else:
            for op in entry.ops:
                if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
                    self.constants.setdefault((op.value.value.data, op.value.type), op.result)
        # Sizes in lowerPack's spelling; the `divsi`s a pack lowering computes once are remembered
        # and shared by every builder of the rewrite.
        self.sizes = SizeLowering(LOWER_PACK, self.insert, self.constant, self._read)
        if shared is not None:
            self.sizes.share_remembered(shared.sizes)

    def insert(self, op: Operation) -> Operation:
        give_location(op, self.location)
        Rewriter.insert_op(op, InsertPoint.before(self.anchor))
        return op

    def constant(self, value: int, type_: Attribute = IndexType()) -> SSAValue:
        key = (value, type_)
        if key not in self.constants:
            op = arith.ConstantOp(IntegerAttr(value, type_))
            op.location = self.location
            first = self.entry.first_op
            Rewriter.insert_op(op, InsertPoint.before(first) if first is not None else InsertPoint.at_end(self.entry))
            self.constants[key] = op.result
        result = self.constants[key]
        existing = result.owner
        assert isinstance(existing, Operation)
        if existing.parent_block() is self.entry and existing is not self.entry.first_op:
            anchor = self.entry.find_ancestor_op_in_block(self.anchor)
            if anchor is not None and anchor.is_before_in_block(existing):
                # A constant of the function placed after the anchor does not dominate the
                # ops built there: move it to the top, as MLIR's OperationFolder moves a
                # constant it reuses to the front of the block.
                existing.detach()
                self.entry.insert_op_before(existing, self.entry.first_op)  # type: ignore[arg-type]
        return result

    def _read(self, dim: Dim) -> SSAValue:
        source = dim.source
        if isinstance(source, TensorDim):
            return self.insert(tensor.DimOp(source.tensor, self.constant(source.index))).results[0]
        assert isinstance(source, SSAValue)
        return source

    def materialize(self, size: SizeExpr) -> SSAValue | int:
        if isinstance(size, Op) and size.kind == "mul" and sum(constant_value(o) is None for o in size.operands) > 1:
            # A product of several run-time sizes (a collapse of dynamic dims) is not affine
            # for xDSL's affine expressions (MLIR's semi-affine `s0 * s1`): `arith.muli`.
            values = [self.materialize(o) for o in size.operands]
            product: SSAValue | int = values[0]
            for value in values[1:]:
                lhs = self.constant(product) if isinstance(product, int) else product
                rhs = self.constant(value) if isinstance(value, int) else value
                product = self.insert(arith.MuliOp(lhs, rhs)).results[0]
            return product
        return self.sizes.value(size)


def _source_sizes(value: SSAValue) -> list[SizeExpr]:
    """The sizes of a tensor, from the op that defines it where it says them, else `tensor.dim`."""
    type_ = value.type
    assert isinstance(type_, TensorType)
    shape = type_.get_shape()
    owner = value.owner
    dynamic: list[SSAValue] | None = None
    if isinstance(owner, tensor.EmptyOp):
        dynamic = list(owner.dynamic_sizes)
    elif isinstance(owner, iree_codegen.LoadFromBufferOp):
        from mini_iree.dialects import hal

        subspan = owner.buffer.owner
        if isinstance(subspan, hal.InterfaceBindingSubspanOp):
            dynamic = list(subspan.dynamic_dims)
    sizes: list[SizeExpr] = []
    it = iter(dynamic or [])
    for index, size in enumerate(shape):
        if size != DYNAMIC_INDEX:
            sizes.append(Const(size))
        elif dynamic is not None:
            sizes.append(Dim(next(it)))
        else:
            sizes.append(Dim(TensorDim(value, index)))
    return sizes


# ---------------------------------------------------------------------------
# The chain as layout-algebra steps
# ---------------------------------------------------------------------------


def _is_zero_offset_unit_stride_slice(op: Operation) -> bool:
    if not isinstance(op, tensor.ExtractSliceOp):
        return False
    src, res = op.source.type, op.result.type
    if not isinstance(src, TensorType) or not isinstance(res, TensorType) or src.get_num_dims() != res.get_num_dims():
        return False
    offsets = op.static_offsets.get_values()
    strides = op.static_strides.get_values()
    return not op.offsets and not op.strides and all(o == 0 for o in offsets) and all(s == 1 for s in strides)


def is_supported_relayout_op(op: Operation) -> bool:
    if isinstance(op, linalg.PackOp | linalg.UnPackOp):
        return all(t != DYNAMIC_INDEX for t in op.get_static_tiles())
    if isinstance(op, tensor.ExpandShapeOp | tensor.CollapseShapeOp):
        return op.src.type.get_num_dims() > 0 and op.result.type.get_num_dims() > 0  # type: ignore[union-attr]
    if isinstance(op, linalg.TransposeOp | linalg.CopyOp):
        return True
    if isinstance(op, tensor.PadOp):
        # Static pad amounts only: the padding loops' bounds are then constants.
        return not op.low and not op.high
    if transpose_like_permutation(op) is not None:
        return True
    return _is_zero_offset_unit_stride_slice(op)


@dataclass
class _Chain:
    """A relayout chain in forward order: `steps` (layout algebra) with the sizes of every shape."""

    source: SSAValue
    steps: list  # of Pad | Reshape | Transpose | Slice
    sizes: list[list[SizeExpr]]
    pad_value: SSAValue | None = None
    pad_index: int | None = None  # position of the Pad in `steps`
    pad_low: list[int] | None = None
    """The low padding of a `tensor.pad` (a pack pads only at the high end)."""
    has_pad_op: bool = False
    """The chain has a `tensor.pad` (built forward: the layout algebra pads only at the high end)."""
    divisions: list[list[Op]] = field(default_factory=list[list[Op]])
    """The `divsi`s of each pack lowering, computed once before everything else."""


def _static(shape: Sequence[int]) -> tuple[int | None, ...]:
    return tuple(None if d == DYNAMIC_INDEX else d for d in shape)


def _reassociation(op) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(g) for g in op.get_reassociation_indices())


def _mixed(value: int | SSAValue) -> SizeExpr:
    return Const(value) if isinstance(value, int) else Dim(value)


class _Unsupported(Exception):
    pass


def _chain_steps(source: SSAValue, ops: list[Operation], grouped: bool = False) -> _Chain:
    """Translate the chain's ops (forward order) into pad / reshape / transpose / slice steps."""
    from mini_iree.compiler.layout.pack_lowering import Slice, collapsed_sizes
    from mini_iree.compiler.layout.steps import Reshape, Transpose

    chain = _Chain(source, [], [_source_sizes(source)])

    def shape_of(value: SSAValue) -> tuple[int | None, ...]:
        return _static(value.type.get_shape())  # type: ignore[union-attr]

    def push(step, sizes: Sequence[SizeExpr]) -> None:
        chain.steps.append(step)
        chain.sizes.append(list(sizes))

    for op in ops:
        current = chain.sizes[-1]
        if isinstance(op, linalg.CopyOp):
            continue
        if isinstance(op, linalg.TransposeOp) or transpose_like_permutation(op) is not None:
            perm = (
                tuple(op.permutation.get_values()) if isinstance(op, linalg.TransposeOp) else transpose_like_permutation(op)
            )
            push(Transpose(perm), [current[p] for p in perm])  # type: ignore[index]
        elif isinstance(op, tensor.ExpandShapeOp):
            result = [_mixed(x) for x in op.get_mixed_output_shape()]
            push(Reshape(shape_of(op.result), _reassociation(op)), result)
        elif isinstance(op, tensor.CollapseShapeOp):
            groups = _reassociation(op)
            push(Reshape(shape_of(op.result), groups, collapse=True), collapsed_sizes(current, groups))
        elif _is_zero_offset_unit_stride_slice(op):
            dynamic = iter(op.sizes)  # type: ignore[attr-defined]
            static_sizes = op.static_sizes.get_values()  # type: ignore[attr-defined]
            sizes = [Dim(next(dynamic)) if x == DYNAMIC_INDEX else Const(x) for x in static_sizes]
            push(Slice(shape_of(op.result)), sizes)
        elif isinstance(op, tensor.PadOp):
            from mini_iree.compiler.layout.steps import Pad

            if chain.pad_index is not None:
                raise _Unsupported  # one pad per chain
            yielded = op.region.block.last_op
            if yielded is None or len(yielded.operands) != 1:
                raise _Unsupported
            low = list(op.static_low.get_values())
            high = list(op.static_high.get_values())
            chain.pad_index = len(chain.steps)
            chain.pad_value = yielded.operands[0]
            chain.pad_low = low
            chain.has_pad_op = True
            if any(constant_value(s) is None and lo + hi for s, lo, hi in zip(current, low, high)):
                raise _Unsupported  # a dynamic padded size: not needed by IREE's tests
            sizes = [
                s if lo + hi == 0 else Const(constant_value(s) + lo + hi)  # type: ignore[operator]
                for s, lo, hi in zip(current, low, high)
            ]
            push(Pad(shape_of(op.result)), sizes)
        elif isinstance(op, linalg.PackOp):
            _pack_steps(chain, op, current, push, grouped)
        elif isinstance(op, linalg.UnPackOp):
            _unpack_steps(op, current, push)
        else:
            raise _Unsupported
    return chain


def _pack_steps(chain: _Chain, op: linalg.PackOp, current: list[SizeExpr], push, grouped: bool) -> None:
    """`linalg.lowerPack` (the layout algebra's `pack_steps`), its outer sizes those of the pack's destination."""
    from mini_iree.compiler.layout.pack_lowering import pack_steps
    from mini_iree.compiler.layout.steps import Pad, Reshape

    rank = len(current)
    perm = op.get_outer_dims_perm() or tuple(range(rank))
    dest_sizes = _source_sizes(op.dest)  # the packed result: outer dims (permuted) then tiles
    outer_sizes: dict[SizeExpr, SizeExpr] = {}
    for sized in pack_steps(current, op.get_inner_dims_pos(), op.get_static_tiles(), perm, dest_sizes[:rank]):
        if isinstance(sized.step, Pad):
            if op.padding_value is None:
                raise _Unsupported
            if chain.pad_index is not None:
                raise _Unsupported  # one pad per chain
            chain.pad_index = len(chain.steps)
            chain.pad_value = op.padding_value
        elif isinstance(sized.step, Reshape) and grouped:
            # IREE 3.13 folds the expand_shape group by group with the sizes of the pack's
            # result (`tensor.getMixedSizes`, resolved to the destination's): an outer size
            # is the destination's, not `arith.divsi %padded, %cT`.
            for d, group in enumerate(sized.step.reassociation):
                outer = sized.sizes[group[0]]
                if isinstance(outer, Op) and outer.kind == "div":
                    outer_sizes[outer] = dest_sizes[perm.index(d)]
        elif isinstance(sized.step, Reshape):
            # IREE's lowerPack computes the expand_shape's outer sizes once: `arith.divsi %padded, %cT`.
            chain.divisions.append([s for s in sized.sizes if isinstance(s, Op) and s.kind == "div"])
        push(sized.step, [outer_sizes.get(s, s) for s in sized.sizes])  # type: ignore[call-overload]


def _unpack_steps(op: linalg.UnPackOp, current: list[SizeExpr], push) -> None:
    """`linalg.lowerUnPack` (the layout algebra's `unpack_steps`): transpose, collapse, slice."""
    from mini_iree.compiler.layout.pack_lowering import unpack_steps

    dest_sizes = _source_sizes(op.dest)
    perm = op.get_outer_dims_perm() or tuple(range(len(dest_sizes)))
    for sized in unpack_steps(current, op.get_inner_dims_pos(), perm, dest_sizes):
        push(sized.step, sized.sizes)


def _compute_divisions(chain: _Chain, builder: _Builder) -> None:
    """The pack lowerings' `divsi`s, before everything else: each pack's padded sizes, then its divisions."""
    for divisions in chain.divisions:
        padded_values = [builder.materialize(d.operands[0]) for d in divisions]
        for division, value in zip(divisions, padded_values):
            tile = constant_value(division.operands[1])
            assert tile is not None
            builder.sizes.remember(division, builder.sizes.emit(division, [value, tile]))


# ---------------------------------------------------------------------------
# Building the map_scatter
# ---------------------------------------------------------------------------


def _relayout_and_indexing(chain: _Chain):
    """The `Relayout` the chain is (or whose inverse it is) and its map_scatter indexing.

    Returns (indexing, sizes per shape of the relayout)."""
    from mini_iree.compiler.layout.map_scatter import map_scatter_indexing
    from mini_iree.compiler.layout.pack_lowering import Slice, shape_of
    from mini_iree.compiler.layout.relayout import Relayout
    from mini_iree.compiler.layout.steps import Pad, Reshape, Transpose

    has_slice = any(isinstance(s, Slice) for s in chain.steps)
    shapes = [shape_of(sizes) for sizes in chain.sizes]
    if not has_slice:
        relayout = Relayout(shapes[0], tuple(chain.steps))
        return map_scatter_indexing(relayout, unpack=False), chain.sizes
    if chain.pad_index is not None:
        raise _Unsupported
    # A slicing chain is the inverse of a padding one: build that and read it backwards.
    inverse = []
    for k in reversed(range(len(chain.steps))):
        step, source_shape = chain.steps[k], shapes[k]
        if isinstance(step, Slice):
            inverse.append(Pad(source_shape))
        elif isinstance(step, Transpose):
            inverse.append(Transpose(inverse_permutation(step.permutation)))
        elif isinstance(step, Reshape):
            inverse.append(Reshape(source_shape, step.reassociation, collapse=not step.collapse))
        else:
            raise _Unsupported
    relayout = Relayout(shapes[-1], tuple(inverse))
    return map_scatter_indexing(relayout, unpack=True), list(reversed(chain.sizes))


def _build_region(builder: _Builder, indexing, sizes, rank: int, true_value) -> tuple[Block, list]:
    """The map_scatter region; the sizes it uses are created (before it) as the stages ask for them."""
    from mini_iree.compiler.layout.map_scatter import InBounds

    block = Block(arg_types=[IndexType()] * rank)
    current: list[SSAValue] = list(block.args)
    mask: SSAValue | None = None
    body: list[Operation] = []
    for stage in indexing.stages:
        if isinstance(stage, InBounds):
            assert stage.bounds_shape is not None
            for position, bound in zip(stage.operands, sizes[stage.bounds_shape]):
                value = builder.materialize(bound)
                bound_value = builder.constant(value) if isinstance(value, int) else value
                cmp = arith.CmpiOp(current[position], bound_value, "ult")
                body.append(cmp)
                if mask is None:
                    mask = cmp.result
                else:
                    both = arith.AndIOp(mask, cmp.result)
                    body.append(both)
                    mask = both.result
            continue
        assert stage.linearize_shape is not None and stage.delinearize_shape is not None
        lin_basis = [builder.materialize(s) for s in sizes[stage.linearize_shape]]
        delin_basis = [builder.materialize(s) for s in sizes[stage.delinearize_shape]]
        # A one-element linearize or delinearize is the identity (MLIR folds both away).
        if len(stage.operands) == 1:
            linear = current[stage.operands[0]]
        else:
            lin = affine.LinearizeIndexOp([current[p] for p in stage.operands], lin_basis, disjoint=True)
            body.append(lin)
            linear = lin.results[0]
        if len(delin_basis) == 1:
            current = [linear]
        else:
            delin = affine.DelinearizeIndexOp(linear, delin_basis)
            body.append(delin)
            current = list(delin.results)
    outputs = [current[p] for p in indexing.result_order]
    if mask is None:
        mask = true_value()
    body.append(iree_linalg_ext.YieldOp(*outputs, mask))
    block.add_ops(body)
    return block, outputs


def _known_multiple(value: SSAValue, factor: int) -> bool:
    """Whether `value` is known to be a multiple of `factor`: a `util.assume.int` whose every
    assumption has a `udiv` that `factor` divides (through `dispatch.workload.ordinal`)."""
    from mini_iree.dialects import iree_tensor_ext, util

    owner = value.owner
    while isinstance(owner, iree_tensor_ext.DispatchWorkloadOrdinalOp):
        value = owner.operand
        owner = value.owner
    if not isinstance(owner, util.AssumeIntOp):
        return False
    index = list(owner.results).index(value)
    row = owner.assumptions.data[index].data
    return bool(row) and all(a.divisor is not None and a.divisor % factor == 0 for a in row)


def _provably_equal(a: SizeExpr, b: SizeExpr) -> bool:
    """Whether two sizes are equal, as far as IREE's ValueBoundsConstraintSet::areEqual shows in
    the cases at hand: the same expression, equal constants, or `ceildiv(x, t) * t` for an `x`
    assumed to be a multiple of `t`."""
    if a == b:
        return True
    if constant_value(a) is not None and constant_value(a) == constant_value(b):
        return True
    for x, y in ((a, b), (b, a)):
        if not (isinstance(x, Op) and x.kind == "mul" and len(x.operands) == 2 and isinstance(y, Dim)):
            continue
        dims = [o for o in x.operands if isinstance(o, Dim)]
        tiles = [constant_value(o) for o in x.operands if constant_value(o) is not None]
        if len(dims) != 1 or len(tiles) != 1 or not isinstance(dims[0].source, SSAValue):
            continue
        apply = dims[0].source.owner
        tile = tiles[0]
        if (
            isinstance(apply, affine.ApplyOp)
            and str(apply.map.data) == f"()[s0] -> ((s0 ceildiv {tile}))"
            and apply.map_operands[0] is y.source
            and _known_multiple(y.source, tile)  # type: ignore[arg-type]
        ):
            return True
    return False


def _build_forward_region(
    builder: _Builder,
    steps: Sequence,
    sizes: Sequence[Sequence[SizeExpr]],
    true_value,
    *,
    grouped: bool,
    low_pads: Sequence[int] | None = None,
) -> Block:
    """The map_store region as IREE builds it, one relayout op at a time (`insertTransformationAtStart`).

    Walking the chain from its source, each step maps the current indices on:
    a transpose reorders them; a reshape is, with `grouped` (IREE 3.13's
    `foldReshapeIntoMapStore`), one `affine.linearize_index` per collapsed group
    or one `affine.delinearize_index` per expanded group, else (September 2025)
    one linearize of every index and one delinearize into the result sizes; a
    pad moves each index by its low padding; a slice masks with `arith.cmpi ult` against its sizes,
    the ops IREE appends before the yield when it folds the slice (with `grouped`,
    none for a slice that keeps the whole source). `sizes[k]` are the sizes the
    k-th step reads.
    """
    from mini_iree.compiler.layout.pack_lowering import Slice
    from mini_iree.compiler.layout.steps import Pad, Reshape, Transpose

    block = Block(arg_types=[IndexType()] * len(sizes[0]))
    current: list[SSAValue] = list(block.args)
    body: list[Operation] = []
    slices: list[tuple[list[SSAValue], Sequence[SizeExpr]]] = []

    def basis(values: Sequence[SizeExpr]) -> list[SSAValue | int]:
        return [builder.materialize(v) for v in values]

    for k, step in enumerate(steps):
        source_sizes, result_sizes = sizes[k], sizes[k + 1]
        if isinstance(step, Transpose):
            current = [current[p] for p in step.permutation]
        elif isinstance(step, Reshape) and grouped:
            groups = step.reassociation
            if step.collapse:
                merged: list[SSAValue] = []
                for group in groups:
                    if len(group) == 1:
                        merged.append(current[group[0]])
                        continue
                    lin = affine.LinearizeIndexOp(
                        [current[d] for d in group], basis([source_sizes[d] for d in group]), disjoint=True
                    )
                    body.append(lin)
                    merged.append(lin.results[0])
                current = merged
            else:
                split: list[SSAValue | None] = [None] * len(result_sizes)
                for source_dim, group in enumerate(groups):
                    if len(group) == 1:
                        split[group[0]] = current[source_dim]
                        continue
                    delin = affine.DelinearizeIndexOp(current[source_dim], basis([result_sizes[d] for d in group]))
                    body.append(delin)
                    for d, result in zip(group, delin.results):
                        split[d] = result
                current = split  # type: ignore[assignment]
        elif isinstance(step, Reshape):
            if len(current) == 1:
                linear = current[0]
            else:
                lin = affine.LinearizeIndexOp(current, basis(source_sizes), disjoint=True)
                body.append(lin)
                linear = lin.results[0]
            if len(result_sizes) == 1:
                current = [linear]
            else:
                delin = affine.DelinearizeIndexOp(linear, basis(result_sizes))
                body.append(delin)
                current = list(delin.results)
        elif isinstance(step, Slice):
            if grouped and all(_provably_equal(a, b) for a, b in zip(source_sizes, result_sizes)):
                continue  # IREE's identity extract_slice: no mask
            slices.append((list(current), result_sizes))
        elif isinstance(step, Pad):
            # A source element lands `low` further on. (IREE 3.13's foldPadIntoMapStore
            # only swaps the map_store's input, which stores a low-padded source at the
            # padding's place: its lit test pins that; this keeps the values right.)
            lows = low_pads or [0] * len(current)
            for d, low in enumerate(lows):
                if low:
                    shifted = arith.AddiOp(current[d], builder.constant(low))
                    body.append(shifted)
                    current[d] = shifted.result
        else:
            raise _Unsupported
    mask: SSAValue | None = None
    # The slice nearest the store is folded first, so its comparisons come first.
    for indices, bounds in reversed(slices):
        for index, bound in zip(indices, bounds):
            value = builder.materialize(bound)
            cmp = arith.CmpiOp(index, builder.constant(value) if isinstance(value, int) else value, "ult")
            body.append(cmp)
            if mask is None:
                mask = cmp.result
            else:
                both = arith.AndIOp(mask, cmp.result)
                body.append(both)
                mask = both.result
    body.append(iree_linalg_ext.YieldOp(*current, mask if mask is not None else true_value()))
    block.add_ops(body)
    return block


def _erase_dead(ops: Sequence[Operation]) -> None:
    """Erase `ops` (a dead chain, last first) and every pure producer that becomes dead with them."""
    worklist = list(ops)
    while worklist:
        op = worklist.pop(0)
        if op.parent is None or any(r.first_use is not None for r in op.results):
            continue
        producers = [o.owner for o in op.operands if isinstance(o.owner, Operation)]
        Rewriter.erase_op(op)
        for producer in producers:
            unused = not any(r.first_use is not None for r in producer.results)
            if producer.parent is not None and producer.has_trait(Pure) and unused:
                worklist.append(producer)


# ---------------------------------------------------------------------------
# Pad distribution (IREE's PadDistributionConfigFn)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DistributionConfig:
    tile_sizes: tuple[int, ...]
    mapping: tuple[Attribute, ...]


def _workgroup_mapping(rank: int) -> list[Attribute]:
    ids = ["x", "y", "z"]
    return [
        iree_codegen.WorkgroupMappingAttr(ids[d]) if d < 3 else iree_codegen.WorkgroupMappingAttr("z", d - 2)
        for d in range(rank)
    ]


def default_pad_distribution(rank: int) -> list[DistributionConfig]:
    """`defaultPadWorkgroupDistributionConfigFn`: tiles 1x..x64 over workgroups, innermost dim on x."""
    tiles = (1,) * (rank - 1) + (64,)
    return [DistributionConfig(tiles, tuple(reversed(_workgroup_mapping(rank))))]


def gpu_pad_distribution(rank: int) -> list[DistributionConfig]:
    """`gpuPadDistributionConfigFn`: workgroups (tiles 1x..x64, dim 0 on x), then single threads."""
    tiles = (1,) * (rank - 1) + (64,)
    threads = tuple(gpu.ThreadMappingAttr(gpu.MappingId(f"linear_dim_{d}")) for d in reversed(range(rank)))
    return [DistributionConfig(tiles, tuple(_workgroup_mapping(rank))), DistributionConfig((1,) * rank, threads)]


def _min_op(builder_insert, iv: SSAValue, step: int, ub: SSAValue | int, entry: Block, compose: bool = False) -> SSAValue | int:
    """`affine.min(iv + step, ub)` composed as makeComposedFoldedAffineMin does."""
    d0 = AffineExpr.dimension(0)
    if isinstance(ub, int):
        op = affine.MinOp([iv], AffineMap(1, 0, (d0 + step, AffineExpr.constant(ub))))
    elif (
        compose
        and isinstance(ub.owner, affine.ApplyOp)
        and ub.owner.map.data.num_dims == 0
        and len(ub.owner.map.data.results) == 1
    ):
        # makeComposedFoldedAffineMin composes the `affine.apply` computing the bound. (In the
        # walkthrough's IREE the bound is still a `tensor.dim` of the pad then, resolved later.)
        apply_map = ub.owner.map.data
        operands = list(ub.owner.map_operands)
        op = affine.MinOp([iv, *operands], AffineMap(1, apply_map.num_symbols, (d0 + step, apply_map.results[0])))
    elif isinstance(ub.owner, Operation) and ub.owner.parent_block() is entry or (
        isinstance(ub.owner, Block) and ub.owner is entry
    ):
        op = affine.MinOp([iv, ub], AffineMap(1, 1, (d0 + step, AffineExpr.symbol(0))))
    else:
        op = affine.MinOp([iv, ub], AffineMap(2, 0, (d0 + step, AffineExpr.dimension(1))))
    builder_insert(op)
    return op.results[0]


def _build_pad_loops(
    lbs: list, ubs: list, configs: list[DistributionConfig], level: int, entry: Block, inner: Callable, compose: bool = False
) -> Operation:
    config = configs[level]
    forall = ForallOp(lbs, ubs, list(config.tile_sizes), mapping=ArrayAttr(list(config.mapping)))
    block = forall.region.block
    terminator = block.last_op
    ivs = list(block.args)

    def insert(op: Operation) -> None:
        Rewriter.insert_op(op, InsertPoint.before(terminator))  # type: ignore[arg-type]

    nested_lbs: list[SSAValue | int] = []
    nested_ubs: list[SSAValue | int] = []
    for iv, lb, step, ub in zip(ivs, lbs, config.tile_sizes, ubs):
        if isinstance(lb, int) and isinstance(ub, int) and ub - lb <= step:
            # One iteration: scf.forall's canonicalization (run by IREE's pass) replaces the
            # induction variable by the lower bound, and the tile's end folds to a constant.
            nested_lbs.append(lb)
            nested_ubs.append(min(lb + step, ub))
        else:
            nested_lbs.append(iv)
            nested_ubs.append(_min_op(insert, iv, step, ub, entry, compose))
    if level + 1 < len(configs):
        insert(_build_pad_loops(nested_lbs, nested_ubs, configs, level + 1, entry, inner, compose))
        return forall
    # Tile to one: an scf.for nest with unit steps around the body.
    one = inner.constant(1)  # type: ignore[attr-defined]
    loops_ivs: list[SSAValue] = []
    outer_insert = insert
    for lb, ub in zip(nested_lbs, nested_ubs):
        if isinstance(lb, int):
            lb = inner.constant(lb)  # type: ignore[attr-defined]
        if isinstance(ub, int):
            ub = inner.constant(ub)  # type: ignore[attr-defined]
        loop_block = Block(arg_types=[IndexType()])
        loop = xdsl_scf.ForOp(lb, ub, one, [], Region(loop_block))
        outer_insert(loop)
        loop_block.add_op(xdsl_scf.YieldOp())
        loops_ivs.append(loop_block.args[0])

        def outer_insert(op: Operation, blk=loop_block) -> None:
            Rewriter.insert_op(op, InsertPoint.before(blk.last_op))  # type: ignore[arg-type]

    inner(outer_insert, loops_ivs)
    return forall


# ---------------------------------------------------------------------------
# The pattern and the passes
# ---------------------------------------------------------------------------


def _collect_chain(
    leaf: SSAValue, control: Callable[[list[Operation]], bool], allow_pad: bool = True
) -> tuple[SSAValue, list[Operation]] | None:
    ops: list[Operation] = []
    value = leaf
    while isinstance(value.owner, Operation) and is_supported_relayout_op(value.owner):
        op = value.owner
        if len(list(value.uses)) != 1:
            break
        if not allow_pad and (
            isinstance(op, tensor.PadOp) or (isinstance(op, linalg.PackOp) and op.padding_value is not None)
        ):
            break
        ops.append(op)
        value = op.operands[0]
    if not ops or not control(ops):
        return None
    ops.reverse()
    return value, ops


def _fold_chain(
    leaf_value: SSAValue,
    store: iree_codegen.StoreToBufferOp | None,
    op_class: type,
    distribution: Callable[[int], list[DistributionConfig]],
    control: Callable[[list[Operation]], bool],
    grouped: bool,
) -> bool:
    """Fold the relayout chain producing `leaf_value` into one map_scatter / map_store.

    A pad is folded only when the chain ends in `store` (its padding is written into the
    stored buffer, IREE's foldPadIntoMapStore); otherwise the chain stops above it.
    """
    found = _collect_chain(leaf_value, control, allow_pad=store is not None)
    if found is None:
        return False
    source, ops = found
    # IREE folds the chain one op at a time from its end: an op it cannot fold stops the
    # folding there. The chain is built whole here; when it cannot be, its tail is tried.
    while True:
        try:
            chain = _chain_steps(source, ops, grouped)
            forward = grouped or chain.has_pad_op
            if not forward:
                indexing, sizes = _relayout_and_indexing(chain)
            break
        except _Unsupported:
            if len(ops) == 1 or not control(ops[1:]):
                return False
            source, ops = ops[0].results[0], ops[1:]
    if chain.pad_index is not None and not _is_constant(chain.pad_value):
        return False
    if any(constant_value(size) == 0 for sizes in chain.sizes for size in sizes):
        # A statically empty tensor has no index space to map: the
        # linearize/delinearize basis would hold a 0, which
        # `affine.linearize_index` rejects. The chain stays as it is.
        return False
    leaf = ops[-1]
    function_block = _entry_block(leaf)
    # The map_scatter and what computes its indices stand for the whole chain.
    builder = _Builder(leaf, function_block, fused_location(ops))
    _compute_divisions(chain, builder)
    true_cell: list[SSAValue] = []

    def true_value() -> SSAValue:
        if not true_cell:
            true_cell.append(builder.constant(1, i1))
        return true_cell[0]

    rank = len(chain.sizes[0])
    try:
        if forward:
            block = _build_forward_region(
                builder, chain.steps, chain.sizes, true_value, grouped=grouped, low_pads=chain.pad_low
            )
        else:
            block, _ = _build_region(builder, indexing, sizes, rank, true_value)
    except _Unsupported:
        return False
    result_sizes = [builder.materialize(s) for s in chain.sizes[-1]]
    result_type = leaf.results[0].type
    empty = tensor.EmptyOp([s for s in result_sizes if not isinstance(s, int)], result_type)
    builder.insert(empty)
    map_op = op_class(source, empty.tensor, Region(block))
    builder.insert(map_op)
    leaf.results[0].replace_all_uses_with(map_op.results[0])
    map_op.results[0].name_hint = None
    if chain.pad_index is not None:
        assert store is not None
        configs = distribution(len(chain.sizes[chain.pad_index + 1]))
        _write_padding(store, map_op, chain, configs, builder, forward=forward, grouped=grouped)
    _erase_dead(list(reversed(ops)))
    return True


@dataclass
class FoldRelayoutChainIntoMapScatterPattern(RewritePattern):
    """From an `iree_codegen.store_to_buffer`, fold its producer relayout chain into one map_scatter
    (IREE's InsertMapScatterOpPattern + FoldRelayoutOpIntoMapScatterPattern + FoldPadOpIntoMapScatterPattern)."""

    op_class: type = iree_linalg_ext.MapScatterOp
    distribution: Callable[[int], list[DistributionConfig]] = default_pad_distribution
    control: Callable[[list[Operation]], bool] = lambda ops: True
    grouped: bool = False
    """IREE 3.13's reshape folding: one linearize / delinearize per reassociation group."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, store: iree_codegen.StoreToBufferOp, rewriter: PatternRewriter) -> None:
        _fold_chain(store.tensor, store, self.op_class, self.distribution, self.control, self.grouped)


def _is_workgroup_insert(insert: tensor.ParallelInsertSliceOp) -> bool:
    """IREE's workgroup-scope control: the only combining op of its `shared_outs` argument, in an
    `scf.forall` mapped to workgroups."""
    in_parallel = insert.parent_op()
    forall = in_parallel.parent_op() if in_parallel is not None else None
    if not isinstance(forall, ForallOp) or forall.mapping is None:
        return False
    if not all(isinstance(m, iree_codegen.WorkgroupMappingAttr) for m in forall.mapping.data):
        return False
    dest = insert.dest
    if not isinstance(dest.owner, Block) or dest.owner is not forall.region.block:
        return False
    combining = [use.operation for use in dest.uses if isinstance(use.operation, tensor.ParallelInsertSliceOp)]
    return len(combining) == 1


def _not_only_reshapes(ops: list[Operation]) -> bool:
    """Chains of reshapes only are left to bufferization (IREE's workgroup scope)."""
    return not all(isinstance(op, tensor.ExpandShapeOp | tensor.CollapseShapeOp) for op in ops)


@dataclass
class FoldRelayoutChainIntoWorkgroupMapStorePattern(RewritePattern):
    """IREE's `workgroup` scope: the relayout chain a workgroup `scf.forall` inserts with
    `tensor.parallel_insert_slice` becomes one map_store inside the loop (pads are not folded:
    there is no stored buffer to write their padding into)."""

    op_class: type = iree_linalg_ext.MapStoreOp
    grouped: bool = True

    @op_type_rewrite_pattern
    def match_and_rewrite(self, insert: tensor.ParallelInsertSliceOp, rewriter: PatternRewriter) -> None:
        if not _is_workgroup_insert(insert):
            return
        _fold_chain(insert.source, None, self.op_class, default_pad_distribution, _not_only_reshapes, self.grouped)


def _is_constant(value: SSAValue | None) -> bool:
    return value is not None and isinstance(value.owner, arith.ConstantOp)


def _entry_block(op: Operation) -> Block:
    current: Operation | None = op
    while current is not None:
        parent = current.parent_op()
        if parent is not None and parent.name in ("func.func", "util.func"):
            block = current.parent_block()
            assert block is not None
            return block
        current = parent
    block = op.parent_block()
    assert block is not None
    return block


def _write_padding(
    store, map_op, chain: _Chain, configs: list[DistributionConfig], builder: _Builder, *, forward: bool, grouped: bool
) -> None:
    """After the store, write the pad value to every padded position, through the rest of the chain.

    IREE's foldPadIntoMapStore: one loop nest for the low and one for the high padding of
    each padded dimension, spanning every other dimension whole.
    """
    from mini_iree.compiler.layout.map_scatter import map_scatter_indexing
    from mini_iree.compiler.layout.relayout import Relayout

    k = chain.pad_index
    assert k is not None
    after = store.next_op
    assert after is not None
    loop_builder = _Builder(after, builder.entry, builder.location, shared=builder)
    padded_sizes = [loop_builder.materialize(s) for s in chain.sizes[k + 1]]
    source_sizes = chain.sizes[k]
    tail_sizes = chain.sizes[k + 1 :]
    rank = len(padded_sizes)

    if k == 0 and not any(chain.pad_low or []):
        # The pad is the chain's first step: the map_scatter region is exactly the index
        # transformation of the padded tensor, which the loops clone (as IREE does).
        transformation = map_op.transformation_region
    else:
        # Otherwise the transformation of the steps after the pad, built once (its sizes
        # go before the map_scatter) and cloned into each loop nest.
        region_builder = _Builder(map_op, builder.entry, builder.location, shared=builder)
        if forward:
            tail_block = _build_forward_region(
                region_builder, chain.steps[k + 1 :], tail_sizes, lambda: region_builder.constant(1, i1), grouped=grouped
            )
        else:
            shapes = [tuple(constant_value(x) for x in sizes) for sizes in chain.sizes]
            tail = Relayout(shapes[k + 1], tuple(chain.steps[k + 1 :]))
            tail_indexing = map_scatter_indexing(tail, unpack=False)
            tail_block, _ = _build_region(
                region_builder, tail_indexing, tail_sizes, rank, lambda: region_builder.constant(1, i1)
            )
        transformation = Region(tail_block)

    def body(insert, ivs: list[SSAValue]) -> None:
        block = transformation.clone().block
        ops = list(block.ops)
        yield_op = ops[-1]
        for arg, iv in zip(block.args, ivs):
            arg.replace_all_uses_with(iv)
        for op in ops[:-1]:
            op.detach()
            insert(op)
        mask = yield_op.operands[-1]
        from xdsl.dialects import memref

        then_block = Block(
            [memref.StoreOp.get(chain.pad_value, store.buffer, list(yield_op.operands[:-1])), xdsl_scf.YieldOp()]
        )
        insert(xdsl_scf.IfOp(mask, [], Region(then_block)))
        yield_op.detach()
        yield_op.erase(safe_erase=False)

    body.constant = loop_builder.constant  # type: ignore[attr-defined]

    def emit(lbs: list, ubs: list) -> None:
        loop = _build_pad_loops(lbs, ubs, configs, 0, builder.entry, body, compose=grouped)
        give_location(loop, builder.location)
        Rewriter.insert_op(loop, InsertPoint.before(after))

    lows = chain.pad_low or [0] * rank
    for dim in range(rank):
        source = source_sizes[dim]
        padded = chain.sizes[k + 1][dim]
        low = lows[dim]
        if low:
            ubs = list(padded_sizes)
            ubs[dim] = low
            emit([0] * rank, ubs)
        if source == padded or (constant_value(source) is not None and constant_value(source) + low == constant_value(padded)):  # type: ignore[operator]
            continue  # no high padding in this dim
        lbs: list = [0] * rank
        static_source = constant_value(source)
        lbs[dim] = static_source + low if static_source is not None else loop_builder.materialize(source)
        assert static_source is not None or not low
        emit(lbs, list(padded_sizes))


def _dispatch_control(ops: list[Operation]) -> bool:
    return True


def _dispatch_reshape_control(ops: list[Operation]) -> bool:
    """3.13's `dispatch-reshape` scope: only chains that contain an expand/collapse."""
    return any(isinstance(op, tensor.ExpandShapeOp | tensor.CollapseShapeOp) for op in ops)


def _erase_trivially_dead(module: ModuleOp) -> None:
    """What MLIR's greedy pattern driver does to every op it visits: erase side-effect free ops
    without uses (e.g. the dispatch-tensor subspans bufferization left behind)."""
    from xdsl.transforms.dead_code_elimination import is_trivially_dead

    from mini_iree.compiler.analysis.functions import functions

    for function in functions(module, nested=True):
        changed = True
        while changed:
            changed = False
            for op in reversed(list(function.walk())):
                if op is function or op.parent is None or not op.results or op.regions:
                    continue
                if is_trivially_dead(op):
                    Rewriter.erase_op(op)
                    changed = True


def _propagate(module: ModuleOp, *, by_expansion: bool) -> None:
    """IREE's propagation before the combination: reshapes (the `dispatch` scope only) and
    unpacks sink below an elementwise consumer (`compiler/combine_layout/propagation.py`)."""
    from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriteWalker

    from mini_iree.compiler.combine_layout.propagation import (
        FoldWithProducerReshapeOpByExpansion,
        PushDownUnPackOpThroughGenericOp,
    )

    patterns: list[RewritePattern] = [PushDownUnPackOpThroughGenericOp()]
    if by_expansion:
        patterns.insert(0, FoldWithProducerReshapeOpByExpansion())
    if not any(isinstance(op, linalg.GenericOp) for op in module.walk()):
        return
    PatternRewriteWalker(GreedyRewritePatternApplier(patterns)).rewrite_module(module)
    _erase_trivially_dead(module)


def _combine(module: ModuleOp, op_class: type, distribution, control, *, grouped: bool = False, by_expansion: bool = True) -> None:
    _propagate(module, by_expansion=by_expansion)
    SelectivePatternRewriteWalker(
        FoldRelayoutChainIntoMapScatterPattern(op_class, distribution, control, grouped), apply_recursively=False
    ).rewrite_module(module)
    _erase_trivially_dead(module)


def _combine_workgroup(module: ModuleOp, op_class: type, *, grouped: bool) -> None:
    _propagate(module, by_expansion=False)
    SelectivePatternRewriteWalker(
        FoldRelayoutChainIntoWorkgroupMapStorePattern(op_class, grouped), apply_recursively=False
    ).rewrite_module(module)
    _erase_trivially_dead(module)


@dataclass(frozen=True)
class CombineLayoutTransformationPass(ModulePass):
    """Relayout chains ending in `store_to_buffer` -> one `iree_linalg_ext.map_scatter` (+ padding loops).

    `scope=workgroup`: chains a workgroup `scf.forall` inserts with `tensor.parallel_insert_slice`.
    """

    name = "iree-codegen-combine-layout-transformation"

    scope: str = "dispatch"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.scope == "workgroup":
            _combine_workgroup(op, iree_linalg_ext.MapScatterOp, grouped=False)
            return
        if self.scope != "dispatch":
            raise PassFailedException(
                f"scope '{self.scope}' is not supported: 'dispatch' or 'workgroup'"
            )
        _combine(op, iree_linalg_ext.MapScatterOp, default_pad_distribution, _dispatch_control)


@dataclass(frozen=True)
class GPUCombineLayoutTransformationPass(ModulePass):
    """The GPU pipeline's variant: dispatch scope, padding distributed to workgroups then threads (dump 23).

    Each padded dimension gets a workgroup `scf.forall` (tiles of 1 x ... x 64, dim 0 on
    `workgroup_mapping<x>`) holding a thread `scf.forall` of unit steps mapped to
    `#gpu.thread<linear_dim_{rank-1}> ... <linear_dim_0>`, whose body is a unit `scf.for`
    nest around the masked `memref.store`. `data-tiling-codegen` runs it on rocm executables
    (`for-target-backends`); CPU and VMVX executables get the plain pass.
    """

    name = "iree-codegen-gpu-combine-layout-transformation"

    # The IREE this pass follows (`--iree-era`): 3.13's prints `map_store`, folds reshapes group
    # by group and only combines chains with a pack, unpack, reshape or pad in them.
    era: str | float = field(default_factory=lambda: _run_era_name())

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from mini_iree.compiler.era import option_era

        if not option_era(self.era, "era").grouped_relayout_folding:
            _combine(op, iree_linalg_ext.MapScatterOp, gpu_pad_distribution, _dispatch_control)
            return
        _combine(op, iree_linalg_ext.MapStoreOp, gpu_pad_distribution, _gpu_relayout_control, grouped=True)


def _run_era_name() -> str:
    from mini_iree.compiler.era import run_era

    return run_era().name


def _gpu_relayout_control(ops: list[Operation]) -> bool:
    """IREE 3.13's gpuRelayoutCombinationControlFn: simple chains (copies, transposes, slices)
    are left to bufferization."""
    return any(
        isinstance(op, linalg.PackOp | linalg.UnPackOp | tensor.ExpandShapeOp | tensor.CollapseShapeOp | tensor.PadOp)
        for op in ops
    )


@dataclass(frozen=True)
class CombineResultLayoutTransformationPass(ModulePass):
    """IREE 3.13's name: the same folding, printing `iree_linalg_ext.map_store`, each reshape
    folded group by group (3.13's foldReshapeIntoMapStore)."""

    name = "iree-codegen-combine-result-layout-transformation"

    scope: str = "dispatch"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.scope == "workgroup":
            _combine_workgroup(op, iree_linalg_ext.MapStoreOp, grouped=True)
            return
        if self.scope not in ("dispatch", "dispatch-reshape"):
            raise PassFailedException(
                f"scope '{self.scope}' is not supported: 'dispatch', 'dispatch-reshape' or 'workgroup'"
            )
        control = _dispatch_reshape_control if self.scope == "dispatch-reshape" else _dispatch_control
        by_expansion = self.scope == "dispatch"
        _combine(op, iree_linalg_ext.MapStoreOp, default_pad_distribution, control, grouped=True, by_expansion=by_expansion)
