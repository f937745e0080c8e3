"""``iree-stream-conversion``: the host program on tensors becomes stream ops on sized resources.

Every tensor value outside an executable becomes a ``!stream.resource<*>`` plus
its byte size (an ``index`` computed by ``stream.tensor.sizeof``), and every op
that touches one names the device it runs on (``on(#hal.device.affinity<@dev>)``):

    %2 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<?x?xf32>{%0, %1}
  becomes
    hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("input0") shape([%0, %1]) ...
    %2 = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x?xf32>{%0, %1} : index
    %3 = stream.tensor.import on(#hal.device.affinity<@__device_0>) %arg0 : !hal.buffer_view
           -> tensor<?x?xf32>{%0, %1} in !stream.resource<external>{%2}
    %4 = stream.async.transfer %3 : !stream.resource<external>{%2} from(...) -> to(...) !stream.resource<*>{%2}

(the walkthrough's form; ``async-cast=true``, or a run in IREE 3.13's era, gives IREE 3.13's
``stream.async.cast on(...)`` at imports and exports instead).

``flow.tensor.encode`` becomes ``stream.tensor.encode``, ``flow.dispatch``
``stream.tensor.dispatch``, ``flow.tensor.alloca`` ``stream.async.alloca``,
``flow.tensor.empty`` ``stream.tensor.empty``, ``hal.tensor.export`` a transfer to an external
resource + ``stream.tensor.export``, a tensor ``arith.constant``
``stream.tensor.constant``, and a tensor ``util.global`` a resource global plus
a ``__size`` global; functions, calls and returns pass each tensor as its
resource and size. ``flow.executable`` becomes ``stream.executable``: its
public functions (``func.func`` or ``util.func``, as IREE converts any function
op) take ``!stream.binding`` arguments, viewed as dispatch tensors by
``stream.binding.subspan`` with the dims of the ``flow.dispatch.tie_shape``
they replace.

Where an op runs is its own affinity (``stream.affinity``, or the ``on(...)``
of an import/export), else the nearest enclosing one, else the nearest
``stream.affinity.default``, as IREE's ``AffinityAttr::lookupOrDefault``. A
value produced on one device and used on another is moved by a
``stream.async.transfer`` between the two. IREE's affinity analysis may also
infer an unpinned op's device from its consumers; here such an op runs on the
default device and its result is transferred where it is used.

IREE 3.13's compute barriers (``iree_tensor_ext.compute_barrier.start/end``,
which IREE removes before this pass) are first replaced by their operands, as
``iree-dispatch-creation-remove-tensor-barriers`` does, so that IR dumped in
between converts. A host ``tensor.dim`` is then answered from the dims its
tensor's producer carries (IREE's earlier canonicalizations do that). The pass
then refuses what it cannot convert: any other op outside an executable that
takes or returns tensors (``tensor.empty``, ``flow.dispatch.region``, an import
waiting on a fence, ...) is reported as ``failed to legalize operation '...'``
before any op is converted.

Sources: IREE ``compiler/src/iree/compiler/Dialect/Stream/Conversion/``
(FlowToStream, HALToStream, UtilToStream, StandardToStream, PatternUtils) and
``Transforms/ConvertToStream.cpp``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    ModuleOp,
    NoneAttr,
    ShapedType,
    TensorType,
    UnrealizedConversionCastOp,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter

from mini_iree.compiler.analysis.functions import functions
from mini_iree.compiler.analysis.tensor_barriers import RemoveTensorBarrierPattern
from mini_iree.compiler.era import run_era
from mini_iree.compiler.ir.diagnostics import OpError
from mini_iree.compiler.ir.dynamic_dims import find_dynamic_dims
from mini_iree.compiler.ir.locations import LocationStamping
from mini_iree.compiler.ir.selective_walker import SelectivePatternRewriteWalker
from mini_iree.dialects import flow, flow_tensor, hal, iree_tensor_ext, stream, tensor, util
from mini_iree.dialects.utils import count_dynamic

__all__ = ["ConvertToStreamPass", "lookup_affinity"]

AFFINITY_ATTR = "stream.affinity"
DEFAULT_AFFINITY_ATTR = "stream.affinity.default"


# ---------------------------------------------------------------------------
# Affinities
# ---------------------------------------------------------------------------


def _own_affinity(op: Operation) -> Attribute | None:
    """The affinity ``op`` itself pins: an ``affinity`` property (``on(...)``) or a ``stream.affinity`` attribute."""
    if (prop := op.properties.get("affinity")) is not None:
        return prop
    return op.attributes.get(AFFINITY_ATTR)


def lookup_affinity(op: Operation) -> Attribute | None:
    """IREE's ``AffinityAttr::lookupOrDefault``: the op's or an ancestor's affinity, else the nearest default."""
    current: Operation | None = op
    while current is not None:
        if (affinity := _own_affinity(current)) is not None:
            return affinity
        current = current.parent_op()
    current = op
    while current is not None:
        if (affinity := current.attributes.get(DEFAULT_AFFINITY_ATTR)) is not None:
            return affinity
        current = current.parent_op()
    return None


def _resource_affinity(resource: SSAValue) -> Attribute | None:
    """Where a converted resource lives: the target of the transfer or the device of the op that made it."""
    owner = resource.owner
    if isinstance(owner, stream.AsyncTransferOp):
        return owner.target_affinity
    if isinstance(owner, Operation):
        return lookup_affinity(owner)
    parent = owner.parent_op()
    return lookup_affinity(parent) if parent is not None else None


