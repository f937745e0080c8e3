"""``iree-dispatch-creation-collapse-dimensions``: merge loops that are always accessed together.

Inside each ``flow.dispatch.region`` IREE's CollapseDimensions.cpp looks at the
ops the region returns and the ops they are computed from, and merges groups of
loops that every indexing map reads contiguously, in the same order, with the
same iterator type (``getCollapsibleLoops``): a batch of two dims becomes one,
two reduction dims become one K. Producers and consumers in the region agree
on the groups (each op's ``CollapseInfo`` is narrowed by its neighbours until
nothing changes). The ops are then rewritten on collapsed tensors:
``tensor.collapse_shape`` on what the region reads from above is hoisted
before it, and the region returns the collapsed result, expanded back after it
with ``tensor.expand_shape``. Set-encoding after it sees one K (or one batch)
dimension, which data tiling needs.

Ops taken part in the analysis: ``linalg.generic`` (projected-permutation maps,
no encoded operand), ``linalg.fill`` and ``tensor.empty``. Unlike IREE,
``tensor.extract_slice`` and ``iree_linalg_ext.attention`` are not collapsed
(they count as ops that cannot collapse, so their neighbours keep those
dims), nor is a generic whose body reads ``linalg.index``. A collapsed dynamic
size is an ``arith.muli`` product where IREE writes ``affine.apply``
(xDSL's affine maps cannot multiply symbols).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import DYNAMIC_INDEX, AffineMapAttr, MemRefType, ModuleOp, TensorType
from xdsl.ir import Block, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from mini_iree.compiler.analysis.dispatch_regions import (
    dispatch_result_dims,
    would_be_trivially_dead,
)
from mini_iree.compiler.analysis.encoding_properties import has_encoding
from mini_iree.compiler.analysis.functions import functions
from mini_iree.compiler.analysis.reshape_sizes import collapsed_dynamic_sizes
from mini_iree.compiler.ir.dynamic_dims import get_dynamic_dims
from mini_iree.compiler.ir.locations import give_location
from mini_iree.dialects import flow, linalg, tensor

__all__ = ["CollapseDimensionsPass"]

# A projected permutation as the loop each result reads.
Positions = list[int]


# ---------------------------------------------------------------------------
# Which ops take part, and their loops (IREE's isEligibleForCollapse, populateReassocAndMaps)
# ---------------------------------------------------------------------------


def _positions(map_: AffineMap) -> Positions | None:
    if not all(isinstance(e, AffineDimExpr) for e in map_.results):
        return None
    positions = [e.position for e in map_.results]  # type: ignore[attr-defined]
    return positions if len(set(positions)) == len(positions) else None


def _generic_maps(op: linalg.GenericOp) -> list[Positions] | None:
    maps = [_positions(m.data) for m in op.indexing_maps.data]
    return None if any(m is None for m in maps) else maps  # type: ignore[return-value]


def _is_eligible(op: Operation) -> bool:
    """IREE's ``isEligibleForCollapse``, less extract_slice and attention."""
    if isinstance(op, tensor.EmptyOp):
        return True
    if not isinstance(op, linalg.FillOp | linalg.GenericOp):
        return False
    # Only ops on tensors: a linalg op on memrefs has no result to expand back.
    if not op.results or any(isinstance(v.type, MemRefType) for v in op.operands):
        return False
    if isinstance(op, linalg.FillOp):
        return True
    if any(has_encoding(v) for v in op.operands):
        return False
    return _generic_maps(op) is not None


def _iterators(op: Operation) -> list[str]:
    if isinstance(op, linalg.GenericOp):
        return [str(t.data.value) for t in op.iterator_types.data]
    rank = op.results[0].type.get_num_dims()  # type: ignore[attr-defined]
    return ["parallel"] * rank


