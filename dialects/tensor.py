"""The `tensor` dialect: xDSL's ops, with the ones that print unlike MLIR replaced.

Reused from xDSL as they are, because they already parse, verify and print
like MLIR: `tensor.cast`, `concat`, `dim`, `extract`, `insert`,
`extract_slice`, `insert_slice`, `from_elements`, `reshape`, `splat`, `pad`
and `yield`.

Redefined here:

* `tensor.expand_shape` / `tensor.collapse_shape`: xDSL prints the
  reassociation as `[[0 : i64], [1 : i64, 2 : i64]]` where MLIR prints
  `[[0], [1, 2]]`, and its verifier lacks several of MLIR's checks;
* `tensor.empty`: xDSL's drops the attribute dictionary when printing and
  does not check that every dynamic dimension gets a size.

Added (xDSL has neither): `tensor.parallel_insert_slice`, the terminator-side
insert of `scf.forall`, and `tensor.bitcast`.

Import tensor ops from this module, whichever of the two origins they have,
so passes match the classes the parser builds.

Verifier messages are MLIR's, word for word (types quoted the way MLIR's
diagnostics quote them); the driver adds MLIR's `'tensor.xxx' op` prefix.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from xdsl.dialects import tensor as xdsl_tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    ArrayAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    TensorType,
    UnrankedTensorType,
    i64,
)
from xdsl.dialects.utils import (
    DynamicIndexList,
    parse_dynamic_index_list_without_types,
    print_dynamic_index_list,
    split_dynamic_index_list,
)
from xdsl.ir import Attribute, Dialect, Operation, OpResult, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    base,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.traits import HasCanonicalizationPatternsTrait, HasFolder, NoMemoryEffect, Pure
from xdsl.utils.exceptions import VerifyException

from mini_iree.dialects.scf import InParallelOp, ParallelCombiningOpInterface
from mini_iree.dialects.traits import VerifierReadsOnlyItself

# Reused from xDSL unchanged.
CastOp = xdsl_tensor.CastOp
ConcatOp = xdsl_tensor.ConcatOp
ExtractOp = xdsl_tensor.ExtractOp
ExtractSliceOp = xdsl_tensor.ExtractSliceOp
FromElementsOp = xdsl_tensor.FromElementsOp
InsertOp = xdsl_tensor.InsertOp
InsertSliceOp = xdsl_tensor.InsertSliceOp
PadOp = xdsl_tensor.PadOp
ReshapeOp = xdsl_tensor.ReshapeOp
SplatOp = xdsl_tensor.SplatOp
YieldOp = xdsl_tensor.YieldOp


def _quoted(ty: Attribute) -> str:
    """A type as MLIR's diagnostics print it: between single quotes."""
    return f"'{ty}'"


def _num_dynamic(shape: Sequence[int]) -> int:
    return sum(1 for d in shape if d == DYNAMIC_INDEX)


def verify_dynamic_dimension_count(ty: TensorType[Attribute], dynamic_sizes: Sequence[SSAValue]) -> None:
    """One size operand per `?` of the type (MLIR's `verifyDynamicDimensionCount`)."""
    expected = _num_dynamic(ty.get_shape())
    if len(dynamic_sizes) != expected:
        raise VerifyException(f"incorrect number of dynamic sizes, has {len(dynamic_sizes)}, expected {expected}")


# ---------------------------------------------------------------------------------------
# tensor.dim
# ---------------------------------------------------------------------------------------


def _constant_index(value: SSAValue) -> int | None:
    from xdsl.dialects.arith import ConstantOp

    op = value.owner
    if isinstance(op, ConstantOp) and isinstance(op.value, IntegerAttr):
        return op.value.value.data
    return None


def _tied_init(result: OpResult) -> SSAValue | None:
    """The init a destination-style op's result is tied to (MLIR's DestinationStyleOpInterface).

    The destination-style ops name their inits `outputs` (linalg, inner_tiled,
    map_scatter, scf.forall) or `dest` (pack, unpack, insert_slice); results and
    tensor inits correspond in order, with the same type.
    """
    op = result.op
    inits = getattr(op, "outputs", None)
    if inits is None:
        dest = getattr(op, "dest", None)
        inits = (dest,) if isinstance(dest, SSAValue) else None
    if inits is None:
        return None
    tensor_inits = [v for v in inits if isinstance(v, SSAValue) and isinstance(v.type, TensorType)]
    if len(tensor_inits) != len(op.results) or tensor_inits[result.index].type != result.type:
        return None
    return tensor_inits[result.index]


