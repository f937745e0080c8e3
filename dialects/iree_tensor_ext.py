"""The ``iree_tensor_ext`` dialect: how a dispatch function sees its tensors.

When IREE outlines a dispatch region into an executable, the function inside can
no longer take ``tensor`` values: its arguments are bindings to device buffers.
``!iree_tensor_ext.dispatch.tensor<access:tensor<...>>`` is the tensor-level view
of such a binding, and ``dispatch.tensor.load``/``dispatch.tensor.store`` move
(sub)tensors in and out of it::

    %in  = stream.binding.subspan %arg0[%c0] : !stream.binding
             -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%d0, %d1}
    %t   = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0, 0], sizes = [%d0, %d1],
             strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%d0, %d1}
             -> tensor<?x?xf32>

The dialect also holds the small ops that tie a dispatch body to its workload
(``dispatch.workload.ordinal``, ``dispatch.workgroup_count_from_slice``) and the
``compute_barrier.start/end`` markers IREE puts around dispatch-region formation.

Before April 2025 these lived in the ``flow`` dialect (``!flow.dispatch.tensor``,
``flow.dispatch.tensor.load``...); ``mini_iree.dialects.flow`` keeps those
spellings on top of the classes defined here. The verification helpers at the
top of this module are shared by ``flow`` and ``stream``.

https://iree.dev/reference/mlir-dialects/TensorExt
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.dialects.utils import DynamicIndexList, get_dynamic_index_list
from xdsl.ir import Attribute, BlockArgument, Dialect, Operation, SSAValue, TypeAttribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParametrizedAttribute,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import AttrParser
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.printer import Printer
from xdsl.rewriter import InsertPoint
from xdsl.traits import HasCanonicalizationPatternsTrait, Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from mini_iree.dialects.flow_tensor import ReshapeLikeOpBase
from mini_iree.dialects.utils import verify_op_dynamic_dims

# ---------------------------------------------------------------------------
# Verification helpers shared with the flow and stream dialects.
# ---------------------------------------------------------------------------


def quoted(attr: Attribute) -> str:
    """An attribute or type as MLIR quotes it in diagnostics: ``'tensor<4xf32>'``."""
    return f"'{attr}'"


def verify_offsets_sizes_strides(op: DispatchTensorLoadOpBase | DispatchTensorStoreOpBase, rank: int) -> None:
    """MLIR's ``OffsetSizeAndStrideOpInterface`` verifier, for a slice of a rank-``rank`` tensor."""
    n_offsets, n_sizes, n_strides = (len(op.static_offsets), len(op.static_sizes), len(op.static_strides))
    if n_offsets != n_sizes:
        raise VerifyException(
            f"expected mixed offsets rank to match mixed sizes rank ({n_offsets} vs {n_sizes}) "
            "so the rank of the result type is well-formed."
        )
    if n_sizes != n_strides:
        raise VerifyException(
            f"expected mixed sizes rank to match mixed strides rank ({n_sizes} vs {n_strides}) "
            "so the rank of the result type is well-formed."
        )
    for what, static, dynamic in (
        ("offset", op.static_offsets, op.offsets),
        ("size", op.static_sizes, op.sizes),
        ("stride", op.static_strides, op.strides),
    ):
        if len(static) != rank:
            raise VerifyException(f"expected {rank} {what} values")
        expected_dynamic = static.get_values().count(DYNAMIC_INDEX)
        if len(dynamic) != expected_dynamic:
            raise VerifyException(f"expected {expected_dynamic} dynamic {what} values")


def _rank_reduction_possible(original: Sequence[int], reduced: Sequence[int]) -> bool:
    """MLIR's ``computeRankReductionMask``: is ``reduced`` ``original`` minus some unit dims?"""
    reduced_idx = 0
    for size in original:
        if reduced_idx < len(reduced) and size == reduced[reduced_idx]:
            reduced_idx += 1
        elif size != 1:
            return False
    return reduced_idx == len(reduced)


