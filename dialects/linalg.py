"""The `linalg` dialect: xDSL's structured ops, plus the ones data tiling needs.

xDSL 0.74 ships most of upstream `linalg`, and the ops that already parse and
print like MLIR are reused as they are (`linalg.generic`, `fill`, `copy`,
`yield`, `index`, the elementwise and convolution ops, and
`#linalg.iterator_type`), so xDSL's passes keep matching them.

This module adds or replaces:

* `linalg.pack` / `linalg.unpack`, the relayout ops at the heart of data
  tiling (xDSL has neither), with MLIR's verifier and an `infer_packed_type`
  helper shared by the passes that build them;
* the contractions `linalg.matmul`, `batch_matmul`, `matvec`, `vecmat`,
  `batch_matvec`, `batch_vecmat`, `mmt4d` and `batch_mmt4d`. xDSL's
  `linalg.matmul` builds its hidden region with one element type for all
  operands (so `i8 x i8 -> i32` fails to verify) and crashes on the
  `indexing_maps = [...]` form, and xDSL has none of the others. Every
  contraction derives from `ContractionOp`, which answers `get_indexing_maps()`
  and `get_iterator_types()` whether or not the maps were spelled out;
* `linalg.transpose`, `broadcast` and `reduce`, redefined because xDSL prints
  `ins(%a:tensor<...>)` where MLIR prints `ins(%a : tensor<...>)` and because
  MLIR's verifier messages differ from xDSL's.

Named ops carry a hidden region that spells out their scalar computation in
`arith`, exactly as MLIR builds it, so `--mlir-print-op-generic` output
re-parses and `linalg-generalize-named-ops` can turn any of them into a
`linalg.generic`.

Verifier messages are MLIR's, word for word (types quoted the way MLIR's
diagnostics quote them); the driver adds MLIR's `'linalg.xxx' op` prefix.
"""

from __future__ import annotations

import functools
from abc import ABC
from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar, cast

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    DenseArrayBase,
    DenseIntElementsAttr,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ShapedType,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.dialects.linalg import ops as xdsl_linalg
from xdsl.dialects.linalg.abstract_ops import ConvOperation, LinalgStructuredOperation, NamedOperation
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.utils import (
    parse_dynamic_index_list_without_types,
    print_dynamic_index_list,
    split_dynamic_index_list,
)
from xdsl.ir import Attribute, Block, Dialect, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    SameVariadicOperandSize,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import HasParent, Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.lexer import Position

from mini_iree.compiler.ir.dense_elements import element_values
from mini_iree.compiler.ir.value_ids import canonical
from mini_iree.compiler.ir.format_printer import operand_groups
from mini_iree.dialects.linalg_elementwise import ElementwiseKindAttr, ElementwiseOp
from mini_iree.dialects.traits import VerifierReadsOnlyItself
from mini_iree.dialects.utils import operand_segment_sizes

# Re-exported so that `from mini_iree.dialects.linalg import GenericOp` works for
# every op of the dialect, ours or xDSL's.
GenericOp = xdsl_linalg.GenericOp
YieldOp = xdsl_linalg.YieldOp
CopyOp = xdsl_linalg.CopyOp


@irdl_op_definition
class IndexOp(IRDLOperation):
    """`linalg.index 1 : index`: the index of a loop of the enclosing linalg op.

    xDSL's op with MLIR's verifier: the loop must exist (a dim past the last loop
    would reach the passes and the interpreter).
    """

    name = "linalg.index"

    dim = prop_def(IntegerAttr[i64])
    result = result_def(IndexType)

    traits = traits_def(HasParent(GenericOp))

    assembly_format = "$dim attr-dict `:` type($result)"

    def __init__(self, dim: int):
        super().__init__(properties={"dim": IntegerAttr(dim, i64)}, result_types=[IndexType()])

    def verify_(self) -> None:
        dim = self.dim.value.data
        if dim < 0:
            raise VerifyException(
                "attribute 'dim' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 0"
            )
        parent = self.parent_op()
        if isinstance(parent, GenericOp) and dim >= (loops := len(parent.iterator_types.data)):
            raise VerifyException(
                f"expected dim ({dim}) to be lower than the number of loops ({loops}) of the enclosing LinalgOp"
            )

# ---------------------------------------------------------------------------------------
# Hidden bodies of named ops, built once per signature
# ---------------------------------------------------------------------------------------

# The hidden body of a named op depends only on the op's class and its operand
# types, and a program has thousands of `linalg.fill`/`linalg.matmul` ops but
# few signatures: each body is built once through the ops' constructors and
# copied for the others. Keys hold types (immutable), values unattached blocks
# nobody else sees.
_BODY_TEMPLATES: dict[tuple[Attribute | type, ...], Block] = {}
_BODY_TEMPLATES_LIMIT = 4096


def _copy_body(template: Block) -> Region:
    """A fresh region holding a copy of ``template``, whose ops have no regions.

    The copies get what the constructors gave the template's ops (operands,
    result types, properties, attributes, name hints), built with ``create``,
    which skips the constructors' argument processing.
    """
    block = Block(arg_types=[arg.type for arg in template.args])
    values: dict[SSAValue, SSAValue] = {}
    for old, new in zip(template.args, block.args):
        new.name_hint = old.name_hint
        values[old] = new
    ops: list[Operation] = []
    for op in template.ops:
        copy = type(op).create(
            operands=[values[v] for v in op.operands],
            result_types=[r.type for r in op.results],
            properties=op.properties,
            attributes=op.attributes,
        )
        for old, new in zip(op.results, copy.results):
            new.name_hint = old.name_hint
            values[old] = new
        ops.append(copy)
    block.add_ops(ops)
    return Region(block)


def hidden_body(key: tuple[Attribute | type, ...], build: Callable[[], Region]) -> Region:
    """The body ``build`` makes for the signature ``key``, built once and then copied."""
    template = _BODY_TEMPLATES.get(key)
    if template is None:
        region = build()
        block = region.blocks.first
        if block is None or block.next_block is not None or any(op.regions or op.successors for op in block.ops):
            return region
        if len(_BODY_TEMPLATES) >= _BODY_TEMPLATES_LIMIT:
            _BODY_TEMPLATES.clear()
        # The first one built stays the template; the caller gets a copy.
        template = _BODY_TEMPLATES[key] = block
    return _copy_body(template)


def create_named_op(
    cls: type[NamedOperation],
    inputs: Sequence[SSAValue],
    outputs: Sequence[SSAValue],
    result_types: Sequence[Attribute],
    properties: Mapping[str, Attribute],
    attributes: Mapping[str, Attribute],
    body: Region,
) -> Operation:
    """The op ``cls.build(operands=[inputs, outputs], result_types=[result_types],
    properties=..., attributes=..., regions=[body])`` makes, without the IRDL
    constructor's argument processing (parsers build thousands of these)."""
    # As the IRDL constructor: the segment sizes go last, or replace one given.
    properties = {**properties, "operandSegmentSizes": operand_segment_sizes(len(inputs), len(outputs))}
    return cls.create(
        operands=[*inputs, *outputs],
        result_types=result_types,
        properties=properties,
        attributes=attributes,
        regions=[body],
    )


class FillOp(xdsl_linalg.FillOp):
    """xDSL's ``linalg.fill``, whose hidden body (``linalg.yield %in``) is copied
    from one built per signature (``hidden_body``)."""

    # (not an IRDL definition of its own: its traits are xDSL's class's, and one more)
    traits = lazy_traits_def(lambda: (*xdsl_linalg.FillOp.traits, VerifierReadsOnlyItself()))

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        key = (cls, *(v.type for v in inputs), None, *(v.type for v in outputs))  # type: ignore[misc]
        return hidden_body(key, lambda: super(FillOp, cls).get_hidden_region(inputs, outputs))

    @classmethod
    def build(cls, *, operands=None, result_types=None, attributes=None, properties=None, successors=None, regions=None):  # type: ignore[override]
        # xDSL's `NamedOperation.parse` builds the op with exactly these
        # arguments: `(ins, outs)`, `(result types,)`, one fresh body, no None
        # values. Anything else takes the IRDL constructor.
        if (
            successors is None
            and operands is not None
            and len(operands) == 2
            and result_types is not None
            and len(result_types) == 1
            and regions is not None
            and len(regions) == 1
            and isinstance(regions[0], Region)
            and regions[0].parent is None
        ):
            inputs, outputs = operands
            types = result_types[0]
            if (
                isinstance(inputs, Sequence)
                and isinstance(outputs, Sequence)
                and isinstance(types, Sequence)
                and all(isinstance(v, SSAValue) for v in (*inputs, *outputs))
                and None not in (properties or {}).values()
                and None not in (attributes or {}).values()
            ):
                return create_named_op(cls, inputs, outputs, types, properties or {}, attributes or {}, regions[0])
        return super().build(
            operands=operands,
            result_types=result_types,
            attributes=attributes,
            properties=properties,
            successors=successors,
            regions=regions,
        )

    def print(self, printer: Printer) -> None:
        # xDSL's `NamedOperation.print`, reading `ins` and `outs` once: each of
        # its six reads decodes the segment sizes again.
        groups = operand_groups(self)
        if groups is None:
            super().print(printer)
            return
        inputs, outputs = groups
        extra_attrs = {**self.attributes, **self.properties}
        for name in (
            "indexing_maps",
            "linalg.memoized_indexing_maps",
            "iterator_types",
            "doc",
            "library_call",
            "operandSegmentSizes",
        ):
            extra_attrs.pop(name, None)
        if extra_attrs and self.PRINT_ATTRS_IN_FRONT:
            printer.print_op_attributes(extra_attrs)
        print_ins_outs(printer, inputs, outputs)
        if extra_attrs and not self.PRINT_ATTRS_IN_FRONT:
            printer.print_string(" attrs = ")
            printer.print_op_attributes(extra_attrs)
        results = self.results
        if results:
            printer.print_string(" -> ")
            if len(results) == 1:
                printer.print_attribute(results[0].type)
            else:
                with printer.in_parens():
                    printer.print_list(results, lambda res: printer.print_attribute(res.type))

# ---------------------------------------------------------------------------------------
# Small helpers on types and integer lists
# ---------------------------------------------------------------------------------------


def element_type_or_self(ty: Attribute) -> Attribute:
    """The element type of a tensor or memref; any other type stands for itself."""
    if isinstance(ty, TensorType | MemRefType):
        return cast(ShapedType, ty).get_element_type()
    return ty


def _shape(ty: Attribute) -> tuple[int, ...]:
    """The static shape of a shaped type; scalars are rank 0."""
    if isinstance(ty, ShapedType):
        return tuple(ty.get_shape())
    return ()


def _quoted(ty: Attribute) -> str:
    """A type as MLIR's diagnostics print it: between single quotes."""
    return f"'{ty}'"


def _i64_array(values: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, values)