class _DimFolder(HasFolder):
    """`tensor.dim`'s folder (`DimOp::fold`): a static extent, or the dynamic size an
    op producing the tensor was given (`tensor.empty`, a same-rank `tensor.extract_slice`)."""

    @classmethod
    def fold(cls, op: Operation) -> Sequence[SSAValue | Attribute] | None:
        assert isinstance(op, DimOp)
        index = _constant_index(op.index)
        type_ = op.source.type
        if index is None or not isinstance(type_, TensorType) or not 0 <= index < type_.get_num_dims():
            return None
        shape = type_.get_shape()
        if shape[index] != DYNAMIC_INDEX:
            return None  # DimOfStaticExtent makes the constant.
        producer = op.source.owner
        position = sum(1 for extent in shape[:index] if extent == DYNAMIC_INDEX)
        if isinstance(producer, EmptyOp):
            # MLIR does this in tensor.empty's FoldEmptyTensorWithDimOp pattern; the effect is the same.
            return (producer.dynamic_sizes[position],)
        if isinstance(producer, xdsl_tensor.ExtractSliceOp):
            source = producer.source.type
            if isinstance(source, TensorType) and source.get_num_dims() == type_.get_num_dims():
                static = producer.static_sizes.get_values()
                if static[index] == DYNAMIC_INDEX:
                    return (producer.sizes[sum(1 for s in static[:index] if s == DYNAMIC_INDEX)],)
        return None


class _DimCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (DimOfStaticExtent(), DimOfCastOp(), DimOfDestStyleOp())


@irdl_op_definition
class DimOp(IRDLOperation):
    """The size of one dimension of a tensor: xDSL's `tensor.dim` with MLIR's folds.

    ```mlir
    %d = tensor.dim %t, %c0 : tensor<?x?xf32>
    ```

    It folds to a static extent, to the size `tensor.empty` or a same-rank
    `tensor.extract_slice` was given, and canonicalizes through `tensor.cast`
    and destination-style ops (`dim(linalg.matmul outs(%init))` is `dim(%init)`),
    so that sizes read off intermediate results become the sizes they came from,
    as in IREE's dumps.

    See https://mlir.llvm.org/docs/Dialects/TensorOps/#tensordim-tensordimop.
    """

    name = "tensor.dim"

    source = operand_def(base(TensorType) | base(UnrankedTensorType))
    index = operand_def(IndexType)
    result = result_def(IndexType)

    traits = traits_def(NoMemoryEffect(), _DimFolder(), _DimCanonicalization(), VerifierReadsOnlyItself())

    assembly_format = "attr-dict $source `,` $index `:` type($source)"

    def __init__(self, source: SSAValue | Operation, index: SSAValue | Operation):
        super().__init__(operands=(source, index), result_types=(IndexType(),))

    def verify_(self) -> None:
        type_ = self.source.type
        if isinstance(type_, TensorType) and not type_.get_shape():
            raise VerifyException("cannot get dim of 0-rank tensor")


class DimOfDestStyleOp(RewritePattern):
    """MLIR's `DimOfDestStyleOp`: the dim of a destination-style op's result is that of its init."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DimOp, rewriter: PatternRewriter) -> None:
        if not isinstance(op.source, OpResult):
            return
        init = _tied_init(op.source)
        if init is not None:
            rewriter.replace(op, DimOp(init, op.index))


class DimOfStaticExtent(RewritePattern):
    """`DimOp::fold` of a static extent: the constant (made here, since the folder
    of this dialect has no constants to materialize it with)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DimOp, rewriter: PatternRewriter) -> None:
        from xdsl.dialects.arith import ConstantOp

        index = _constant_index(op.index)
        type_ = op.source.type
        if index is None or not isinstance(type_, TensorType) or not 0 <= index < type_.get_num_dims():
            return
        extent = type_.get_shape()[index]
        if extent != DYNAMIC_INDEX:
            constant = ConstantOp(IntegerAttr(extent, IndexType()))
            constant.result.name_hint = f"c{extent}"  # MLIR's name, not the dim's
            rewriter.replace(op, constant)