# ---------------------------------------------------------------------------
# Converted tensors: (resource, size) pairs behind an unrealized cast
# ---------------------------------------------------------------------------


@dataclass
class ConvertedTensor:
    """IREE's ``ConvertedTensor``: a tensor as the resource holding it, its byte size and its device."""

    affinity: Attribute | None
    resource: SSAValue
    size: SSAValue


def _as_tensor(
    resource: SSAValue | Operation, size: SSAValue | Operation, type_: Attribute
) -> UnrealizedConversionCastOp:
    """The (resource, size) pair standing for a tensor value until every user is converted (MLIR's 1:N cast)."""
    return UnrealizedConversionCastOp.get([resource, size], [type_])


def _replace(
    rewriter: PatternRewriter, op: Operation, new_ops: Sequence[Operation], new_results: Sequence[SSAValue]
) -> None:
    """``rewriter.replace`` without xDSL's spreading of the old result's name onto every new op.

    MLIR names values when printing; IREE's new ops print as ``%0``, ``%cst``
    or after the global they load, never after the tensor value they replace.
    """
    hints = [(result, result.name_hint) for new_op in new_ops for result in new_op.results]
    rewriter.replace(op, list(new_ops), list(new_results))
    for result, hint in hints:
        if not isinstance(result.owner, UnrealizedConversionCastOp):
            result.name_hint = hint


def _converted(value: SSAValue) -> tuple[SSAValue, SSAValue] | None:
    """The (resource, size) of an already converted tensor value, or None if its producer is not converted yet."""
    owner = value.owner
    if isinstance(owner, UnrealizedConversionCastOp) and len(owner.inputs) == 2:
        resource, size = owner.inputs
        if isinstance(resource.type, stream.ResourceType):
            return resource, size
    return None


def _all_converted(values: Sequence[SSAValue]) -> bool:
    return all(_converted(v) is not None for v in values if isinstance(v.type, TensorType))


def _transfer_tensor_operand(
    value: SSAValue, required: Attribute | None, new_ops: list[Operation]
) -> ConvertedTensor:
    """IREE's ``transferTensorOperands``: the resource of ``value`` on ``required``, moved if it is elsewhere."""
    converted = _converted(value)
    assert converted is not None
    resource, size = converted
    affinity = _resource_affinity(resource)
    if affinity != required:
        transfer = stream.AsyncTransferOp(resource, size, resource.type, size, affinity, required)
        new_ops.append(transfer)
        resource = transfer.result
    return ConvertedTensor(required, resource, size)


def _split_dims(types: Sequence[Attribute], dims: Sequence[SSAValue]) -> list[list[SSAValue]]:
    """``dims`` (the ``{...}`` operands of a shape-aware op) cut into one list per type."""
    result: list[list[SSAValue]] = []
    rest = list(dims)
    for type_ in types:
        count = count_dynamic(type_) if isinstance(type_, ShapedType) else 0
        result.append(rest[:count])
        rest = rest[count:]
    return result


def _in_executable(op: Operation) -> bool:
    """Ops inside an executable are device code: the conversion leaves them to the executable pattern."""
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, flow.ExecutableOpBase):
            return True
        parent = parent.parent_op()
    return False


# ---------------------------------------------------------------------------
# HALToStream
# ---------------------------------------------------------------------------


def _encoding_assertions(
    buffer_view: SSAValue, message: str, tensor_type: TensorType, dims: Sequence[SSAValue]
) -> list[Operation]:
    """``hal.buffer_view.assert`` that the caller passed the shape, element type and encoding compiled for."""
    element_type = hal.ElementTypeOp(tensor_type.element_type)
    encoding = tensor_type.encoding
    encoding_type = hal.EncodingTypeOp(None if isinstance(encoding, NoneAttr) else encoding)
    ops: list[Operation] = [element_type, encoding_type]
    shape: list[SSAValue] = []
    dynamic = iter(dims)
    for extent in tensor_type.get_shape():
        if extent < 0:
            shape.append(next(dynamic))
            continue
        constant = arith.ConstantOp(IntegerAttr(extent, IndexType()))
        ops.append(constant)
        shape.append(constant.result)
    ops.append(hal.BufferViewAssertOp(buffer_view, message, shape, element_type.result, encoding_type.result))
    return ops


class ConvertTensorImportOp(RewritePattern):
    """``hal.tensor.import`` -> assertions + ``stream.tensor.sizeof`` + ``stream.tensor.import`` + transfer to ``*``.

    With ``async_cast`` (IREE 3.13) the external resource becomes ``*`` through
    ``stream.async.cast`` instead of ``stream.async.transfer``.
    """

    def __init__(self, async_cast: bool = False):
        self.async_cast = async_cast

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: hal.TensorImportOp, rewriter: PatternRewriter) -> None:
        if _in_executable(op):
            return
        affinity = lookup_affinity(op)
        target_encoding = op.target_encoding
        new_ops: list[Operation] = []
        if isinstance(op.source.type, hal.BufferViewType) and isinstance(target_encoding, TensorType):
            name = op.tensor_name.data if op.tensor_name is not None else "tensor"
            new_ops += _encoding_assertions(op.source, name, target_encoding, op.target_dims)
        size = stream.TensorSizeOfOp(op.target.type, op.target_dims, affinity)
        imported = stream.TensorImportOp(
            op.source,
            target_encoding,
            op.target_dims,
            stream.ResourceType(stream.Lifetime.EXTERNAL),
            size,
            affinity,
        )
        transfer: stream.AsyncCastOp | stream.AsyncTransferOp
        if self.async_cast:
            transfer = stream.AsyncCastOp(imported, size, stream.ResourceType(), size, affinity)
        else:
            transfer = stream.AsyncTransferOp(imported, size, stream.ResourceType(), size, affinity, affinity)
        cast = _as_tensor(transfer, size, op.target.type)
        _replace(rewriter, op, [*new_ops, size, imported, transfer, cast], cast.results)


