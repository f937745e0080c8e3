"""The ``flow`` dialect: dispatch regions, executables and dispatches of tensors.

``flow`` is IREE's host-side tensor program after dispatch-region formation. The
data-tiling pipeline works on it in four shapes:

* ``flow.dispatch.region``: a group of ops that will become one GPU/CPU kernel,
  still inline in the host function and capturing values from above. Data tiling
  moves ``set_encoding`` ops into or out of these regions.
* ``flow.tensor.encode``: the host-side form of ``set_encoding``, a whole-tensor
  relayout the stream dialect later turns into its own dispatch.
* ``flow.dispatch.workgroups``: the same region isolated from above, every
  value it uses an operand, tensors read and written through dispatch tensors.
* ``flow.executable`` + ``flow.dispatch``: after outlining, each region is a
  function in an executable and the host calls it with a workload.

Inside outlined functions tensors are reached through
``!iree_tensor_ext.dispatch.tensor`` bindings (see ``iree_tensor_ext``). Before
April 2025 those were ``!flow.dispatch.tensor`` with ``flow.dispatch.tensor.load``,
``flow.dispatch.tensor.store`` and ``flow.dispatch.workload.ordinal``; the
data-tiling walkthrough still prints them, so this module keeps them too.

IREE writes the dynamic extents of a value right after its type,
``tensor<?x?xf32>{%d0, %d1}``, and the byte size of a stream resource the same
way, ``!stream.resource<*>{%size}``. The syntax helpers in this module (symbol
visibility and aliases, workgroup count regions, dispatch entry points, shaped
function types) are shared with the ``stream`` dialect, as in IREE.

https://iree.dev/reference/mlir-dialects/Flow
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Self

from xdsl.dialects.builtin import (
    UNKNOWN_LOC,
    ArrayAttr,
    IndexType,
    IntegerAttr,
    ShapedType,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    TensorType,
)
from xdsl.ir import Attribute, Block, BlockArgument, Dialect, Operation, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    VarConstraint,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.pattern_rewriter import RewritePattern
from xdsl.printer import Printer
from xdsl.traits import (
    HasCanonicalizationPatternsTrait,
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    NoTerminator,
    Pure,
    ReturnLike,
    SymbolOpInterface,
    SymbolTable,
)
from xdsl.utils.exceptions import VerifyException

from mini_iree.dialects.iree_tensor_ext import (
    DispatchTensorLoadOpBase,
    DispatchTensorStoreOpBase,
    DispatchTensorTypeBase,
    DispatchWorkloadOrdinalOpBase,
)
from mini_iree.dialects.flow_tensor import FLOW_TENSOR_OPS
from mini_iree.dialects.support import operand_groups
from mini_iree.dialects.traits import VerifierReadsOnlyItself
from mini_iree.dialects.utils import (
    count_dynamic,
    operand_segment_sizes,
    plain_ssa_values,
    print_dynamic_dims,
    verify_op_dynamic_dims,
)
from mini_iree.dialects.symbols import lookup_symbol

UNTIED_INDEX = -1
"""``tied_operands`` entry of a result that does not reuse an operand's storage."""


# ---------------------------------------------------------------------------
# Syntax helpers shared with the stream dialect.
# ---------------------------------------------------------------------------


def num_shape_dims(ty: Attribute) -> int:
    """Number of ``{%d}`` operands IREE writes after ``ty``: its ``?`` extents if it is shaped.

    Only builtin shaped types count (tensor, memref, vector), as in IREE: a
    ``!iree_tensor_ext.dispatch.tensor`` is not a ShapedType there.
    """
    return count_dynamic(ty) if isinstance(ty, ShapedType) else 0


def is_size_aware(ty: Attribute) -> bool:
    """Whether ``ty`` is written with its byte size, ``!stream.resource<*>{%size}``.

    IREE's ``SizeAwareTypeInterface``; types opt in with a ``SIZE_AWARE = True`` class constant.
    """
    return getattr(type(ty), "SIZE_AWARE", False) is True


def parse_exact_dims(parser: Parser, count: int) -> list[UnresolvedOperand]:
    """Parse ``{%a, %b}`` holding exactly ``count`` operands (nothing when ``count`` is 0)."""
    if count == 0:
        return []
    pos = parser.pos
    parser.parse_punctuation("{")
    dims = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
    parser.parse_punctuation("}")
    if len(dims) != count:
        parser.raise_error(f"expected {count} dynamic dimension values but got {len(dims)}", pos, parser.pos)
    return dims


def parse_shaped_type(parser: Parser) -> tuple[Attribute, list[UnresolvedOperand]]:
    """``type{%dims}`` for a shaped type, ``type{%size}`` for a size-aware one, else ``type``."""
    ty = parser.parse_type()
    if is_size_aware(ty):
        return ty, parse_exact_dims(parser, 1)
    return ty, parse_exact_dims(parser, num_shape_dims(ty))


def print_shaped_type(printer: Printer, ty: Attribute, dims: Sequence[SSAValue]) -> Sequence[SSAValue]:
    """Print ``ty`` with the dims or size it takes from the front of ``dims``; return the rest."""
    printer.print_attribute(ty)
    n = 1 if is_size_aware(ty) else num_shape_dims(ty)
    print_dynamic_dims(printer, dims[:n])
    return dims[n:]


def resolve_index_operands(parser: Parser, operands: Sequence[UnresolvedOperand]) -> list[SSAValue]:
    return [parser.resolve_operand(o, IndexType()) for o in operands]


