"""``linalg.elementwise``: one structured op for every elementwise function.

    %1 = linalg.elementwise kind=#linalg.elementwise_kind<exp>
        ins(%0 : tensor<640x320xf32>) outs(%init : tensor<640x320xf32>) -> tensor<640x320xf32>

The kind picks the function and its arity (unary, binary, or ``select``); the
hidden body applies it to the block arguments, so passes and the interpreter see
an ordinary structured op (identity indexing maps unless ``indexing_maps = [...]``
says otherwise, all loops parallel).
https://mlir.llvm.org/docs/Dialects/Linalg/#linalgelementwise-linalgelementwiseop
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, FloatAttr, IntegerType, ShapedType, StringAttr
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.abstract_ops import NamedOperation
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import Attribute, BlockArgument, ParametrizedAttribute, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import irdl_attr_definition, irdl_op_definition, opt_prop_def, prop_def
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException


def _float_or_int(float_op: type, int_op: type) -> Callable[..., SSAValue]:
    def build(*args: SSAValue) -> SSAValue:
        op_class = int_op if isinstance(args[-1].type, IntegerType) else float_op
        return op_class(*args).result

    return build


def _reciprocal(x: SSAValue) -> SSAValue:
    one = arith.ConstantOp(FloatAttr(1.0, x.type))  # type: ignore[arg-type]
    return arith.DivfOp(one, x).result


# The kinds of IREE's era (LLVM, Sept 2025), in MLIR's order, with their bodies.
_UNARY: dict[str, Callable[[SSAValue], SSAValue]] = {
    "exp": lambda x: math.ExpOp(x).result,
    "log": lambda x: math.LogOp(x).result,
    "abs": lambda x: math.AbsFOp(x).result,
    "ceil": lambda x: math.CeilOp(x).result,
    "floor": lambda x: math.FloorOp(x).result,
    "negf": lambda x: arith.NegfOp(x).result,
    "reciprocal": _reciprocal,
    "round": lambda x: math.RoundOp(x).result,
    "sqrt": lambda x: math.SqrtOp(x).result,
    "rsqrt": lambda x: math.RsqrtOp(x).result,
    "square": lambda x: arith.MulfOp(x, x).result,
    "tanh": lambda x: math.TanhOp(x).result,
    "erf": lambda x: math.ErfOp(x).result,
}
_BINARY: dict[str, Callable[[SSAValue, SSAValue], SSAValue]] = {
    "add": _float_or_int(arith.AddfOp, arith.AddiOp),
    "sub": _float_or_int(arith.SubfOp, arith.SubiOp),
    "mul": _float_or_int(arith.MulfOp, arith.MuliOp),
    "div": _float_or_int(arith.DivfOp, arith.DivSIOp),
    "div_unsigned": lambda a, b: arith.DivUIOp(a, b).result,
    "max_signed": _float_or_int(arith.MaximumfOp, arith.MaxSIOp),
    "min_signed": _float_or_int(arith.MinimumfOp, arith.MinSIOp),
    "max_unsigned": lambda a, b: arith.MaxUIOp(a, b).result,
    "min_unsigned": lambda a, b: arith.MinUIOp(a, b).result,
    "powf": lambda a, b: math.PowFOp(a, b).result,
}
_TERNARY: dict[str, Callable[[SSAValue, SSAValue, SSAValue], SSAValue]] = {
    "select": lambda c, a, b: arith.SelectOp(c, a, b).result,
}
ELEMENTWISE_KINDS = (*_UNARY, *_BINARY, *_TERNARY)


def kind_arity(kind: str) -> int:
    return 1 if kind in _UNARY else 2 if kind in _BINARY else 3


@irdl_attr_definition(init=False)
class ElementwiseKindAttr(ParametrizedAttribute):
    """`#linalg.elementwise_kind<exp>`: the function a `linalg.elementwise` applies."""

    name = "linalg.elementwise_kind"

    kind: StringAttr

    def __init__(self, kind: str):
        super().__init__(StringAttr(kind))

    def verify(self) -> None:
        if self.kind.data not in ELEMENTWISE_KINDS:
            raise VerifyException(
                f"expected ::mlir::linalg::ElementwiseKind to be one of: {', '.join(ELEMENTWISE_KINDS)}"
            )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            start = parser.pos
            kind = parser.parse_identifier(" elementwise kind")
            if kind not in ELEMENTWISE_KINDS:
                parser.raise_error(
                    f"expected ::mlir::linalg::ElementwiseKind to be one of: {', '.join(ELEMENTWISE_KINDS)}",
                    start,
                    parser.pos,
                )
        return [StringAttr(kind)]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.kind.data}>")


@irdl_op_definition
class ElementwiseOp(NamedOperation):
    """`linalg.elementwise kind=#linalg.elementwise_kind<K> [indexing_maps = [...]] ins(...) outs(...) -> T`."""

    name = "linalg.elementwise"

    kind = prop_def(ElementwiseKindAttr)
    indexing_maps = opt_prop_def(ArrayAttr[AffineMapAttr])

    def __init__(
        self,
        kind: str,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        result_types: Sequence[Attribute] | None = None,
        indexing_maps: Sequence[AffineMap] | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        if result_types is None:
            result_types = [o.type for o in outputs if not _is_memref(o.type)]
        super().__init__(
            ins=inputs,
            outs=outputs,
            result_types=[result_types],
            properties={
                "kind": ElementwiseKindAttr(kind),
                "indexing_maps": None if indexing_maps is None else ArrayAttr(AffineMapAttr(m) for m in indexing_maps),
            },
            attributes=attributes,
            hidden_region=self.build_body(kind, [*inputs, *outputs]),
        )

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        # The body depends on the op's kind, which this class-level hook cannot see.
        raise NotImplementedError("linalg.elementwise builds its body from its kind: use build_body(kind, ...)")

    @staticmethod
    def build_body(kind: str, operands: Sequence[SSAValue]) -> Region:
        arg_types = [t.element_type if isinstance(t, ShapedType) else t for t in (o.type for o in operands)]

        @Builder.implicit_region(arg_types)
        def body(args: tuple[BlockArgument, ...]) -> None:
            if kind in _UNARY:
                value = _UNARY[kind](args[0])
            elif kind in _BINARY:
                value = _BINARY[kind](args[0], args[1])
            else:
                value = _TERNARY[kind](args[0], args[1], args[2])
            YieldOp(value)

        return body

    # -- structured-op interface ---------------------------------------------

    def _rank(self) -> int:
        out = self.outputs[0].type if self.outputs else self.inputs[0].type
        return len(out.get_shape()) if isinstance(out, ShapedType) else 0

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return (AffineMap.identity(self._rank()),) * (len(self.inputs) + len(self.outputs))

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        if self.indexing_maps is not None:
            return self.indexing_maps
        return ArrayAttr(AffineMapAttr(m) for m in self.get_default_indexing_maps())

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return ArrayAttr((IteratorTypeAttr.parallel(),) * self._rank())

    def verify_(self) -> None:
        operands = len(self.inputs) + len(self.outputs)
        maps = self.get_indexing_maps().data
        if len(maps) != operands:
            raise VerifyException(
                f"expected the number of indexing_map ({len(maps)}) to be equal to the number of "
                f"input/output operands ({operands})"
            )
        loops = self._rank()
        for index, map_ in enumerate(maps):
            if map_.data.num_dims != loops:
                raise VerifyException(
                    f"expected indexing_map #{index} to have {loops} dim(s) to match the number of loops"
                )

    # -- syntax ----------------------------------------------------------------

    @classmethod
    def parse(cls, parser: Parser) -> ElementwiseOp:
        parser.parse_keyword("kind")
        parser.parse_punctuation("=")
        start = parser.pos
        kind = parser.parse_attribute()
        if not isinstance(kind, ElementwiseKindAttr):
            parser.raise_error("expected operation 'kind' attribute", start, parser.pos)
        maps = None
        if parser.parse_optional_keyword("indexing_maps") is not None:
            parser.parse_punctuation("=")
            maps = [
                m.data
                for m in parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_attribute)
                if isinstance(m, AffineMapAttr)
            ]
        attrs = parser.parse_optional_attr_dict()
        start = parser.pos
        inputs = _parse_group(parser, "ins")
        outputs = _parse_group(parser, "outs")
        arity = kind_arity(kind.kind.data)
        if len(inputs) + len(outputs) != arity + 1:
            parser.raise_error(
                f"[parseNamedStructuredOpRegion] ods-gen generated region expects {arity + 1} args, "
                f"got {len(inputs) + len(outputs)}",
                start,
                parser.pos,
            )
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            types = parser.parse_optional_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
            result_types = types if types is not None else [parser.parse_type()]
        return cls(kind.kind.data, inputs, outputs, result_types, maps, attributes=dict(attrs))

    def print(self, printer: Printer) -> None:
        printer.print_string(" kind=")
        printer.print_attribute(self.kind)
        if self.indexing_maps is not None and [m.data for m in self.indexing_maps.data] != list(
            self.get_default_indexing_maps()
        ):
            printer.print_string(" indexing_maps = [")
            printer.print_list(self.indexing_maps.data, printer.print_attribute)
            printer.print_string("]")
        if self.attributes:
            printer.print_op_attributes(self.attributes)
        for keyword, values in (("ins", self.inputs), ("outs", self.outputs)):
            if values:
                printer.print_string(f" {keyword}(")
                printer.print_list(values, printer.print_ssa_value)
                printer.print_string(" : ")
                printer.print_list([v.type for v in values], printer.print_attribute)
                printer.print_string(")")
        if self.res:
            printer.print_string(" -> ")
            if len(self.res) == 1:
                printer.print_attribute(self.res[0].type)
            else:
                with printer.in_parens():
                    printer.print_list([r.type for r in self.res], printer.print_attribute)


def _is_memref(type_: Attribute) -> bool:
    return type(type_).__name__ == "MemRefType"


def _parse_group(parser: Parser, keyword: str) -> list[SSAValue]:
    """`ins(%a, %b : T, U)` / `outs(...)`, or nothing."""
    if parser.parse_optional_characters(keyword) is None:
        return []
    start = parser.pos
    parser.parse_punctuation("(")
    names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    return parser.resolve_operands(names, types, start)


__all__ = ["ELEMENTWISE_KINDS", "ElementwiseKindAttr", "ElementwiseOp", "kind_arity"]
