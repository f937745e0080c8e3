"""``iree-dispatch-creation-hoist-encoding-ops``: move encoding ops out of dispatches.

SetEncoding leaves its ``set_encoding`` ops inside the dispatch of the op they
feed. Hoisted before the region they become relayouts of the dispatch's inputs,
which later passes fuse into the producers' dispatches or into globals. Before
hoisting, encodings are propagated locally (inside one dispatch) so that cheap
elementwise ops run on the encoded layout too:

- a ``set_encoding`` moves up through a broadcast or bit-extend (dequant)
  producer onto that producer's inputs;
- an ``unset_encoding`` moves down through a parallel elementwise consumer,
  whose other inputs get a ``set_encoding`` (then hoisted as well).

Each propagated encoding records the map it went through by appending it to its
operand's ``user_indexing_maps`` entry (``[#root_map, #map]``).

The two propagations are IREE's patterns (``BubbleUpSetEncodingOp``,
``SinkUnsetEncodingOp``), applied to a fixed point; the hoisting that follows
is a walk, as IREE's ``hoistOutOfDispatch`` loop is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, ModuleOp, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import ConstantLike

from mini_iree.compiler.analysis.const_expr import ConstExprAnalysis, ConstExprHoistingPolicy, Outcome
from mini_iree.compiler.analysis.dispatch_regions import (
    backward_slice_in_dispatch,
    enclosing_dispatch_region,
    erase_if_dead,
    hoist_out_of_dispatch,
    is_defined_inside,
)
from mini_iree.compiler.analysis.encoding_dims import rematerialize_encoding_dims
from mini_iree.compiler.analysis.encoding_properties import loop_size_carrier
from mini_iree.compiler.era import run_era
from mini_iree.compiler.ir.dynamic_dims import get_dynamic_dims
from mini_iree.compiler.ir.queries import (
    instance_test,
    is_bit_extend_op,
    is_broadcasting_op,
    nested_ops,
    side_effect_free,
)
from mini_iree.compiler.ir.selective_walker import SelectivePatternRewriteWalker
from mini_iree.dialects import flow, iree_encoding, linalg, tensor

# ---------------------------------------------------------------------------
# Helpers on linalg.generic
# ---------------------------------------------------------------------------


def _is_permutation(affine_map: AffineMap) -> bool:
    return affine_map.num_dims == len(affine_map.results) and affine_map.is_projected_permutation()


def _is_identity(affine_map: AffineMap) -> bool:
    return affine_map == AffineMap.identity(affine_map.num_dims)


def _all_parallel(op: linalg.GenericOp) -> bool:
    return all(it.data.value == "parallel" for it in op.iterator_types.data)


def _clone_generic(
    op: linalg.GenericOp, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue], result_types: Sequence[Attribute]
) -> linalg.GenericOp:
    new_op = linalg.GenericOp(
        list(inputs),
        list(outputs),
        op.body.clone(),
        op.indexing_maps,
        op.iterator_types,
        list(result_types),
        op.doc,
        op.library_call,
    )
    new_op.attributes |= op.attributes
    return new_op


def _with_encoding(ty: Attribute, encoding: Attribute) -> TensorType:
    assert isinstance(ty, TensorType)
    return TensorType(ty.get_element_type(), ty.get_shape(), encoding)


def _append_map(encoding: iree_encoding.EncodingAttr, affine_map: AffineMap) -> iree_encoding.EncodingAttr:
    return encoding.clone_with_new_operand_indexing_map(affine_map)


def _same_dispatch(a: Operation, b: Operation) -> flow.DispatchRegionOp | None:
    region = enclosing_dispatch_region(a)
    return region if region is not None and region is enclosing_dispatch_region(b) else None


# ---------------------------------------------------------------------------
# Local propagation: bubble set_encoding up
# ---------------------------------------------------------------------------


def _bubbles_through(producer: Operation, encoding: iree_encoding.EncodingAttr) -> bool:
    """IREE's ``bubbleUpSetEncodingThroughGenericOp`` conditions on the producer.

    A bit-extend (dequant) or broadcast generic with one use, one tensor.empty
    init, only parallel loops and an output map whose dims are the loops of the
    encoding's last map. IREE wants that map to be the identity; any
    permutation works here, since each input's map is composed with its
    inverse.
    """
    if not isinstance(producer, linalg.GenericOp) or not (is_bit_extend_op(producer) or is_broadcasting_op(producer)):
        return False
    if len(producer.res) != 1 or not producer.res[0].has_one_use() or len(producer.outputs) != 1:
        return False
    if not _all_parallel(producer) or not isinstance(producer.outputs[0].owner, tensor.EmptyOp):
        return False
    output_map = producer.indexing_maps.data[-1].data
    last_map = encoding.get_last_map_for_operand_index()
    if last_map is None or not _is_permutation(output_map) or output_map.num_dims != len(last_map.results):
        return False
    return all(isinstance(v.type, TensorType) for v in producer.inputs)


class BubbleUpSetEncodingOp(RewritePattern):
    """Moves a ``set_encoding`` above its broadcast/dequant producer in the same dispatch.

    The producer is re-created on encoded types: each input gets a
    ``set_encoding`` whose chain gains ``input_map o inverse(output_map)``, and
    the init becomes an encoded ``tensor.empty``.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: iree_encoding.SetEncodingOp, rewriter: PatternRewriter) -> None:
        producer = op.source.owner
        if not isinstance(producer, Operation) or _same_dispatch(op, producer) is None:
            return
        encoding = iree_encoding.get_encoding_attr(op.result.type)
        if encoding is None or not _bubbles_through(producer, encoding):
            return
        assert isinstance(producer, linalg.GenericOp)
        # The encoding dims may be computed after the producer (tensor.dim of its
        # result, say): rebuild them before it, reading the first input instead.
        encoding_dims = rematerialize_encoding_dims(op.encoding_dims, producer, op.source, producer.inputs[0])
        if encoding_dims is None:
            return
        maps = [m.data for m in producer.indexing_maps.data]
        inverse_output = maps[-1].inverse_permutation()
        assert inverse_output is not None
        encoded_inputs: list[SSAValue] = []
        for value, operand_map in zip(producer.inputs, maps):
            input_type = _with_encoding(value.type, _append_map(encoding, operand_map.compose(inverse_output)))
            set_op = rewriter.insert(iree_encoding.SetEncodingOp(value, input_type, encoding_dims))
            encoded_inputs.append(set_op.result)
        dims = get_dynamic_dims(op.source, InsertPoint.before(op))
        init = rewriter.insert(tensor.EmptyOp(dims, op.result.type))
        generic = _clone_generic(producer, encoded_inputs, [init.tensor], [op.result.type])
        old_dims = [d.owner for d in op.encoding_dims if isinstance(d.owner, Operation)]
        rewriter.replace(op, generic)
        erase_if_dead([producer, *old_dims], rewriter)