def parse_symbol_visibility(parser: Parser) -> StringAttr | None:
    """IREE's ``custom<SymbolVisibility>``: an optional ``public``/``private``/``nested``."""
    return parser.parse_optional_visibility_keyword()


def print_symbol_visibility(printer: Printer, visibility: StringAttr | None) -> None:
    """IREE always prints the visibility; a missing one reads ``public``."""
    printer.print_string(" " + (visibility.data if visibility is not None else "public"))


def parse_symbol_alias(parser: Parser) -> tuple[StringAttr, SymbolRefAttr]:
    """IREE's ``custom<SymbolAlias>``: ``@fn`` or ``@fn as("name")``, giving (sym_name, function_ref)."""
    function_ref = parser.parse_symbol_name()
    sym_name = function_ref
    if parser.parse_optional_keyword("as") is not None:
        parser.parse_punctuation("(")
        sym_name = StringAttr(parser.parse_str_literal())
        parser.parse_punctuation(")")
    return sym_name, SymbolRefAttr(function_ref)


def print_symbol_alias(printer: Printer, sym_name: StringAttr, function_ref: SymbolRefAttr) -> None:
    printer.print_string(" ")
    printer.print_attribute(function_ref)
    if sym_name.data != function_ref.root_reference.data:
        printer.print_string(" as(")
        printer.print_string_literal(sym_name.data)
        printer.print_string(")")


def parse_workgroup_count_region(parser: Parser, return_name: str) -> Region:
    """``(%arg0: index, ...) -> (index, index, index) { ... }``: how many workgroups to launch.

    The region maps a dispatch's workload to an XYZ workgroup count and ends in
    ``<dialect>.return %x, %y, %z``; ``return_name`` names that terminator.
    """
    args = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_argument)
    parser.parse_punctuation("->")
    pos = parser.pos
    return_types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
    if len(return_types) != 3 or not all(isinstance(t, IndexType) for t in return_types):
        parser.raise_error("workgroup count region must return the XYZ dimension counts", pos, parser.pos)
    region = parser.parse_region(args)
    for block in region.blocks:
        last = block.last_op
        if last is None or last.name != return_name or len(last.operands) != len(return_types):
            continue  # a wrong count is reported when the terminator is verified
        if tuple(last.operand_types) != tuple(return_types):
            parser.raise_error(f"'{return_name}' op operands do not match expected region return types")
    return region


def print_workgroup_count_region(printer: Printer, region: Region) -> None:
    """Print ``(%arg0: index, ...) -> (index, index, index) {...}`` (caller prints the keyword)."""
    block = region.blocks.first
    assert block is not None, "only non-empty workgroup count regions are printed"
    printer.print_string("(")
    printer.print_list(block.args, printer.print_block_argument)
    printer.print_string(") -> (index, index, index) ")
    printer.print_region(region, print_entry_block_args=False)


def parse_dispatch_entry_points(parser: Parser) -> ArrayAttr[SymbolRefAttr]:
    """IREE's ``custom<DispatchEntryPoints>``: ``@ex::@fn`` or ``{@ex::@a, @ex::@b}``."""

    def parse_ref() -> SymbolRefAttr:
        attr = parser.parse_attribute()
        if not isinstance(attr, SymbolRefAttr):
            parser.raise_error("expected a symbol reference such as @executable::@export")
        return attr

    if parser.parse_optional_punctuation("{") is not None:
        refs = parser.parse_comma_separated_list(parser.Delimiter.NONE, parse_ref)
        parser.parse_punctuation("}")
        return ArrayAttr(refs)
    return ArrayAttr([parse_ref()])


def print_dispatch_entry_points(printer: Printer, entry_points: ArrayAttr[SymbolRefAttr]) -> None:
    printer.print_string(" ")
    if len(entry_points) == 1:
        printer.print_attribute(entry_points.data[0])
        return
    printer.print_string("{")
    printer.print_list(entry_points.data, printer.print_attribute)
    printer.print_string("}")


def parse_optional_workload(parser: Parser) -> list[SSAValue]:
    """An optional ``[%w0, %w1]`` list of index operands (``[]`` is accepted)."""
    if parser.parse_optional_punctuation("[") is None:
        return []
    if parser.parse_optional_punctuation("]") is not None:
        return []
    workload = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
    parser.parse_punctuation("]")
    return resolve_index_operands(parser, workload)


def print_workload(printer: Printer, workload: Sequence[SSAValue]) -> None:
    if workload:
        printer.print_string("[")
        printer.print_list(workload, printer.print_operand)
        printer.print_string("]")


def find_tied_operand(parser: Parser, ref: UnresolvedOperand, operands: Sequence[UnresolvedOperand]) -> int:
    for i, operand in enumerate(operands):
        if operand.operand_name == ref.operand_name and operand.index == ref.index:
            return i
    parser.raise_error(f"tied operand not found for result reference {ref.span.text}", ref.span)


def parse_tied_result(
    parser: Parser, operands: Sequence[UnresolvedOperand], operand_types: Sequence[Attribute]
) -> tuple[Attribute, int]:
    """A result type, or ``%operand`` / ``%operand as type`` for a result tied to an operand.

    A tied result reuses the operand's storage (an in-place dispatch); without
    ``as`` it has the operand's type. Returns the type and the operand index
    (``UNTIED_INDEX`` when untied).
    """
    ref = parser.parse_optional_unresolved_operand()
    if ref is None:
        return parser.parse_type(), UNTIED_INDEX
    index = find_tied_operand(parser, ref, operands)
    if parser.parse_optional_keyword("as") is not None:
        return parser.parse_type(), index
    return operand_types[index], index