class ConvertTensorExportOp(RewritePattern):
    """``hal.tensor.export`` -> transfer to an ``external`` resource + ``stream.tensor.export``.

    With ``async_cast`` (IREE 3.13) the lifetime changes through ``stream.async.cast``.
    """

    def __init__(self, async_cast: bool = False):
        self.async_cast = async_cast

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: hal.TensorExportOp, rewriter: PatternRewriter) -> None:
        if _in_executable(op) or not _all_converted([op.source]):
            return
        affinity = lookup_affinity(op)
        new_ops: list[Operation] = []
        source = _transfer_tensor_operand(op.source, affinity, new_ops)
        external = stream.ResourceType(stream.Lifetime.EXTERNAL)
        export_source = source.resource
        if export_source.type != external:
            transfer: stream.AsyncCastOp | stream.AsyncTransferOp
            if self.async_cast:
                transfer = stream.AsyncCastOp(export_source, source.size, external, source.size, affinity)
            else:
                transfer = stream.AsyncTransferOp(
                    export_source, source.size, external, source.size, source.affinity, affinity
                )
            new_ops.append(transfer)
            export_source = transfer.result
        exported = stream.TensorExportOp(
            export_source, op.source_encoding, op.source_dims, source.size, op.target.type, affinity
        )
        _replace(rewriter, op, [*new_ops, exported], exported.results)


# ---------------------------------------------------------------------------
# FlowToStream
# ---------------------------------------------------------------------------


class ConvertTensorEncodeOp(RewritePattern):
    """``flow.tensor.encode`` -> ``stream.tensor.sizeof`` of the result + ``stream.tensor.encode``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: flow.TensorEncodeOp, rewriter: PatternRewriter) -> None:
        if _in_executable(op) or not _all_converted([op.operand]):
            return
        affinity = lookup_affinity(op)
        new_ops: list[Operation] = []
        operand = _transfer_tensor_operand(op.operand, affinity, new_ops)
        # IREE sizes the result with the operand's dims (they are the same when
        # an encoding is added); a slicing encode with other dims uses its own.
        size_dims = op.operand_dims if len(op.operand_dims) == len(op.result_dims) else op.result_dims
        size = stream.TensorSizeOfOp(op.result.type, size_dims, affinity)
        encode = stream.TensorEncodeOp(
            operand.resource,
            op.operand.type,
            op.operand_dims,
            operand.size,
            op.result.type,
            op.result_dims,
            size,
            stream.ResourceType(),
            affinity,
        )
        cast = _as_tensor(encode, size, op.result.type)
        _replace(rewriter, op, [*new_ops, size, encode, cast], cast.results)


class ConvertTensorCastLikeOp(RewritePattern):
    """IREE's ``ConvertTensorCastLikeOp``: ``flow.tensor.reshape`` / ``bitcast`` -> ``stream.tensor.sizeof``
    of the result + ``stream.tensor.clone`` of the operand's resource as the result type.

    The clone reads the same bytes as another tensor type; canonicalization
    elides it (``ElideUnneededTensorClones``), leaving the result's size.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: flow_tensor.ReshapeLikeOpBase, rewriter: PatternRewriter) -> None:
        if _in_executable(op) or not _all_converted([op.source]):
            return
        affinity = lookup_affinity(op)
        new_ops: list[Operation] = []
        source = _transfer_tensor_operand(op.source, affinity, new_ops)
        size = stream.TensorSizeOfOp(op.result.type, op.result_dims, affinity)
        clone = stream.TensorCloneOp(
            source.resource,
            op.source.type,
            op.source_dims,
            source.size,
            op.result.type,
            op.result_dims,
            size,
            stream.ResourceType(),
            affinity,
        )
        cast = _as_tensor(clone, size, op.result.type)
        _replace(rewriter, op, [*new_ops, size, clone, cast], cast.results)