class DimOfCastOp(RewritePattern):
    """MLIR's `DimOfCastOp`: the dim of a `tensor.cast` is that of its source."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DimOp, rewriter: PatternRewriter) -> None:
        cast_op = op.source.owner
        if isinstance(cast_op, xdsl_tensor.CastOp):
            rewriter.replace(op, DimOp(cast_op.source, op.index))


# ---------------------------------------------------------------------------------------
# tensor.empty
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class EmptyOp(IRDLOperation):
    """A tensor of the given shape with unspecified contents.

    Redefined rather than reused: xDSL's drops the attribute dictionary when
    printing and accepts a wrong number of dynamic sizes. The field names are
    xDSL's (`dynamic_sizes`, `tensor`), so code written against it still works.

    ```mlir
    %0 = tensor.empty(%m, %n) : tensor<?x?xf32>
    %1 = tensor.empty() : tensor<255x1023xf32, #encoding>
    ```

    See https://mlir.llvm.org/docs/Dialects/TensorOps/#tensorempty-tensoremptyop.
    """

    name = "tensor.empty"

    dynamic_sizes = var_operand_def(IndexType)
    tensor = result_def(TensorType)

    traits = traits_def(Pure(), VerifierReadsOnlyItself())

    assembly_format = "`(` $dynamic_sizes `)` attr-dict `:` type($tensor)"

    def __init__(
        self,
        dynamic_sizes: Sequence[SSAValue | Operation],
        tensor_type: Attribute,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(operands=[dynamic_sizes], result_types=[tensor_type], attributes=attributes)

    @staticmethod
    def from_mixed_sizes(
        sizes: Sequence[int | SSAValue], element_type: Attribute, encoding: Attribute | None = None
    ) -> EmptyOp:
        """Build from one entry per dimension: an `int` size or an `index` value."""
        static, dynamic = split_dynamic_index_list(sizes, DYNAMIC_INDEX)
        if encoding is None:
            return EmptyOp(dynamic, TensorType(element_type, static))
        return EmptyOp(dynamic, TensorType(element_type, static, encoding))

    def get_mixed_sizes(self) -> list[int | SSAValue]:
        """One entry per dimension: the static size, or the value giving it."""
        dynamic = iter(self.dynamic_sizes)
        return [next(dynamic) if d == DYNAMIC_INDEX else d for d in self.tensor.type.get_shape()]

    def verify_(self) -> None:
        verify_dynamic_dimension_count(self.tensor.type, self.dynamic_sizes)


# ---------------------------------------------------------------------------------------
# Reassociative reshapes: tensor.expand_shape / tensor.collapse_shape
# ---------------------------------------------------------------------------------------

ReassociationAttr = ArrayAttr[ArrayAttr[IntegerAttr[I64]]]


def reassociation_attr(groups: Sequence[Sequence[int]]) -> ReassociationAttr:
    """Build the `[[0], [1, 2]]` reassociation attribute from index groups."""
    return ArrayAttr(ArrayAttr(IntegerAttr(i, i64) for i in group) for group in groups)


def reassociation_groups(attr: ArrayAttr[ArrayAttr[IntegerAttr]]) -> list[list[int]]:
    """The index groups of a reassociation attribute."""
    return [[i.value.data for i in group] for group in attr]


def _parse_reassociation(parser: Parser) -> ReassociationAttr:
    groups = parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE,
        lambda: parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer),
    )
    return reassociation_attr(groups)


def _print_reassociation(printer: Printer, attr: ArrayAttr[ArrayAttr[IntegerAttr]]) -> None:
    groups = ", ".join("[" + ", ".join(map(str, g)) + "]" for g in reassociation_groups(attr))
    printer.print_string(f" [{groups}]")


def infer_collapsed_shape(expanded_shape: Sequence[int], groups: Sequence[Sequence[int]]) -> list[int]:
    """Each group's sizes multiplied together; dynamic if any of them is."""
    shape: list[int] = []
    start = 0
    for group in groups:
        band = expanded_shape[start : start + len(group)]
        if DYNAMIC_INDEX in band:
            shape.append(DYNAMIC_INDEX)
        else:
            size = 1
            for d in band:
                size *= d
            shape.append(size)
        start += len(group)
    return shape