def print_tied_result(printer: Printer, ty: Attribute, tied_operand: SSAValue | None) -> None:
    if tied_operand is None:
        printer.print_attribute(ty)
        return
    printer.print_operand(tied_operand)
    if tied_operand.type != ty:
        printer.print_string(" as ")
        printer.print_attribute(ty)


def tied_operands_attr(tied: Sequence[int]) -> ArrayAttr[IntegerAttr] | None:
    """The ``tied_operands`` property for ``tied``, or None when no result is tied."""
    if all(t == UNTIED_INDEX for t in tied):
        return None
    return ArrayAttr([IntegerAttr(t, IndexType()) for t in tied])


def tied_operand_index(tied_operands: ArrayAttr[IntegerAttr] | None, result_index: int) -> int:
    if tied_operands is None or result_index >= len(tied_operands):
        return UNTIED_INDEX
    return tied_operands.data[result_index].value.data


def parse_shaped_function_type(
    parser: Parser, operands: Sequence[UnresolvedOperand]
) -> tuple[list[Attribute], list[UnresolvedOperand], list[Attribute], list[UnresolvedOperand], list[int]]:
    """IREE's ``custom<ShapedFunctionType>``: ``(type{%d}, type) -> (type{%d}, %operand)``.

    The result list may drop its parentheses when there is one result. Returns
    operand types, operand dims, result types, result dims and tied operand indices.
    """
    operand_types: list[Attribute] = []
    operand_dims: list[UnresolvedOperand] = []
    parser.parse_punctuation("(")
    if parser.parse_optional_punctuation(")") is None:
        while True:
            ty, dims = parse_shaped_type(parser)
            operand_types.append(ty)
            operand_dims += dims
            if parser.parse_optional_punctuation(",") is None:
                break
        parser.parse_punctuation(")")
    parser.parse_punctuation("->")

    result_types: list[Attribute] = []
    result_dims: list[UnresolvedOperand] = []
    tied: list[int] = []

    def parse_result() -> None:
        ty, index = parse_tied_result(parser, operands, operand_types)
        result_types.append(ty)
        tied.append(index)
        result_dims.extend(parse_exact_dims(parser, 1 if is_size_aware(ty) else num_shape_dims(ty)))

    if parser.parse_optional_punctuation("(") is not None:
        if parser.parse_optional_punctuation(")") is None:
            parser.parse_comma_separated_list(parser.Delimiter.NONE, parse_result)
            parser.parse_punctuation(")")
    else:
        parse_result()
    return operand_types, operand_dims, result_types, result_dims, tied


def print_shaped_function_type(
    printer: Printer,
    operands: Sequence[SSAValue],
    operand_dims: Sequence[SSAValue],
    result_types: Sequence[Attribute],
    result_dims: Sequence[SSAValue],
    tied_operands: ArrayAttr[IntegerAttr] | None,
) -> None:
    printer.print_string("(")
    for i, operand in enumerate(operands):
        if i:
            printer.print_string(", ")
        operand_dims = print_shaped_type(printer, operand.type, operand_dims)
    printer.print_string(") -> ")
    if len(result_types) != 1:
        printer.print_string("(")
    for i, ty in enumerate(result_types):
        if i:
            printer.print_string(", ")
        tied = tied_operand_index(tied_operands, i)
        print_tied_result(printer, ty, operands[tied] if tied != UNTIED_INDEX else None)
        n = 1 if is_size_aware(ty) else num_shape_dims(ty)
        print_dynamic_dims(printer, result_dims[:n])
        result_dims = result_dims[n:]
    if len(result_types) != 1:
        printer.print_string(")")


def verify_tied_operands(tied_operands: ArrayAttr[IntegerAttr] | None, num_results: int, num_operands: int) -> None:
    """Keep generic-form ``tied_operands`` from pointing outside the op (printing relies on it)."""
    if tied_operands is None:
        return
    if len(tied_operands) != num_results:
        raise VerifyException(f"expected {num_results} tied operand entries but got {len(tied_operands)}")
    for entry in tied_operands.data:
        index = entry.value.data
        if index != UNTIED_INDEX and not 0 <= index < num_operands:
            raise VerifyException(f"tied operand index {index} is out of range of the {num_operands} operand(s)")


def verify_workgroup_count_return(op: Operation) -> None:
    """The terminator of a workgroup count region returns exactly three ``index`` values."""
    if len(op.operands) != 3 or not all(isinstance(t, IndexType) for t in op.operand_types):
        raise VerifyException("workgroup count region must return the XYZ dimension counts")


def verify_dispatch_symbol_uses(
    op: Operation, entry_points: ArrayAttr[SymbolRefAttr], workload: Sequence[SSAValue], export_op_name: str
) -> None:
    """IREE's ``verifySymbolUses`` of dispatch ops: the workload must fit each export called.

    IREE does not (yet) require entry points to resolve: a missing export is
    accepted, only a found one is checked against its ``workgroups`` region.
    """
    for ref in entry_points.data:
        try:
            export = lookup_symbol(op, ref)
        except ValueError:  # not inside a symbol table: nothing to check against
            return
        if export is None or export.name != export_op_name:
            continue
        count_block = export.regions[0].blocks.first
        if count_block is None:
            continue
        expected = count_block.arg_types
        if len(expected) != len(workload):
            raise VerifyException(
                f"workload mismatch; entry point expects {len(expected)} arguments "
                f"but dispatch provides {len(workload)}"
            )
        for i, (want, value) in enumerate(zip(expected, workload)):
            if want != value.type:
                raise VerifyException(f"workload operand {i} type mismatch; expected {want} but passed {value.type}")