# ---------------------------------------------------------------------------
# Local propagation: sink unset_encoding down
# ---------------------------------------------------------------------------


def _sinkable_consumer(op: iree_encoding.UnsetEncodingOp) -> tuple[linalg.GenericOp, int] | None:
    """The elementwise consumer ``op`` can sink into, and the operand index it feeds.

    IREE's ``isPropagableDown``: a parallel generic reading ``op`` as an input
    (not an init), all of whose maps are projected permutations; ours also
    needs the map of ``op``'s operand to be invertible and the inits to be
    ``tensor.empty`` (what ``propagateEncoding`` needs).
    """
    use = op.result.get_unique_use()
    if use is None:
        return None
    consumer = use.operation
    if not isinstance(consumer, linalg.GenericOp) or _same_dispatch(op, consumer) is None:
        return None
    if not _all_parallel(consumer) or use.index >= len(consumer.inputs):
        return None
    maps = [m.data for m in consumer.indexing_maps.data]
    if not all(m.is_projected_permutation() for m in maps) or not _is_permutation(maps[use.index]):
        return None
    if not all(isinstance(v.owner, tensor.EmptyOp) for v in consumer.outputs):
        return None
    return consumer, use.index


def _sinking_encodings(
    encoding: iree_encoding.EncodingAttr, maps: Sequence[AffineMap], target: int
) -> list[iree_encoding.EncodingAttr | None]:
    """IREE's ``generateSinkingEncodings``: each operand's encoding in the consumer's loop space.

    An operand's chain gains ``inverse(target_map)`` and its own map, identities
    left out; the target keeps ``encoding``. None where the chain cannot grow
    (an encoding without ``user_indexing_maps``).
    """
    inverse_target = maps[target].inverse_permutation()
    assert inverse_target is not None
    appended = [m for m in (inverse_target,) if not _is_identity(m)]

    def encoding_for(operand_map: AffineMap) -> iree_encoding.EncodingAttr | None:
        chain = [*appended, *([] if _is_identity(operand_map) else [operand_map])]
        if chain and encoding.get_last_map_for_operand_index() is None:
            return None
        result = encoding
        for affine_map in chain:
            result = _append_map(result, affine_map)
        return result

    return [encoding if index == target else encoding_for(m) for index, m in enumerate(maps)]


