"""``iree-dispatch-creation-convert-dispatch-regions-to-workgroups``: regions that capture become isolated dispatches.

A ``flow.dispatch.region`` may use any value defined above it. This pass rewrites
each one into a ``flow.dispatch.workgroups`` that takes everything it uses as
operands: a captured tensor arrives as a ``readonly`` dispatch tensor (``readwrite``
when a result is computed in place into it) and is read with
``iree_tensor_ext.dispatch.tensor.load``; each result leaves through a
``writeonly`` dispatch tensor with ``iree_tensor_ext.dispatch.tensor.store``; the
dynamic sizes of both travel as ``index`` operands.

IREE reaches the dump-09 form of the op in four steps; the first three are
done here at once so the output reads like the walkthrough's:

* the conversion itself (IREE's ``rewriteFlowDispatchRegionToFlowDispatchWorkgroups``);
* the closure clean-up ``canonicalize`` applies to it: captured ``arith.constant``
  ops are cloned into the body and duplicate operands are dropped;
* ``iree-dispatch-creation-materialize-default-workgroup-count-region``: every
  ``index`` operand is part of the workload, marked in the body with
  ``iree_tensor_ext.dispatch.workload.ordinal``, and the ``count`` region holds
  ``iree_tensor_ext.dispatch.workgroup_count_from_slice``;
* ``iree-flow-capture-dynamic-dims`` (a pass of its own, run later in IREE's
  flow pipeline): a ``flow.dispatch.tie_shape`` gives each dynamic dispatch
  tensor its sizes.

Operands are ordered tensors first, then their sizes, the result sizes, then the
other captured values, as in the walkthrough's dump 09. A region with more than
one block, or one that already has a workgroup count region, is left alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IndexType,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from mini_iree.compiler.analysis.dispatch_regions import dispatch_result_dims, is_defined_inside
from mini_iree.compiler.analysis.workgroup_count import default_workgroup_count_region
from mini_iree.compiler.ir.dense_elements import is_splat
from mini_iree.compiler.ir.dynamic_dims import get_dynamic_dims
from mini_iree.compiler.ir.locations import give_location
from mini_iree.dialects import flow, iree_tensor_ext

__all__ = ["ConvertDispatchRegionsToWorkgroupsPass", "convert_region_to_workgroups"]

# IREE inlines splats and scalars always, other dense constants up to this size
# (ClosureOptimizationOptions' default for flow ops).
_MAX_INLINED_CONSTANT_BYTES = 256


def _captured_values(region_op: flow.DispatchRegionOp) -> list[SSAValue]:
    """Values used in the region but defined above it, in order of first use."""
    seen: dict[SSAValue, None] = {}
    for op in region_op.body.walk():
        for operand in op.operands:
            if not is_defined_inside(operand, region_op):
                seen.setdefault(operand, None)
    return list(seen)


def _is_inlinable_constant(value: SSAValue) -> bool:
    """IREE's ``isConstantInlinable``: scalars and splats always, small dense constants too."""
    op = value.owner
    if not isinstance(op, arith.ConstantOp):
        return False
    attr = op.value
    if not isinstance(attr, DenseIntOrFPElementsAttr):
        return True
    type_ = attr.get_type()
    if is_splat(attr):
        return True
    width = getattr(type_.element_type, "bitwidth", 64)
    return type_.element_count() * max(1, (width + 7) // 8) <= _MAX_INLINED_CONSTANT_BYTES


def _tied_operand(region_op: flow.DispatchRegionOp, returned: SSAValue) -> SSAValue | None:
    """The captured tensor a result is computed in place into, if any (IREE's tied-op chain).

    Follows destination-style ops from a returned value to their ``outs`` operand
    until it leaves the region; a chain that reaches a captured value ties the
    result to it.
    """
    value = returned
    while is_defined_inside(value, region_op):
        owner = value.owner
        if not isinstance(owner, Operation):
            return None
        outputs = getattr(owner, "outputs", None)
        index = owner.results.index(value) if value in owner.results else -1
        if outputs is None or not 0 <= index < len(outputs):
            return None
        value = outputs[index]
    return value if isinstance(value.type, TensorType) else None


def _replace_uses_inside(replacements: dict[SSAValue, SSAValue], container: Operation) -> None:
    """Make every use nested in ``container`` of a key of ``replacements`` use its value.

    One walk of the container: a value such as a shared constant has uses in
    every dispatch of the program, and asking of each whether it is inside this
    one would cost the program's size per dispatch.
    """
    for region in container.regions:
        for op in region.walk():
            for index, operand in enumerate(op.operands):
                new = replacements.get(operand)
                if new is not None:
                    op.operands[index] = new


def convert_region_to_workgroups(region_op: flow.DispatchRegionOp) -> flow.DispatchWorkgroupsOp | None:
    """Rewrite ``region_op`` as a ``flow.dispatch.workgroups``; None (and no change) if it cannot."""
    if len(region_op.body.blocks) != 1 or region_op.workgroup_count.blocks:
        return None
    body = region_op.body.block
    terminator = body.last_op
    if not isinstance(terminator, flow.ReturnOp):
        return None

    captured = _captured_values(region_op)
    constants = [v for v in captured if _is_inlinable_constant(v)]
    tensors = [v for v in captured if isinstance(v.type, TensorType) and v not in constants]
    others = [v for v in captured if v not in constants and not isinstance(v.type, TensorType)]

    # Results computed in place into a captured tensor are tied to it.
    tied: list[int] = []
    tied_values: set[SSAValue] = set()
    for returned in terminator.operands:
        target = _tied_operand(region_op, returned)
        if target is not None and target not in tied_values and target in tensors:
            tied_values.add(target)
            tied.append(tensors.index(target))
        else:
            tied.append(flow.UNTIED_INDEX)

    # Sizes of the tensor operands, taken from the IR where they exist.
    point = InsertPoint.before(region_op)
    tensor_dims = {t: get_dynamic_dims(t, point) for t in tensors}
    argument_dims = [d for t in tensors for d in tensor_dims[t]]
    untied_result_dims = [
        d
        for i in range(len(region_op.results))
        if tied[i] == flow.UNTIED_INDEX
        for d in dispatch_result_dims(region_op, i)
    ]
    arguments = list(dict.fromkeys([*tensors, *argument_dims, *untied_result_dims, *others]))

    # The body's block arguments: operands, then one writeonly tensor per untied result.
    tied_operands = set(tied) - {flow.UNTIED_INDEX}
    arg_types = []
    for index, value in enumerate(arguments):
        if isinstance(value.type, TensorType):
            access = "readwrite" if index in tied_operands else "readonly"
            arg_types.append(iree_tensor_ext.DispatchTensorType(access, value.type))
        else:
            arg_types.append(value.type)
    for i, ty in enumerate(region_op.result_types):
        if tied[i] == flow.UNTIED_INDEX:
            arg_types.append(iree_tensor_ext.DispatchTensorType("writeonly", ty))
    new_block = Block(arg_types=arg_types)
    inner: dict[SSAValue, SSAValue] = dict(zip(arguments, new_block.args))

    # Constants first (canonicalize puts them there), then the workload ordinals.
    prologue: list[Operation] = []
    for value in constants:
        clone = value.owner.clone()  # type: ignore[union-attr]
        prologue.append(clone)
        inner[value] = clone.results[0]
    workload = [v for v in arguments if isinstance(v.type, IndexType)]
    for ordinal, value in enumerate(workload):
        marker = iree_tensor_ext.DispatchWorkloadOrdinalOp(inner[value], ordinal)
        prologue.append(marker)
        inner[value] = marker.result

    # Loads and stores take the sizes through their ordinals; IREE ties the
    # dispatch tensors to them later (iree-flow-capture-dynamic-dims).
    binding_of = {
        value: (new_block.args[index], [inner[d] for d in tensor_dims[value]])
        for index, value in enumerate(arguments)
        if isinstance(value.type, TensorType)
    }
    output_args = iter(new_block.args[len(arguments) :])
    result_bindings = {
        i: (next(output_args), [inner[d] for d in dispatch_result_dims(region_op, i)])
        for i in range(len(region_op.results))
        if tied[i] == flow.UNTIED_INDEX
    }

    # Loads of the tensor operands.
    for value in tensors:
        binding, dims = binding_of[value]
        load = iree_tensor_ext.DispatchTensorLoadOp(value.type, binding, dims)
        prologue.append(load)
        inner[value] = load.result
    new_block.add_ops(prologue)

    # Move the region's ops over; the terminator becomes stores.
    returned = list(terminator.operands)
    for op in list(body.ops):
        if op is terminator:
            continue
        op.detach()
        new_block.add_op(op)
    stores: list[Operation] = []
    for i, value in enumerate(returned):
        if tied[i] == flow.UNTIED_INDEX:
            binding, dims = result_bindings[i]
        else:
            binding, dims = binding_of[tensors[tied[i]]]
        stores.append(iree_tensor_ext.DispatchTensorStoreOp(value, binding, dims))
    new_block.add_ops([*stores, flow.ReturnOp()])

    workgroups = flow.DispatchWorkgroupsOp(
        workload,
        arguments,
        argument_dims,
        region_op.result_types,
        region_op.result_dims,
        tied,  # tensors come first, so an index into them is an operand index
        Region(new_block),
        default_workgroup_count_region(len(workload)),
    )
    workgroups.attributes |= region_op.attributes
    # IREE builds the op and all its plumbing (loads, stores, ordinals,
    # the count region) at the region's location; moved ops keep their own.
    workgroups.location = region_op.location
    give_location(workgroups, region_op.location)
    # Uses in the moved ops still name the outer values (or a loaded tensor's
    # outer value): point them at their inner counterparts.
    _replace_uses_inside(inner, workgroups)
    Rewriter.replace_op(region_op, workgroups)
    # A constant now cloned into every dispatch that used it may be dead outside.
    for value in constants:
        if not value.uses and isinstance(value.owner, Operation):
            Rewriter.erase_op(value.owner)
    return workgroups


@dataclass(frozen=True)
class ConvertDispatchRegionsToWorkgroupsPass(ModulePass):
    """Rewrites every ``flow.dispatch.region`` into an isolated ``flow.dispatch.workgroups``.

    Regions this cannot express (several blocks, an explicit workgroup count
    region) are left as they are.
    """

    name = "iree-dispatch-creation-convert-dispatch-regions-to-workgroups"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        regions = [o for o in op.walk() if isinstance(o, flow.DispatchRegionOp)]
        for region_op in regions:
            if region_op.parent is not None:
                convert_region_to_workgroups(region_op)