def _constant_int(value: int | SSAValue) -> int | None:
    """The integer an index is known to hold: a static entry, or an `arith.constant`.

    Mirrors MLIR's `getConstantIntValue` on an `OpFoldResult`.
    """
    if isinstance(value, int):
        return value
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def is_permutation(values: Sequence[int]) -> bool:
    """True when `values` holds each of `0..len(values)-1` exactly once."""
    return sorted(values) == list(range(len(values)))


def invert_permutation(perm: Sequence[int]) -> list[int]:
    inverse = [0] * len(perm)
    for position, value in enumerate(perm):
        inverse[value] = position
    return inverse


def apply_permutation(values: Sequence[int], perm: Sequence[int]) -> list[int]:
    """`result[i] = values[perm[i]]`, MLIR's `applyPermutationToVector`."""
    return [values[p] for p in perm]


def _is_strictly_increasing(values: Sequence[int]) -> bool:
    return all(a < b for a, b in zip(values, values[1:]))


def _is_function_of_dim(expr: AffineExpr, position: int) -> bool:
    return position in expr.used_dims()


# ---------------------------------------------------------------------------------------
# Shared syntax: `ins(%a, %b : T, U) outs(%c : V) -> V`
# ---------------------------------------------------------------------------------------


def _parse_operand_group(parser: Parser, keyword: str) -> list[SSAValue]:
    """Parse an optional `keyword(%a, %b : T, U)` group into resolved operands."""
    if parser.parse_optional_keyword(keyword) is None:
        return []
    parser.parse_punctuation("(")
    pos = parser.pos
    names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    if len(names) != len(types):
        parser.raise_error(f"{len(names)} operands present, but expected {len(types)}", pos)
    return [parser.resolve_operand(name, ty) for name, ty in zip(names, types, strict=True)]


def parse_ins_outs(parser: Parser) -> tuple[list[SSAValue], list[SSAValue]]:
    """Parse MLIR's optional `ins(...)` and `outs(...)` groups of structured ops."""
    inputs = _parse_operand_group(parser, "ins")
    outputs = _parse_operand_group(parser, "outs")
    return inputs, outputs


def print_ins_outs(printer: Printer, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> None:
    """Print ` ins(%a, %b : T, U) outs(%c : V)`, leaving out empty groups like MLIR."""
    for keyword, values in (("ins", inputs), ("outs", outputs)):
        if not values:
            continue
        printer.print_string(f" {keyword}(")
        printer.print_list(values, printer.print_ssa_value)
        printer.print_string(" : ")
        printer.print_list([v.type for v in values], printer.print_attribute)
        printer.print_string(")")


def parse_optional_arrow_type_list(parser: Parser) -> list[Attribute]:
    """Parse MLIR's optional `-> T` or `-> (T, U)` result list."""
    if parser.parse_optional_punctuation("->") is None:
        return []
    types = parser.parse_optional_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
    if types is not None:
        return types
    return [parser.parse_type()]


def _parse_generic(cls: type[GenericOp], parser: Parser) -> GenericOp:
    """xDSL's `linalg.generic` syntax, with MLIR's `-> (T1, T2)` for several results.

    xDSL 0.74 reads the results as a bare comma list, so `-> (tensor<..>, tensor<..>)`
    (as MLIR prints a multi-result generic) fails to parse there.
    """
    start = parser.pos
    attrs = dict(parser.parse_optional_attr_dict())
    end = parser.pos
    maps = attrs.pop("indexing_maps", None)
    if not isinstance(maps, ArrayAttr):
        parser.raise_error("Expected indexing_maps for linalg.generic", start, end)
    iterators = attrs.pop("iterator_types", None)
    if not isinstance(iterators, ArrayAttr):
        parser.raise_error("Expected iterator_types for linalg.generic", start, end)
    iterator_types: list[IteratorTypeAttr] = []
    for iterator in iterators.data:
        if isinstance(iterator, StringAttr):
            iterator = IteratorTypeAttr(IteratorType(iterator.data))
        if not isinstance(iterator, IteratorTypeAttr):
            parser.raise_error(f"Unknown iterator type {iterator}", start, end)
        iterator_types.append(iterator)
    doc = attrs.pop("doc", None)
    library_call = attrs.pop("library_call", None)
    inputs, outputs = parse_ins_outs(parser)
    if parser.parse_optional_keyword("attrs") is not None:
        parser.parse_punctuation("=")
        attrs |= parser.expect(parser.parse_optional_attr_dict, "expect extra attributes")
    body = parser.parse_region()
    results = parse_optional_arrow_type_list(parser)
    # xDSL also takes (and older tests write) a bare list: `-> tensor<..>, tensor<..>`.
    while results and parser.parse_optional_punctuation(",") is not None:
        results.append(parser.parse_type())
    op = cls(inputs, outputs, body, maps, ArrayAttr(iterator_types), results, doc, library_call)
    op.attributes |= attrs
    return op


GenericOp.parse = classmethod(_parse_generic)  # type: ignore[method-assign]


def print_optional_arrow_type_list(printer: Printer, types: Sequence[Attribute]) -> None:
    if not types:
        return
    printer.print_string(" -> ")
    if len(types) == 1:
        printer.print_attribute(types[0])
        return
    with printer.in_parens():
        printer.print_list(types, printer.print_attribute)


def _print_dense_i64_array(printer: Printer, name: str, values: Sequence[int]) -> None:
    # MLIR's printDenseI64ArrayAttr leaves a space after the closing bracket, so a
    # `linalg.transpose` line ends in `permutation = [1, 0] `.
    printer.print_string(f" {name} = [{', '.join(str(v) for v in values)}] ")


def _parse_dense_i64_array(parser: Parser, name: str) -> list[int]:
    parser.parse_keyword(name)
    parser.parse_punctuation("=")
    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)


# ---------------------------------------------------------------------------------------
# Shared verification: MLIR's DestinationStyleOpInterface, IndexingMapOpInterface and
# LinalgStructuredInterface verifiers
# ---------------------------------------------------------------------------------------


def verify_destination_style(inits: Sequence[SSAValue], results: Sequence[SSAValue], first_init_index: int) -> None:
    """Each tensor init is tied to one result of the same type; memref inits to none."""
    tensor_inits: list[tuple[int, SSAValue]] = []
    for offset, init in enumerate(inits):
        if isinstance(init.type, TensorType):
            tensor_inits.append((first_init_index + offset, init))
        elif not isinstance(init.type, MemRefType):
            raise VerifyException(f"expected that operand #{first_init_index + offset} is a tensor or a memref")
    num_tensor_results = sum(1 for r in results if isinstance(r.type, TensorType))
    if num_tensor_results != len(tensor_inits):
        raise VerifyException(
            f"expected the number of tensor results ({num_tensor_results}) to be equal "
            f"to the number of output tensors ({len(tensor_inits)})"
        )
    for (index, init), result in zip(tensor_inits, results):
        if result.type != init.type:
            raise VerifyException(
                f"expected type of operand #{index} ({_quoted(init.type)}) to match type of "
                f"corresponding result ({_quoted(result.type)})"
            )


def _loops_to_shapes_map(maps: Sequence[AffineMap]) -> AffineMap:
    num_dims = max((m.num_dims for m in maps), default=0)
    return AffineMap(num_dims, 0, tuple(e for m in maps for e in m.results))


@functools.lru_cache(maxsize=256)
def _shapes_to_loops(maps: tuple[AffineMap, ...]) -> tuple[AffineMap, AffineMap | None]:
    # Every op of a kind has the same maps: invert them once.
    loops_to_shapes = _loops_to_shapes_map(maps)
    return loops_to_shapes, loops_to_shapes.inverse_permutation()


def verify_indexing_maps(operands: Sequence[SSAValue], maps: Sequence[AffineMap]) -> None:
    """MLIR's IndexingMapOpInterface verifier: maps agree with the operand shapes.

    The loop ranges are read off the operand shapes through the inverse of the
    concatenated maps; when all of them are static, every operand dimension is
    checked against the range its map reaches.
    """
    if len(maps) != len(operands):
        raise VerifyException(
            f"expected the number of indexing_map ({len(maps)}) to be equal to the "
            f"number of input/output operands ({len(operands)})"
        )
    for index, indexing_map in enumerate(maps):
        if indexing_map.num_symbols:
            raise VerifyException(f"unexpected symbols in indexing_map #{index}")
    loops_to_shapes, shapes_to_loops = _shapes_to_loops(tuple(maps))
    if shapes_to_loops is None:
        raise VerifyException(f"invalid indexing maps are non-invertible: ({loops_to_shapes})")

    num_loops = loops_to_shapes.num_dims
    for index, (operand, indexing_map) in enumerate(zip(operands, maps, strict=True)):
        if indexing_map.num_dims != num_loops:
            raise VerifyException(
                f"expected indexing_map #{index} to have {num_loops} dim(s) to match the number of loops"
            )
        rank = len(_shape(operand.type))
        if len(indexing_map.results) != rank:
            raise VerifyException(
                f"expected operand rank ({rank}) to match the result rank of indexing_map "
                f"#{index} ({len(indexing_map.results)})"
            )

    all_sizes = [size for operand in operands for size in _shape(operand.type)]
    loop_ranges = shapes_to_loops.eval(all_sizes, [])
    # A dynamic loop range makes every inferred size unknown: nothing to check.
    if any(r == DYNAMIC_INDEX for r in loop_ranges):
        return
    ends = [r - 1 for r in loop_ranges]
    starts = [0] * len(loop_ranges)
    for index, (operand, indexing_map) in enumerate(zip(operands, maps, strict=True)):
        first = indexing_map.eval(starts, [])
        last = indexing_map.eval(ends, [])
        for dim, size in enumerate(_shape(operand.type)):
            if size == DYNAMIC_INDEX or size == 0:
                continue
            if min(first[dim], last[dim]) < 0:
                raise VerifyException(f"unexpected result less than 0 at expression #{dim} in {indexing_map}")
            inferred = max(first[dim], last[dim]) + 1
            if isinstance(indexing_map.results[dim], AffineDimExpr):
                if inferred != size:
                    raise VerifyException(
                        f"inferred input/output operand #{index} has shape's dimension #{dim} "
                        f"to be {inferred}, but found {size}"
                    )
            elif inferred > size:
                raise VerifyException(
                    f"inferred input/output operand #{index} has shape's dimension #{dim} "
                    f"to be greater than or equal to {inferred}, but found {size}"
                )


def _verify_yield(body: Region, outputs: Sequence[SSAValue]) -> None:
    """MLIR's `linalg.yield` verifier, run from the enclosing op."""
    block = body.blocks.first
    if block is None or not isinstance(terminator := block.last_op, YieldOp):
        return
    if len(terminator.operands) != len(outputs):
        raise VerifyException(
            f"expected number of yield values ({len(terminator.operands)}) to match the number "
            f"of inits / outs operands of the enclosing LinalgOp ({len(outputs)})"
        )
    for index, (value, output) in enumerate(zip(terminator.operands, outputs)):
        expected = element_type_or_self(output.type)
        if value.type != expected:
            raise VerifyException(
                f"type of yield operand {index + 1} ({_quoted(value.type)}) doesn't match the "
                f"element type of the enclosing linalg.generic op ({_quoted(expected)})"
            )