class ConvertTensorAllocaOp(RewritePattern):
    """``flow.tensor.alloca`` -> ``stream.tensor.sizeof`` + ``stream.async.alloca`` of that many bytes."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: flow_tensor.TensorAllocaOp, rewriter: PatternRewriter) -> None:
        if _in_executable(op):
            return
        affinity = lookup_affinity(op)
        size = stream.TensorSizeOfOp(op.result.type, op.result_dims, affinity)
        alloca = stream.AsyncAllocaOp(stream.ResourceType(), size, affinity)
        cast = _as_tensor(alloca, size, op.result.type)
        _replace(rewriter, op, [size, alloca, cast], cast.results)


class ConvertTensorEmptyOp(RewritePattern):
    """``flow.tensor.empty`` -> ``stream.tensor.sizeof`` + ``stream.tensor.empty`` of that size."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: flow_tensor.TensorEmptyOp, rewriter: PatternRewriter) -> None:
        if _in_executable(op):
            return
        affinity = lookup_affinity(op)
        size = stream.TensorSizeOfOp(op.result.type, op.result_dims, affinity)
        empty = stream.TensorEmptyOp(op.result.type, op.result_dims, stream.ResourceType(), size, affinity)
        cast = _as_tensor(empty, size, op.result.type)
        _replace(rewriter, op, [size, empty, cast], cast.results)


class ConvertDispatchOp(RewritePattern):
    """``flow.dispatch`` -> ``stream.tensor.dispatch``: tensor operands as resources, one sizeof per new result."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: flow.DispatchOp, rewriter: PatternRewriter) -> None:
        if _in_executable(op) or not _all_converted(op.arguments):
            return
        affinity = lookup_affinity(op)
        new_ops: list[Operation] = []
        operands: list[SSAValue] = []
        operand_sizes: list[SSAValue] = []
        all_sizes: list[SSAValue | None] = []
        operand_encodings: list[Attribute] = []
        for argument in op.arguments:
            if isinstance(argument.type, ShapedType):
                converted = _transfer_tensor_operand(argument, affinity, new_ops)
                operands.append(converted.resource)
                operand_sizes.append(converted.size)
                all_sizes.append(converted.size)
                operand_encodings.append(argument.type)
            else:
                operands.append(argument)
                all_sizes.append(None)
                operand_encodings.append(stream.UNUSED_ENCODING)

        result_types: list[Attribute] = []
        result_sizes: list[SSAValue] = []
        result_encodings: list[Attribute] = []
        tied: list[int] = []
        dims_per_result = _split_dims(op.result_types, op.result_dims)
        for index, result in enumerate(op.res):
            tied_to = flow.tied_operand_index(op.tied_operands, index)
            tied.append(tied_to)
            if not isinstance(result.type, ShapedType):
                result_types.append(result.type)
                result_encodings.append(stream.UNUSED_ENCODING)
                continue
            if tied_to != flow.UNTIED_INDEX:
                size = all_sizes[tied_to]
                assert size is not None
                result_sizes.append(size)
                result_types.append(operands[tied_to].type)
                result_encodings.append(operand_encodings[tied_to])
                continue
            sizeof = stream.TensorSizeOfOp(result.type, dims_per_result[index], affinity)
            new_ops.append(sizeof)
            result_sizes.append(sizeof.storage_size)
            result_types.append(stream.ResourceType())
            result_encodings.append(result.type)

        dispatch = stream.TensorDispatchOp(
            list(op.entry_points.data),
            op.workload,
            operands,
            operand_sizes,
            operand_encodings,
            op.argument_dims,
            result_types,
            result_sizes,
            result_encodings,
            op.result_dims,
            tied if any(t != flow.UNTIED_INDEX for t in tied) else (),
            affinity,
        )
        # Other dialect attributes travel; the affinity is now the `on(...)`.
        for name, value in op.attributes.items():
            if name != AFFINITY_ATTR:
                dispatch.attributes[name] = value
        new_ops.append(dispatch)

        replacements: list[SSAValue] = []
        sizes = iter(result_sizes)
        for result, new_result in zip(op.res, dispatch.res):
            if not isinstance(result.type, ShapedType):
                replacements.append(new_result)
                continue
            cast = _as_tensor(new_result, next(sizes), result.type)
            new_ops.append(cast)
            replacements.append(cast.results[0])
        _replace(rewriter, op, new_ops, replacements)


def _insert_binding_op(arg: SSAValue, tensor_type: Attribute, zero: SSAValue, static_point: InsertPoint) -> InsertPoint:
    """IREE's ``insertBindingOp``: a ``stream.binding.subspan`` viewing binding ``arg`` as ``tensor_type``.

    A static binding is viewed where the function starts (after earlier
    bindings); a dynamic one where its ``flow.dispatch.tie_shape`` is, which
    carries the dims. Returns the insertion point for the next static binding.
    """
    if not arg.uses:
        return static_point
    dims: list[SSAValue] = []
    point = static_point
    if count_dynamic(tensor_type):
        tie = next((use.operation for use in arg.uses if isinstance(use.operation, flow.DispatchTieShapeOp)), None)
        if tie is None:
            owner = arg.owner
            function = owner.parent_op() if isinstance(owner, Block) else None
            raise OpError(
                function if function is not None else arg.owner,
                "dynamic dispatch dimensions not properly captured; the must be "
                "associated with a flow.dispatch.tie_shape op",
                prefix_op_name=False,
            )
        dims = list(tie.dynamic_dims)
        point = InsertPoint.before(tie)
    subspan = stream.BindingSubspanOp(arg, zero, tensor_type, dims)
    Rewriter.insert_op(subspan, point)
    arg.replace_uses_with_if(subspan.result, lambda use: use.operation is not subspan)
    # xDSL hands the argument's name to the replacement; IREE's subspan is unnamed.
    subspan.result.name_hint = None
    return InsertPoint.after(subspan) if point is static_point else static_point


def _convert_return_ops(region: Region) -> None:
    """``flow.return`` -> ``stream.return`` in a workgroup count region."""
    for op in list(region.walk()):
        if isinstance(op, flow.ReturnOp):
            Rewriter.replace_op(op, stream.ReturnOp(op.values))


def _convert_dispatch_function(function: func.FuncOp | util.FuncOp) -> None:
    """Dispatch tensor arguments become ``!stream.binding``s viewed by ``stream.binding.subspan``."""
    block = function.body.block
    zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
    if block.first_op is not None:
        Rewriter.insert_op(zero, InsertPoint.before(block.first_op))
    else:
        block.add_op(zero)
    point = InsertPoint.after(zero)
    new_types: list[Attribute] = []
    for arg in list(block.args):
        tensor_type = arg.type
        if not isinstance(tensor_type, iree_tensor_ext.DispatchTensorTypeBase):
            new_types.append(tensor_type)
            continue
        binding = Rewriter.replace_value_with_new_type(arg, stream.BindingType())
        point = _insert_binding_op(binding, tensor_type, zero.result, point)
        new_types.append(stream.BindingType())
    # The dims now live on the subspans: strip the shape ties.
    for tie in [o for o in function.walk() if isinstance(o, flow.DispatchTieShapeOp)]:
        tie.result.replace_all_uses_with(tie.operand)
        Rewriter.erase_op(tie)
    function.function_type = FunctionType.from_lists(new_types, list(function.function_type.outputs))


class ConvertExecutableOp(RewritePattern):
    """``flow.executable`` -> ``stream.executable``: exports keep their workgroup count, functions take bindings."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: flow.ExecutableOp, rewriter: PatternRewriter) -> None:
        visibility = op.sym_visibility.data if op.sym_visibility is not None else None
        new = stream.ExecutableOp(op.sym_name.data, sym_visibility=visibility)
        new.attributes.update(op.attributes)
        for child in list(op.body.block.ops):
            if isinstance(child, flow.ExecutableExportOp):
                count = child.workgroup_count.clone()
                _convert_return_ops(count)
                export = stream.ExecutableExportOp(
                    child.sym_name.data,
                    child.function_ref.root_reference.data,
                    count,
                    child.sym_visibility.data if child.sym_visibility is not None else None,
                )
                export.attributes.update(child.attributes)
                new.body.block.add_op(export)
            elif isinstance(child, ModuleOp):
                child.detach()
                new.body.block.add_op(child)
                # IREE converts every public FunctionOpInterface op of the module.
                for function in functions(child, public=True, defined=True):
                    _convert_dispatch_function(function)
            else:
                raise OpError(child, "cannot be converted to a stream.executable body op")
        _replace(rewriter, op, [new], [])


