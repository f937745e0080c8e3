"""``iree-codegen-combine-source-layout-transformation``: relayouts read at a dispatch's start -> one ``map_load``.

The mirror of combine-layout-transformation (which folds the relayouts a
dispatch writes into one ``iree_linalg_ext.map_store``): a chain of relayout
ops reading what an ``iree_codegen.load_from_buffer`` loaded (reshapes,
transposes, slices, pads, broadcasts, packs, unpacks, copies) becomes a single
``iree_linalg_ext.map_load`` that computes, for every element it produces,
where in the loaded tensor to read it:

```mlir
%src = iree_codegen.load_from_buffer %buf : memref<8x16xf32> -> tensor<8x16xf32>
%e = tensor.expand_shape %src [[0, 1], [2]] output_shape [2, 4, 16] : ...
%t = linalg.transpose ins(%e : tensor<2x4x16xf32>) outs(%i : tensor<16x2x4xf32>) permutation = [2, 0, 1]
```

becomes

```mlir
%ml = iree_linalg_ext.map_load %src into %dest {
^bb0(%i0: index, %i1: index, %i2: index):
  %row = affine.linearize_index disjoint [%i1, %i2] by (2, 4) : index
  iree_linalg_ext.yield %row, %i0, %pad : index, index, f32
} : tensor<8x16xf32> into tensor<16x2x4xf32> -> tensor<16x2x4xf32>
```

As IREE's pass (Codegen/Common/CombineLayoutTransformation.cpp), two patterns
run to a fixed point:

* ``InsertMapLoadOpPattern`` puts an identity ``map_load`` (padding value
  ``ub.poison``) after a ``load_from_buffer`` whose result starts a *complex*
  relayout chain: two ops or more, a reshape among them, not only reshapes and
  slices, and no op carrying a ``lowering_config`` (those are roots of later
  tiling). ``test-combine-non-complex-chains`` takes every chain.
* ``FoldConsumerRelayoutIntoMapLoadPattern`` folds the ``map_load``'s first
  relayout consumer into it: a new ``map_load`` of the consumer's shape whose
  region first maps the new indices to the old ones (a permutation for a
  transpose, ``linearize_index`` + ``delinearize_index`` for a reshape,
  ``offset + index * stride`` for a slice, ``index - low`` for a pad, whose
  value becomes the padding value, only if the current one is still poison),
  then runs the old region. A pack or unpack folds as the pad / expand /
  transpose, or transpose / collapse / slice, that ``lowerPack`` /
  ``lowerUnPack`` make of it (``compiler/layout/pack_lowering.py``).

The index arithmetic is left for ``canonicalize`` and ``cse`` to simplify, as
IREE's tests run them after this pass.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, ub
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.utils import get_dynamic_index_list
from xdsl.ir import Attribute, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from mini_iree.compiler.ir.dynamic_dims import get_dynamic_dims
from mini_iree.compiler.ir.locations import give_location
from mini_iree.compiler.ir.queries import is_broadcast_op_interface, transpose_like_permutation
from mini_iree.compiler.layout.pack_lowering import SizedStep, pack_steps, unpack_steps
from mini_iree.compiler.layout.size_expr import constant_value
from mini_iree.compiler.layout.steps import Pad, Reshape, Transpose
from mini_iree.dialects import affine, iree_codegen, iree_linalg_ext, linalg, tensor

__all__ = [
    "CombineSourceLayoutTransformationPass",
    "FoldConsumerRelayoutIntoMapLoadPattern",
    "InsertMapLoadOpPattern",
]

Mixed = int | SSAValue
IndexTransform = Callable[[Sequence[BlockArgument]], tuple[list[Operation], list[SSAValue]]]


# ---------------------------------------------------------------------------
# Which ops extend a relayout chain
# ---------------------------------------------------------------------------


def _transpose_permutation(op: Operation) -> tuple[int, ...] | None:
    """The permutation of a `linalg.transpose` or a transpose-like generic (`isaTransposeOpInterface`)."""
    if isinstance(op, linalg.TransposeOp):
        return tuple(op.permutation.get_values())
    return transpose_like_permutation(op)


def _is_relayout_for_result(op: Operation) -> bool:
    """IREE's isSupportedSingleInputRelayoutOpForResult."""
    if isinstance(
        op,
        tensor.ExpandShapeOp
        | tensor.CollapseShapeOp
        | tensor.ExtractSliceOp
        | tensor.PadOp
        | linalg.CopyOp
        | linalg.TransposeOp
        | linalg.PackOp
        | linalg.UnPackOp,
    ):
        return True
    return transpose_like_permutation(op) is not None