def _collapsible_loops(maps: Sequence[Positions], iterators: Sequence[str]) -> list[list[int]]:
    """IREE's ``getCollapsibleLoops``: runs of loops every map reads contiguously, in order,
    that share an iterator type (a loop no map reads never joins a run)."""

    def same_sequence(previous: int | None, current: int) -> bool:
        if previous is None:
            return False
        for positions in maps:
            for index, loop in enumerate(positions):
                if loop == previous and (index == len(positions) - 1 or positions[index + 1] != current):
                    return False
                if loop == current and (index == 0 or positions[index - 1] != previous):
                    return False
        return True

    groups: list[list[int]] = []
    seen: set[int] = set()
    for positions in maps:
        run: list[int] = []
        previous: int | None = None
        for loop in positions:
            if loop in seen:
                if len(run) > 1:
                    groups.append(run)
                run = []
                continue
            if not same_sequence(previous, loop) or iterators[previous] != iterators[loop]:  # type: ignore[index]
                if len(run) > 1:
                    groups.append(run)
                run = []
            run.append(loop)
            seen.add(loop)
            previous = loop
        if len(run) > 1:
            groups.append(run)
    return groups


@dataclass
class _CollapseInfo:
    """IREE's ``CollapseInfo``: the loop groups an op may collapse, and its maps."""

    reassociation: list[list[int]]
    operand_maps: list[Positions]
    result_maps: list[Positions]

    def __post_init__(self) -> None:
        self.collapsable = self._loops_of(self.reassociation)

    @staticmethod
    def _loops_of(reassociation: list[list[int]]) -> list[int]:
        return [loop for group in reassociation for loop in group]

    @classmethod
    def of(cls, op: Operation) -> _CollapseInfo:
        if isinstance(op, tensor.EmptyOp):
            rank = op.tensor.type.get_num_dims()  # type: ignore[attr-defined]
            return cls([list(range(rank))], [], [list(range(rank))])
        if isinstance(op, linalg.FillOp):
            rank = op.results[0].type.get_num_dims()  # type: ignore[attr-defined]
            maps = [[], list(range(rank))]
            return cls(_collapsible_loops(maps, _iterators(op)), maps, [maps[1]])
        assert isinstance(op, linalg.GenericOp)
        maps = _generic_maps(op)
        assert maps is not None
        return cls(_collapsible_loops(maps, _iterators(op)), maps, maps[len(op.inputs) :])

    def clear(self) -> bool:
        changed = bool(self.reassociation) and bool(self.collapsable)
        self.reassociation, self.collapsable = [], []
        return changed

    def _split_on_collapsable(self) -> None:
        """IREE's ``updateReassociation``: groups cut where a loop is no longer collapsable."""
        groups: list[list[int]] = []
        for group in self.reassociation:
            run: list[int] = []
            for loop in group:
                if loop in self.collapsable:
                    run.append(loop)
                    continue
                if len(run) > 1:
                    groups.append(run)
                run = []
            if len(run) > 1:
                groups.append(run)
        self.reassociation = groups

    def update_from_other(self, other_to_this: list[int | None] | None, other: _CollapseInfo) -> bool:
        """IREE's ``updateFromOther``: keep only what ``other`` can collapse alike.

        ``other_to_this[i]`` is the loop of this op that loop ``i`` of ``other`` maps to.
        """
        if other_to_this is None:
            return self.clear()
        other_collapsable = {other_to_this[i] for i in other.collapsable if other_to_this[i] is not None}
        into: dict[int, int] = {}
        for index, group in enumerate(other.reassociation):
            for loop in group:
                if other_to_this[loop] is None:
                    break
                into[other_to_this[loop]] = index  # type: ignore[index]
        read = set(other_to_this) - {None}
        before = list(self.collapsable)
        self.collapsable = [loop for loop in self.collapsable if loop in other_collapsable or loop not in read]
        changed = self.collapsable != before
        groups: list[list[int]] = []
        for group in self.reassociation:
            target: int | None = None
            run: list[int] = []
            for loop in group:
                if loop not in self.collapsable:
                    changed = True
                    if len(run) > 1:
                        groups.append(run)
                    run, target = [], None
                elif loop not in into:
                    run.append(loop)
                elif target is None:
                    target = into[loop]
                    run.append(loop)
                elif into[loop] != target:
                    changed = True
                    if len(run) > 1:
                        groups.append(run)
                    run, target = [loop], into[loop]
                else:
                    run.append(loop)
            if len(run) > 1:
                groups.append(run)
        if changed:
            self.reassociation = groups
            self.collapsable = self._loops_of(groups)
        return changed

    def update_from_uncollapsible(self, map_: Positions | None) -> bool:
        """IREE's ``updateFromUncollapsible``: the loops ``map_`` reads cannot collapse."""
        if map_ is None:
            return False
        before = len(self.collapsable)
        self.collapsable = [loop for loop in self.collapsable if loop not in map_]
        self._split_on_collapsable()
        return before != len(self.collapsable)