def verify_slice_type(sizes: Sequence[int], value_type: TensorType[Attribute]) -> None:
    """MLIR's ``isRankReducedType`` check of a stored value against the slice sizes.

    The value may drop unit dimensions of the slice (a rank-reducing store).
    """
    expected = TensorType(value_type.element_type, sizes)
    shape = value_type.get_shape()
    if len(shape) > len(sizes):
        raise VerifyException("expected rank to be smaller or equal to the other rank. ")
    if not _rank_reduction_possible(sizes, shape):
        raise VerifyException(f"expected type to be {expected} or a rank-reduced version. (size mismatch) ")
    # The expected type takes the value's element type, so element types always
    # agree; the value's encoding is not part of the check either, as in IREE.


# ---------------------------------------------------------------------------
# !iree_tensor_ext.dispatch.tensor
# ---------------------------------------------------------------------------


class TensorAccess(StrEnum):
    """How a dispatch function may use a binding."""

    READONLY = "readonly"
    READWRITE = "readwrite"
    WRITEONLY = "writeonly"


_UNHANDLED_BOUND_TYPE = "unhandled bounded type in dispatch. Must by int, float or ranked tensor type"


def _is_bindable(ty: Attribute) -> bool:
    return isinstance(ty, TensorType | IntegerType | AnyFloat)


# A dataclass, so the parameters declared here take part in equality and hashing.
@dataclass(frozen=True, init=False)
class DispatchTensorTypeBase(ParametrizedAttribute, TypeAttribute):
    """``<access:bound-type>``: a dispatch binding seen as a tensor.

    The bound type is a ranked tensor type (which may carry an encoding) or a
    scalar int/float type for a rank-0 binding. Dynamic extents of the bound type
    are not part of the type: ops that produce or consume a dispatch tensor carry
    them as ``{%d0, %d1}`` index operands, one per ``?``.

    Shared by ``!iree_tensor_ext.dispatch.tensor`` and its seed-era spelling
    ``!flow.dispatch.tensor``.
    """

    access: StringAttr
    bound_type: Attribute

    def __init__(self, access: TensorAccess | str, bound_type: Attribute):
        super().__init__(StringAttr(str(access)), bound_type)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[StringAttr, Attribute]:
        with parser.in_angle_brackets():
            pos = parser.pos
            access = parser.parse_identifier(" (dispatch tensor access)")
            if access not in set(TensorAccess):
                parser.raise_error("expected 'readonly', 'readwrite' or 'writeonly'", pos, parser.pos)
            parser.parse_punctuation(":")
            pos = parser.pos
            bound_type = parser.parse_type()
            if not _is_bindable(bound_type):
                parser.raise_error(_UNHANDLED_BOUND_TYPE, pos, parser.pos)
        return StringAttr(access), bound_type

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.access.data + ":")
            printer.print_attribute(self.bound_type)

    def verify(self) -> None:
        if self.access.data not in set(TensorAccess):
            raise VerifyException(f"unknown dispatch tensor access '{self.access.data}'")
        if not _is_bindable(self.bound_type):
            raise VerifyException(_UNHANDLED_BOUND_TYPE)

    @property
    def access_mode(self) -> TensorAccess:
        return TensorAccess(self.access.data)

    def can_read(self) -> bool:
        return self.access_mode in (TensorAccess.READONLY, TensorAccess.READWRITE)

    def can_write(self) -> bool:
        return self.access_mode in (TensorAccess.WRITEONLY, TensorAccess.READWRITE)

    def get_shape(self) -> tuple[int, ...]:
        """The bound shape, ``DYNAMIC_INDEX`` for ``?``; ``()`` for a scalar binding."""
        if isinstance(self.bound_type, TensorType):
            return self.bound_type.get_shape()
        return ()

    @property
    def rank(self) -> int:
        return len(self.get_shape())

    def get_num_dynamic_dims(self) -> int:
        return self.get_shape().count(DYNAMIC_INDEX)

    def get_element_type(self) -> Attribute:
        if isinstance(self.bound_type, TensorType):
            return self.bound_type.element_type
        return self.bound_type


@irdl_attr_definition
class DispatchTensorType(DispatchTensorTypeBase):
    """A dispatch input/output placeholder: ``!iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xf32>>``.

    https://iree.dev/reference/mlir-dialects/TensorExt/#dispatchtensortype
    """

    name = "iree_tensor_ext.dispatch.tensor"


# ---------------------------------------------------------------------------
# dispatch.tensor.load / dispatch.tensor.store
# ---------------------------------------------------------------------------