def verify_structured_op(
    inputs: Sequence[SSAValue],
    outputs: Sequence[SSAValue],
    results: Sequence[SSAValue],
    body: Region,
    maps: Sequence[AffineMap],
    num_loops: int,
) -> None:
    """Everything MLIR checks on any LinalgOp after its own verifier ran.

    In MLIR's order: the yield, destination-style ties between inits and
    results, pure tensor or buffer semantics, the indexing maps against the
    shapes, and the region's block arguments against the element types.
    """
    operands = [*inputs, *outputs]
    _verify_yield(body, outputs)
    verify_destination_style(outputs, results, len(inputs))
    shaped = [o.type for o in operands if isinstance(o.type, ShapedType)]
    if any(isinstance(t, TensorType) for t in shaped) and any(isinstance(t, MemRefType) for t in shaped):
        raise VerifyException("expected to have pure tensor or buffer semantics")
    verify_indexing_maps(operands, maps)
    for index, indexing_map in enumerate(maps):
        if indexing_map.num_dims != num_loops:
            raise VerifyException(
                f"expected indexing_map #{index} to have {num_loops} dim(s) to match the number of loops"
            )
    block = body.blocks.first
    if block is None or block.next_block is not None:
        raise VerifyException("expects to have 1 region with 1 block")
    if len(block.args) != len(operands):
        raise VerifyException(
            "expected as many non-induction variable region arguments as the number of input/output operands"
        )
    for index, (operand, arg) in enumerate(zip(operands, block.args)):
        expected = element_type_or_self(operand.type)
        if arg.type != expected:
            raise VerifyException(
                f"expected type of bb argument #{index} ({_quoted(arg.type)}) to match element "
                f"or self type of the corresponding operand ({_quoted(expected)})"
            )


# ---------------------------------------------------------------------------------------
# Hidden regions: scalar casts and multiply-accumulate
# ---------------------------------------------------------------------------------------


def build_scalar_cast(value: SSAValue, to_type: Attribute) -> tuple[list[Operation], SSAValue]:
    """Convert a scalar to `to_type` like MLIR's `cast_signed` type function.

    Integers are sign-extended or truncated, floats extended or truncated,
    and integer/float conversions are signed. Returns the ops to insert and
    the converted value (the value itself when no cast is needed).
    """
    from_type = value.type
    if from_type == to_type:
        return [], value
    if isinstance(to_type, IntegerType):
        if isinstance(from_type, AnyFloat):
            op = arith.FPToSIOp(value, to_type)
            return [op], op.result
        if isinstance(from_type, IndexType):
            op = arith.IndexCastOp(value, to_type)
            return [op], op.result
        if isinstance(from_type, IntegerType):
            if to_type.bitwidth > from_type.bitwidth:
                op = arith.ExtSIOp(value, to_type)
                return [op], op.result
            if to_type.bitwidth < from_type.bitwidth:
                op = arith.TruncIOp(value, to_type)
                return [op], op.result
            return [], value
    if isinstance(to_type, AnyFloat):
        if isinstance(from_type, IntegerType):
            op = arith.SIToFPOp(value, to_type)
            return [op], op.result
        if isinstance(from_type, AnyFloat):
            # Equal widths (bf16 and f16) have no conversion, as in MLIR.
            if to_type.bitwidth > from_type.bitwidth:
                op = arith.ExtFOp(value, to_type)
                return [op], op.result
            if to_type.bitwidth < from_type.bitwidth:
                op = arith.TruncFOp(value, to_type)
                return [op], op.result
            return [], value
    raise ValueError(f"could not cast operand of type {_quoted(from_type)} to {_quoted(to_type)}")


def _multiply_add(lhs: SSAValue, rhs: SSAValue, acc: SSAValue) -> list[Operation]:
    """`acc + lhs * rhs` in the accumulator's type; `i1` uses and/or like MLIR."""
    ty = acc.type
    if isinstance(ty, AnyFloat):
        mul: Operation = arith.MulfOp(lhs, rhs)
        add: Operation = arith.AddfOp(acc, mul.results[0])
    elif ty == IntegerType(1):
        mul = arith.AndIOp(lhs, rhs)
        add = arith.OrIOp(acc, mul.results[0])
    elif isinstance(ty, IntegerType | IndexType):
        mul = arith.MuliOp(lhs, rhs)
        add = arith.AddiOp(acc, mul.results[0])
    else:
        raise ValueError(f"unsupported accumulator type {_quoted(ty)}")
    return [mul, add]


def _named_block(types: Sequence[Attribute], names: Sequence[str]) -> Block:
    block = Block(arg_types=types)
    for arg, name in zip(block.args, names, strict=True):
        arg.name_hint = name
    return block


def build_multiply_accumulate_region(operand_types: Sequence[Attribute]) -> Region:
    """The body of every contraction: `out += cast(lhs) * cast(rhs)`.

    Both inputs are first cast to the accumulator's element type (`arith.extsi`
    for `i8 -> i32`, `arith.extf` for `f16 -> f32`...), then multiplied and
    added to the accumulator, in the order MLIR's region builder emits them.
    """
    if len(operand_types) != 3:
        raise ValueError(
            f"[parseNamedStructuredOpRegion] ods-gen generated region expects 3 args, got {len(operand_types)}"
        )
    block = _named_block([element_type_or_self(t) for t in operand_types], ["in", "in", "out"])
    lhs, rhs, acc = block.args
    lhs_ops, lhs_value = build_scalar_cast(lhs, acc.type)
    rhs_ops, rhs_value = build_scalar_cast(rhs, acc.type)
    body = [*lhs_ops, *rhs_ops, *_multiply_add(lhs_value, rhs_value, acc)]
    block.add_ops([*body, YieldOp(body[-1].results[0])])
    return Region(block)