def _other_to_this(other_map: Positions, this_map: Positions, other_loops: int) -> list[int | None]:
    """For each loop of the op reading ``other_map``, the loop of this op reading the same tensor dim."""
    result: list[int | None] = [None] * other_loops
    for dim, loop in enumerate(other_map):
        result[loop] = this_map[dim]
    return result


def _num_loops(op: Operation, info: _CollapseInfo) -> int:
    if isinstance(op, linalg.GenericOp):
        return len(op.iterator_types.data)
    return len(info.result_maps[0])


# ---------------------------------------------------------------------------
# The analysis over one dispatch (IREE's collapseDimensionsForDispatch)
# ---------------------------------------------------------------------------


def _root_ops(region_op: flow.DispatchRegionOp) -> list[Operation]:
    terminator = region_op.body.block.last_op
    assert isinstance(terminator, flow.ReturnOp)
    roots: list[Operation] = []
    for value in terminator.operands:
        if isinstance(value, OpResult) and _is_eligible(value.op) and value.op not in roots:
            roots.append(value.op)
    return roots


def _backward_slice(roots: Sequence[Operation], region_op: flow.DispatchRegionOp) -> list[Operation]:
    """Eligible ops of the region the roots are computed from, in program order."""
    found: set[Operation] = set()
    worklist = list(roots)
    while worklist:
        op = worklist.pop()
        if op in found:
            continue
        found.add(op)
        for operand in op.operands:
            if isinstance(operand, OpResult) and operand.op.parent_op() is region_op and _is_eligible(operand.op):
                worklist.append(operand.op)
    return [op for op in region_op.body.block.ops if op in found]


def _update_producers(slice_: Sequence[Operation], infos: dict[Operation, _CollapseInfo]) -> bool:
    changed = False
    for producer in reversed(slice_):
        info = infos[producer]
        for result in producer.results:
            for use in result.uses:
                consumer = use.operation
                if isinstance(consumer, flow.ReturnOp):
                    continue
                if consumer not in infos:
                    changed |= info.update_from_uncollapsible(info.result_maps[result.index])
                    continue
                consumer_info = infos[consumer]
                mapping = _other_to_this(
                    consumer_info.operand_maps[use.index],
                    info.result_maps[result.index],
                    _num_loops(consumer, consumer_info),
                )
                changed |= info.update_from_other(mapping, consumer_info)
    return changed


def _update_consumers(
    slice_: Sequence[Operation], infos: dict[Operation, _CollapseInfo], region_op: flow.DispatchRegionOp
) -> bool:
    changed = False
    for consumer in slice_:
        info = infos[consumer]
        for index, operand in enumerate(consumer.operands):
            if not isinstance(operand, OpResult) or not region_op.is_ancestor(operand.op):
                continue
            producer = operand.op
            maps = info.operand_maps
            if producer not in infos:
                changed |= info.update_from_uncollapsible(maps[index] if index < len(maps) else None)
                continue
            producer_info = infos[producer]
            if index >= len(maps):
                continue
            mapping = _other_to_this(
                producer_info.result_maps[operand.index], maps[index], _num_loops(producer, producer_info)
            )
            changed |= info.update_from_other(mapping, producer_info)
    return changed


# ---------------------------------------------------------------------------
# Rewriting (MLIR's collapseOpIterationDims, and the reshape folds IREE runs after)
# ---------------------------------------------------------------------------


def _loop_groups(groups: Sequence[Sequence[int]], num_loops: int) -> list[list[int]]:
    """The loops of the collapsed op, as MLIR's ``CollapsingInfo`` orders them: each group
    (in the order the maps read it) and each loop not collapsed, sorted by their first loop."""
    folded = {loop for group in groups for loop in group}
    loops = [list(group) for group in groups] + [[loop] for loop in range(num_loops) if loop not in folded]
    return sorted(loops, key=lambda group: group[0])