def _is_relayout_for_source(op: Operation) -> bool:
    """IREE's isSupportedSingleInputRelayoutOpForSource: the result side's ops, and broadcasts."""
    return _is_relayout_for_result(op) or isinstance(op, linalg.BroadcastOp) or is_broadcast_op_interface(op)


def _dps_inputs(op: Operation) -> list[SSAValue] | None:
    """The inputs of a destination-style op (None for an op that is not one)."""
    if isinstance(op, linalg.PackOp | linalg.UnPackOp):
        return [op.source]
    inputs = getattr(op, "inputs", None)
    if inputs is not None and getattr(op, "outputs", None) is not None:
        return list(inputs)
    return None


def _extends_chain(user: Operation, value: SSAValue) -> bool:
    """IREE's isRelayoutChainExtension: a relayout op reading `value` (as an input, for a DPS op)."""
    if not _is_relayout_for_source(user):
        return False
    inputs = _dps_inputs(user)
    return inputs is None or value in inputs


def _users(value: SSAValue) -> list[Operation]:
    seen: list[Operation] = []
    for use in value.uses:
        if use.operation not in seen:
            seen.append(use.operation)
    return seen


def _collect_chain(op: Operation, chain: list[Operation]) -> None:
    if op in chain:
        return
    chain.append(op)
    result = op.results[0]
    for user in _users(result):
        if _extends_chain(user, result):
            _collect_chain(user, chain)


def _is_complex_chain(op: Operation) -> bool:
    """IREE's isComplexRelayoutChain: what bufferization handles badly, and no tiling root in it."""
    chain: list[Operation] = []
    _collect_chain(op, chain)
    if len(chain) < 2:
        return False
    reshapes = (tensor.ExpandShapeOp, tensor.CollapseShapeOp)
    if not any(isinstance(o, reshapes) for o in chain):
        return False
    if all(isinstance(o, (*reshapes, tensor.ExtractSliceOp)) for o in chain):
        return False
    return not any("lowering_config" in o.attributes for o in chain)


# ---------------------------------------------------------------------------
# Building map_loads
# ---------------------------------------------------------------------------


def _mixed_sizes(value: SSAValue, point: InsertPoint) -> list[Mixed]:
    """`tensor::getMixedSizes`: static sizes as ints, dynamic ones as values (reified where known)."""
    shape = value.type.get_shape()  # type: ignore[attr-defined]
    dynamic = iter(get_dynamic_dims(value, point))
    return [next(dynamic) if s == DYNAMIC_INDEX else s for s in shape]


def _index_value(value: Mixed, ops: list[Operation]) -> SSAValue:
    """`getValueOrCreateConstantIndexOp`."""
    if isinstance(value, SSAValue):
        return value
    constant = arith.ConstantOp(IntegerAttr(value, IndexType()))
    ops.append(constant)
    return constant.result


_NSW = arith.IntegerOverflowAttr([arith.IntegerOverflowFlag.NSW])


def _nsw(op: Operation) -> Operation:
    op.properties["overflowFlags"] = _NSW
    return op


def _identity_map_load(source: SSAValue, dest: SSAValue) -> iree_linalg_ext.MapLoadOp:
    """`MapLoadOp::createIdentityMapLoad`: each index read where it is, padding value `ub.poison`."""
    from xdsl.ir import Block

    rank = dest.type.get_num_dims()  # type: ignore[attr-defined]
    block = Block(arg_types=[IndexType()] * rank)
    poison = ub.PoisonOp(dest.type.get_element_type())  # type: ignore[attr-defined]
    block.add_ops([poison, iree_linalg_ext.YieldOp(*block.args, poison.result)])
    return iree_linalg_ext.MapLoadOp(source, dest, Region(block))