def _reified_result_dims(op: linalg.GenericOp, index: int, point: InsertPoint) -> list[SSAValue]:
    """The dynamic sizes of result ``index`` of ``op``, read off the operands that carry its loops.

    IREE 3.13's propagation, which carries ``encoding_dims`` along (hence the
    era fact it follows), sizes the new ``unset_encoding`` from the encoded
    result: what ``getMixedSizes`` of the result gives, resolved by the
    ``ResolveRankedShapedTypeResultDims`` patterns through the op's
    ``reifyResultShapes``: each dynamic result dim is the loop its map names,
    whose size is that of the first operand (inputs, then inits) indexing it
    by a plain dim; an ``arith.constant`` and a ``tensor.dim`` of that operand
    are built at ``point``, dim after dim. A size only an init carries is read
    off the init, where a ``tensor.empty`` gives it directly.
    """
    result = op.res[index]
    result_map = op.indexing_maps.data[len(op.inputs) + index].data
    dims: list[SSAValue] = []
    new_ops: list[Operation] = []
    for axis, size in enumerate(result.type.get_shape()):  # type: ignore[attr-defined]
        if size != DYNAMIC_INDEX:
            continue
        expr = result_map.results[axis]
        assert isinstance(expr, AffineDimExpr)
        carrier = loop_size_carrier(op, expr.position)
        assert carrier is not None  # the result's own init carries it
        source, source_axis = carrier
        source_size = source.type.get_shape()[source_axis]  # type: ignore[attr-defined]
        empty = source.owner
        if source_size != DYNAMIC_INDEX:
            constant = arith.ConstantOp(IntegerAttr(source_size, IndexType()))
            new_ops.append(constant)
            dims.append(constant.result)
        elif isinstance(empty, tensor.EmptyOp) and source in op.outputs:
            dims.append(empty.dynamic_sizes[source.type.get_shape()[:source_axis].count(DYNAMIC_INDEX)])  # type: ignore[attr-defined]
        else:
            constant = arith.ConstantOp(IntegerAttr(source_axis, IndexType()))
            dim = tensor.DimOp(source, constant.result)
            new_ops += [constant, dim]
            dims.append(dim.result)
    for new_op in new_ops:
        new_op.location = op.location
    Rewriter.insert_op(new_ops, point)
    return dims