# ---------------------------------------------------------------------------
# StandardToStream
# ---------------------------------------------------------------------------


class ConvertTensorConstantOp(RewritePattern):
    """A tensor ``arith.constant`` -> ``stream.tensor.constant`` (constant lifetime) + size + transfer to ``*``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.ConstantOp, rewriter: PatternRewriter) -> None:
        if not isinstance(op.result.type, TensorType) or _in_executable(op):
            return
        affinity = lookup_affinity(op)
        constant = stream.TensorConstantOp(
            op.value, op.result.type, stream.ResourceType(stream.Lifetime.CONSTANT), (), affinity
        )
        size = stream.ResourceSizeOp(constant)
        transfer = stream.AsyncTransferOp(constant, size, stream.ResourceType(), size, affinity, affinity)
        cast = _as_tensor(transfer, size, op.result.type)
        _replace(rewriter, op, [constant, size, transfer, cast], cast.results)


# ---------------------------------------------------------------------------
# UtilToStream: globals
# ---------------------------------------------------------------------------


@dataclass
class ExpandedGlobalResource:
    """A tensor global split into the resource global, its ``__size`` global and its device."""

    resource_op: util.GlobalOp
    resource_size_op: util.GlobalOp
    affinity: Attribute | None


@dataclass
class GlobalExpansionState:
    """Original global name -> its expansion, shared by the global patterns of one pass run."""

    globals: dict[str, ExpandedGlobalResource] = field(default_factory=dict)


class GlobalOpExpansion(RewritePattern):
    """A tensor ``util.global`` -> a ``!stream.resource<constant|variable>`` global plus an ``index`` ``__size`` one."""

    def __init__(self, state: GlobalExpansionState):
        self.state = state

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: util.GlobalOp, rewriter: PatternRewriter) -> None:
        if not isinstance(op.type, TensorType):
            return
        mutable = op.is_global_mutable
        lifetime = stream.Lifetime.VARIABLE if mutable else stream.Lifetime.CONSTANT
        resource_type = stream.ResourceType(lifetime)
        # The device of the global: chosen before the op (and its attributes) go away.
        affinity = lookup_affinity(op)
        initial_value = op.initial_value
        tensor_initializer = initial_value is not None and isinstance(util.typed_attr_type(initial_value), TensorType)
        name = op.sym_name.data
        resource_op = util.GlobalOp(
            name,
            resource_type,
            initial_value=None if tensor_initializer else initial_value,
            mutable=mutable,
            visibility=op.sym_visibility,
        )
        size_op = util.GlobalOp(f"{name}__size", IndexType(), mutable=mutable, visibility=op.sym_visibility)
        new_ops: list[Operation] = [resource_op, size_op]
        if tensor_initializer:
            assert initial_value is not None
            initializer = util.InitializerOp()
            constant = stream.TensorConstantOp(initial_value, op.type, resource_type, (), affinity)
            size = stream.ResourceSizeOp(constant)
            initializer.body.block.add_ops(
                [
                    constant,
                    size,
                    util.GlobalStoreOp(constant.result, name),
                    util.GlobalStoreOp(size.result, size_op.sym_name.data),
                    util.ReturnOp(),
                ]
            )
            new_ops.append(initializer)
        self.state.globals[name] = ExpandedGlobalResource(resource_op, size_op, affinity)
        _replace(rewriter, op, new_ops, [])


class GlobalLoadOpExpansion(RewritePattern):
    """A tensor ``util.global.load`` -> loads of the resource and its size + transfer to ``*``."""

    def __init__(self, state: GlobalExpansionState):
        self.state = state

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: util.GlobalLoadOp, rewriter: PatternRewriter) -> None:
        if not isinstance(op.result.type, TensorType) or _in_executable(op):
            return
        expanded = self.state.globals.get(op.global_.root_reference.data)
        if expanded is None:
            return
        resource = util.GlobalLoadOp(expanded.resource_op.sym_name.data, expanded.resource_op.type)
        size = util.GlobalLoadOp(expanded.resource_size_op.sym_name.data, IndexType())
        transfer = stream.AsyncTransferOp(
            resource, size, stream.ResourceType(), size, expanded.affinity, expanded.affinity
        )
        cast = _as_tensor(transfer, size, op.result.type)
        _replace(rewriter, op, [resource, size, transfer, cast], cast.results)


class GlobalStoreOpExpansion(RewritePattern):
    """A tensor ``util.global.store`` -> transfer to the global's lifetime and device + stores of resource and size."""

    def __init__(self, state: GlobalExpansionState):
        self.state = state

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: util.GlobalStoreOp, rewriter: PatternRewriter) -> None:
        if not isinstance(op.value.type, TensorType) or _in_executable(op):
            return
        expanded = self.state.globals.get(op.global_.root_reference.data)
        converted = _converted(op.value)
        if expanded is None or converted is None:
            return
        resource, size = converted
        transfer = stream.AsyncTransferOp(
            resource, size, expanded.resource_op.type, size, _resource_affinity(resource), expanded.affinity
        )
        store = util.GlobalStoreOp(transfer.result, expanded.resource_op.sym_name.data)
        size_store = util.GlobalStoreOp(size, expanded.resource_size_op.sym_name.data)
        _replace(rewriter, op, [transfer, store, size_store], [])