def _operand_reassociation(positions: Positions, new_loop_of: dict[int, int]) -> tuple[list[list[int]], list[int]]:
    """The tensor dims of an operand read by ``positions`` merged per collapsed loop, and the new map."""
    groups: list[list[int]] = []
    new_map: list[int] = []
    for dim, loop in enumerate(positions):
        new_loop = new_loop_of[loop]
        if new_map and new_map[-1] == new_loop:
            groups[-1].append(dim)
        else:
            groups.append([dim])
            new_map.append(new_loop)
    return groups, new_map


def _loop_sizes(op: linalg.GenericOp, maps: Sequence[Positions]) -> dict[int, int]:
    """The static size of each loop some operand dimension reads."""
    sizes: dict[int, int] = {}
    for operand, positions in zip(op.operands, maps):
        shape = operand.type.get_shape()  # type: ignore[attr-defined]
        for dim, loop in enumerate(positions):
            if shape[dim] != DYNAMIC_INDEX:
                sizes[loop] = shape[dim]
    return sizes


def _delinearize_indices(body: Block, loop_groups: Sequence[Sequence[int]], sizes: dict[int, int]) -> None:
    """MLIR's ``generateCollapsedIndexingRegion``: each ``linalg.index`` of an original loop
    becomes its part of the collapsed loop's index (``remsi``/``divsi`` by the inner sizes)."""
    from xdsl.dialects import arith
    from xdsl.dialects.builtin import IndexType, IntegerAttr

    replacement: dict[int, SSAValue] = {}
    new_ops: list[Operation] = []
    for new_loop, group in enumerate(loop_groups):
        index = linalg.IndexOp(new_loop)
        new_ops.append(index)
        value: SSAValue = index.results[0]
        for loop in reversed(group[1:]):
            size = arith.ConstantOp(IntegerAttr(sizes[loop], IndexType()))
            rem = arith.RemSIOp(value, size.result)
            div = arith.DivSIOp(value, size.result)
            new_ops += [size, rem, div]
            replacement[loop] = rem.result
            value = div.result
        replacement[group[0]] = value
    uses = [op for op in body.walk() if isinstance(op, linalg.IndexOp)]
    if not uses:
        return
    first = body.first_op
    assert first is not None
    for op in new_ops:
        body.insert_op_before(op, first)
    for op in uses:
        op.results[0].replace_all_uses_with(replacement[op.dim.value.data])
        Rewriter.erase_op(op)


def _collapse(value: SSAValue, groups: list[list[int]], before: Operation) -> SSAValue:
    if all(len(group) == 1 for group in groups):
        return value
    collapse = tensor.CollapseShapeOp(value, groups)
    Rewriter.insert_op(collapse, InsertPoint.before(before))
    return collapse.result


def _expand(value: SSAValue, groups: list[list[int]], like: SSAValue, after: Operation) -> SSAValue:
    """``value`` expanded back to the type of ``like`` (whose sizes are read before ``after``)."""
    if all(len(group) == 1 for group in groups):
        return value
    shape = like.type.get_shape()  # type: ignore[attr-defined]
    dims = iter(get_dynamic_dims(like, InsertPoint.before(after)))
    output_shape: list[int | SSAValue] = [next(dims) if d == DYNAMIC_INDEX else d for d in shape]
    expand = tensor.ExpandShapeOp(value, groups, output_shape, like.type)  # type: ignore[arg-type]
    Rewriter.insert_op(expand, InsertPoint.after(after))
    return expand.result