# ---------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------


@irdl_attr_definition
class FlowDispatchTensorType(DispatchTensorTypeBase):
    """Seed-era spelling of ``!iree_tensor_ext.dispatch.tensor``: ``!flow.dispatch.tensor<readonly:tensor<4xf32>>``."""

    name = "flow.dispatch.tensor"


# ---------------------------------------------------------------------------
# Dispatch regions
# ---------------------------------------------------------------------------


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """Returns values from a ``flow.dispatch.region`` or a workgroup count region.

        flow.return %10 : tensor<?x?xf32>

    https://iree.dev/reference/mlir-dialects/Flow/#flowreturn-flowreturnop
    """

    name = "flow.return"

    values = var_operand_def()

    traits = traits_def(Pure(), IsTerminator(), ReturnLike())

    assembly_format = "attr-dict ($values^ `:` type($values))?"

    def __init__(self, operands: Sequence[SSAValue | Operation] = ()):
        super().__init__(operands=[operands])

    def verify_(self) -> None:
        parent = self.parent_op()
        region = self.parent_region()
        if isinstance(parent, DispatchRegionOp) and region is parent.body:
            if len(self.operands) != len(parent.results):
                raise VerifyException(
                    f"number of results ({len(parent.results)}) does not match "
                    f"number of returned values ({len(self.operands)})"
                )
            if tuple(self.operand_types) != tuple(parent.result_types):
                raise VerifyException("operand types do not match with parent results")
        elif isinstance(parent, DispatchWorkgroupsOp) and region is parent.workgroup_body:
            if self.operands:
                raise VerifyException("a flow.dispatch.workgroups body returns nothing; results are stored")
        elif isinstance(parent, DispatchRegionOp | ExecutableExportOp | DispatchWorkgroupsOp):
            verify_workgroup_count_return(self)


@irdl_op_definition
class DispatchRegionOp(IRDLOperation):
    """A group of ops that will become one dispatch, with implicit capture.

    The body may use any value defined above; the values it returns with
    ``flow.return`` are the op's results, each written with its dynamic extents.
    A ``flow.return`` without operands is not printed. Optionally the op carries a
    workload ``[%a, %b]`` and a ``count(...)`` region computing the workgroup
    count from it.

        %6 = flow.dispatch.region -> (tensor<?x?xf32>{%0, %4}) {
          %10 = linalg.matmul ins(...) outs(...) -> tensor<?x?xf32>
          flow.return %10 : tensor<?x?xf32>
        }

    https://iree.dev/reference/mlir-dialects/Flow/#flowdispatchregion-flowdispatchregionop
    """

    name = "flow.dispatch.region"

    result_dims = var_operand_def(IndexType)
    workload = var_operand_def(IndexType)
    result = var_result_def()
    body = region_def()
    workgroup_count = region_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure(), VerifierReadsOnlyItself())

    def __init__(
        self,
        result_types: Sequence[Attribute],
        result_dims: Sequence[SSAValue | Operation] = (),
        workload: Sequence[SSAValue | Operation] = (),
        body: Region | None = None,
        workgroup_count: Region | None = None,
    ):
        super().__init__(
            operands=[result_dims, workload],
            result_types=[result_types],
            regions=[body if body is not None else Region(Block()), workgroup_count or Region()],
        )

    @classmethod
    def parse(cls, parser: Parser) -> DispatchRegionOp:
        workload = parse_optional_workload(parser)
        result_types: list[Attribute] = []
        dims: list[UnresolvedOperand] = []
        if parser.parse_optional_punctuation("->") is not None:

            def parse_result() -> None:
                ty = parser.parse_type()
                result_types.append(ty)
                dims.extend(parse_exact_dims(parser, num_shape_dims(ty)))

            parser.parse_punctuation("(")
            if parser.parse_optional_punctuation(")") is None:
                parser.parse_comma_separated_list(parser.Delimiter.NONE, parse_result)
                parser.parse_punctuation(")")
        attrs = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region()
        # The printer elides an operand-less flow.return; put it back.
        if not body.blocks:
            body.add_block(Block())
        for block in body.blocks:
            last = block.last_op
            if last is None or not last.has_trait(IsTerminator):
                block.add_op(ReturnOp())
        count = Region()
        if parser.parse_optional_keyword("count") is not None:
            count = parse_workgroup_count_region(parser, ReturnOp.name)
        op = cls(result_types, resolve_index_operands(parser, dims), workload, body, count)
        if attrs is not None:
            op.attributes |= attrs.data
        return op

    def print(self, printer: Printer) -> None:
        # Both operand groups at once: each accessor decodes the segment sizes again.
        result_dims, workload = operand_groups(self)
        print_workload(printer, workload)
        printer.print_string(" -> (")
        dims: Sequence[SSAValue] = result_dims
        for i, ty in enumerate(self.result_types):
            if i:
                printer.print_string(", ")
            printer.print_attribute(ty)
            n = num_shape_dims(ty)
            print_dynamic_dims(printer, dims[:n])
            dims = dims[n:]
        printer.print_string(")")
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        # Like IREE, leave out the terminator when it is a bare `flow.return`.
        entry = self.body.blocks.first
        terminator = entry.last_op if entry is not None else None
        print_terminator = terminator is None or bool(terminator.operands or terminator.attributes)
        printer.print_region(self.body, print_block_terminators=print_terminator)
        if self.workgroup_count.blocks:
            printer.print_string(" count")
            print_workgroup_count_region(printer, self.workgroup_count)

    def verify_(self) -> None:
        entry = self.body.blocks.first
        if entry is not None and entry.args:
            raise VerifyException("expected no block arguments")
        if not all(isinstance(t, TensorType) for t in self.result_types):
            raise VerifyException("only ranked tensor results are allowed")
        verify_op_dynamic_dims(self.result_types, self.result_dims)
        count_block = self.workgroup_count.blocks.first
        if count_block is None:
            return
        args = count_block.args
        if len(args) != len(self.workload):
            raise VerifyException(
                f"workload operands and workgroup count args mismatch ({len(self.workload)} vs {len(args)})"
            )
        for i, (value, arg) in enumerate(zip(self.workload, args)):
            if value.type != arg.type:
                raise VerifyException(
                    f"workload value {i} type mismatch; operand is {value.type} but region captures {arg.type}"
                )