# Both ops take MLIR's ``custom<DynamicIndexList>`` offsets/sizes/strides: a list
# like ``[0, %o, 4]`` is stored as static values ``[0, DYNAMIC_INDEX, 4]`` plus one
# SSA operand per DYNAMIC_INDEX.
_SLICE_FORMAT = (
    "`,` `offsets` `=` custom<DynamicIndexList>($offsets, $static_offsets)"
    " `,` `sizes` `=` custom<DynamicIndexList>($sizes, $static_sizes)"
    " `,` `strides` `=` custom<DynamicIndexList>($strides, $static_strides)"
)


def _static_and_dynamic(values: Sequence[SSAValue | int]) -> tuple[list[int], list[SSAValue]]:
    static = [v if isinstance(v, int) else DYNAMIC_INDEX for v in values]
    dynamic = [v for v in values if not isinstance(v, int)]
    return static, dynamic


def _full_slice(
    ty: DispatchTensorTypeBase, dims: Sequence[SSAValue]
) -> tuple[list[SSAValue | int], list[SSAValue | int], list[SSAValue | int]]:
    """Offsets/sizes/strides covering a whole dispatch tensor (IREE's default builder)."""
    shape = ty.get_shape()
    dyn = iter(dims)
    sizes: list[SSAValue | int] = [next(dyn) if d == DYNAMIC_INDEX else d for d in shape]
    return [0] * len(shape), sizes, [1] * len(shape)