def _collapse_op(op: Operation, info: _CollapseInfo) -> bool:
    """Rewrite a generic or fill on collapsed tensors; its results are expanded back."""
    groups = info.reassociation
    if not groups:
        return False
    num_loops = _num_loops(op, info)
    loop_groups = _loop_groups(groups, num_loops)
    reads_index = isinstance(op, linalg.GenericOp) and any(isinstance(o, linalg.IndexOp) for o in op.body.walk())
    if reads_index:
        # The index of a collapsed loop is split back with the inner loops' sizes,
        # which must be static here.
        sizes = _loop_sizes(op, info.operand_maps)
        if any(loop not in sizes for group in groups for loop in group[1:]):
            return False
    new_loop_of = {loop: index for index, group in enumerate(loop_groups) for loop in group}
    tensor_operands = [(i, v) for i, v in enumerate(op.operands) if isinstance(v.type, TensorType)]
    new_operands = list(op.operands)
    new_maps: list[list[int]] = []
    for index, maps in enumerate(info.operand_maps):
        operand_groups, new_map = _operand_reassociation(maps, new_loop_of)
        new_maps.append(new_map)
        if any(i == index for i, _ in tensor_operands):
            new_operands[index] = _collapse(op.operands[index], operand_groups, op)
    result_groups = [_operand_reassociation(m, new_loop_of)[0] for m in info.result_maps]
    if isinstance(op, linalg.FillOp):
        new_op: Operation = linalg.FillOp([new_operands[0]], [new_operands[1]], [new_operands[1].type])
    else:
        assert isinstance(op, linalg.GenericOp)
        iterators = op.iterator_types.data
        body = Region()
        op.body.clone_into(body)
        if reads_index:
            _delinearize_indices(body.block, loop_groups, sizes)
        num_inputs = len(op.inputs)
        new_op = linalg.GenericOp(
            new_operands[:num_inputs],
            new_operands[num_inputs:],
            body,
            [AffineMapAttr(AffineMap(len(loop_groups), 0, tuple(AffineDimExpr(d) for d in m))) for m in new_maps],
            [iterators[group[0]] for group in loop_groups],
            [v.type for v in new_operands[num_inputs:]],
        )
    Rewriter.insert_op(new_op, InsertPoint.before(op))
    outputs = op.operands[len(op.operands) - len(op.results) :]
    for result, new_result, groups_, init in zip(op.results, new_op.results, result_groups, outputs):
        result.replace_all_uses_with(_expand(new_result, groups_, init, new_op))
    Rewriter.erase_op(op)
    return True


def _fold_reshapes(region_op: flow.DispatchRegionOp) -> None:
    """The folds IREE runs on a collapsed dispatch: ``collapse(expand(x))`` is ``x`` and
    ``collapse(tensor.empty)`` a collapsed ``tensor.empty``; dead ops go."""
    for op in list(region_op.body.block.ops):
        if not isinstance(op, tensor.CollapseShapeOp):
            continue
        source = op.src
        groups = op.get_reassociation_indices()
        if isinstance(source, OpResult) and isinstance(source.op, tensor.ExpandShapeOp):
            expand = source.op
            if expand.get_reassociation_indices() == groups and expand.src.type == op.result.type:
                op.result.replace_all_uses_with(expand.src)
                Rewriter.erase_op(op)
                continue
        if isinstance(source, OpResult) and isinstance(source.op, tensor.EmptyOp):
            empty = source.op
            dims = collapsed_dynamic_sizes(
                empty.tensor.type.get_shape(), list(empty.dynamic_sizes), groups, InsertPoint.before(op), op.location
            )
            new_empty = tensor.EmptyOp(dims, op.result.type)
            new_empty.location = op.location
            Rewriter.replace_op(op, new_empty)
    for op in reversed(list(region_op.body.block.ops)):
        if all(r.first_use is None for r in op.results) and op.results and would_be_trivially_dead(op):
            Rewriter.erase_op(op)


# ---------------------------------------------------------------------------
# Reshapes out of the dispatch (IREE's hoistTensorReshapesOutOfDispatchRegion)
# ---------------------------------------------------------------------------