@irdl_op_definition
class TensorEncodeOp(IRDLOperation):
    """Encodes a whole tensor: the host-side form of ``iree_encoding.set_encoding``.

    Produced by ``iree-dispatch-creation-convert-encoding-to-flow`` for
    ``set_encoding`` ops left outside dispatch regions; the stream dialect later
    turns it into a dispatch of its own. Operand and result have the same rank,
    element type and (compatible) shape.

        %6 = flow.tensor.encode %2 : tensor<?x?xf32>{%0, %1} -> tensor<?x?xf32, #encoding>{%0, %1}

    https://iree.dev/reference/mlir-dialects/Flow/#flowtensorencode-flowtensorencodeop
    """

    name = "flow.tensor.encode"

    operand = operand_def(TensorType)
    operand_dims = var_operand_def(IndexType)
    result_dims = var_operand_def(IndexType)
    result = result_def(TensorType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure(), VerifierReadsOnlyItself())

    assembly_format = (
        "$operand `:` type($operand) (`{` $operand_dims^ `}`)? `->` type($result) (`{` $result_dims^ `}`)?"
        " attr-dict-with-keyword"
    )

    def __init__(
        self,
        operand: SSAValue | Operation,
        result_type: Attribute,
        operand_dims: Sequence[SSAValue | Operation] = (),
        result_dims: Sequence[SSAValue | Operation] = (),
    ):
        if plain_ssa_values(operand, operand_dims, result_dims):
            # One per host-side relayout: the operands, result and segment sizes the IRDL builder would make.
            Operation.__init__(
                self,
                operands=(operand, *operand_dims, *result_dims),
                result_types=(result_type,),
                properties={"operandSegmentSizes": operand_segment_sizes(1, len(operand_dims), len(result_dims))},
                location=UNKNOWN_LOC,
            )
            return
        super().__init__(operands=[operand, operand_dims, result_dims], result_types=[result_type])

    def verify_(self) -> None:
        operand_type = self.operand.type
        result_type = self.result.type
        assert isinstance(operand_type, TensorType) and isinstance(result_type, TensorType)
        if operand_type.get_num_dims() != result_type.get_num_dims():
            raise VerifyException("failed to verify that all of {operand, result} have same rank")
        if operand_type.element_type != result_type.element_type:
            raise VerifyException("failed to verify that all of {operand, result} have same element type")
        verify_op_dynamic_dims([operand_type], self.operand_dims)
        verify_op_dynamic_dims([result_type], self.result_dims)
        for a, b in zip(operand_type.get_shape(), result_type.get_shape()):
            if a != b and a >= 0 and b >= 0:
                raise VerifyException("the operand shape and result shape are not compatible")


# ---------------------------------------------------------------------------
# Executables
# ---------------------------------------------------------------------------


class ExecutableOpBase(IRDLOperation):
    """Shared definition of ``flow.executable`` and ``stream.executable``.

    ``<visibility> @name attributes {...} { exports... builtin.module {...} }``. IREE
    ends the body with an implicit ``*.executable_end``/``*.executable.end`` op;
    here the body simply has no terminator, like ``builtin.module``.
    """

    sym_visibility = opt_prop_def(StringAttr)
    sym_name = prop_def(SymbolNameConstraint())
    body = region_def("single_block")

    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface(), SymbolTable(), NoTerminator())

    def __init__(self, sym_name: str, body: Region | None = None, sym_visibility: str | None = None):
        super().__init__(
            properties={
                "sym_name": StringAttr(sym_name),
                "sym_visibility": StringAttr(sym_visibility) if sym_visibility is not None else None,
            },
            regions=[body if body is not None else Region(Block())],
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        visibility = parse_symbol_visibility(parser)
        sym_name = parser.parse_symbol_name()
        attrs = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region()
        if not body.blocks:
            body.add_block(Block())
        op = cls(sym_name.data, body, visibility.data if visibility is not None else None)
        if attrs is not None:
            op.attributes |= attrs.data
        return op

    def print(self, printer: Printer) -> None:
        print_symbol_visibility(printer, self.sym_visibility)
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_empty_block=False)