def _build_identity_region(inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
    """A body yielding its first argument, as `linalg.transpose`/`broadcast` use."""
    block = _named_block(
        [element_type_or_self(v.type) for v in (*inputs, *outputs)],
        ["in"] * len(inputs) + ["init"] * len(outputs),
    )
    if block.args:
        block.add_op(YieldOp(block.args[0]))
    return Region(block)


# ---------------------------------------------------------------------------------------
# Contractions
# ---------------------------------------------------------------------------------------


def _maps(num_dims: int, *results: Sequence[int]) -> tuple[AffineMap, ...]:
    return tuple(AffineMap(num_dims, 0, tuple(AffineExpr.dimension(d) for d in r)) for r in results)


_P = IteratorType.PARALLEL
_R = IteratorType.REDUCTION


# The iterator types of each contraction class, as an attribute (built once).
_ITERATOR_TYPES: dict[type, ArrayAttr[IteratorTypeAttr]] = {}

# ContractionOp._verification_key of each contraction that verified (types and
# attributes are immutable, so the same objects verify the same way again).
_VERIFIED_CONTRACTIONS: dict[tuple[int, ...], list[object]] = {}
_VERIFIED_CONTRACTIONS_LIMIT = 4096


class ContractionOp(NamedOperation, ABC):
    """Base of the named contractions: `ins(lhs, rhs) outs(acc)` with a hidden
    multiply-accumulate body.

    Passes ask any contraction for its iteration space with
    `get_indexing_maps()` / `get_indexing_maps_array()` and
    `get_iterator_types()`; ops that accept `indexing_maps = [...]` return the
    user's maps, the others their fixed defaults.

    Derives from xDSL's `NamedOperation` so that xDSL's structured-op utilities
    (and `linalg-generalize-named-ops`) see these ops as named linalg ops.
    """

    DEFAULT_INDEXING_MAPS: ClassVar[tuple[AffineMap, ...]]
    ITERATOR_TYPES: ClassVar[tuple[IteratorType, ...]]

    def __init__(
        self,
        inputs: Sequence[SSAValue | Operation],
        outputs: Sequence[SSAValue | Operation],
        result_types: Sequence[Attribute] | None = None,
        *,
        properties: Mapping[str, Attribute | None] | None = None,
        attributes: Mapping[str, Attribute | None] | None = None,
    ):
        ins = [SSAValue.get(v) for v in inputs]
        outs = [SSAValue.get(v) for v in outputs]
        if result_types is None:
            result_types = [o.type for o in outs if isinstance(o.type, TensorType)]
        IRDLOperation.__init__(
            self,
            operands=[ins, outs],
            result_types=[result_types],
            properties=properties,
            attributes=attributes,
            regions=[self.get_hidden_region(ins, outs)],
        )

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        types = [v.type for v in (*inputs, *outputs)]
        return hidden_body((ContractionOp, *types), lambda: build_multiply_accumulate_region(types))

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return self.DEFAULT_INDEXING_MAPS

    def get_indexing_maps_array(self) -> list[AffineMap]:
        """The indexing maps of lhs, rhs and acc, as plain `AffineMap`s."""
        return [m.data for m in self.get_indexing_maps()]

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        known = _ITERATOR_TYPES.get(type(self))
        if known is None:
            known = _ITERATOR_TYPES[type(self)] = ArrayAttr(IteratorTypeAttr(t) for t in self.ITERATOR_TYPES)
        return known

    # Syntax shared by every named structured op.

    @classmethod
    def _parse_indexing_maps(cls, parser: Parser) -> ArrayAttr[AffineMapAttr] | None:
        return None

    def _print_indexing_maps(self, printer: Printer) -> None:
        return None

    @classmethod
    def parse(cls, parser: Parser) -> ContractionOp:
        indexing_maps = cls._parse_indexing_maps(parser)
        attributes = parser.parse_optional_attr_dict()
        pos = parser.pos
        inputs, outputs = parse_ins_outs(parser)
        result_types = parse_optional_arrow_type_list(parser)
        try:
            region = cls.get_hidden_region(inputs, outputs)
        except ValueError as error:
            parser.raise_error(str(error), pos)
        properties: dict[str, Attribute] = {}
        if indexing_maps is not None:
            properties["indexing_maps"] = indexing_maps
        return create_named_op(cls, inputs, outputs, result_types, properties, attributes, region)  # type: ignore[return-value]

    def print(self, printer: Printer) -> None:
        # Both groups at once: each accessor decodes the segment sizes again.
        groups = operand_groups(self)
        inputs, outputs = groups if groups is not None else (self.inputs, self.outputs)
        self._print_indexing_maps(printer)
        printer.print_op_attributes(self.attributes)
        print_ins_outs(printer, inputs, outputs)
        print_optional_arrow_type_list(printer, self.res.types)

    def verify_contraction_maps(self) -> None:
        """Op-specific checks of user-provided indexing maps (MLIR's `verify()`)."""

    def verify_(self) -> None:
        # Ops of a program share a few signatures, and verify-each asks again
        # after every pass: a signature that verified once verifies again.
        key = self._verification_key()
        if key is not None and key[0] in _VERIFIED_CONTRACTIONS:
            return
        self.verify_contraction_maps()
        verify_structured_op(
            self.inputs,
            self.outputs,
            self.res,
            self.body,
            self.get_indexing_maps_array(),
            len(self.ITERATOR_TYPES),
        )
        if key is not None:
            if len(_VERIFIED_CONTRACTIONS) >= _VERIFIED_CONTRACTIONS_LIMIT:
                _VERIFIED_CONTRACTIONS.clear()
            _VERIFIED_CONTRACTIONS[key[0]] = key[1]

    def _verification_key(self) -> tuple[tuple[int, ...], list[object]] | None:
        """Everything ``verify_`` reads, as ids of canonical objects (see
        ``value_ids.canonical``), and those objects (kept alive with the ids,
        so that no other object takes an id meanwhile).

        The class, the properties (the maps, and the operand segment sizes
        giving the input count), the operand and result types, the body's
        block arguments and its terminator's kind and operand types. None when
        the body is not one block (never cached).
        """
        block = self.body.blocks.first
        if block is None or block.next_block is not None:
            return None
        terminator = block.last_op
        objects: list[object] = [type(self), type(terminator)]
        for name, value in self.properties.items():
            objects += (name, value)
        objects += [v.type for v in self.operands]
        objects.append(None)
        objects += [v.type for v in self.results]
        objects.append(None)
        objects += [a.type for a in block.args]
        objects.append(None)
        if terminator is not None:
            objects += [v.type for v in terminator.operands]
        # Equal types built by different passes share one key.
        objects = [canonical(o) for o in objects]
        return tuple(map(id, objects)), objects


# The default indexing maps of each contraction class, as an attribute.
_DEFAULT_MAPS: dict[type, ArrayAttr[AffineMapAttr]] = {}


class _UserMapsContractionOp(ContractionOp, ABC):
    """A contraction whose maps may be given as `indexing_maps = [...]`.

    The `indexing_maps` property is only set when the maps differ from the
    op's defaults; `get_indexing_maps()` fills the defaults in. (MLIR always
    stores them, but an unprinted property would still get a `#map` alias line
    from our printer, which collects aliases from the IR rather than from the
    printed text.)
    """

    indexing_maps = opt_prop_def(ArrayAttr[AffineMapAttr])

    def __init__(
        self,
        inputs: Sequence[SSAValue | Operation],
        outputs: Sequence[SSAValue | Operation],
        result_types: Sequence[Attribute] | None = None,
        *,
        indexing_maps: Sequence[AffineMap] | ArrayAttr[AffineMapAttr] | None = None,
        attributes: Mapping[str, Attribute | None] | None = None,
    ):
        if indexing_maps is not None and not isinstance(indexing_maps, ArrayAttr):
            indexing_maps = ArrayAttr(AffineMapAttr(m) for m in indexing_maps)
        super().__init__(
            inputs,
            outputs,
            result_types,
            properties={"indexing_maps": self._non_default(indexing_maps)},
            attributes=attributes,
        )

    @classmethod
    def _non_default(cls, maps: ArrayAttr[AffineMapAttr] | None) -> ArrayAttr[AffineMapAttr] | None:
        if maps is None or tuple(m.data for m in maps) == cls.DEFAULT_INDEXING_MAPS:
            return None
        return maps

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        if self.indexing_maps is None:
            # Attributes are immutable: every op of the class can share one.
            known = _DEFAULT_MAPS.get(type(self))
            if known is None:
                known = _DEFAULT_MAPS[type(self)] = ArrayAttr(AffineMapAttr(m) for m in self.DEFAULT_INDEXING_MAPS)
            return known
        return self.indexing_maps

    def get_indexing_maps_array(self) -> list[AffineMap]:
        # The defaults without building their attributes: the verifier asks for every op.
        if self.indexing_maps is None:
            return list(self.DEFAULT_INDEXING_MAPS)
        return [m.data for m in self.indexing_maps]

    def has_user_defined_maps(self) -> bool:
        return self.indexing_maps is not None and tuple(self.get_indexing_maps_array()) != self.DEFAULT_INDEXING_MAPS

    @classmethod
    def _parse_indexing_maps(cls, parser: Parser) -> ArrayAttr[AffineMapAttr] | None:
        if parser.parse_optional_keyword("indexing_maps") is None:
            return None
        parser.parse_punctuation("=")
        attr = parser.parse_attribute()
        if not isinstance(attr, ArrayAttr) or not all(
            isinstance(m, AffineMapAttr) for m in cast(ArrayAttr[Attribute], attr)
        ):
            parser.raise_error("element of indexing_maps array is not an affine_map")
        return cls._non_default(cast(ArrayAttr[AffineMapAttr], attr))

    def _print_indexing_maps(self, printer: Printer) -> None:
        if self.has_user_defined_maps():
            printer.print_string(" indexing_maps = ")
            printer.print_attribute(self.get_indexing_maps())


@irdl_op_definition
class MatmulOp(_UserMapsContractionOp):
    """Matrix multiplication, with optional transposed or broadcast operands.

    `C[m, n] += cast(A[m, k]) * cast(B[k, n])`; inputs are sign-extended (or
    float-extended) to the accumulator's element type, so `i8 x i8 -> i32` and
    `f16 x f16 -> f32` are plain matmuls.

    Redefined rather than reused: xDSL's builds its hidden region with one
    element type for all operands, so mixed precision fails to verify, and it
    raises an `IndexError` on the `indexing_maps = [...]` form.

    ```mlir
    %0 = linalg.matmul ins(%a, %b : tensor<?x?xi8>, tensor<?x?xi8>)
                       outs(%c : tensor<?x?xi32>) -> tensor<?x?xi32>
    %1 = linalg.matmul indexing_maps = [#map, #map1, #map2]
                       ins(%a, %bt : tensor<4x8xf32>, tensor<16x8xf32>)
                       outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    ```

    See https://mlir.llvm.org/docs/Dialects/Linalg/#linalgmatmul-linalgmatmulop.
    """

    name = "linalg.matmul"

    traits = traits_def(VerifierReadsOnlyItself(reads_entry_terminators=True))

    DEFAULT_INDEXING_MAPS: ClassVar[tuple[AffineMap, ...]] = _maps(3, (0, 2), (2, 1), (0, 1))
    ITERATOR_TYPES: ClassVar[tuple[IteratorType, ...]] = (_P, _P, _R)

    def verify_contraction_maps(self) -> None:
        maps = self.get_indexing_maps_array()
        if len(maps) != 3 or not self.has_user_defined_maps():
            return
        for op_map, default_map in zip(maps[:2], self.DEFAULT_INDEXING_MAPS):
            if not set(op_map.results) <= set(default_map.results):
                raise VerifyException("Unexpected dim expression in map result.")
            if len(op_map.results) < len(default_map.results):
                # A broadcast operand must still be indexed by the reduction dim.
                if len(op_map.results) != 1 or not _is_function_of_dim(op_map.results[0], op_map.num_dims - 1):
                    raise VerifyException("Invalid broadcast requested, should be (d2).")


@irdl_op_definition
class BatchMatmulOp(_UserMapsContractionOp):
    """Batched matrix multiplication: `C[b, m, n] += cast(A[b, m, k]) * cast(B[b, k, n])`.

    ```mlir
    %0 = linalg.batch_matmul ins(%a, %b : tensor<2x?x?xf16>, tensor<2x?x?xf16>)
                             outs(%c : tensor<2x?x?xf32>) -> tensor<2x?x?xf32>
    ```

    See https://mlir.llvm.org/docs/Dialects/Linalg/#linalgbatch_matmul-linalgbatchmatmulop.
    """

    name = "linalg.batch_matmul"

    DEFAULT_INDEXING_MAPS: ClassVar[tuple[AffineMap, ...]] = _maps(4, (0, 1, 3), (0, 3, 2), (0, 1, 2))
    ITERATOR_TYPES: ClassVar[tuple[IteratorType, ...]] = (_P, _P, _P, _R)

    @staticmethod
    def _is_valid_broadcast(bcast: AffineMap, is_lhs: bool) -> bool:
        batch, m, n, k = 0, 1, 2, 3
        results = bcast.results
        if len(results) == 1:
            return _is_function_of_dim(results[0], k)
        if len(results) == 2:
            e0, e1 = results
            if is_lhs:
                return (_is_function_of_dim(e0, batch) or _is_function_of_dim(e0, m)) and _is_function_of_dim(e1, k)
            return (_is_function_of_dim(e0, batch) and _is_function_of_dim(e1, k)) or (
                _is_function_of_dim(e0, k) and _is_function_of_dim(e1, n)
            )
        return False

    def verify_contraction_maps(self) -> None:
        if not self.has_user_defined_maps():
            return
        maps = self.get_indexing_maps_array()
        if len(maps) != 3:
            raise VerifyException("Indexing_map attribute must have 3 affine maps.")
        for index, (op_map, default_map) in enumerate(zip(maps, self.DEFAULT_INDEXING_MAPS)):
            if index == 2:
                if len(op_map.results) != 3:
                    raise VerifyException(f"expects 3 dims, but got ({len(op_map.results)}).")
                if not all(_is_function_of_dim(e, d) for d, e in enumerate(op_map.results)):
                    raise VerifyException("Invalid output map result dimension.")
                continue
            if not set(op_map.results) <= set(default_map.results):
                raise VerifyException(
                    "Unexpected result dim expression (outside the set of default result dims)."
                )
            if len(op_map.results) > 3:
                raise VerifyException("no. of result dim expressions exceeds 3.")
            if len(op_map.results) < len(default_map.results):
                if not self._is_valid_broadcast(op_map, index == 0):
                    raise VerifyException("Invalid broadcast requested.")
            elif not _is_function_of_dim(op_map.results[0], 0):
                raise VerifyException("Invalid batch dimension expression.")


@irdl_op_definition
class MatvecOp(ContractionOp):
    """Matrix-vector product: `x[m] += cast(A[m, n]) * cast(y[n])`.

    ```mlir
    %0 = linalg.matvec ins(%a, %y : tensor<4x8xf32>, tensor<8xf32>)
                       outs(%x : tensor<4xf32>) -> tensor<4xf32>
    ```

    See https://mlir.llvm.org/docs/Dialects/Linalg/#linalgmatvec-linalgmatvecop.
    """

    name = "linalg.matvec"

    DEFAULT_INDEXING_MAPS: ClassVar[tuple[AffineMap, ...]] = _maps(2, (0, 1), (1,), (0,))
    ITERATOR_TYPES: ClassVar[tuple[IteratorType, ...]] = (_P, _R)


@irdl_op_definition
class VecmatOp(ContractionOp):
    """Vector-matrix product: `x[n] += cast(y[m]) * cast(A[m, n])`.

    ```mlir
    %0 = linalg.vecmat ins(%y, %a : tensor<4xf32>, tensor<4x8xf32>)
                       outs(%x : tensor<8xf32>) -> tensor<8xf32>
    ```

    See https://mlir.llvm.org/docs/Dialects/Linalg/#linalgvecmat-linalgvecmatop.
    """

    name = "linalg.vecmat"

    DEFAULT_INDEXING_MAPS: ClassVar[tuple[AffineMap, ...]] = _maps(2, (1,), (1, 0), (0,))
    ITERATOR_TYPES: ClassVar[tuple[IteratorType, ...]] = (_P, _R)


@irdl_op_definition
class BatchMatvecOp(ContractionOp):
    """Batched matrix-vector product: `C[b, m] += cast(A[b, m, k]) * cast(B[b, k])`.

    ```mlir
    %0 = linalg.batch_matvec ins(%a, %y : tensor<2x4x8xf32>, tensor<2x8xf32>)
                             outs(%x : tensor<2x4xf32>) -> tensor<2x4xf32>
    ```

    See https://mlir.llvm.org/docs/Dialects/Linalg/#linalgbatch_matvec-linalgbatchmatvecop.
    """

    name = "linalg.batch_matvec"

    DEFAULT_INDEXING_MAPS: ClassVar[tuple[AffineMap, ...]] = _maps(3, (0, 1, 2), (0, 2), (0, 1))
    ITERATOR_TYPES: ClassVar[tuple[IteratorType, ...]] = (_P, _P, _R)


@irdl_op_definition
class BatchVecmatOp(ContractionOp):
    """Batched vector-matrix product: `C[b, n] += cast(A[b, k]) * cast(B[b, k, n])`.

    ```mlir
    %0 = linalg.batch_vecmat ins(%y, %a : tensor<2x4xf32>, tensor<2x4x8xf32>)
                             outs(%x : tensor<2x8xf32>) -> tensor<2x8xf32>
    ```

    See https://mlir.llvm.org/docs/Dialects/Linalg/#linalgbatch_vecmat-linalgbatchvecmatop.
    """

    name = "linalg.batch_vecmat"

    DEFAULT_INDEXING_MAPS: ClassVar[tuple[AffineMap, ...]] = _maps(3, (0, 2), (0, 2, 1), (0, 1))
    ITERATOR_TYPES: ClassVar[tuple[IteratorType, ...]] = (_P, _P, _R)


@irdl_op_definition
class Mmt4DOp(ContractionOp):
    """Matmul on packed 4-D operands, the op data tiling lowers matmuls to.

    With loops `(m, n, k, m0, n0, k0)`:
    `acc[m, n, m0, n0] += cast(lhs[m, k, m0, k0]) * cast(rhs[n, k, n0, k0])`.
    The rhs is stored transposed (`N x K` tiles), so both inputs read their
    inner tiles along `k0`.

    ```mlir
    %0 = linalg.mmt4d ins(%lhs, %rhs : tensor<?x?x8x1xf32>, tensor<?x?x8x1xf32>)
                      outs(%acc : tensor<?x?x8x8xf32>) -> tensor<?x?x8x8xf32>
    ```

    See https://mlir.llvm.org/docs/Dialects/Linalg/#linalgmmt4d-linalgmmt4dop.
    """

    name = "linalg.mmt4d"

    DEFAULT_INDEXING_MAPS: ClassVar[tuple[AffineMap, ...]] = _maps(6, (0, 2, 3, 5), (1, 2, 4, 5), (0, 1, 3, 4))
    ITERATOR_TYPES: ClassVar[tuple[IteratorType, ...]] = (_P, _P, _R, _P, _P, _R)


@irdl_op_definition
class BatchMmt4DOp(ContractionOp):
    """`linalg.mmt4d` with a leading batch dimension on all three operands.

    With loops `(b, m, n, k, m0, n0, k0)`:
    `acc[b, m, n, m0, n0] += cast(lhs[b, m, k, m0, k0]) * cast(rhs[b, n, k, n0, k0])`.

    ```mlir
    %0 = linalg.batch_mmt4d ins(%lhs, %rhs : tensor<2x?x?x8x1xf32>, tensor<2x?x?x8x1xf32>)
                            outs(%acc : tensor<2x?x?x8x8xf32>) -> tensor<2x?x?x8x8xf32>
    ```

    See https://mlir.llvm.org/docs/Dialects/Linalg/#linalgbatch_mmt4d-linalgbatchmmt4dop.
    """

    name = "linalg.batch_mmt4d"

    DEFAULT_INDEXING_MAPS: ClassVar[tuple[AffineMap, ...]] = _maps(7, (0, 1, 3, 4, 6), (0, 2, 3, 5, 6), (0, 1, 2, 4, 5))
    ITERATOR_TYPES: ClassVar[tuple[IteratorType, ...]] = (_P, _P, _P, _R, _P, _P, _R)


# ---------------------------------------------------------------------------------------
# Relayout: pack / unpack
# ---------------------------------------------------------------------------------------


def infer_packed_shape(
    unpacked_shape: Sequence[int],
    inner_tiles: Sequence[int],
    inner_dims_pos: Sequence[int],
    outer_dims_perm: Sequence[int] = (),
) -> list[int]:
    """The shape `linalg.pack` produces (MLIR's `PackOp::inferPackedShape`).

    Each tiled dimension `inner_dims_pos[i]` becomes `ceildiv(size, inner_tiles[i])`
    (dynamic if either is), the outer dimensions are permuted by
    `outer_dims_perm`, and the tile sizes are appended. Dynamic sizes and tiles
    are `DYNAMIC_INDEX`. The arithmetic is the layout algebra's (a pack is an
    encoding layout without a swizzle), so the verifier and every pass agree.
    """
    from mini_iree.compiler.layout.shapes import packed_shape

    shape = tuple(None if size == DYNAMIC_INDEX else size for size in unpacked_shape)
    tiles = tuple(None if tile == DYNAMIC_INDEX else tile for tile in inner_tiles)
    return [DYNAMIC_INDEX if size is None else size for size in packed_shape(shape, inner_dims_pos, tiles, outer_dims_perm)]


def infer_packed_type(
    unpacked_type: TensorType[Attribute],
    inner_tiles: Sequence[int],
    inner_dims_pos: Sequence[int],
    outer_dims_perm: Sequence[int] = (),
) -> TensorType[Attribute]:
    """The tensor type `linalg.pack` produces from `unpacked_type`.

    The encoding is dropped, as in MLIR's `PackOp::inferPackedTensorType`.
    """
    shape = infer_packed_shape(unpacked_type.get_shape(), inner_tiles, inner_dims_pos, outer_dims_perm)
    return TensorType(unpacked_type.get_element_type(), shape)


def _is_invalid_packing_pos_spec(dims: Sequence[int], rank: int) -> bool:
    """Duplicates, out-of-range entries, or more entries than the rank."""
    if len(dims) > rank or len(set(dims)) != len(dims):
        return True
    return any(d < 0 or d >= rank for d in dims)


class _RelayoutOp(IRDLOperation, ABC):
    """What `linalg.pack` and `linalg.unpack` share: tiles, permutations, verifier."""

    outer_dims_perm = opt_prop_def(DenseArrayBase.constr(i64))
    inner_dims_pos = prop_def(DenseArrayBase.constr(i64))
    static_inner_tiles = prop_def(DenseArrayBase.constr(i64))

    traits = traits_def(Pure())

    @property
    def _source(self) -> SSAValue:
        return self.operands[0]

    @property
    def _dest(self) -> SSAValue:
        return self.operands[1]

    def _dynamic_tiles(self) -> Sequence[SSAValue]:
        raise NotImplementedError

    def _unpacked_type(self) -> TensorType[Attribute]:
        raise NotImplementedError

    def _packed_type(self) -> TensorType[Attribute]:
        raise NotImplementedError

    def get_outer_dims_perm(self) -> tuple[int, ...]:
        """The outer permutation, empty when the op has none."""
        return () if self.outer_dims_perm is None else self.outer_dims_perm.get_values()

    def get_inner_dims_pos(self) -> tuple[int, ...]:
        return self.inner_dims_pos.get_values()

    def get_static_tiles(self) -> tuple[int, ...]:
        """The tile sizes, `DYNAMIC_INDEX` where a tile is an SSA value."""
        return self.static_inner_tiles.get_values()

    def get_mixed_tiles(self) -> list[int | SSAValue]:
        """The tile sizes, each an `int` or the SSA value giving it."""
        dynamic = iter(self._dynamic_tiles())
        return [next(dynamic) if t == DYNAMIC_INDEX else t for t in self.get_static_tiles()]

    def get_dim_and_tile_mapping(self) -> dict[int, int | SSAValue]:
        """Unpacked dimension -> its tile size."""
        return dict(zip(self.get_inner_dims_pos(), self.get_mixed_tiles()))

    def _verify_common(self) -> None:
        """MLIR's `commonVerifierPackAndUnPackOp`, after the result/dest type tie."""
        if self.results[0].type != self._dest.type:
            raise VerifyException("failed to verify that result type matches type of dest")
        num_dynamic = sum(1 for t in self.get_static_tiles() if t == DYNAMIC_INDEX)
        if num_dynamic != len(self._dynamic_tiles()):
            raise VerifyException(
                f"expected {num_dynamic} dynamic inner_tiles values, got {len(self._dynamic_tiles())}"
            )
        mixed_tiles = self.get_mixed_tiles()
        if any(_constant_int(t) == 0 for t in mixed_tiles):
            raise VerifyException("invalid zero tile factor")

        unpacked_type = self._unpacked_type()
        unpacked_rank = unpacked_type.get_num_dims()
        inner_dims_pos = self.get_inner_dims_pos()
        outer_dims_perm = self.get_outer_dims_perm()
        if _is_invalid_packing_pos_spec(inner_dims_pos, unpacked_rank):
            raise VerifyException("invalid inner_dims_pos vector")
        if _is_invalid_packing_pos_spec(outer_dims_perm, unpacked_rank):
            raise VerifyException("invalid outer_dims_perm vector")
        if outer_dims_perm and len(outer_dims_perm) != unpacked_rank:
            raise VerifyException("outer_dims_perm must be a permutation or empty")
        if len(mixed_tiles) > unpacked_rank:
            raise VerifyException(
                "tiling factors must be less than or equal to the input rank for pack or output rank for unpack"
            )
        if len(mixed_tiles) != len(inner_dims_pos):
            raise VerifyException("tiling factors must equal the number of dimensions to tile")

        packed_type = self._packed_type()
        packed_shape = packed_type.get_shape()
        expected_rank = unpacked_rank + len(mixed_tiles)
        if len(packed_shape) != expected_rank:
            raise VerifyException(
                f"packed rank != (unpacked rank + num tiling factors), got {len(packed_shape)} != {expected_rank}"
            )

        expected_shape = infer_packed_shape(
            unpacked_type.get_shape(), self.get_static_tiles(), inner_dims_pos, outer_dims_perm
        )
        # A static tile must be the static size of its packed dimension; an SSA
        # tile needs a dynamic one.
        tile_dims = packed_shape[len(packed_shape) - len(mixed_tiles) :]
        for size, tile in zip(tile_dims, mixed_tiles):
            if (size != tile) if isinstance(tile, int) else (size != DYNAMIC_INDEX):
                raise VerifyException(
                    "mismatch in inner tile sizes specified and shaped of tiled dimension in the packed type"
                )
        if any(a != b and DYNAMIC_INDEX not in (a, b) for a, b in zip(expected_shape, packed_shape)):
            element_type = unpacked_type.get_element_type()
            expected = TensorType(element_type, expected_shape)
            actual = TensorType(element_type, packed_shape)
            raise VerifyException(
                f"expected {_quoted(expected)} for the packed domain value, got {_quoted(actual)}"
            )

    # Syntax: `[outer_dims_perm = [..]] inner_dims_pos = [..] inner_tiles = [..] into %dest`

    @staticmethod
    def _parse_layout(
        parser: Parser,
    ) -> tuple[list[int] | None, list[int], Sequence[UnresolvedOperand], Sequence[int], UnresolvedOperand]:
        outer_dims_perm = None
        if parser.parse_optional_keyword("outer_dims_perm") is not None:
            parser.parse_punctuation("=")
            outer_dims_perm = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)
        inner_dims_pos = _parse_dense_i64_array(parser, "inner_dims_pos")
        parser.parse_keyword("inner_tiles")
        parser.parse_punctuation("=")
        dynamic_tiles, static_tiles = parse_dynamic_index_list_without_types(parser, DYNAMIC_INDEX)
        parser.parse_keyword("into")
        dest = parser.parse_unresolved_operand()
        return outer_dims_perm, inner_dims_pos, dynamic_tiles, static_tiles, dest

    @staticmethod
    def _parse_types(parser: Parser) -> tuple[Attribute, Attribute]:
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        if parser.parse_optional_punctuation("->") is None:
            parser.raise_error("pack/unpack requires '->' and destination type")
        return source_type, parser.parse_type()

    def _print_layout_and_types(self, printer: Printer) -> None:
        if outer_dims_perm := self.get_outer_dims_perm():
            printer.print_string(f" outer_dims_perm = [{', '.join(map(str, outer_dims_perm))}]")
        printer.print_string(f" inner_dims_pos = [{', '.join(map(str, self.get_inner_dims_pos()))}]")
        printer.print_string(" inner_tiles = ")
        print_dynamic_index_list(printer, DYNAMIC_INDEX, self._dynamic_tiles(), self.get_static_tiles())
        printer.print_string(" into ")
        printer.print_operand(self._dest)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self._source.type)
        printer.print_string(" -> ")
        printer.print_attribute(self._dest.type)