class SinkUnsetEncodingOp(RewritePattern):
    """Moves an ``unset_encoding`` below its single elementwise consumer in the same dispatch.

    The consumer then runs on encoded tensors: its other tensor inputs get a
    ``set_encoding`` (right after the ``unset_encoding``, where IREE's
    ``propagateEncoding`` creates them), each init an encoded ``tensor.empty``
    next to the plain one, and an ``unset_encoding`` follows each result.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: iree_encoding.UnsetEncodingOp, rewriter: PatternRewriter) -> None:
        found = _sinkable_consumer(op)
        encoding = iree_encoding.get_encoding_attr(op.source.type)
        if found is None or encoding is None:
            return
        consumer, target = found
        num_inputs = len(consumer.inputs)
        operand_encodings = _sinking_encodings(encoding, [m.data for m in consumer.indexing_maps.data], target)
        operands = [*consumer.inputs, *consumer.outputs]
        if any(e is None and isinstance(v.type, TensorType) for e, v in zip(operand_encodings, operands)):
            return

        encoding_dims = list(op.encoding_dims)
        new_inputs: list[SSAValue] = []
        set_ops: list[Operation] = []
        for index, value in enumerate(consumer.inputs):
            if index == target:
                new_inputs.append(op.source)
            elif not isinstance(value.type, TensorType):
                new_inputs.append(value)  # scalars need no encoding
            else:
                set_op = iree_encoding.SetEncodingOp(
                    value, _with_encoding(value.type, operand_encodings[index]), encoding_dims
                )
                set_ops.append(set_op)
                new_inputs.append(set_op.result)
        rewriter.insert(set_ops, InsertPoint.after(op))

        new_inits: list[SSAValue] = []
        result_types: list[Attribute] = []
        for offset, value in enumerate(consumer.outputs):
            empty = value.owner
            assert isinstance(empty, tensor.EmptyOp)
            init_type = _with_encoding(value.type, operand_encodings[num_inputs + offset])
            encoded_empty = tensor.EmptyOp(list(empty.dynamic_sizes), init_type)
            rewriter.insert(encoded_empty, InsertPoint.after(empty))
            new_inits.append(encoded_empty.tensor)
            result_types.append(init_type)

        generic = _clone_generic(consumer, new_inputs, new_inits, result_types)
        rewriter.insert(generic, InsertPoint.after(consumer))
        unsets: list[iree_encoding.UnsetEncodingOp] = []
        for index, (encoded, plain) in enumerate(zip(generic.res, consumer.res)):
            point = InsertPoint.after(unsets[-1] if unsets else generic)
            if run_era().encoding_dims:
                dims = _reified_result_dims(generic, index, point)
            else:
                # The walkthrough's IREE reuses the sizes the consumer's result had.
                dims = get_dynamic_dims(consumer.res[index], InsertPoint.before(consumer))
            unsets.append(iree_encoding.UnsetEncodingOp(encoded, plain.type, dims, encoding_dims))
            rewriter.insert(unsets[-1], point)
        old_inits = [v.owner for v in consumer.outputs if isinstance(v.owner, Operation)]
        rewriter.replace(consumer, [], [unset.result for unset in unsets])
        erase_if_dead([op, *old_inits], rewriter)


class _FoldDimOfStaticExtent(RewritePattern):
    """The greedy driver's fold of ``tensor.dim`` of a static extent, as IREE's pass gets it.

    IREE's driver folds ops while it propagates, so ``encoding_dims`` read off a
    static result become constants (and that result loses those uses) before
    the propagation patterns look at them. The index constant left dead goes too.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.DimOp, rewriter: PatternRewriter) -> None:
        index = op.index.owner
        tensor.DimOfStaticExtent().match_and_rewrite(op, rewriter)
        if op.parent is None and isinstance(index, Operation):
            erase_if_dead([index], rewriter)


# ---------------------------------------------------------------------------
# Hoisting
# ---------------------------------------------------------------------------


def _is_flow_mappable_slice(op: tensor.ExtractSliceOp) -> bool:
    """A unit-stride slice that is one contiguous range of its source (a ``flow.tensor.slice``).

    Walking from the innermost dimension out, once a dimension is cut, every
    outer dimension must have size 1.
    """
    source_type = op.source.type
    assert isinstance(source_type, TensorType)
    if any(stride != 1 for stride in op.static_strides.get_values()):
        return False
    sizes = list(op.static_sizes.get_values())
    offsets = list(op.static_offsets.get_values())
    full_so_far = True
    for size, offset, extent in reversed(list(zip(sizes, offsets, source_type.get_shape()))):
        if not full_so_far and size != 1:
            return False
        if offset != 0 or size == DYNAMIC_INDEX or size != extent:
            full_so_far = False
    return True


def _is_hoistable_producer(op: Operation) -> bool:
    """Ops that may leave a dispatch with a set_encoding that needs them.

    Constants and ``tensor.empty`` create values from nothing, flow-mappable
    slices become ``flow.tensor.slice``, and ``tensor.dim`` is the size
    arithmetic that ``encoding_dims`` are built from. Compute ops stay.
    """
    if op.has_trait(ConstantLike) or isinstance(op, (tensor.EmptyOp, tensor.DimOp)):
        return True
    if isinstance(op, tensor.ExtractSliceOp):
        return _is_flow_mappable_slice(op)
    return False


def _never_hoisted(op: iree_encoding.SetEncodingOp) -> bool:
    source_type = op.source.type
    if isinstance(source_type, TensorType) and source_type.get_num_dims() == 0:
        return True  # scalars would only become broadcasts
    encoding = op.result.type.encoding  # type: ignore[attr-defined]
    return isinstance(encoding, (iree_encoding.PaddingAttr, iree_encoding.PadEncodingLayoutAttr))