# ---------------------------------------------------------------------------
# UtilToStream: functions, calls and returns
# ---------------------------------------------------------------------------


def _expanded_types(types: Sequence[Attribute]) -> list[Attribute]:
    """Each tensor type as ``!stream.resource<*>, index``; other types as they are."""
    result: list[Attribute] = []
    for type_ in types:
        result += [stream.ResourceType(), IndexType()] if isinstance(type_, TensorType) else [type_]
    return result


def _expanded_values(values: Sequence[SSAValue]) -> list[SSAValue]:
    """Each converted tensor value as its resource and size; other values as they are."""
    result: list[SSAValue] = []
    for value in values:
        converted = _converted(value) if isinstance(value.type, TensorType) else None
        result += list(converted) if converted is not None else [value]
    return result


def _expanded_attrs(attrs: ArrayAttr[DictionaryAttr] | None, types: Sequence[Attribute]) -> ArrayAttr | None:
    """Argument/result attributes following the expansion: a tensor's go to its resource, its size gets none."""
    if attrs is None:
        return None
    result: list[DictionaryAttr] = []
    for attr, type_ in zip(attrs.data, types):
        result += [attr, DictionaryAttr({})] if isinstance(type_, TensorType) else [attr]
    return ArrayAttr(result)


class FuncOpSignatureConversion(RewritePattern):
    """A ``util.func`` taking or returning tensors takes and returns (resource, size) pairs instead."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: util.FuncOp, rewriter: PatternRewriter) -> None:
        inputs, outputs = op.function_type.inputs.data, op.function_type.outputs.data
        if not any(isinstance(t, TensorType) for t in (*inputs, *outputs)):
            return
        if not op.is_declaration:
            block = op.body.block
            for arg in reversed(list(block.args)):
                if not isinstance(tensor_type := arg.type, TensorType):
                    continue
                resource = rewriter.insert_block_argument(block, arg.index + 1, stream.ResourceType())
                size = rewriter.insert_block_argument(block, arg.index + 2, IndexType())
                cast = _as_tensor(resource, size, tensor_type)
                rewriter.insert(cast, InsertPoint.at_start(block))
                arg.replace_all_uses_with(cast.results[0])
                cast.results[0].name_hint = None
                rewriter.erase_block_argument(arg)
            # MLIR numbers arguments by position when printing; stale hints would not.
            for arg in block.args:
                arg.name_hint = None
        op.arg_attrs = _expanded_attrs(op.arg_attrs, inputs)
        op.res_attrs = _expanded_attrs(op.res_attrs, outputs)
        op.function_type = FunctionType.from_lists(_expanded_types(inputs), _expanded_types(outputs))
        rewriter.notify_op_modified(op)


class ReturnOpConversion(RewritePattern):
    """``util.return`` of tensors returns each one's resource and size."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: util.ReturnOp, rewriter: PatternRewriter) -> None:
        operands = list(op.operands)
        if _in_executable(op) or not any(isinstance(v.type, TensorType) for v in operands):
            return
        if not _all_converted(operands):
            return
        _replace(rewriter, op, [util.ReturnOp(*_expanded_values(operands))], [])