def verify_tensor_reshape(
    expanded_type: TensorType[Attribute],
    collapsed_type: TensorType[Attribute],
    groups: Sequence[Sequence[int]],
) -> None:
    """MLIR's `verifyReshapeLikeTypes` followed by the tensor-specific checks."""
    expanded_shape = expanded_type.get_shape()
    collapsed_shape = collapsed_type.get_shape()
    expanded_rank, collapsed_rank = len(expanded_shape), len(collapsed_shape)
    if expanded_rank < collapsed_rank:
        raise VerifyException(
            f"expected the expanded type, {_quoted(expanded_type)} to have a higher (or same) rank "
            f"than the collapsed type, {_quoted(collapsed_type)}."
        )
    if collapsed_rank != len(groups):
        raise VerifyException(
            f"expected collapsed rank ({collapsed_rank}) to equal the number of reassociation maps ({len(groups)})."
        )
    # Each group becomes an affine map over as many dims as the largest index
    # needs; they must all range over the expanded dims, in order.
    num_dims = max((i for g in groups for i in g), default=0) + 1
    if groups and num_dims != expanded_rank:
        raise VerifyException(
            f"expected reassociation map #0 to have size equal to the expanded rank ({expanded_rank}), "
            f"but it is  {num_dims}."
        )
    next_dim = 0
    for index, group in enumerate(groups):
        for i in group:
            if i != next_dim:
                raise VerifyException(f"expected reassociation map #{index} to be valid and contiguous.")
            next_dim += 1
    if groups and next_dim != num_dims:
        raise VerifyException(f"expected reassociation map #{len(groups) - 1} to be valid and contiguous.")

    start = 0
    for index, group in enumerate(groups):
        band = expanded_shape[start : start + len(group)]
        start += len(group)
        if DYNAMIC_INDEX in band:
            if collapsed_shape[index] != DYNAMIC_INDEX:
                raise VerifyException(
                    f"expected dimension {index} of collapsed type to be dynamic since one or more of the "
                    "corresponding dimensions in the expanded type is dynamic"
                )
            continue
        size = 1
        for d in band:
            size *= d
        if collapsed_shape[index] != size:
            raise VerifyException(f"expected dimension {index} of collapsed type to be static value of {size}")

    if DYNAMIC_INDEX not in expanded_shape and DYNAMIC_INDEX not in collapsed_shape:
        expanded_elements = collapsed_elements = 1
        for d in expanded_shape:
            expanded_elements *= d
        for d in collapsed_shape:
            collapsed_elements *= d
        if expanded_elements != collapsed_elements:
            raise VerifyException(
                f"number of elements must be preserved: {expanded_elements} != {collapsed_elements}"
            )

    # The encoding does not take part in the comparison, but is printed.
    expected = TensorType(expanded_type.get_element_type(), infer_collapsed_shape(expanded_shape, groups))
    if (
        tuple(expected.get_shape()) != tuple(collapsed_shape)
        or expected.get_element_type() != collapsed_type.get_element_type()
    ):
        raise VerifyException(
            f"expected collapsed type to be {_quoted(expected)}, but got {_quoted(collapsed_type)}"
        )