def _hoist_reshapes(region_op: flow.DispatchRegionOp) -> flow.DispatchRegionOp:
    """Reshapes of values from above move before the region; an ``expand_shape`` the
    region returns moves after it, the region returning its (collapsed) source."""
    if len(region_op.body.blocks) != 1:
        return region_op  # IREE expects one block (its flow.return ends the first)
    body = region_op.body.block
    for op in list(body.ops):
        if not isinstance(op, tensor.CollapseShapeOp | tensor.ExpandShapeOp):
            continue
        if any(not _defined_above(v, region_op) for v in op.operands):
            continue
        op.detach()
        Rewriter.insert_op(op, InsertPoint.before(region_op))
    terminator = body.last_op
    assert isinstance(terminator, flow.ReturnOp)
    returned = list(terminator.operands)
    if not any(isinstance(v, OpResult) and isinstance(v.op, tensor.ExpandShapeOp) for v in returned):
        return region_op
    point = InsertPoint.before(region_op)
    new_values: list[SSAValue] = []
    new_dims: list[SSAValue] = []
    for index, value in enumerate(returned):
        dims = dispatch_result_dims(region_op, index)
        if isinstance(value, OpResult) and isinstance(value.op, tensor.ExpandShapeOp):
            expand = value.op
            new_values.append(expand.src)
            new_dims += collapsed_dynamic_sizes(
                expand.result.type.get_shape(), dims, expand.get_reassociation_indices(), point, expand.location
            )
        else:
            new_values.append(value)
            new_dims += dims
    new_region = flow.DispatchRegionOp(
        [v.type for v in new_values],
        new_dims,
        list(region_op.workload),
        Rewriter.move_region_contents_to_new_regions(region_op.body),
        Rewriter.move_region_contents_to_new_regions(region_op.workgroup_count),
    )
    new_region.attributes |= region_op.attributes
    new_region.location = region_op.location
    Rewriter.insert_op(new_region, InsertPoint.before(region_op))
    new_return = flow.ReturnOp(new_values)
    new_return.location = terminator.location
    Rewriter.replace_op(terminator, new_return)
    after = new_region
    for index, (old, value) in enumerate(zip(region_op.results, returned)):
        replacement: SSAValue = new_region.results[index]
        if replacement.type != old.type:
            assert isinstance(value, OpResult) and isinstance(value.op, tensor.ExpandShapeOp)
            dims = iter(dispatch_result_dims(region_op, index))
            shape = old.type.get_shape()  # type: ignore[attr-defined]
            output_shape: list[int | SSAValue] = [next(dims) if d == DYNAMIC_INDEX else d for d in shape]
            expand = tensor.ExpandShapeOp(
                replacement, value.op.get_reassociation_indices(), output_shape, old.type  # type: ignore[arg-type]
            )
            expand.location = value.op.location
            Rewriter.insert_op(expand, InsertPoint.after(after))
            after = expand
            replacement = expand.result
        old.replace_all_uses_with(replacement)
    Rewriter.erase_op(region_op)
    for value in returned:
        if isinstance(value, OpResult) and isinstance(value.op, tensor.ExpandShapeOp) and value.first_use is None:
            Rewriter.erase_op(value.op)
    return new_region


def _defined_above(value: SSAValue, region_op: Operation) -> bool:
    owner = value.owner
    op = owner.parent_op() if isinstance(owner, Block) else owner
    return op is None or not region_op.is_ancestor(op)


# ---------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------


def _collapse_dispatch(region_op: flow.DispatchRegionOp, max_iterations: int) -> bool:
    """IREE's ``collapseDimensionsForDispatch``: True if some op was collapsed."""
    if len(region_op.body.blocks) != 1:
        return False
    roots = _root_ops(region_op)
    if not roots:
        return False
    slice_ = _backward_slice(roots, region_op)
    infos = {op: _CollapseInfo.of(op) for op in slice_}
    producers_changed = consumers_changed = True
    iterations = 0
    while producers_changed or consumers_changed:
        iterations += 1
        if iterations > max_iterations:
            return False
        producers_changed = _update_producers(slice_, infos)
        consumers_changed = _update_consumers(slice_, infos, region_op)
    collapsed = False
    body = region_op.body.block
    for op in slice_:
        if isinstance(op, tensor.EmptyOp):
            continue  # folded into the collapse_shape of its users
        before = set(body.ops)
        if _collapse_op(op, infos[op]):
            collapsed = True
            # What replaces the op (the op on collapsed tensors, its reshapes and sizes) is located where it was.
            give_location([new for new in body.ops if new not in before], op.location)
    return collapsed


@dataclass(frozen=True)
class CollapseDimensionsPass(ModulePass):
    """Collapse the loops of linalg ops in each dispatch region that are always accessed together.

    ``max-iterations`` (IREE's option) bounds the rounds producers and
    consumers take to agree; a dispatch that has not converged is left alone.
    """

    name = "iree-dispatch-creation-collapse-dimensions"

    max_iterations: int = 10

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in functions(op, nested=True):
            modified: list[flow.DispatchRegionOp] = []
            for region_op in [r for r in function.walk() if isinstance(r, flow.DispatchRegionOp)]:
                region_op = _hoist_reshapes(region_op)
                if _collapse_dispatch(region_op, self.max_iterations):
                    modified.append(region_op)
            # As IREE: reshapes leave the dispatch first (a reshaped constant must
            # not fold into a big constant inside it), then the folds run.
            for region_op in modified:
                _fold_reshapes(_hoist_reshapes(region_op))