class DispatchTensorLoadOpBase(IRDLOperation):
    """Shared definition of ``iree_tensor_ext.dispatch.tensor.load`` and ``flow.dispatch.tensor.load``."""

    # Subclasses pick the spelling of the dispatch tensor type they accept (the
    # operand constraint stays on the base class: redefining an operand in a
    # subclass would change the operand order).
    DISPATCH_TENSOR_TYPE: ClassVar[type[DispatchTensorTypeBase]] = DispatchTensorType

    source = operand_def(DispatchTensorTypeBase)
    source_dims = var_operand_def(IndexType)
    offsets = var_operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    static_offsets = prop_def(DenseArrayBase.constr(i64))
    static_sizes = prop_def(DenseArrayBase.constr(i64))
    static_strides = prop_def(DenseArrayBase.constr(i64))
    result = result_def(TensorType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    assembly_format = (
        "$source " + _SLICE_FORMAT + " attr-dict `:` type($source) (`{` $source_dims^ `}`)? `->` type($result)"
    )
    custom_directives = (DynamicIndexList,)

    def __init__(
        self,
        result_type: Attribute,
        source: SSAValue | Operation,
        source_dims: Sequence[SSAValue | Operation] = (),
        offsets: Sequence[SSAValue | int] | None = None,
        sizes: Sequence[SSAValue | int] | None = None,
        strides: Sequence[SSAValue | int] | None = None,
    ):
        """Load a slice; with no offsets/sizes/strides, load the whole source."""
        source_value = SSAValue.get(source)
        dims = [SSAValue.get(d) for d in source_dims]
        if offsets is None or sizes is None or strides is None:
            assert isinstance(source_value.type, DispatchTensorTypeBase)
            offsets, sizes, strides = _full_slice(source_value.type, dims)
        static_offsets, dyn_offsets = _static_and_dynamic(offsets)
        static_sizes, dyn_sizes = _static_and_dynamic(sizes)
        static_strides, dyn_strides = _static_and_dynamic(strides)
        super().__init__(
            operands=[source_value, dims, dyn_offsets, dyn_sizes, dyn_strides],
            result_types=[result_type],
            properties={
                "static_offsets": DenseArrayBase.from_list(i64, static_offsets),
                "static_sizes": DenseArrayBase.from_list(i64, static_sizes),
                "static_strides": DenseArrayBase.from_list(i64, static_strides),
            },
        )

    def get_mixed_offsets(self) -> list[SSAValue | int]:
        return get_dynamic_index_list(self.static_offsets.get_values(), self.offsets, DYNAMIC_INDEX)

    def get_mixed_sizes(self) -> list[SSAValue | int]:
        return get_dynamic_index_list(self.static_sizes.get_values(), self.sizes, DYNAMIC_INDEX)

    def get_mixed_strides(self) -> list[SSAValue | int]:
        return get_dynamic_index_list(self.static_strides.get_values(), self.strides, DYNAMIC_INDEX)

    def verify_(self) -> None:
        source_type = self.source.type
        if not isinstance(source_type, self.DISPATCH_TENSOR_TYPE):
            raise VerifyException(f"operand #0 must be dispatch.tensor, but got {quoted(source_type)}")
        verify_offsets_sizes_strides(self, source_type.rank)
        verify_op_dynamic_dims([source_type], self.source_dims)


class DispatchTensorStoreOpBase(IRDLOperation):
    """Shared definition of ``iree_tensor_ext.dispatch.tensor.store`` and ``flow.dispatch.tensor.store``."""

    DISPATCH_TENSOR_TYPE: ClassVar[type[DispatchTensorTypeBase]] = DispatchTensorType

    value = operand_def(TensorType)
    target = operand_def(DispatchTensorTypeBase)
    target_dims = var_operand_def(IndexType)
    offsets = var_operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    static_offsets = prop_def(DenseArrayBase.constr(i64))
    static_sizes = prop_def(DenseArrayBase.constr(i64))
    static_strides = prop_def(DenseArrayBase.constr(i64))

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    assembly_format = (
        "$value `,` $target "
        + _SLICE_FORMAT
        + " attr-dict `:` type($value) `->` type($target) (`{` $target_dims^ `}`)?"
    )
    custom_directives = (DynamicIndexList,)

    def __init__(
        self,
        value: SSAValue | Operation,
        target: SSAValue | Operation,
        target_dims: Sequence[SSAValue | Operation] = (),
        offsets: Sequence[SSAValue | int] | None = None,
        sizes: Sequence[SSAValue | int] | None = None,
        strides: Sequence[SSAValue | int] | None = None,
    ):
        """Store a slice; with no offsets/sizes/strides, store the whole target."""
        target_value = SSAValue.get(target)
        dims = [SSAValue.get(d) for d in target_dims]
        if offsets is None or sizes is None or strides is None:
            assert isinstance(target_value.type, DispatchTensorTypeBase)
            offsets, sizes, strides = _full_slice(target_value.type, dims)
        static_offsets, dyn_offsets = _static_and_dynamic(offsets)
        static_sizes, dyn_sizes = _static_and_dynamic(sizes)
        static_strides, dyn_strides = _static_and_dynamic(strides)
        super().__init__(
            operands=[value, target_value, dims, dyn_offsets, dyn_sizes, dyn_strides],
            properties={
                "static_offsets": DenseArrayBase.from_list(i64, static_offsets),
                "static_sizes": DenseArrayBase.from_list(i64, static_sizes),
                "static_strides": DenseArrayBase.from_list(i64, static_strides),
            },
        )

    def get_mixed_offsets(self) -> list[SSAValue | int]:
        return get_dynamic_index_list(self.static_offsets.get_values(), self.offsets, DYNAMIC_INDEX)

    def get_mixed_sizes(self) -> list[SSAValue | int]:
        return get_dynamic_index_list(self.static_sizes.get_values(), self.sizes, DYNAMIC_INDEX)

    def get_mixed_strides(self) -> list[SSAValue | int]:
        return get_dynamic_index_list(self.static_strides.get_values(), self.strides, DYNAMIC_INDEX)

    def verify_(self) -> None:
        target_type = self.target.type
        # IREE's type constraint (WritableDispatchTensor) is summarized as plain
        # "dispatch.tensor", so a readonly target gets this terse message.
        if not isinstance(target_type, self.DISPATCH_TENSOR_TYPE) or not target_type.can_write():
            raise VerifyException(f"operand #1 must be dispatch.tensor, but got {quoted(target_type)}")
        verify_offsets_sizes_strides(self, target_type.rank)
        verify_op_dynamic_dims([target_type], self.target_dims)
        value_type = self.value.type
        assert isinstance(value_type, TensorType)
        verify_slice_type(self.static_sizes.get_values(), value_type)


@irdl_op_definition
class DispatchTensorLoadOp(DispatchTensorLoadOpBase):
    """Loads a tensor (or a slice of it) from a dispatch input placeholder.

    Every workgroup sees the same loaded values; loads of overlapping slices are fine.

        %t = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0, 0], sizes = [%d0, %d1], strides = [1, 1]
               : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%d0, %d1} -> tensor<?x?xf32>

    https://iree.dev/reference/mlir-dialects/TensorExt/#iree_tensor_extdispatchtensorload-tensorextdispatchtensorloadop
    """

    name = "iree_tensor_ext.dispatch.tensor.load"


@irdl_op_definition
class DispatchTensorStoreOp(DispatchTensorStoreOpBase):
    """Stores a tensor (or a slice of it) into a dispatch output placeholder.

    The target must be ``writeonly`` or ``readwrite``. The stored value may drop
    unit dimensions of the slice (a rank-reducing store). Stores from different
    workgroups into overlapping slices are undefined behaviour.

        iree_tensor_ext.dispatch.tensor.store %t, %out, offsets = [0, 0], sizes = [%d0, %d1], strides = [1, 1]
          : tensor<?x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%d0, %d1}

    https://iree.dev/reference/mlir-dialects/TensorExt/#iree_tensor_extdispatchtensorstore-tensorextdispatchtensorstoreop
    """

    name = "iree_tensor_ext.dispatch.tensor.store"


# ---------------------------------------------------------------------------
# Workload ops
# ---------------------------------------------------------------------------


class BubbleUpOrdinalOp(RewritePattern):
    """IREE's canonicalization of the same name: every use of a body argument goes through its workload ordinal.

    An ordinal of a block argument that has other uses is recreated at the top
    of the block (after the ordinals numbered below it) and takes all of them.
    """

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, DispatchWorkloadOrdinalOpBase):
            return
        arg = op.operand
        if not isinstance(arg, BlockArgument) or not arg.has_more_than_one_use():
            return
        block = arg.block
        point = InsertPoint.at_start(block)
        for other in block.ops:
            if isinstance(other, DispatchWorkloadOrdinalOpBase) and other.ordinal.value.data < op.ordinal.value.data:
                point = InsertPoint.after(other)
                continue
            break
        new_op = type(op)(arg, op.ordinal.value.data)
        new_op.location = op.location
        rewriter.insert(new_op, point)
        for use in list(arg.uses):
            if use.operation is not new_op:
                use.operation.operands[use.index] = new_op.result
        rewriter.replace(op, [], [new_op.result])