def _relayout_properties(
    inner_dims_pos: Sequence[int],
    inner_tiles: Sequence[int | SSAValue],
    outer_dims_perm: Sequence[int] | None,
) -> tuple[dict[str, Attribute | None], list[SSAValue]]:
    static_tiles, dynamic_tiles = split_dynamic_index_list(inner_tiles, DYNAMIC_INDEX)
    properties: dict[str, Attribute | None] = {
        "inner_dims_pos": _i64_array(inner_dims_pos),
        "static_inner_tiles": _i64_array(static_tiles),
        "outer_dims_perm": _i64_array(outer_dims_perm) if outer_dims_perm else None,
    }
    return properties, dynamic_tiles


@irdl_op_definition
class PackOp(_RelayoutOp):
    """Tile a tensor into a higher-rank packed layout, padding partial tiles.

    Source dimension `inner_dims_pos[i]` is tiled by `inner_tiles[i]`; the tile
    dimensions are appended in that order, and the outer dimensions are then
    permuted by `outer_dims_perm`. Partial tiles are filled with
    `padding_value`; without one they are undefined behavior, rejected when
    the shapes show it statically.

    ```mlir
    %pack = linalg.pack %src padding_value(%cst : f32) outer_dims_perm = [0, 1]
        inner_dims_pos = [0, 1] inner_tiles = [128, 16]
        into %dest : tensor<?x?xf32> -> tensor<?x?x128x16xf32>
    ```

    See https://mlir.llvm.org/docs/Dialects/Linalg/#linalgpack-linalgpackop.
    """

    name = "linalg.pack"

    source = operand_def(TensorType)
    dest = operand_def(TensorType)
    padding_value = opt_operand_def()
    inner_tiles = var_operand_def(IndexType)
    result = result_def(TensorType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def asm_result_names(self) -> list[str]:
        """The result name MLIR's OpAsmOpInterface gives (`%pack`, `%pack_0`...)."""
        return ["pack"]

    def __init__(
        self,
        source: SSAValue | Operation,
        dest: SSAValue | Operation,
        inner_dims_pos: Sequence[int],
        inner_tiles: Sequence[int | SSAValue],
        padding_value: SSAValue | Operation | None = None,
        outer_dims_perm: Sequence[int] | None = None,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        properties, dynamic_tiles = _relayout_properties(inner_dims_pos, inner_tiles, outer_dims_perm)
        dest = SSAValue.get(dest)
        super().__init__(
            operands=[source, dest, [] if padding_value is None else [padding_value], dynamic_tiles],
            result_types=[dest.type],
            properties=properties,
            attributes=attributes,
        )

    def _dynamic_tiles(self) -> Sequence[SSAValue]:
        return self.inner_tiles

    def _unpacked_type(self) -> TensorType[Attribute]:
        return cast(TensorType[Attribute], self.source.type)

    def _packed_type(self) -> TensorType[Attribute]:
        return cast(TensorType[Attribute], self.dest.type)

    def require_padding_value(self) -> bool:
        """True when the shapes show a partial tile, which needs `padding_value`.

        MLIR's `PackOp::requirePaddingValue`: a static source dimension that a
        constant tile does not divide, or (for an SSA tile) that its static
        outer size does not divide.
        """
        source_shape = self.source.type.get_shape()
        outer_sizes = list(self.dest.type.get_shape()[: len(source_shape)])
        if perm := self.get_outer_dims_perm():
            outer_sizes = apply_permutation(outer_sizes, invert_permutation(perm))
        for pos, tile in zip(self.get_inner_dims_pos(), self.get_mixed_tiles()):
            size = source_shape[pos]
            if size == DYNAMIC_INDEX:
                continue
            constant = _constant_int(tile)
            if constant is None:
                outer = outer_sizes[pos]
                if outer not in (DYNAMIC_INDEX, 0) and size % outer != 0:
                    return True
            elif size % constant != 0:
                return True
        return False

    def verify_(self) -> None:
        self._verify_common()
        source_element = self.source.type.get_element_type()
        if self.padding_value is not None and self.padding_value.type != source_element:
            raise VerifyException(
                f"expected padding_value has {_quoted(source_element)} but got: {_quoted(self.padding_value.type)}"
            )
        if self.padding_value is None and self.require_padding_value():
            raise VerifyException(
                "invalid tile factor or output size provided. Only full tiles are "
                "supported when padding_value is not set"
            )

    @classmethod
    def parse(cls, parser: Parser) -> PackOp:
        source = parser.parse_unresolved_operand()
        padding = None
        if parser.parse_optional_keyword("padding_value") is not None:
            parser.parse_punctuation("(")
            padding_name = parser.parse_unresolved_operand()
            parser.parse_punctuation(":")
            padding = parser.resolve_operand(padding_name, parser.parse_type())
            parser.parse_punctuation(")")
        outer, inner_pos, dynamic_names, static_tiles, dest = cls._parse_layout(parser)
        attributes = parser.parse_optional_attr_dict()
        source_type, dest_type = cls._parse_types(parser)
        dynamic_tiles = [parser.resolve_operand(t, IndexType()) for t in dynamic_names]
        return cls.build(
            operands=[
                parser.resolve_operand(source, source_type),
                parser.resolve_operand(dest, dest_type),
                [] if padding is None else [padding],
                dynamic_tiles,
            ],
            result_types=[dest_type],
            properties={
                "inner_dims_pos": _i64_array(inner_pos),
                "static_inner_tiles": _i64_array(static_tiles),
                **({} if outer is None else {"outer_dims_perm": _i64_array(outer)}),
            },
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        if self.padding_value is not None:
            printer.print_string(" padding_value(")
            printer.print_operand(self.padding_value)
            printer.print_string(" : ")
            printer.print_attribute(self.padding_value.type)
            printer.print_string(")")
        self._print_layout_and_types(printer)


@irdl_op_definition
class UnPackOp(_RelayoutOp):
    """The inverse of `linalg.pack`: gather tiles back, dropping the padding.

    `inner_dims_pos` and `outer_dims_perm` are read as in the `linalg.pack`
    that produced the source; the destination may be smaller than the tiles
    cover, and the elements beyond it are discarded.

    ```mlir
    %unpack = linalg.unpack %src outer_dims_perm = [0, 1] inner_dims_pos = [0, 1]
        inner_tiles = [128, 128] into %dest : tensor<?x?x128x128xf32> -> tensor<?x?xf32>
    ```

    See https://mlir.llvm.org/docs/Dialects/Linalg/#linalgunpack-linalgunpackop.
    """

    name = "linalg.unpack"

    source = operand_def(TensorType)
    dest = operand_def(TensorType)
    inner_tiles = var_operand_def(IndexType)
    result = result_def(TensorType)

    def asm_result_names(self) -> list[str]:
        """The result name MLIR's OpAsmOpInterface gives (`%unpack`, `%unpack_0`...)."""
        return ["unpack"]

    def __init__(
        self,
        source: SSAValue | Operation,
        dest: SSAValue | Operation,
        inner_dims_pos: Sequence[int],
        inner_tiles: Sequence[int | SSAValue],
        outer_dims_perm: Sequence[int] | None = None,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        properties, dynamic_tiles = _relayout_properties(inner_dims_pos, inner_tiles, outer_dims_perm)
        dest = SSAValue.get(dest)
        super().__init__(
            operands=[source, dest, dynamic_tiles],
            result_types=[dest.type],
            properties=properties,
            attributes=attributes,
        )

    def _dynamic_tiles(self) -> Sequence[SSAValue]:
        return self.inner_tiles

    def _unpacked_type(self) -> TensorType[Attribute]:
        return cast(TensorType[Attribute], self.dest.type)

    def _packed_type(self) -> TensorType[Attribute]:
        return cast(TensorType[Attribute], self.source.type)

    def verify_(self) -> None:
        self._verify_common()

    @classmethod
    def parse(cls, parser: Parser) -> UnPackOp:
        source = parser.parse_unresolved_operand()
        outer, inner_pos, dynamic_names, static_tiles, dest = cls._parse_layout(parser)
        attributes = parser.parse_optional_attr_dict()
        source_type, dest_type = cls._parse_types(parser)
        dynamic_tiles = [parser.resolve_operand(t, IndexType()) for t in dynamic_names]
        return cls.build(
            operands=[
                parser.resolve_operand(source, source_type),
                parser.resolve_operand(dest, dest_type),
                dynamic_tiles,
            ],
            result_types=[dest_type],
            properties={
                "inner_dims_pos": _i64_array(inner_pos),
                "static_inner_tiles": _i64_array(static_tiles),
                **({} if outer is None else {"outer_dims_perm": _i64_array(outer)}),
            },
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        self._print_layout_and_types(printer)


# ---------------------------------------------------------------------------------------
# transpose / broadcast / reduce
# ---------------------------------------------------------------------------------------


class _DstStyleOp(LinalgStructuredOperation, ABC):
    """Ops spelled `ins(...) outs(...) <name> = [...] {attrs}` with results
    inferred from the tensor inits (MLIR's `parseDstStyleOp`).

    They keep xDSL's `inputs`/`outputs`/`res`/`body` field names so xDSL's
    structured-op utilities work on them.
    """

    inputs = var_operand_def(ShapedType)
    outputs = var_operand_def(ShapedType)

    irdl_options = (SameVariadicOperandSize(),)

    ARRAY_NAME: ClassVar[str]

    def _array(self) -> tuple[int, ...]:
        return cast(DenseArrayBase, self.properties[self.ARRAY_NAME]).get_values()

    @classmethod
    def _parse_dst_style(cls, parser: Parser) -> tuple[list[SSAValue], list[SSAValue], list[int], dict[str, Attribute]]:
        leading = parser.parse_optional_attr_dict()
        inputs, outputs = parse_ins_outs(parser)
        values = _parse_dense_i64_array(parser, cls.ARRAY_NAME)
        return inputs, outputs, values, {**leading, **parser.parse_optional_attr_dict()}

    def _print_dst_style(self, printer: Printer) -> None:
        print_ins_outs(printer, self.inputs, self.outputs)
        _print_dense_i64_array(printer, self.ARRAY_NAME, self._array())
        printer.print_op_attributes(self.attributes)

    def _verify_single_input_and_init(self) -> None:
        if len(self.inputs) != 1:
            raise VerifyException(f"expected 2 operands, but found {len(self.operands)}")

    def _verify_sorted(self) -> None:
        if not _is_strictly_increasing(self._array()):
            raise VerifyException(
                f"attribute '{self.ARRAY_NAME}' failed to satisfy constraint: "
                "i64 dense array attribute should be in increasing order"
            )

    def _verify_structured(self) -> None:
        verify_structured_op(
            self.inputs,
            self.outputs,
            self.res,
            self.body,
            [m.data for m in self.get_indexing_maps()],
            len(self.get_iterator_types()),
        )


@irdl_op_definition
class TransposeOp(_DstStyleOp):
    """Permute the dimensions of a tensor: `init[i] = input[permutation[i]]`.

    Redefined rather than reused: xDSL's prints `ins(%a:tensor<..>)` without
    MLIR's spaces around `:` and drops the attribute dictionary.

    ```mlir
    %transposed = linalg.transpose ins(%a : tensor<4x8xf32>)
        outs(%b : tensor<8x4xf32>) permutation = [1, 0]
    ```

    See https://mlir.llvm.org/docs/Dialects/Linalg/#linalgtranspose-linalgtransposeop.
    """

    name = "linalg.transpose"

    permutation = prop_def(DenseArrayBase.constr(i64))

    ARRAY_NAME: ClassVar[str] = "permutation"

    def asm_result_names(self) -> list[str]:
        """The result name MLIR's OpAsmOpInterface gives (`%transposed`, `%transposed_0`...)."""
        return ["transposed"]

    def __init__(
        self,
        input: SSAValue | Operation,
        init: SSAValue | Operation,
        permutation: Sequence[int] | DenseArrayBase,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        init = SSAValue.get(init)
        input = SSAValue.get(input)
        if not isinstance(permutation, DenseArrayBase):
            permutation = _i64_array(permutation)
        super().__init__(
            operands=[[input], [init]],
            result_types=[[init.type] if isinstance(init.type, TensorType) else []],
            properties={"permutation": permutation},
            attributes=attributes,
            regions=[_build_identity_region([input], [init])],
        )

    @property
    def input(self) -> SSAValue:
        return self.inputs[0]

    @property
    def init(self) -> SSAValue:
        return self.outputs[0]

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        perm = self._array()
        rank = len(_shape(self.init.type))
        input_map = AffineMap(len(perm), 0, tuple(AffineExpr.dimension(d) for d in invert_permutation(perm)))
        return ArrayAttr([AffineMapAttr(input_map), AffineMapAttr(AffineMap.identity(rank))])

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return ArrayAttr([IteratorTypeAttr.parallel()] * len(_shape(self.init.type)))

    def verify_(self) -> None:
        self._verify_single_input_and_init()
        perm = self._array()
        if not is_permutation(perm):
            raise VerifyException("permutation is not valid")
        input_shape, init_shape = _shape(self.input.type), _shape(self.init.type)
        if len(input_shape) != len(init_shape):
            raise VerifyException(f"input rank {len(input_shape)} does not match init rank {len(init_shape)}")
        if len(perm) != len(input_shape):
            raise VerifyException(
                f"size of permutation {len(perm)} does not match the argument rank {len(input_shape)}"
            )
        for i, p in enumerate(perm):
            if input_shape[p] != init_shape[i]:
                raise VerifyException(
                    f"dim(result, {i}) = {init_shape[i]} doesn't match dim(input, permutation[{i}]) = {input_shape[p]}"
                )
        self._verify_structured()

    @classmethod
    def parse(cls, parser: Parser) -> TransposeOp:
        inputs, outputs, perm, attributes = cls._parse_dst_style(parser)
        return cls.build(
            operands=[inputs, outputs],
            result_types=[[o.type for o in outputs if isinstance(o.type, TensorType)]],
            properties={"permutation": _i64_array(perm)},
            attributes=attributes,
            regions=[_build_identity_region(inputs, outputs)],
        )

    def print(self, printer: Printer) -> None:
        self._print_dst_style(printer)


@irdl_op_definition
class BroadcastOp(_DstStyleOp):
    """Broadcast a tensor by inserting the `dimensions` of the init.

    Redefined rather than reused: xDSL's prints `ins(%a:tensor<..>)` without
    MLIR's spaces around `:` and drops the attribute dictionary.

    ```mlir
    %broadcasted = linalg.broadcast ins(%v : tensor<4xf32>)
        outs(%t : tensor<4x8xf32>) dimensions = [1]
    ```

    See https://mlir.llvm.org/docs/Dialects/Linalg/#linalgbroadcast-linalgbroadcastop.
    """

    name = "linalg.broadcast"

    dimensions = prop_def(DenseArrayBase.constr(i64))

    ARRAY_NAME: ClassVar[str] = "dimensions"

    def asm_result_names(self) -> list[str]:
        """The result name MLIR's OpAsmOpInterface gives (`%broadcasted`, `%broadcasted_0`...)."""
        return ["broadcasted"]

    def __init__(
        self,
        input: SSAValue | Operation,
        init: SSAValue | Operation,
        dimensions: Sequence[int] | DenseArrayBase,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        init = SSAValue.get(init)
        input = SSAValue.get(input)
        if not isinstance(dimensions, DenseArrayBase):
            dimensions = _i64_array(dimensions)
        super().__init__(
            operands=[[input], [init]],
            result_types=[[init.type] if isinstance(init.type, TensorType) else []],
            properties={"dimensions": dimensions},
            attributes=attributes,
            regions=[_build_identity_region([input], [init])],
        )

    @property
    def input(self) -> SSAValue:
        return self.inputs[0]

    @property
    def init(self) -> SSAValue:
        return self.outputs[0]

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        rank = len(_shape(self.init.type))
        dims = set(self._array())
        input_map = AffineMap(rank, 0, tuple(AffineExpr.dimension(d) for d in range(rank) if d not in dims))
        return ArrayAttr([AffineMapAttr(input_map), AffineMapAttr(AffineMap.identity(rank))])

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return ArrayAttr([IteratorTypeAttr.parallel()] * len(_shape(self.init.type)))

    def verify_(self) -> None:
        self._verify_single_input_and_init()
        self._verify_sorted()
        dims = self._array()
        input_shape, init_shape = _shape(self.input.type), _shape(self.init.type)
        if len(input_shape) + len(dims) != len(init_shape):
            raise VerifyException(
                "input rank plus added dimensions does not match init rank. "
                f"input rank: {len(input_shape)}, dimensions size: {len(dims)}, init rank: {len(init_shape)}"
            )
        for index, dim in enumerate(dims):
            if dim < 0 or dim >= len(init_shape):
                raise VerifyException(
                    f"dimension {index} is out of range. expected range: [0, {len(init_shape) - 1}], got: {dim}"
                )
        kept = [d for d in range(len(init_shape)) if d not in dims]
        for input_dim, init_dim in enumerate(kept):
            if input_shape[input_dim] != init_shape[init_dim]:
                raise VerifyException(
                    f"input dim {input_dim} should match init dim {init_dim}. "
                    f"input: {input_shape[input_dim]}, init: {init_shape[init_dim]}"
                )
        self._verify_structured()

    @classmethod
    def parse(cls, parser: Parser) -> BroadcastOp:
        inputs, outputs, dims, attributes = cls._parse_dst_style(parser)
        return cls.build(
            operands=[inputs, outputs],
            result_types=[[o.type for o in outputs if isinstance(o.type, TensorType)]],
            properties={"dimensions": _i64_array(dims)},
            attributes=attributes,
            regions=[_build_identity_region(inputs, outputs)],
        )

    def print(self, printer: Printer) -> None:
        self._print_dst_style(printer)


def _default_properties(op_type: type[Operation]) -> dict[str, Attribute]:
    if not issubclass(op_type, IRDLOperation):
        return {}
    return {
        name: prop.default_value
        for name, prop in op_type.get_irdl_definition().properties.items()
        if prop.default_value is not None
    }


@irdl_op_definition
class ReduceOp(_DstStyleOp):
    """Reduce `dimensions` of the inputs into the inits with a combiner region.

    Redefined rather than reused: xDSL's prints `ins(%a:tensor<..>)`, accepts a
    single input only and has no short `{ arith.addf }` form.

    ```mlir
    %reduced = linalg.reduce { arith.addf } ins(%t : tensor<4x8xf32>)
        outs(%v : tensor<4xf32>) dimensions = [1]
    %reduced_0 = linalg.reduce ins(%t : tensor<4x8xf32>) outs(%v : tensor<4xf32>) dimensions = [1]
      (%in: f32, %init: f32) {
        %0 = arith.maximumf %in, %init : f32
        linalg.yield %0 : f32
      }
    ```

    See https://mlir.llvm.org/docs/Dialects/Linalg/#linalgreduce-linalgreduceop.
    """

    name = "linalg.reduce"

    dimensions = prop_def(DenseArrayBase.constr(i64))

    ARRAY_NAME: ClassVar[str] = "dimensions"

    def asm_result_names(self) -> list[str]:
        """The result name MLIR's OpAsmOpInterface gives (`%reduced`, `%reduced_0`...)."""
        return ["reduced"]

    def __init__(
        self,
        inputs: Sequence[SSAValue | Operation],
        inits: Sequence[SSAValue | Operation],
        dimensions: Sequence[int] | DenseArrayBase,
        body: Region,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        ins = [SSAValue.get(v) for v in inputs]
        outs = [SSAValue.get(v) for v in inits]
        if not isinstance(dimensions, DenseArrayBase):
            dimensions = _i64_array(dimensions)
        super().__init__(
            operands=[ins, outs],
            result_types=[[o.type for o in outs if isinstance(o.type, TensorType)]],
            properties={"dimensions": dimensions},
            attributes=attributes,
            regions=[body],
        )

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        rank = len(_shape(self.inputs[0].type)) if self.inputs else 0
        dims = set(self._array())
        identity = AffineMap.identity(rank)
        reduced = AffineMap(rank, 0, tuple(AffineExpr.dimension(d) for d in range(rank) if d not in dims))
        maps = [identity] * len(self.inputs) + [reduced] * len(self.outputs)
        return ArrayAttr(AffineMapAttr(m) for m in maps)

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        rank = len(_shape(self.inputs[0].type)) if self.inputs else 0
        dims = set(self._array())
        return ArrayAttr(
            IteratorTypeAttr.reduction() if d in dims else IteratorTypeAttr.parallel() for d in range(rank)
        )

    def verify_(self) -> None:
        self._verify_sorted()
        dims = self._array()
        input_shapes = [_shape(v.type) for v in self.inputs]
        init_shapes = [_shape(v.type) for v in self.outputs]
        for index, shape in enumerate(input_shapes[1:], start=1):
            if shape != input_shapes[0]:
                raise VerifyException(
                    "expects all inputs to have the same shapes. Shape at input-index "
                    f"{index} is not equal to the shape at input-index 0."
                )
        for index, shape in enumerate(init_shapes[1:], start=1):
            if shape != init_shapes[0]:
                raise VerifyException(
                    "expects all outputs to have the same shapes. Shape at output-index "
                    f"{index} is not equal to the shape at output-index 0."
                )
        if not input_shapes:
            return
        input_dims, init_dims = input_shapes[0], init_shapes[0]
        for dim in dims:
            if dim < 0 or dim >= len(input_dims):
                raise VerifyException(f"dimensions for reduction should be in the range [0, {len(input_dims) - 1}].")
        reduced = [size for d, size in enumerate(input_dims) if d not in dims]
        if len(reduced) != len(init_dims):
            raise VerifyException(
                f"number of dimensions after reduction {len(reduced)} doesn't match the init rank {len(init_dims)}"
            )
        if tuple(reduced) != init_dims:
            raise VerifyException(
                f"init dimensions [{', '.join(map(str, init_dims))}] doesn't match input dimensions "
                f"after reduction [{', '.join(map(str, reduced))}]"
            )
        block = self.body.blocks.first
        if block is None or len(block.args) != len(self.operands):
            raise VerifyException("mismatching number of operands and block arguments")
        for value, arg in zip(self.inputs, block.args):
            element = element_type_or_self(value.type)
            if element != arg.type:
                raise VerifyException(
                    f"input element type {_quoted(element)} does not match corresponding block argument "
                    f"type {_quoted(arg.type)}"
                )
        for value, arg in zip(self.outputs, block.args[len(self.inputs) :]):
            element = element_type_or_self(value.type)
            if element != arg.type:
                raise VerifyException(
                    f"output element type {_quoted(element)} does not match corresponding block argument "
                    f"type {_quoted(arg.type)}"
                )
        self._verify_structured()

    # The short form `{ arith.addf }` stands for a body with one payload op
    # applied to (init, inputs...) and yielded.

    def _short_form_payload(self) -> Operation | None:
        block = self.body.blocks.first
        if block is None or len(block.ops) != 2:
            return None
        payload = block.first_op
        assert payload is not None
        args = block.args
        if not payload.operands or len(payload.operands) != len(args):
            return None
        if payload.operands[-1] != args[0]:
            return None
        if any(operand != arg for operand, arg in zip(payload.operands, args[1:])):
            return None
        terminator = block.last_op
        if not isinstance(terminator, YieldOp) or len(terminator.operands) != 1:
            return None
        if terminator.operands[0].owner is not payload:
            return None
        return payload

    @classmethod
    def _parse_short_form_body(
        cls,
        parser: Parser,
        name: str,
        payload_attrs: dict[str, Attribute],
        operands: Sequence[SSAValue],
        pos: Position,
    ) -> Region:
        op_type = parser.ctx.get_optional_op(name)
        if op_type is None:
            parser.raise_error(f"unregistered operation {name}", pos)
        if not operands:
            parser.raise_error("the short form needs the payload's operands: expected `ins` and `outs`", pos)
        block = _named_block(
            [element_type_or_self(v.type) for v in operands],
            ["in"] * (len(operands) - 1) + ["init"],
        )
        properties_defs = op_type.get_irdl_definition().properties if issubclass(op_type, IRDLOperation) else {}
        properties = {k: v for k, v in payload_attrs.items() if k in properties_defs}
        attributes = {k: v for k, v in payload_attrs.items() if k not in properties_defs}
        payload = op_type.create(
            operands=[block.args[-1], *block.args[:-1]],
            result_types=[element_type_or_self(operands[-1].type)],
            properties={**_default_properties(op_type), **properties},
            attributes=attributes,
        )
        block.add_ops([payload, YieldOp(payload.results[0])])
        return Region(block)

    @classmethod
    def parse(cls, parser: Parser) -> ReduceOp:
        payload_name = None
        payload_attrs: dict[str, Attribute] = {}
        pos = parser.pos
        if parser.parse_optional_punctuation("{") is not None:
            payload_name = parser.parse_identifier()
            payload_attrs = parser.parse_optional_attr_dict()
            parser.parse_punctuation("}")
        inputs, outputs, dims, attributes = cls._parse_dst_style(parser)
        if payload_name is not None:
            body = cls._parse_short_form_body(parser, payload_name, payload_attrs, [*inputs, *outputs], pos)
        else:
            args = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_argument)
            body = parser.parse_region(args)
        return cls.build(
            operands=[inputs, outputs],
            result_types=[[o.type for o in outputs if isinstance(o.type, TensorType)]],
            properties={"dimensions": _i64_array(dims)},
            attributes=attributes,
            regions=[body],
        )

    def print(self, printer: Printer) -> None:
        payload = self._short_form_payload()
        if payload is not None:
            defaults = _default_properties(type(payload))
            shown = {
                **{k: v for k, v in payload.properties.items() if defaults.get(k) != v},
                **payload.attributes,
            }
            printer.print_string(f" {{ {payload.name}")
            printer.print_op_attributes(shown)
            printer.print_string(" }")
        self._print_dst_style(printer)
        if payload is not None:
            return
        block = self.body.block
        with printer.indented():
            printer.print_string("\n(")
            printer.print_list(block.args, printer.print_block_argument)
            printer.print_string(") ")
            printer.print_region(self.body, print_entry_block_args=False)


# ---------------------------------------------------------------------------------------
# Convolutions: strides and dilations default to 1
# ---------------------------------------------------------------------------------------


class _DefaultedConv:
    """A convolution seen with its strides and dilations filled in (MLIR's
    `DefaultValuedOptionalAttr`: absent means 1 in every spatial dim)."""

    _ONES = DenseIntOrFPElementsAttr.from_list(TensorType(i64, [2]), [1, 1])

    def __init__(self, op: Operation):
        self._op = op
        self.strides = _every_element(op.properties.get("strides")) or self._ONES
        self.dilations = _every_element(op.properties.get("dilations")) or self._ONES

    def __getattr__(self, name: str):
        return getattr(self._op, name)


def _every_element(attr: Attribute | None) -> Attribute | None:
    """``attr`` with each element stored: xDSL's convolutions unpack one value per dim,
    and a splat (``dense<2> : tensor<2xi64>``) keeps one."""
    if isinstance(attr, DenseIntOrFPElementsAttr):
        return DenseIntOrFPElementsAttr.from_list(attr.type, element_values(attr))
    return attr


def _conv_with_default_strides(xdsl_op: type) -> type:
    """xDSL's 2-D convolution `xdsl_op` with optional `strides`/`dilations`, as MLIR
    defines them: an op written without them parses, prints without them and has the
    indexing maps of unit strides and dilations."""

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return xdsl_op.get_default_indexing_maps(_DefaultedConv(self))

    def __init__(self, inputs, outputs=(), res=None, attributes=None, *, strides=None, dilations=None):
        NamedOperation.__init__(
            self,
            ins=inputs,
            outs=outputs,
            attributes=attributes,
            result_types=res,
            properties={"strides": strides, "dilations": dilations},
            hidden_region=self.get_hidden_region(inputs, outputs),
        )

    namespace = {
        "name": xdsl_op.name,
        "__doc__": f"`{xdsl_op.name}`; `strides` and `dilations` default to 1.",
        "__module__": __name__,
        "__qualname__": xdsl_op.__name__,
        "strides": opt_prop_def(DenseIntElementsAttr),
        "dilations": opt_prop_def(DenseIntElementsAttr),
        "get_default_indexing_maps": get_default_indexing_maps,
        "__init__": __init__,
    }
    return irdl_op_definition(type(xdsl_op.__name__, (ConvOperation,), namespace))


Conv2DNchwFchwOp = _conv_with_default_strides(xdsl_linalg.Conv2DNchwFchwOp)
Conv2DNhwgcGfhwcOp = _conv_with_default_strides(xdsl_linalg.Conv2DNhwgcGfhwcOp)
Conv2DNhwcHwcfOp = _conv_with_default_strides(xdsl_linalg.Conv2DNhwc_HwcfOp)
Conv2DNgchwGfchwOp = _conv_with_default_strides(xdsl_linalg.Conv2DNgchwGfchwOp)
Conv2DNgchwFgchwOp = _conv_with_default_strides(xdsl_linalg.Conv2DNgchwFgchwOp)
Conv2DNhwcFhwcOp = _conv_with_default_strides(xdsl_linalg.Conv2DNhwc_FhwcOp)


Linalg = Dialect(
    "linalg",
    [
        # Reused from xDSL: they already print like MLIR.
        GenericOp,
        YieldOp,
        IndexOp,
        FillOp,
        CopyOp,
        xdsl_linalg.AddOp,
        xdsl_linalg.SubOp,
        xdsl_linalg.MulOp,
        xdsl_linalg.MaxOp,
        xdsl_linalg.MinOp,
        xdsl_linalg.ExpOp,
        xdsl_linalg.LogOp,
        xdsl_linalg.SqrtOp,
        xdsl_linalg.SelectOp,
        xdsl_linalg.QuantizedMatmulOp,
        xdsl_linalg.PoolingNchwMaxOp,
        # Ours.
        Conv2DNchwFchwOp,
        Conv2DNhwgcGfhwcOp,
        Conv2DNhwcHwcfOp,
        Conv2DNgchwGfchwOp,
        Conv2DNgchwFgchwOp,
        Conv2DNhwcFhwcOp,
        MatmulOp,
        BatchMatmulOp,
        MatvecOp,
        VecmatOp,
        BatchMatvecOp,
        BatchVecmatOp,
        Mmt4DOp,
        BatchMmt4DOp,
        PackOp,
        UnPackOp,
        TransposeOp,
        BroadcastOp,
        ReduceOp,
        ElementwiseOp,
    ],
    [IteratorTypeAttr, ElementwiseKindAttr],
)