@irdl_op_definition
class ExpandShapeOp(IRDLOperation):
    """Split dimensions of a tensor into several, per a reassociation.

    Group `i` of the reassociation lists the result dimensions source
    dimension `i` expands into; `output_shape` gives every result size, an SSA
    value for each dynamic one.

    Redefined rather than reused: xDSL prints the reassociation as
    `[[0 : i64], ...]` and misses some of MLIR's checks.

    ```mlir
    %expanded = tensor.expand_shape %pack [[0], [1], [2, 3, 4], [5, 6]]
        output_shape [%d0, %d1, 4, 8, 4, 4, 4]
        : tensor<?x?x128x16xf32> into tensor<?x?x4x8x4x4x4xf32>
    ```

    See https://mlir.llvm.org/docs/Dialects/TensorOps/#tensorexpand_shape-tensorexpandshapeop.
    """

    name = "tensor.expand_shape"

    src = operand_def(TensorType)
    output_shape = var_operand_def(IndexType)
    reassociation = prop_def(ReassociationAttr)
    static_output_shape = prop_def(DenseArrayBase.constr(i64))
    result = result_def(TensorType)

    traits = traits_def(Pure())

    def asm_result_names(self) -> list[str]:
        """The result name MLIR's OpAsmOpInterface gives (`%expanded`, `%expanded_0`...)."""
        return ["expanded"]

    def __init__(
        self,
        src: SSAValue | Operation,
        reassociation: Sequence[Sequence[int]] | ReassociationAttr,
        output_shape: Sequence[int | SSAValue],
        result_type: TensorType[Attribute],
        attributes: Mapping[str, Attribute] | None = None,
    ):
        if not isinstance(reassociation, ArrayAttr):
            reassociation = reassociation_attr(reassociation)
        static, dynamic = split_dynamic_index_list(output_shape, DYNAMIC_INDEX)
        super().__init__(
            operands=[src, dynamic],
            result_types=[result_type],
            properties={
                "reassociation": reassociation,
                "static_output_shape": DenseArrayBase.from_list(i64, static),
            },
            attributes=attributes,
        )

    def get_reassociation_indices(self) -> list[list[int]]:
        return reassociation_groups(self.reassociation)

    def get_mixed_output_shape(self) -> list[int | SSAValue]:
        dynamic = iter(self.output_shape)
        return [next(dynamic) if d == DYNAMIC_INDEX else d for d in self.static_output_shape.get_values()]

    def verify_(self) -> None:
        result_type = cast(TensorType[Attribute], self.result.type)
        result_shape = result_type.get_shape()
        static = self.static_output_shape.get_values()
        if len(static) != len(result_shape):
            raise VerifyException(
                "expected number of static shape dims to be equal to the output rank "
                f"({len(result_shape)}) but found {len(static)} inputs instead"
            )
        if len(self.output_shape) != _num_dynamic(static):
            raise VerifyException(
                "mismatch in dynamic dims in output_shape and static_output_shape: static_output_shape "
                f"has {_num_dynamic(static)} dynamic dims while output_shape has {len(self.output_shape)} values"
            )
        verify_dynamic_dimension_count(result_type, self.output_shape)
        for pos, size in enumerate(result_shape):
            if size != DYNAMIC_INDEX and size != static[pos]:
                raise VerifyException(f"invalid output shape provided at pos {pos}")
        verify_tensor_reshape(result_type, cast(TensorType[Attribute], self.src.type), self.get_reassociation_indices())

    @classmethod
    def parse(cls, parser: Parser) -> ExpandShapeOp:
        src = parser.parse_unresolved_operand()
        reassociation = _parse_reassociation(parser)
        parser.parse_keyword("output_shape")
        dynamic, static = parse_dynamic_index_list_without_types(parser, DYNAMIC_INDEX)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        src_type = parser.parse_type()
        parser.parse_keyword("into")
        result_type = parser.parse_type()
        return cls.build(
            operands=[
                parser.resolve_operand(src, src_type),
                [parser.resolve_operand(d, IndexType()) for d in dynamic],
            ],
            result_types=[result_type],
            properties={
                "reassociation": reassociation,
                "static_output_shape": DenseArrayBase.from_list(i64, static),
            },
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.src)
        _print_reassociation(printer, self.reassociation)
        printer.print_string(" output_shape ")
        print_dynamic_index_list(printer, DYNAMIC_INDEX, self.output_shape, self.static_output_shape.get_values())
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)
        printer.print_string(" into ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class CollapseShapeOp(IRDLOperation):
    """Merge groups of contiguous dimensions of a tensor, per a reassociation.

    Group `i` lists the source dimensions that collapse into result
    dimension `i`.

    Redefined rather than reused: xDSL prints the reassociation as
    `[[0 : i64], ...]` and misses some of MLIR's checks.

    ```mlir
    %collapsed = tensor.collapse_shape %t [[0], [1], [2, 3, 4], [5, 6, 7]]
        : tensor<?x?x4x8x4x4x16x2xf32> into tensor<?x?x128x128xf32>
    ```

    See https://mlir.llvm.org/docs/Dialects/TensorOps/#tensorcollapse_shape-tensorcollapseshapeop.
    """

    name = "tensor.collapse_shape"

    src = operand_def(TensorType)
    reassociation = prop_def(ReassociationAttr)
    result = result_def(TensorType)

    traits = traits_def(Pure())

    def asm_result_names(self) -> list[str]:
        """The result name MLIR's OpAsmOpInterface gives (`%collapsed`, `%collapsed_0`...)."""
        return ["collapsed"]

    def __init__(
        self,
        src: SSAValue | Operation,
        reassociation: Sequence[Sequence[int]] | ReassociationAttr,
        result_type: TensorType[Attribute] | None = None,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        """Without a result type, infer it (keeping the source's encoding)."""
        if not isinstance(reassociation, ArrayAttr):
            reassociation = reassociation_attr(reassociation)
        src = SSAValue.get(src)
        if result_type is None:
            src_type = cast(TensorType[Attribute], src.type)
            shape = infer_collapsed_shape(src_type.get_shape(), reassociation_groups(reassociation))
            result_type = TensorType(src_type.get_element_type(), shape, src_type.encoding)
        super().__init__(
            operands=[src],
            result_types=[result_type],
            properties={"reassociation": reassociation},
            attributes=attributes,
        )

    def get_reassociation_indices(self) -> list[list[int]]:
        return reassociation_groups(self.reassociation)

    def verify_(self) -> None:
        groups = self.get_reassociation_indices()
        if any(not g for g in groups):
            raise VerifyException("reassociation indices must not be empty")
        verify_tensor_reshape(
            cast(TensorType[Attribute], self.src.type), cast(TensorType[Attribute], self.result.type), groups
        )

    @classmethod
    def parse(cls, parser: Parser) -> CollapseShapeOp:
        src = parser.parse_unresolved_operand()
        reassociation = _parse_reassociation(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        src_type = parser.parse_type()
        parser.parse_keyword("into")
        result_type = parser.parse_type()
        return cls.build(
            operands=[parser.resolve_operand(src, src_type)],
            result_types=[result_type],
            properties={"reassociation": reassociation},
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.src)
        _print_reassociation(printer, self.reassociation)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)
        printer.print_string(" into ")
        printer.print_attribute(self.result.type)


# ---------------------------------------------------------------------------------------
# tensor.parallel_insert_slice
# ---------------------------------------------------------------------------------------

def _rank_reduction_mask(original: Sequence[int], reduced: Sequence[int]) -> set[int] | None:
    """The dims of `original` dropped to get `reduced` (all unit), or None.

    MLIR's `computeRankReductionMask`: sizes are matched greedily in order.
    """
    dropped: set[int] = set()
    reduced_index = 0
    for index, size in enumerate(original):
        if reduced_index < len(reduced) and size == reduced[reduced_index]:
            reduced_index += 1
            continue
        dropped.add(index)
        if size != 1:
            return None
    return dropped if reduced_index == len(reduced) else None


def verify_slice_type(
    full_type: TensorType[Attribute], static_sizes: Sequence[int], slice_type: TensorType[Attribute]
) -> None:
    """The slice type is the full type cut to `static_sizes`, maybe rank-reduced.

    MLIR's `isRankReducedType` and `produceSliceErrorMsg`, for the
    extract/insert slice family.
    """
    expected = TensorType(full_type.get_element_type(), static_sizes)
    if expected == slice_type:
        return
    if len(slice_type.get_shape()) > len(static_sizes):
        raise VerifyException("expected rank to be smaller or equal to the other rank. ")
    if _rank_reduction_mask(static_sizes, slice_type.get_shape()) is None:
        raise VerifyException(f"expected type to be {_quoted(expected)} or a rank-reduced version. (size mismatch) ")
    if expected.get_element_type() != slice_type.get_element_type():
        raise VerifyException(f"expected element type to be {_quoted(expected.get_element_type())}")


def verify_in_bounds_slice(
    shape: Sequence[int], offsets: Sequence[int], sizes: Sequence[int], strides: Sequence[int]
) -> None:
    """Static offsets, sizes and strides stay inside `shape` (MLIR's `verifyInBoundsSlice`)."""
    for i, (dim, offset, size, stride) in enumerate(zip(shape, offsets, sizes, strides)):
        if dim == DYNAMIC_INDEX or offset == DYNAMIC_INDEX:
            continue
        if offset >= dim:
            raise VerifyException(f"offset {i} is out-of-bounds: {offset} >= {dim}")
        if size == DYNAMIC_INDEX or stride == DYNAMIC_INDEX:
            continue
        last = offset + (size - 1) * stride
        if last >= dim:
            raise VerifyException(f"slice along dimension {i} runs out-of-bounds: {last} >= {dim}")


def verify_offsets_sizes_strides(
    rank: int,
    offsets: tuple[Sequence[int], Sequence[SSAValue]],
    sizes: tuple[Sequence[int], Sequence[SSAValue]],
    strides: tuple[Sequence[int], Sequence[SSAValue]],
) -> None:
    """MLIR's `verifyOffsetSizeAndStrideOp` for ops whose lists all have `rank` entries."""
    for name, (static, dynamic) in (("sizes", sizes), ("strides", strides), ("offsets", offsets)):
        if len(dynamic) != _num_dynamic(static):
            raise VerifyException(
                f"expected the number of '{name}' to match the number of dynamic entries in "
                f"'static_{name}' ({len(dynamic)} vs {_num_dynamic(static)})"
            )
    if len(offsets[0]) != len(sizes[0]):
        raise VerifyException(
            f"expected mixed offsets rank to match mixed sizes rank ({len(offsets[0])} vs {len(sizes[0])}) "
            "so the rank of the result type is well-formed."
        )
    if len(sizes[0]) != len(strides[0]):
        raise VerifyException(
            f"expected mixed sizes rank to match mixed strides rank ({len(sizes[0])} vs {len(strides[0])}) "
            "so the rank of the result type is well-formed."
        )
    for name, (static, _) in (("offset", offsets), ("size", sizes), ("stride", strides)):
        if len(static) != rank:
            raise VerifyException(f"expected {rank} {name} values, got {len(static)}")
    for offset in offsets[0]:
        if offset < 0 and offset != DYNAMIC_INDEX:
            raise VerifyException(f"expected offsets to be non-negative, but got {offset}")
    for size in sizes[0]:
        if size < 0 and size != DYNAMIC_INDEX:
            raise VerifyException(f"expected sizes to be non-negative, but got {size}")


@irdl_op_definition
class ParallelInsertSliceOp(IRDLOperation):
    """Insert a slice into a shared output of an `scf.forall`, from its terminator.

    Like `tensor.insert_slice` without a result: the enclosing
    `scf.forall.in_parallel` ties `dest` to one of the loop's results.

    ```mlir
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %t into %out[%i, 0] [%sz, 4] [1, 1]
          : tensor<?x4xf32> into tensor<?x4xf32>
    }
    ```

    See https://mlir.llvm.org/docs/Dialects/TensorOps/#tensorparallel_insert_slice-tensorparallelinsertsliceop.
    """

    name = "tensor.parallel_insert_slice"

    source = operand_def(TensorType)
    dest = operand_def(TensorType)
    offsets = var_operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    static_offsets = prop_def(DenseArrayBase.constr(i64))
    static_sizes = prop_def(DenseArrayBase.constr(i64))
    static_strides = prop_def(DenseArrayBase.constr(i64))

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    traits = traits_def(ParallelCombiningOpInterface(("dest",)))

    assembly_format = (
        "$source `into` $dest ``"
        "custom<DynamicIndexList>($offsets, $static_offsets)"
        "custom<DynamicIndexList>($sizes, $static_sizes)"
        "custom<DynamicIndexList>($strides, $static_strides)"
        "attr-dict `:` type($source) `into` type($dest)"
    )

    custom_directives = (DynamicIndexList,)

    def __init__(
        self,
        source: SSAValue | Operation,
        dest: SSAValue | Operation,
        offsets: Sequence[int | SSAValue],
        sizes: Sequence[int | SSAValue],
        strides: Sequence[int | SSAValue],
        attributes: Mapping[str, Attribute] | None = None,
    ):
        static_offsets, dyn_offsets = split_dynamic_index_list(offsets, DYNAMIC_INDEX)
        static_sizes, dyn_sizes = split_dynamic_index_list(sizes, DYNAMIC_INDEX)
        static_strides, dyn_strides = split_dynamic_index_list(strides, DYNAMIC_INDEX)
        super().__init__(
            operands=[source, dest, dyn_offsets, dyn_sizes, dyn_strides],
            properties={
                "static_offsets": DenseArrayBase.from_list(i64, static_offsets),
                "static_sizes": DenseArrayBase.from_list(i64, static_sizes),
                "static_strides": DenseArrayBase.from_list(i64, static_strides),
            },
            attributes=attributes,
        )

    def verify_(self) -> None:
        dest_type = cast(TensorType[Attribute], self.dest.type)
        offsets = self.static_offsets.get_values()
        sizes = self.static_sizes.get_values()
        strides = self.static_strides.get_values()
        verify_offsets_sizes_strides(
            len(dest_type.get_shape()),
            (offsets, self.offsets),
            (sizes, self.sizes),
            (strides, self.strides),
        )
        parent = self.parent_op()
        if not isinstance(parent, InParallelOp):
            got = "nothing" if parent is None else f"'{parent.name}'"
            raise VerifyException(f"expected InParallelOpInterface parent, got:{got}")
        verify_slice_type(dest_type, sizes, cast(TensorType[Attribute], self.source.type))
        verify_in_bounds_slice(dest_type.get_shape(), offsets, sizes, strides)


# ---------------------------------------------------------------------------------------
# tensor.bitcast
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class BitcastOp(IRDLOperation):
    """Reinterpret the elements of a tensor as another type of the same bit width.

    ```mlir
    %0 = tensor.bitcast %t : tensor<4xi32> to tensor<4xf32>
    ```

    See https://mlir.llvm.org/docs/Dialects/TensorOps/#tensorbitcast-tensorbitcastop.
    """

    name = "tensor.bitcast"

    source = operand_def(TensorType)
    dest = result_def(TensorType)

    traits = traits_def(Pure())

    assembly_format = "$source attr-dict `:` type($source) `to` type($dest)"

    def __init__(self, source: SSAValue | Operation, dest_type: Attribute):
        super().__init__(operands=[source], result_types=[dest_type])

    def verify_(self) -> None:
        source_type = cast(TensorType[Attribute], self.source.type)
        dest_type = cast(TensorType[Attribute], self.dest.type)
        source_width = getattr(source_type.get_element_type(), "bitwidth", None)
        dest_width = getattr(dest_type.get_element_type(), "bitwidth", None)
        source_shape, dest_shape = source_type.get_shape(), dest_type.get_shape()
        compatible = (
            source_width is not None
            and source_width == dest_width
            and len(source_shape) == len(dest_shape)
            and all(a == b or DYNAMIC_INDEX in (a, b) for a, b in zip(source_shape, dest_shape))
        )
        if not compatible:
            raise VerifyException(
                f"operand type {_quoted(source_type)} and result type {_quoted(dest_type)} are cast incompatible"
            )


Tensor = Dialect(
    "tensor",
    [
        BitcastOp,
        CastOp,
        CollapseShapeOp,
        ConcatOp,
        DimOp,
        EmptyOp,
        ExpandShapeOp,
        ExtractOp,
        ExtractSliceOp,
        FromElementsOp,
        InsertOp,
        InsertSliceOp,
        PadOp,
        ParallelInsertSliceOp,
        ReshapeOp,
        SplatOp,
        YieldOp,
    ],
    [],
)