class _OrdinalCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (BubbleUpOrdinalOp(),)


class DispatchWorkloadOrdinalOpBase(IRDLOperation):
    """Shared definition of ``iree_tensor_ext.dispatch.workload.ordinal`` and ``flow.dispatch.workload.ordinal``."""

    operand = operand_def(IndexType)
    ordinal = prop_def(IntegerAttr[IndexType])
    result = result_def(IndexType)

    traits = traits_def(Pure(), _OrdinalCanonicalization())

    assembly_format = "attr-dict $operand `,` $ordinal `:` type($operand)"

    def __init__(self, operand: SSAValue | Operation, ordinal: int):
        super().__init__(
            operands=[operand],
            result_types=[IndexType()],
            properties={"ordinal": IntegerAttr(ordinal, IndexType())},
        )


@irdl_op_definition
class DispatchWorkloadOrdinalOp(DispatchWorkloadOrdinalOpBase):
    """Marks a dispatch function argument as workload value number ``ordinal``.

    Dispatch ops pass a workload (``[%m, %n, %k]``) from which the export's
    ``workgroups`` region computes the grid size. Inside the dispatch function
    the workload values arrive as plain ``index`` arguments; this op records
    which argument is which workload entry, so backends can rebuild the
    workgroup count from values computed in the function.

        %m = iree_tensor_ext.dispatch.workload.ordinal %arg2, 0 : index

    https://iree.dev/reference/mlir-dialects/TensorExt/#iree_tensor_extdispatchworkloadordinal-tensorextdispatchworkloadordinalop
    """

    name = "iree_tensor_ext.dispatch.workload.ordinal"