def _fold_into(
    rewriter: PatternRewriter,
    replaced: Operation | None,
    at: Operation,
    map_load: iree_linalg_ext.MapLoadOp,
    result_type: TensorType,
    dynamic_sizes: Sequence[SSAValue],
    transform: IndexTransform,
    fill: SSAValue | None = None,
) -> iree_linalg_ext.MapLoadOp:
    """IREE's foldConsumerIntoMapLoadImpl: a new map_load of `result_type`, before `at`, whose region maps
    its indices to the old map_load's (`transform`), then runs the old region; it replaces `replaced`."""
    empty = tensor.EmptyOp(list(dynamic_sizes), result_type)
    region = map_load.transformation_region.clone()
    block = region.block
    old_args = list(block.args)
    new_args = [block.insert_arg(IndexType(), len(block.args)) for _ in range(result_type.get_num_dims())]
    ops, values = transform(new_args)
    first = block.first_op
    if ops:
        if first is None:
            block.add_ops(ops)
        else:
            block.insert_ops_before(ops, first)
    for old, new in zip(old_args, values, strict=True):
        old.replace_all_uses_with(new)
    for old in old_args:
        block.erase_arg(old)
    if fill is not None:
        terminator = block.last_op
        assert isinstance(terminator, iree_linalg_ext.YieldOp)
        terminator.operands = (*terminator.operands[:-1], fill)
    new_map_load = iree_linalg_ext.MapLoadOp(map_load.source, empty.tensor, region)
    # New ops keep the location of the op they stand for (the index ops the region gains too;
    # the ops it had keep theirs).
    give_location([empty, new_map_load], at.location)
    if replaced is not None:
        rewriter.replace(replaced, [empty, new_map_load], [new_map_load.result])
    else:
        rewriter.insert([empty, new_map_load], InsertPoint.before(at))
    return new_map_load