class CallOpConversion(RewritePattern):
    """``util.call`` with tensors passes and receives (resource, size) pairs."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: util.CallOp, rewriter: PatternRewriter) -> None:
        types = [*op.operand_types, *op.result_types]
        if _in_executable(op) or not any(isinstance(t, TensorType) for t in types):
            return
        if not _all_converted(list(op.operands)):
            return
        call = util.CallOp(op.callee, _expanded_values(list(op.operands)), _expanded_types(op.result_types))
        for name, value in op.attributes.items():
            call.attributes[name] = value
        new_ops: list[Operation] = [call]
        replacements: list[SSAValue] = []
        results = iter(call.results)
        for result in op.results:
            if not isinstance(result.type, TensorType):
                replacements.append(next(results))
                continue
            cast = _as_tensor(next(results), next(results), result.type)
            new_ops.append(cast)
            replacements.append(cast.results[0])
        _replace(rewriter, op, new_ops, replacements)


class OptimizationBarrierOpConversion(RewritePattern):
    """``util.optimization_barrier`` on tensors -> the barrier on their resources (sizes pass around it)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: util.OptimizationBarrierOp, rewriter: PatternRewriter) -> None:
        operands = list(op.operands)
        if _in_executable(op) or not any(isinstance(v.type, TensorType) for v in operands):
            return
        if not _all_converted(operands):
            return
        new_operands: list[SSAValue] = []
        sizes: list[SSAValue | None] = []
        for value in operands:
            converted = _converted(value) if isinstance(value.type, TensorType) else None
            new_operands.append(converted[0] if converted is not None else value)
            sizes.append(converted[1] if converted is not None else None)
        barrier = util.OptimizationBarrierOp(new_operands)
        new_ops: list[Operation] = [barrier]
        replacements: list[SSAValue] = []
        for result, new_result, size in zip(op.results, barrier.results, sizes):
            if size is None:
                replacements.append(new_result)
                continue
            cast = _as_tensor(new_result, size, result.type)
            new_ops.append(cast)
            replacements.append(cast.results[0])
        _replace(rewriter, op, new_ops, replacements)


# ---------------------------------------------------------------------------
# tensor.dim on the host
# ---------------------------------------------------------------------------