class ExecutableExportOpBase(IRDLOperation):
    """Shared definition of ``flow.executable.export`` and ``stream.executable.export``.

    ``<visibility> @fn [as("name")] [workgroups(...) -> (index, index, index) {...}] [attributes {...}]``
    """

    RETURN_OP_NAME: ClassVar[str]
    """The terminator of the ``workgroups`` region (``flow.return``/``stream.return``)."""

    sym_visibility = opt_prop_def(StringAttr)
    sym_name = prop_def(SymbolNameConstraint())
    function_ref = prop_def(SymbolRefAttr)
    workgroup_count = region_def()

    def __init__(
        self,
        sym_name: str,
        function_ref: str | None = None,
        workgroup_count: Region | None = None,
        sym_visibility: str | None = None,
    ):
        """Export ``function_ref`` (default: the function named ``sym_name``) as ``sym_name``."""
        super().__init__(
            properties={
                "sym_name": StringAttr(sym_name),
                "function_ref": SymbolRefAttr(function_ref if function_ref is not None else sym_name),
                "sym_visibility": StringAttr(sym_visibility) if sym_visibility is not None else None,
            },
            regions=[workgroup_count or Region()],
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        visibility = parse_symbol_visibility(parser)
        sym_name, function_ref = parse_symbol_alias(parser)
        count = Region()
        if parser.parse_optional_keyword("workgroups") is not None:
            count = parse_workgroup_count_region(parser, cls.RETURN_OP_NAME)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        op = cls(
            sym_name.data,
            function_ref.root_reference.data,
            count,
            visibility.data if visibility is not None else None,
        )
        if attrs is not None:
            op.attributes |= attrs.data
        return op

    def print(self, printer: Printer) -> None:
        print_symbol_visibility(printer, self.sym_visibility)
        print_symbol_alias(printer, self.sym_name, self.function_ref)
        if self.workgroup_count.blocks:
            printer.print_string(" workgroups")
            print_workgroup_count_region(printer, self.workgroup_count)
        printer.print_op_attributes(self.attributes, print_keyword=True)


@irdl_op_definition
class ExecutableOp(ExecutableOpBase):
    """An executable: exports plus a ``builtin.module`` with the dispatch functions.

        flow.executable private @matmul_dispatch_0 {
          flow.executable.export public @matmul_dispatch_0 workgroups(...) -> (index, index, index) {...}
          builtin.module {
            func.func @matmul_dispatch_0(...) {...}
          }
        }

    https://iree.dev/reference/mlir-dialects/Flow/#flowexecutable-flowexecutableop
    """

    name = "flow.executable"


@irdl_op_definition
class ExecutableExportOp(ExecutableExportOpBase):
    """Exports a function of the executable as a dispatch entry point.

    The optional ``workgroups`` region computes the XYZ workgroup count from the
    workload a ``flow.dispatch`` passes. The export is named after its function
    unless written ``@fn as("name")``.

        flow.executable.export public @entry workgroups(%arg0: index, %arg1: index) -> (index, index, index) {
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0, %arg1)
          flow.return %x, %y, %z : index, index, index
        }

    https://iree.dev/reference/mlir-dialects/Flow/#flowexecutableexport-flowexecutableexportop
    """

    name = "flow.executable.export"

    traits = traits_def(HasParent(ExecutableOp), IsolatedFromAbove(), SymbolOpInterface())

    RETURN_OP_NAME: ClassVar[str] = "flow.return"


# ---------------------------------------------------------------------------
# Dispatches
# ---------------------------------------------------------------------------


@irdl_op_definition
class DispatchOp(IRDLOperation):
    """Dispatches an exported executable function over a grid computed from a workload.

    ``@ex::@entry`` names the export; ``[%w0, %w1]`` is the workload handed to its
    ``workgroups`` region; the arguments follow, and the signature writes each
    tensor with its dynamic extents. A result written ``%arg`` (or ``%arg as
    type``) reuses that argument's storage.

        %8 = flow.dispatch @ex::@entry[%0, %1](%6, %0, %1)
               : (tensor<?x?xf32, #encoding>{%0, %1}, index, index) -> tensor<?x?xf32>{%0, %1}

    https://iree.dev/reference/mlir-dialects/Flow/#flowdispatch-flowdispatchop
    """

    name = "flow.dispatch"

    workload = var_operand_def(IndexType)
    entry_points = prop_def(ArrayAttr[SymbolRefAttr])
    arguments = var_operand_def()
    argument_dims = var_operand_def(IndexType)
    result_dims = var_operand_def(IndexType)
    tied_operands = opt_prop_def(ArrayAttr[IntegerAttr])
    res = var_result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def __init__(
        self,
        entry_point: SymbolRefAttr | Sequence[SymbolRefAttr],
        workload: Sequence[SSAValue | Operation],
        arguments: Sequence[SSAValue | Operation],
        argument_dims: Sequence[SSAValue | Operation],
        result_types: Sequence[Attribute],
        result_dims: Sequence[SSAValue | Operation] = (),
        tied_operands: Sequence[int] = (),
    ):
        entry_points = [entry_point] if isinstance(entry_point, SymbolRefAttr) else list(entry_point)
        super().__init__(
            operands=[workload, arguments, argument_dims, result_dims],
            result_types=[result_types],
            properties={
                "entry_points": ArrayAttr(entry_points),
                "tied_operands": tied_operands_attr(tied_operands),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> DispatchOp:
        entry_points = parse_dispatch_entry_points(parser)
        workload = parse_optional_workload(parser)
        arguments = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        arg_types, arg_dims, result_types, result_dims, tied = parse_shaped_function_type(parser, arguments)
        if len(arg_types) != len(arguments):
            parser.raise_error(f"expected {len(arguments)} argument types but got {len(arg_types)}", pos, parser.pos)
        op = cls(
            list(entry_points.data),
            workload,
            [parser.resolve_operand(a, t) for a, t in zip(arguments, arg_types)],
            resolve_index_operands(parser, arg_dims),
            result_types,
            resolve_index_operands(parser, result_dims),
            tied,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        print_dispatch_entry_points(printer, self.entry_points)
        print_workload(printer, self.workload)
        printer.print_string("(")
        printer.print_list(self.arguments, printer.print_operand)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        print_shaped_function_type(
            printer, self.arguments, self.argument_dims, self.result_types, self.result_dims, self.tied_operands
        )

    def verify_(self) -> None:
        if not self.entry_points.data:
            raise VerifyException("at least one entry point reference is required")
        verify_op_dynamic_dims(self.arguments.types, self.argument_dims)
        verify_op_dynamic_dims(self.result_types, self.result_dims)
        verify_tied_operands(self.tied_operands, len(self.results), len(self.arguments))
        verify_dispatch_symbol_uses(self, self.entry_points, self.workload, ExecutableExportOp.name)


def _print_body_argument(printer: Printer, arg: BlockArgument) -> None:
    """``%arg: type``, as IREE's ``printDispatchWorkgroupBody``: no location, even with debug info."""
    printer.print_ssa_value(arg)
    printer.print_string(": ")
    printer.print_attribute(arg.type)


class _WorkgroupsCanonicalization(HasCanonicalizationPatternsTrait):
    """``flow.dispatch.workgroups``'s canonicalization (``dialects/flow_canonicalization.py``, which
    imports the op: looked up when ``canonicalize`` asks)."""

    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        from mini_iree.dialects.flow_canonicalization import ClosureOptimizationPattern

        return (ClosureOptimizationPattern(),)


@irdl_op_definition
class DispatchWorkgroupsOp(IRDLOperation):
    """A dispatch whose body is isolated from above: every value it uses is an operand.

    The body's block arguments are the operands, tensors seen as
    ``!iree_tensor_ext.dispatch.tensor<readonly:...>`` (``readwrite`` when a
    result is tied to them), other values as they are, followed by one
    ``writeonly`` dispatch tensor per untied result. The body loads its inputs
    with ``dispatch.tensor.load``, stores its results with
    ``dispatch.tensor.store`` and ends in an operand-less ``flow.return``. The
    ``count`` region computes the workgroup count from the workload.

        %8 = flow.dispatch.workgroups[%0, %1](%6, %0, %1) : (tensor<?x?xf32>{%0, %1}, index, index)
               -> tensor<?x?xf32>{%0, %1} =
            (%arg2: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>, %arg3: index, %arg4: index,
             %arg5: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>) {
          ...
          flow.return
        } count(%arg2: index, %arg3: index) -> (index, index, index) {...}

    https://iree.dev/reference/mlir-dialects/Flow/#flowdispatchworkgroups-flowdispatchworkgroupsop
    """

    name = "flow.dispatch.workgroups"

    workload = var_operand_def(IndexType)
    arguments = var_operand_def()
    argument_dims = var_operand_def(IndexType)
    result_dims = var_operand_def(IndexType)
    tied_operands = opt_prop_def(ArrayAttr[IntegerAttr])
    res = var_result_def()
    workgroup_body = region_def()
    workgroup_count = region_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(IsolatedFromAbove(), Pure(), _WorkgroupsCanonicalization())

    def __init__(
        self,
        workload: Sequence[SSAValue | Operation],
        arguments: Sequence[SSAValue | Operation],
        argument_dims: Sequence[SSAValue | Operation],
        result_types: Sequence[Attribute],
        result_dims: Sequence[SSAValue | Operation] = (),
        tied_operands: Sequence[int] = (),
        workgroup_body: Region | None = None,
        workgroup_count: Region | None = None,
    ):
        super().__init__(
            operands=[workload, arguments, argument_dims, result_dims],
            result_types=[result_types],
            properties={"tied_operands": tied_operands_attr(tied_operands)},
            regions=[workgroup_body if workgroup_body is not None else Region(Block()), workgroup_count or Region()],
        )

    def tied_operand_of(self, result_index: int) -> int:
        """The operand index result ``result_index`` is tied to, or ``UNTIED_INDEX``."""
        return tied_operand_index(self.tied_operands, result_index)

    @classmethod
    def parse(cls, parser: Parser) -> DispatchWorkgroupsOp:
        workload = parse_optional_workload(parser)
        arguments = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        parser.parse_punctuation(":")
        pos = parser.pos
        arg_types, arg_dims, result_types, result_dims, tied = parse_shaped_function_type(parser, arguments)
        if len(arg_types) != len(arguments):
            parser.raise_error(f"expected {len(arguments)} argument types but got {len(arg_types)}", pos, parser.pos)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        parser.parse_punctuation("=")
        block_args = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_argument)
        body = parser.parse_region(block_args)
        count = Region()
        if parser.parse_optional_keyword("count") is not None:
            count = parse_workgroup_count_region(parser, ReturnOp.name)
        op = cls(
            workload,
            [parser.resolve_operand(a, t) for a, t in zip(arguments, arg_types)],
            resolve_index_operands(parser, arg_dims),
            result_types,
            resolve_index_operands(parser, result_dims),
            tied,
            body,
            count,
        )
        if attrs is not None:
            op.attributes |= attrs.data
        return op

    def print(self, printer: Printer) -> None:
        print_workload(printer, self.workload)
        printer.print_string("(")
        printer.print_list(self.arguments, printer.print_operand)
        printer.print_string(") : ")
        print_shaped_function_type(
            printer, self.arguments, self.argument_dims, self.result_types, self.result_dims, self.tied_operands
        )
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" =")
        with printer.indented(2):
            printer._print_new_line()  # pyright: ignore[reportPrivateUsage]
        printer.print_string("(")
        entry = self.workgroup_body.blocks.first
        if entry is not None:
            printer.print_list(entry.args, lambda arg: _print_body_argument(printer, arg))
        printer.print_string(") ")
        printer.print_region(self.workgroup_body, print_entry_block_args=False)
        if self.workgroup_count.blocks:
            printer.print_string(" count")
            print_workgroup_count_region(printer, self.workgroup_count)

    def verify_(self) -> None:
        verify_op_dynamic_dims(self.arguments.types, self.argument_dims)
        verify_op_dynamic_dims(self.result_types, self.result_dims)
        verify_tied_operands(self.tied_operands, len(self.results), len(self.arguments))
        entry = self.workgroup_body.blocks.first
        if entry is None:
            raise VerifyException("expected a workgroup body")
        untied = sum(1 for i in range(len(self.results)) if self.tied_operand_of(i) == UNTIED_INDEX)
        if len(entry.args) != len(self.arguments) + untied:
            raise VerifyException(
                f"workgroup body takes {len(entry.args)} arguments but the op has {len(self.arguments)} operands "
                f"and {untied} untied results"
            )
        tied_to = {self.tied_operand_of(i) for i in range(len(self.results))} - {UNTIED_INDEX}
        for index, (operand, arg) in enumerate(zip(self.arguments, entry.args)):
            if isinstance(operand.type, TensorType):
                access = "readwrite" if index in tied_to else "readonly"
                if not isinstance(arg.type, DispatchTensorTypeBase) or arg.type.bound_type != operand.type:
                    raise VerifyException(
                        f"workgroup body argument {index} must be a dispatch tensor of {operand.type}, got {arg.type}"
                    )
                if arg.type.access.data != access and not (access == "readonly" and arg.type.can_read()):
                    raise VerifyException(f"workgroup body argument {index} must be {access}, got {arg.type}")
            elif arg.type != operand.type:
                raise VerifyException(f"workgroup body argument {index} has type {arg.type}, operand has {operand.type}")
        count_block = self.workgroup_count.blocks.first
        if count_block is not None and tuple(count_block.arg_types) != tuple(v.type for v in self.workload):
            raise VerifyException(
                f"workload operands and workgroup count args mismatch ({len(self.workload)} vs {len(count_block.args)})"
            )


# ---------------------------------------------------------------------------
# Inside dispatch functions
# ---------------------------------------------------------------------------


@irdl_op_definition
class DispatchTieShapeOp(IRDLOperation):
    """Ties runtime extents to a dispatch function's tensor argument.

    Later uses go through the result, so the dynamic dims of the binding can be
    found from SSA values alone.

        %4 = flow.dispatch.tie_shape %arg0 : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%0, %1}

    https://iree.dev/reference/mlir-dialects/Flow/#flowdispatchtie_shape-flowdispatchtieshapeop
    """

    name = "flow.dispatch.tie_shape"

    T: ClassVar = VarConstraint("T", base(DispatchTensorTypeBase))

    operand = operand_def(T)
    dynamic_dims = var_operand_def(IndexType)
    result = result_def(T)

    traits = traits_def(Pure())

    assembly_format = "$operand attr-dict `:` type($result) (`{` $dynamic_dims^ `}`)?"

    def __init__(self, operand: SSAValue | Operation, dynamic_dims: Sequence[SSAValue | Operation] = ()):
        operand = SSAValue.get(operand)
        super().__init__(operands=[operand, dynamic_dims], result_types=[operand.type])

    def verify_(self) -> None:
        verify_op_dynamic_dims([self.operand.type], self.dynamic_dims)


@irdl_op_definition
class DispatchTensorLoadOp(DispatchTensorLoadOpBase):
    """Seed-era ``iree_tensor_ext.dispatch.tensor.load``, on a ``!flow.dispatch.tensor``.

        %2 = flow.dispatch.tensor.load %0, offsets = [0, 0], sizes = [1, 256], strides = [1, 1]
               : !flow.dispatch.tensor<readonly:tensor<1x256xf32>> -> tensor<1x256xf32>
    """

    name = "flow.dispatch.tensor.load"

    DISPATCH_TENSOR_TYPE: ClassVar[type[DispatchTensorTypeBase]] = FlowDispatchTensorType


@irdl_op_definition
class DispatchTensorStoreOp(DispatchTensorStoreOpBase):
    """Seed-era ``iree_tensor_ext.dispatch.tensor.store``, on a ``!flow.dispatch.tensor``.

        flow.dispatch.tensor.store %3, %1, offsets = [0, 0], sizes = [1, 256], strides = [1, 1]
          : tensor<1x256xf32> -> !flow.dispatch.tensor<writeonly:tensor<1x256xf32>>
    """

    name = "flow.dispatch.tensor.store"

    DISPATCH_TENSOR_TYPE: ClassVar[type[DispatchTensorTypeBase]] = FlowDispatchTensorType


@irdl_op_definition
class DispatchWorkloadOrdinalOp(DispatchWorkloadOrdinalOpBase):
    """Seed-era ``iree_tensor_ext.dispatch.workload.ordinal``.

        %0 = flow.dispatch.workload.ordinal %arg1, 0 : index
    """

    name = "flow.dispatch.workload.ordinal"


Flow = Dialect(
    "flow",
    [
        DispatchRegionOp,
        ReturnOp,
        TensorEncodeOp,
        ExecutableOp,
        ExecutableExportOp,
        DispatchOp,
        DispatchWorkgroupsOp,
        DispatchTieShapeOp,
        DispatchTensorLoadOp,
        DispatchTensorStoreOp,
        DispatchWorkloadOrdinalOp,
        *FLOW_TENSOR_OPS,
    ],
    [FlowDispatchTensorType],
)