class _ConstExprPolicy:
    """IREE's fallback: a chain with compute ops still leaves if its value is a hoistable const-expr.

    The analysis runs on first need, on the module as the local propagation
    left it (IREE runs it there too), with IREE's threshold of 0 bytes.
    """

    def __init__(self, module: ModuleOp):
        self._module = module
        self._policy: ConstExprHoistingPolicy | None = None

    def enables_hoist(self, value: SSAValue) -> bool:
        if self._policy is None:
            self._policy = ConstExprHoistingPolicy(ConstExprAnalysis(self._module), 0)
        info = self._policy.analysis.lookup(value)
        return info is not None and self._policy.outcome(info) is Outcome.ENABLE_HOIST


_is_set_encoding = instance_test(iree_encoding.SetEncodingOp)


def _hoisting_order(chain: list[Operation]) -> list[Operation]:
    """IREE's order of moving ``chain`` (whose last op is the set_encoding) out of its region.

    IREE collects the chain breadth-first from the set_encoding, operand by
    operand, and moves it in reverse, so the constants of the sizes land before
    the ``tensor.dim`` ops reading them, in that reverse order. Should that
    order move an op before something it reads, program order is kept.
    """
    members = set(chain)
    order = [chain[-1]]
    for op in order:
        for operand in op.operands:
            producer = operand.owner
            if producer in members and producer not in order:
                order.append(producer)  # type: ignore[arg-type]
    order.reverse()
    moved: set[Operation] = set()
    for op in order:
        if any(v.owner in members and v.owner not in moved for v in op.operands):
            return chain
        moved.add(op)
    return order


def hoist_set_encodings(module: ModuleOp) -> None:
    """Move every hoistable set_encoding (with its in-region chain) before its dispatch."""
    const_exprs = _ConstExprPolicy(module)
    candidates: list[list[Operation]] = []
    for op in nested_ops(module):
        if not _is_set_encoding(op) or _never_hoisted(op):
            continue
        dispatch = enclosing_dispatch_region(op)
        if dispatch is None:
            continue
        if not any(is_defined_inside(v, dispatch) for v in op.operands):
            # What backward_slice_in_dispatch finds for an op reading only
            # values from outside, without walking the region.
            chain = [op]
        else:
            # As IREE of 2026, what computes the encoding dims leaves with the
            # set_encoding whatever it is (an `affine.apply` on the sizes, say);
            # only what those ops read in turn, and the source chain, must be hoistable.
            dim_producers = {
                d.owner for d in op.encoding_dims if isinstance(d.owner, Operation) and side_effect_free(d.owner)
            }
            chain = backward_slice_in_dispatch(
                op, dispatch, lambda producer, exempt=dim_producers: producer in exempt or _is_hoistable_producer(producer)
            )
        if chain is None and const_exprs.enables_hoist(op.source):
            chain = backward_slice_in_dispatch(op, dispatch, lambda _: True)
        if chain is not None:
            candidates.append(_hoisting_order(chain))
    for chain in candidates:
        for op in chain:
            dispatch = enclosing_dispatch_region(op)
            if dispatch is not None:
                hoist_out_of_dispatch(op, dispatch)


@dataclass(frozen=True)
class HoistEncodingOpsPass(ModulePass):
    """Propagates encodings locally inside dispatches, then hoists ``set_encoding`` ops out.

    A ``set_encoding`` bubbles through a broadcast/dequant producer and an
    ``unset_encoding`` sinks into an elementwise consumer of the same dispatch;
    then every ``set_encoding`` whose source chain in the region is constants,
    empties, dims or flow-mappable slices moves before the region, and so does
    one whose source is a constant expression IREE's hoisting policy would make
    a global (with the compute ops of its chain). Rank-0 sources,
    ``#iree_encoding.padding`` encodings and other sources computed inside the
    dispatch are left where they are.
    """

    name = "iree-dispatch-creation-hoist-encoding-ops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        SelectivePatternRewriteWalker(
            GreedyRewritePatternApplier(
                [_FoldDimOfStaticExtent(), BubbleUpSetEncodingOp(), SinkUnsetEncodingOp()], dce_enabled=False
            ),
        ).rewrite_module(op)
        hoist_set_encodings(op)


__all__ = ["BubbleUpSetEncodingOp", "HoistEncodingOpsPass", "SinkUnsetEncodingOp", "hoist_set_encodings"]