@irdl_op_definition
class DispatchWorkgroupCountFromSliceOp(IRDLOperation):
    """Placeholder for the default workgroup count computation of an export.

    Stands in the ``workgroups`` region of ``flow/stream.executable.export``
    until a backend replaces it with the real computation, derived from the
    program slice that computes the ``dispatch.workload.ordinal`` values in the
    dispatch function.

        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0, %arg1)

    https://iree.dev/reference/mlir-dialects/TensorExt/#iree_tensor_extdispatchworkgroup_count_from_slice-tensorextdispatchworkgroupcountfromsliceop
    """

    name = "iree_tensor_ext.dispatch.workgroup_count_from_slice"

    workload = var_operand_def(IndexType)
    x = result_def(IndexType)
    y = result_def(IndexType)
    z = result_def(IndexType)

    traits = traits_def(Pure())

    assembly_format = "attr-dict `(` $workload `)`"

    def __init__(self, workload: Sequence[SSAValue | Operation]):
        super().__init__(operands=[workload], result_types=[IndexType()] * 3)
        for result, name in zip(self.results, self.asm_result_names()):
            result.name_hint = name

    def asm_result_names(self) -> list[str]:
        """IREE names the results through OpAsmOpInterface, whatever the input called them."""
        return ["x", "y", "z"]


# ---------------------------------------------------------------------------
# Compute barriers
# ---------------------------------------------------------------------------


class ComputeBarrierOpBase(IRDLOperation):
    """Shared definition of ``compute_barrier.start`` and ``compute_barrier.end``: an identity on a tensor."""

    value = operand_def(TensorType)
    value_dims = var_operand_def(IndexType)
    result = result_def(TensorType)

    traits = traits_def(Pure())

    assembly_format = "$value `:` type($value) (`{` $value_dims^ `}`)? `->` type($result) attr-dict-with-keyword"

    def __init__(self, value: SSAValue | Operation, value_dims: Sequence[SSAValue | Operation] = ()):
        value = SSAValue.get(value)
        super().__init__(operands=[value, value_dims], result_types=[value.type])

    def verify_(self) -> None:
        verify_op_dynamic_dims([self.value.type], self.value_dims)
        if self.value.type != self.result.type:
            raise VerifyException("value and result types must match")


@irdl_op_definition
class ComputeBarrierStartOp(ComputeBarrierOpBase):
    """Stops transformations (such as reshape propagation) from moving ops down across it.

    Returns its operand unchanged. IREE places one on each function input while
    forming dispatch regions.

        %1 = iree_tensor_ext.compute_barrier.start %0 : tensor<?x256xf32>{%d} -> tensor<?x256xf32>

    https://iree.dev/reference/mlir-dialects/TensorExt/#iree_tensor_extcompute_barrierstart-tensorextcomputebarrierstartop
    """

    name = "iree_tensor_ext.compute_barrier.start"


@irdl_op_definition
class ComputeBarrierEndOp(ComputeBarrierOpBase):
    """Stops transformations (such as reshape propagation) from moving ops up across it.

    Returns its operand unchanged. IREE places one on each function result while
    forming dispatch regions.

        %5 = iree_tensor_ext.compute_barrier.end %4 : tensor<?x512xf32>{%d} -> tensor<?x512xf32>

    https://iree.dev/reference/mlir-dialects/TensorExt/#iree_tensor_extcompute_barrierend-tensorextcomputebarrierendop
    """

    name = "iree_tensor_ext.compute_barrier.end"


@irdl_op_definition
class BitCastOp(ReshapeLikeOpBase):
    """Reinterprets the bytes of a tensor as another tensor type, e.g. packed fp4 as bytes.

        %11 = iree_tensor_ext.bitcast %10 : tensor<?x32xf4E2M1FN>{%n} -> tensor<?x16xi8>{%n}
    """

    name = "iree_tensor_ext.bitcast"

    def verify_(self) -> None:
        # IREE's BitCastOp::verify: only the dynamic dims are checked.
        verify_op_dynamic_dims([self.source.type], self.source_dims)
        verify_op_dynamic_dims([self.result.type], self.result_dims)


IREETensorExt = Dialect(
    "iree_tensor_ext",
    [
        BitCastOp,
        DispatchTensorLoadOp,
        DispatchTensorStoreOp,
        DispatchWorkloadOrdinalOp,
        DispatchWorkgroupCountFromSliceOp,
        ComputeBarrierStartOp,
        ComputeBarrierEndOp,
    ],
    [DispatchTensorType],
)