class ResolveTensorDimOp(RewritePattern):
    """``tensor.dim`` of a host tensor -> the extent its producer already carries (or a constant).

    Resources have no shape to ask, so a host ``tensor.dim`` must go. IREE folds
    these in the canonicalizations that run before ``ConvertToStream`` (a
    shape-aware producer such as ``flow.dispatch`` or ``hal.tensor.import``
    names its result dims); programs that skipped them are resolved here.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.DimOp, rewriter: PatternRewriter) -> None:
        if _in_executable(op) or not isinstance(source_type := op.source.type, TensorType):
            return
        index_op = op.index.owner
        if not isinstance(index_op, arith.ConstantOp) or not isinstance(index_op.value, IntegerAttr):
            return
        axis = index_op.value.value.data
        shape = source_type.get_shape()
        if not 0 <= axis < len(shape):
            return
        if shape[axis] != DYNAMIC_INDEX:
            constant = arith.ConstantOp(IntegerAttr(shape[axis], IndexType()))
            _replace(rewriter, op, [constant], constant.results)
            return
        dims = find_dynamic_dims(op.source)
        if dims is None:
            return
        dim = dims[sum(1 for n in shape[:axis] if n == DYNAMIC_INDEX)]
        # The extent keeps its own name: xDSL would hand it the `%dim` of the op it replaces.
        name = dim.name_hint
        rewriter.replace(op, [], [dim])
        dim.name_hint = name


# ---------------------------------------------------------------------------
# Legality
# ---------------------------------------------------------------------------

_CONVERTED_OPS = (
    hal.TensorImportOp,
    hal.TensorExportOp,
    flow.TensorEncodeOp,
    flow_tensor.ReshapeLikeOpBase,
    flow_tensor.TensorAllocaOp,
    flow_tensor.TensorEmptyOp,
    flow.DispatchOp,
    flow.ExecutableOp,
    arith.ConstantOp,
    util.GlobalOp,
    util.GlobalLoadOp,
    util.GlobalStoreOp,
    util.FuncOp,
    util.CallOp,
    util.ReturnOp,
    util.OptimizationBarrierOp,
)


def _host_ops(op: Operation) -> Iterator[Operation]:
    """Every op outside executables (pre-order); executables themselves are yielded, their bodies not."""
    for region in op.regions:
        for block in region.blocks:
            for child in block.ops:
                yield child
                if not isinstance(child, flow.ExecutableOpBase):
                    yield from _host_ops(child)


def _uses_tensors(op: Operation) -> bool:
    if any(isinstance(t, TensorType) for t in (*op.operand_types, *op.result_types)):
        return True
    if isinstance(op, util.FuncOp):
        function_type = op.function_type
        return any(isinstance(t, TensorType) for t in (*function_type.inputs, *function_type.outputs))
    return False


def _check_bindings(executable: flow.ExecutableOp) -> None:
    """Every used dynamic dispatch tensor argument of an exported function needs a ``flow.dispatch.tie_shape``."""
    modules = [op for op in executable.body.block.ops if isinstance(op, ModuleOp)]
    for function in [f for module in modules for f in functions(module, public=True, defined=True)]:
        for arg in function.body.block.args:
            if not isinstance(arg.type, iree_tensor_ext.DispatchTensorTypeBase) or not count_dynamic(arg.type):
                continue
            if arg.uses and not any(isinstance(use.operation, flow.DispatchTieShapeOp) for use in arg.uses):
                raise OpError(
                    function,
                    "dynamic dispatch dimensions not properly captured; the must be "
                    "associated with a flow.dispatch.tie_shape op",
                    prefix_op_name=False,
                )


def _check_convertible(module: ModuleOp) -> None:
    """Refuse, before changing anything, every host op with tensors that no pattern converts (MLIR's legality)."""
    for op in _host_ops(module):
        if isinstance(op, flow.ExecutableOp):
            _check_bindings(op)
        convertible = isinstance(op, _CONVERTED_OPS)
        problem = None
        if isinstance(op, hal.TensorImportOp) and op.wait_fence is not None:
            problem = "fence waits are not supported"
        elif isinstance(op, util.GlobalOp) and isinstance(op.type, TensorType):
            value = op.initial_value
            if value is not None and not isinstance(util.typed_attr_type(value), TensorType):
                problem = f"unsupported initial value {value}"
        elif op.name.startswith("flow.") and not convertible:
            problem = "that was explicitly marked illegal"
        elif not convertible and _uses_tensors(op):
            problem = "it takes or returns tensors and has no conversion to stream"
        if problem is not None:
            separator = " " if problem.startswith("that") else ": "
            raise OpError(op, f"failed to legalize operation '{op.name}'{separator}{problem}", prefix_op_name=False)


def _finish(module: ModuleOp) -> None:
    """Drop the casts every user of which was converted; a cast still in use is an op left unconverted."""
    casts = [op for op in module.walk() if isinstance(op, UnrealizedConversionCastOp) and _converted(op.results[0])]
    for cast in reversed(casts):
        if cast.results[0].uses:
            user = next(iter(cast.results[0].uses)).operation
            raise OpError(user, f"failed to legalize operation '{user.name}'", prefix_op_name=False)
        Rewriter.erase_op(cast)
    # IREE's `stripAffinityAttrs`: the devices now live on the stream ops.
    for op in module.body.block.ops:
        op.attributes.pop(AFFINITY_ATTR, None)


@dataclass(frozen=True)
class ConvertToStreamPass(ModulePass):
    """Converts the host program from tensors to stream resources and flow executables to stream executables.

    Supported host ops: ``hal.tensor.import/export``, ``flow.tensor.encode``,
    ``flow.tensor.reshape/bitcast``, ``flow.tensor.alloca/empty``, ``flow.dispatch``, compute barriers (removed),
    tensor ``arith.constant``, tensor globals with their
    loads and stores, ``util.func``/``util.call``/``util.return`` and
    ``util.optimization_barrier`` on tensors, and ``tensor.dim`` of a
    shape-aware producer. Anything
    else that uses tensors outside an executable is an error naming the op.
    """

    name = "iree-stream-conversion"

    async_cast: bool = field(default_factory=lambda: run_era().async_cast)
    """IREE 3.13's form: imports and exports change lifetime with ``stream.async.cast`` (walkthrough: transfer).

    By default the run's era decides (``compiler/era.py``, read when the pass is built)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # IREE removes its compute barriers before stream conversion; IR dumped
        # between the two (IREE 3.13's entry points) still has them.
        SelectivePatternRewriteWalker(
            GreedyRewritePatternApplier([RemoveTensorBarrierPattern(), ResolveTensorDimOp()], dce_enabled=False),
            apply_recursively=False,
        ).rewrite_module(op)
        _check_convertible(op)
        state = GlobalExpansionState()
        patterns: list[RewritePattern] = [
            FuncOpSignatureConversion(),
            CallOpConversion(),
            ReturnOpConversion(),
            OptimizationBarrierOpConversion(),
            GlobalOpExpansion(state),
            GlobalLoadOpExpansion(state),
            GlobalStoreOpExpansion(state),
            ConvertTensorConstantOp(),
            ConvertTensorImportOp(self.async_cast),
            ConvertTensorExportOp(self.async_cast),
            ConvertTensorEncodeOp(),
            ConvertTensorCastLikeOp(),
            ConvertTensorAllocaOp(),
            ConvertTensorEmptyOp(),
            ConvertDispatchOp(),
        ]
        # Executables first, each on its own: their bodies move into the new
        # op, which a walker's worklist (holding the old nested ops) must not see.
        for executable in [o for o in op.walk() if isinstance(o, flow.ExecutableOp)]:
            LocationStamping(ConvertExecutableOp()).match_and_rewrite(executable, PatternRewriter(executable))
        SelectivePatternRewriteWalker(
            GreedyRewritePatternApplier(patterns, dce_enabled=False), apply_recursively=True
        ).rewrite_module(op)
        _finish(op)