def _permutation_transform(perm: Sequence[int]) -> IndexTransform:
    """A transpose: old index `perm[j]` is new index `j` (`applyPermutation` by the inverse)."""

    def transform(new: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
        old: list[SSAValue] = [new[0]] * len(perm)
        for j, p in enumerate(perm):
            old[p] = new[j]
        return [], old

    return transform


def _reshape_transform(result_sizes: Sequence[Mixed], source_sizes: Sequence[Mixed]) -> IndexTransform:
    """A reshape: linearize in the result's shape, delinearize in the source's."""

    def transform(new: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
        lin = affine.LinearizeIndexOp(list(new), list(result_sizes), disjoint=True)
        delin = affine.DelinearizeIndexOp(lin.linear_index, list(source_sizes), has_outer_bound=True)
        return [lin, delin], list(delin.multi_index)

    return transform


def _slice_transform(offsets: Sequence[Mixed], strides: Sequence[Mixed]) -> IndexTransform:
    """An extract_slice: `offset + index * stride`."""

    def transform(new: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
        ops: list[Operation] = []
        old: list[SSAValue] = []
        for index, offset, stride in zip(new, offsets, strides, strict=True):
            offset_value = _index_value(offset, ops)
            stride_value = _index_value(stride, ops)
            scaled = _nsw(arith.MuliOp(index, stride_value))
            original = _nsw(arith.AddiOp(offset_value, scaled.results[0]))
            ops += [scaled, original]
            old.append(original.results[0])
        return ops, old

    return transform


def _pad_transform(low: Sequence[Mixed]) -> IndexTransform:
    """A pad: `index - low`."""

    def transform(new: Sequence[BlockArgument]) -> tuple[list[Operation], list[SSAValue]]:
        ops: list[Operation] = []
        old: list[SSAValue] = []
        for index, amount in zip(new, low, strict=True):
            low_value = _index_value(amount, ops)
            source_index = _nsw(arith.SubiOp(index, low_value))
            ops.append(source_index)
            old.append(source_index.results[0])
        return ops, old

    return transform


def _broadcast_input_dims(op: Operation) -> list[int] | None:
    """The loops a broadcast's input reads, in order (its input map's dims)."""
    if isinstance(op, linalg.BroadcastOp):
        added = set(op.dimensions.get_values())
        rank = op.outputs[0].type.get_num_dims()  # type: ignore[attr-defined]
        return [d for d in range(rank) if d not in added]
    if is_broadcast_op_interface(op):
        in_map = op.indexing_maps.data[0].data  # type: ignore[attr-defined]
        return [e.position for e in in_map.results if isinstance(e, AffineDimExpr)]
    return None


def _is_poison(value: SSAValue) -> bool:
    return isinstance(value.owner, ub.PoisonOp)


def _constant_padding_value(op: tensor.PadOp) -> SSAValue | None:
    """`PadOp::getConstantPaddingValue`: the yielded value, when defined outside the pad or a constant."""
    terminator = op.region.block.last_op
    if terminator is None or len(terminator.operands) != 1:
        return None
    value = terminator.operands[0]
    owner = value.owner
    if isinstance(owner, Operation) and owner.parent_op() is op:
        return value if isinstance(owner, arith.ConstantOp) else None
    if isinstance(value, BlockArgument) and value.owner.parent_op() is op:  # type: ignore[union-attr]
        return None
    return value


def _zero_of(element: Attribute) -> arith.ConstantOp:
    if isinstance(element, IntegerType | IndexType):
        return arith.ConstantOp(IntegerAttr(0, element))
    return arith.ConstantOp(FloatAttr(0.0, element))  # type: ignore[arg-type]


def _static_shape(value: SSAValue) -> tuple[int, ...] | None:
    shape = tuple(value.type.get_shape())  # type: ignore[attr-defined]
    return None if DYNAMIC_INDEX in shape else shape


# ---------------------------------------------------------------------------
# Folding one consumer
# ---------------------------------------------------------------------------


@dataclass
class _Folder:
    rewriter: PatternRewriter

    def fold(self, op: Operation, map_load: iree_linalg_ext.MapLoadOp) -> bool:
        """IREE's foldIntoMapLoad: fold the relayout `op` reading `map_load`'s result into it."""
        if isinstance(op, linalg.CopyOp):
            # Identity-like: the copy is the map_load's value.
            self.rewriter.replace(op, [], [map_load.result])
            return True
        perm = _transpose_permutation(op)
        if perm is not None:
            return self._fold_step(op, op, map_load, _permutation_transform(perm)) is not None
        if isinstance(op, tensor.ExpandShapeOp | tensor.CollapseShapeOp):
            return self._fold_reshape(op, map_load)
        if isinstance(op, tensor.ExtractSliceOp):
            return self._fold_slice(op, map_load)
        if isinstance(op, tensor.PadOp):
            return self._fold_pad(op, map_load)
        if isinstance(op, linalg.PackOp):
            return self._fold_pack(op, map_load)
        if isinstance(op, linalg.UnPackOp):
            return self._fold_unpack(op, map_load)
        dims = _broadcast_input_dims(op)
        if dims is not None:
            return self._fold_step(op, op, map_load, lambda new: ([], [new[d] for d in dims])) is not None
        return False

    def _fold_step(
        self,
        op: Operation,
        at: Operation,
        map_load: iree_linalg_ext.MapLoadOp,
        transform: IndexTransform,
        fill: SSAValue | None = None,
    ) -> iree_linalg_ext.MapLoadOp | None:
        dynamic = self._reified_dynamic_sizes(op, map_load)
        if dynamic is None:
            return None
        return _fold_into(self.rewriter, op, at, map_load, op.results[0].type, dynamic, transform, fill)  # type: ignore[arg-type]

    def _reified_dynamic_sizes(self, op: Operation, map_load: iree_linalg_ext.MapLoadOp) -> list[SSAValue] | None:
        """`reifyShapeOfResult`: the consumer's dynamic result sizes, from its operands (None: not known)."""
        result_type = op.results[0].type
        if DYNAMIC_INDEX not in result_type.get_shape():  # type: ignore[attr-defined]
            return []
        if isinstance(op, tensor.ExtractSliceOp):
            return list(op.sizes)
        if isinstance(op, tensor.ExpandShapeOp):
            return list(op.output_shape)
        if isinstance(op, tensor.PadOp):
            source = _mixed_sizes(map_load.output, InsertPoint.before(op))
            low = op.static_low.get_values()
            high = op.static_high.get_values()
            sizes = []
            for d, extent in enumerate(result_type.get_shape()):  # type: ignore[attr-defined]
                if extent != DYNAMIC_INDEX:
                    continue
                if op.low or op.high or low[d] + high[d] != 0 or not isinstance(source[d], SSAValue):
                    return None  # a size the padding changes: not folded
                sizes.append(source[d])
            return sizes
        outputs = getattr(op, "outputs", None)
        if outputs:
            return get_dynamic_dims(outputs[0], InsertPoint.before(op))
        return None

    def _fold_reshape(self, op: Operation, map_load: iree_linalg_ext.MapLoadOp) -> bool:
        # A rank-0 side has no index to linearize or delinearize.
        if op.operands[0].type.get_num_dims() == 0 or op.results[0].type.get_num_dims() == 0:  # type: ignore[attr-defined]
            return False
        source_sizes = _mixed_sizes(map_load.output, InsertPoint.before(op))
        dynamic = self._reified_dynamic_sizes(op, map_load)
        if dynamic is None:
            return False
        sizes = iter(dynamic)
        result_sizes = [next(sizes) if s == DYNAMIC_INDEX else s for s in op.results[0].type.get_shape()]  # type: ignore[attr-defined]
        return self._fold_step(op, op, map_load, _reshape_transform(result_sizes, source_sizes)) is not None

    def _fold_slice(self, op: tensor.ExtractSliceOp, map_load: iree_linalg_ext.MapLoadOp) -> bool:
        if op.source.type.get_num_dims() != op.result.type.get_num_dims():  # type: ignore[attr-defined]
            return False  # rank-reducing slices are not folded
        offsets = get_dynamic_index_list(op.static_offsets.get_values(), op.offsets, DYNAMIC_INDEX)
        strides = get_dynamic_index_list(op.static_strides.get_values(), op.strides, DYNAMIC_INDEX)
        return self._fold_step(op, op, map_load, _slice_transform(offsets, strides)) is not None

    def _fold_pad(self, op: tensor.PadOp, map_load: iree_linalg_ext.MapLoadOp) -> bool:
        value = _constant_padding_value(op)
        # A pad whose map_load already pads with a real value would overwrite it.
        if value is None or not _is_poison(map_load.padding_value):
            return False
        low = get_dynamic_index_list(op.static_low.get_values(), op.low, DYNAMIC_INDEX)
        return self._fold_step(op, op, map_load, _pad_transform(low), fill=value) is not None

    def _fold_pack(self, op: linalg.PackOp, map_load: iree_linalg_ext.MapLoadOp) -> bool:
        """lowerPack's [pad] -> expand_shape -> transpose, folded one after the other (static shapes)."""
        source_shape, dest_shape = _static_shape(op.source), _static_shape(op.result)
        if source_shape is None or dest_shape is None or DYNAMIC_INDEX in op.get_static_tiles():
            return False
        steps = pack_steps(source_shape, op.get_inner_dims_pos(), op.get_static_tiles(), op.get_outer_dims_perm())
        if any(isinstance(s.step, Pad) for s in steps) and not _is_poison(map_load.padding_value):
            return False

        def padding_value() -> SSAValue:
            # lowerPack pads with the pack's padding value, else a zero it creates.
            if op.padding_value is not None:
                return op.padding_value
            zero = _zero_of(op.result.type.get_element_type())
            zero.location = op.location
            self.rewriter.insert(zero, InsertPoint.before(op))
            return zero.result

        self._fold_steps(op, map_load, steps, padding_value)
        return True

    def _fold_unpack(self, op: linalg.UnPackOp, map_load: iree_linalg_ext.MapLoadOp) -> bool:
        """lowerUnPack's transpose -> collapse_shape -> extract_slice -> copy, folded one after the other."""
        source_shape, dest_shape = _static_shape(op.source), _static_shape(op.result)
        if source_shape is None or dest_shape is None or DYNAMIC_INDEX in op.get_static_tiles():
            return False
        steps = unpack_steps(source_shape, op.get_inner_dims_pos(), op.get_outer_dims_perm(), dest_shape)
        self._fold_steps(op, map_load, steps, None)
        return True

    def _fold_steps(
        self,
        op: Operation,
        map_load: iree_linalg_ext.MapLoadOp,
        steps: Sequence[SizedStep],
        padding_value: Callable[[], SSAValue] | None,
    ) -> None:
        """Fold the static steps a pack or unpack lowers to, one map_load each; the last replaces `op`."""
        element = op.results[0].type.get_element_type()  # type: ignore[attr-defined]
        current = map_load
        for index, sized in enumerate(steps):
            shape = tuple(constant_value(s) for s in sized.sizes)
            fill: SSAValue | None = None
            if isinstance(sized.step, Pad):
                assert padding_value is not None
                transform, fill = _pad_transform([0] * len(shape)), padding_value()
            elif isinstance(sized.step, Reshape):
                source_sizes = list(current.output.type.get_shape())  # type: ignore[attr-defined]
                transform = _reshape_transform(list(shape), source_sizes)
            elif isinstance(sized.step, Transpose):
                transform = _permutation_transform(sized.step.permutation)
            else:  # the slice an unpack drops its padding with: zero offsets, unit strides
                transform = _slice_transform([0] * len(shape), [1] * len(shape))
            replaced = op if index == len(steps) - 1 else None
            previous = current
            current = _fold_into(self.rewriter, replaced, op, current, TensorType(element, shape), [], transform, fill)
            if previous is not map_load:
                _erase_if_dead(self.rewriter, previous)


def _erase_if_dead(rewriter: PatternRewriter, map_load: iree_linalg_ext.MapLoadOp) -> None:
    """A map_load on tensors nothing reads any more goes, with the `tensor.empty` it wrote into."""
    if map_load.result is None or map_load.result.uses:
        return
    dest = map_load.output.owner
    rewriter.erase(map_load)
    if isinstance(dest, tensor.EmptyOp) and not dest.tensor.uses:
        rewriter.erase(dest)


# ---------------------------------------------------------------------------
# Patterns and pass
# ---------------------------------------------------------------------------


@dataclass
class InsertMapLoadOpPattern(RewritePattern):
    """An identity map_load after a `load_from_buffer` whose result starts a complex relayout chain."""

    combine_non_complex_chains: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: iree_codegen.LoadFromBufferOp, rewriter: PatternRewriter) -> None:
        loaded = op.tensor
        if loaded.type.get_num_dims() == 0:  # type: ignore[attr-defined]
            return  # a map_load has a non-zero rank
        users = [
            user
            for user in _users(loaded)
            if _extends_chain(user, loaded) and (self.combine_non_complex_chains or _is_complex_chain(user))
        ]
        if not users or any(isinstance(user, iree_linalg_ext.MapLoadOp) for user in _users(loaded)):
            return
        point = InsertPoint.after(op)
        dynamic = [s for s in _mixed_sizes(loaded, point) if isinstance(s, SSAValue)]
        empty = tensor.EmptyOp(dynamic, loaded.type)
        map_load = _identity_map_load(loaded, empty.tensor)
        give_location([empty, map_load], op.location)
        rewriter.insert([empty, map_load], point)
        for use in list(loaded.uses):
            if use.operation in users:
                use.operation.operands[use.index] = map_load.result  # type: ignore[index]


class FoldConsumerRelayoutIntoMapLoadPattern(RewritePattern):
    """Fold the map_load's first relayout consumer into it."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: iree_linalg_ext.MapLoadOp, rewriter: PatternRewriter) -> None:
        result = op.result
        if result is None:
            return
        consumer = next((user for user in _users(result) if _extends_chain(user, result)), None)
        if consumer is None:
            return
        if _Folder(rewriter).fold(consumer, op):
            _erase_if_dead(rewriter, op)


@dataclass(frozen=True)
class CombineSourceLayoutTransformationPass(ModulePass):
    """Relayout chains reading a `load_from_buffer` -> one `iree_linalg_ext.map_load`."""

    name = "iree-codegen-combine-source-layout-transformation"

    # Take every relayout chain, not only the complex ones (IREE's test option).
    test_combine_non_complex_chains: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        patterns: list[RewritePattern] = [
            InsertMapLoadOpPattern(self.test_combine_non_complex_chains),
            FoldConsumerRelayoutIntoMapLoadPattern(),
        ]
        PatternRewriteWalker(GreedyRewritePatternApplier(patterns), apply_recursively=True).rewrite_module(op)
