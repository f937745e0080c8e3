"""The `util` dialect: IREE's program structure and compiler hints.

IREE's host programs are written with `util` ops rather than `func`/`ml_program`:
functions (`util.func`, `util.call`, `util.return`), globals and their
initializers (`util.global`, `util.global.load/store`, `util.initializer`), and
hints such as `util.assume.int`, which records what is known about the integer
values a dispatch receives (their ranges and divisibility).

Data tiling meets these ops when hoisting: encoding a constant weight moves
into a `util.initializer` that stores the packed tensor into a
`util.global @__hoisted_tensor_..._encoded`.

Upstream documentation: https://iree.dev/reference/mlir-dialects/Util/
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DictionaryAttr,
    FlatSymbolRefAttrConstr,
    FunctionType,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    NoneAttr,
    ShapedType,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    UnitAttr,
)
from xdsl.ir import (
    Attribute,
    Block,
    Dialect,
    Operation,
    ParametrizedAttribute,
    Region,
    SSAValue,
    TypeAttribute,
    TypedAttribute,
)
from xdsl.irdl import (
    IRDLOperation,
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
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.traits import (
    CallableOpInterface,
    ConstantLike,
    HasCanonicalizationPatternsTrait,
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    Pure,
    ReturnLike,
    SymbolOpInterface,
    SymbolUserOpInterface,
)
from xdsl.utils.exceptions import VerifyException

from mini_iree.dialects.utils import raise_missing_struct_key
from mini_iree.dialects.symbols import lookup_symbol

# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def _print_stripped(printer: Printer, attr: ParametrizedAttribute) -> None:
    """MLIR's `printStrippedAttrOrType`: the alias if the printer has one, else `<params>`."""
    if (print_stripped := getattr(printer, "print_stripped_attribute", None)) is not None:
        print_stripped(attr)
    else:
        attr.print_parameters(printer)


def _print_visibility(printer: Printer, visibility: StringAttr | None) -> None:
    """IREE always spells the visibility out, printing `public` when none is set."""
    printer.print_string(" " + ("public" if visibility is None else visibility.data))


def _verify_visibility(visibility: StringAttr | None) -> None:
    if visibility is not None and visibility.data not in ("public", "private", "nested"):
        raise VerifyException(
            f'visibility expected to be one of ["public", "private", "nested"], but got "{visibility.data}"'
        )


def typed_attr_type(attr: Attribute) -> Attribute | None:
    """The type of a typed attribute (`4 : i32`, `dense<...> : tensor<...>`, `#hal.device.target<...>`)."""
    return attr.get_type() if isinstance(attr, TypedAttribute) else None


def _lookup(op: Operation, name: SymbolRefAttr) -> Operation | None:
    """The symbol `name` in the symbol table nearest to `op`, or None."""
    try:
        return lookup_symbol(op, name)
    except ValueError:  # no enclosing symbol table
        return None


# ---------------------------------------------------------------------------
# #util.int.assumption
# ---------------------------------------------------------------------------

_U64_MAX = 2**64 - 1


@irdl_attr_definition
class IntAssumptionAttr(ParametrizedAttribute):
    """What is known about an integer: unsigned bounds and a divisor, each optional.

    ```mlir
    #util.int.assumption<umin = 0, umax = 9007199254740991>
    #util.int.assumption<udiv = 64>
    ```
    """

    name = "util.int.assumption"

    umin: IntAttr | NoneAttr
    umax: IntAttr | NoneAttr
    udiv: IntAttr | NoneAttr

    def __init__(self, umin: int | None = None, umax: int | None = None, udiv: int | None = None):
        super().__init__(*(NoneAttr() if v is None else IntAttr(v) for v in (umin, umax, udiv)))

    def _get(self, field: IntAttr | NoneAttr) -> int | None:
        return field.data if isinstance(field, IntAttr) else None

    @property
    def min(self) -> int | None:
        return self._get(self.umin)

    @property
    def max(self) -> int | None:
        return self._get(self.umax)

    @property
    def divisor(self) -> int | None:
        return self._get(self.udiv)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        # MLIR's `struct(...)` directive: `key = value` pairs in any order, each at most once.
        values: dict[str, int] = {}

        def parse_entry(key: str) -> None:
            parser.parse_punctuation("=")
            if key not in ("umin", "umax", "udiv") or key in values:
                parser.raise_error(f"duplicate or unknown struct parameter name: {key}")
            pos = parser.pos
            value = parser.parse_integer(allow_boolean=False)
            if not 0 <= value <= _U64_MAX:
                parser.raise_error(f"expected a 64-bit unsigned integer for '{key}'", pos, parser.pos)
            values[key] = value

        with parser.in_angle_brackets():
            if (key := parser.parse_optional_identifier()) is not None:
                parse_entry(key)
                while parser.parse_optional_punctuation(",") is not None:
                    if (key := parser.parse_optional_identifier()) is None:
                        raise_missing_struct_key(parser)
                    parse_entry(key)
        return [NoneAttr() if (v := values.get(k)) is None else IntAttr(v) for k in ("umin", "umax", "udiv")]

    def print_parameters(self, printer: Printer) -> None:
        fields = (("umin", self.umin), ("umax", self.umax), ("udiv", self.udiv))
        entries = [f"{key} = {value.data}" for key, value in fields if isinstance(value, IntAttr)]
        printer.print_string("<" + ", ".join(entries) + ">")

    def verify(self) -> None:
        for value in (self.min, self.max, self.divisor):
            if value is not None and not 0 <= value <= _U64_MAX:
                raise VerifyException(f"int assumption value {value} does not fit in 64 unsigned bits")


@irdl_attr_definition
class PreprocessingPipelineAttr(ParametrizedAttribute):
    """A pass pipeline for ``iree-preprocessing-attr-based-pipeline`` to run on the function carrying it.

    ```mlir
    util.func @f(...) attributes {preprocessing_pipeline = #util.preprocessing_pipeline<"canonicalize">}
    ```
    """

    name = "util.preprocessing_pipeline"

    pipeline_string: StringAttr


# ---------------------------------------------------------------------------
# Compiler hints
# ---------------------------------------------------------------------------


def _unioned_assumption(l: IntAssumptionAttr, r: IntAssumptionAttr) -> IntAssumptionAttr:
    """Both assumptions at once (IREE's `getUnionedRange`): the larger minimum, the smaller
    maximum, the lcm of the divisors; a bound only one side states is kept."""

    def combine(a: int | None, b: int | None, pick) -> int | None:
        return b if a is None else pick(a if b is None else b, a)

    return IntAssumptionAttr(
        combine(l.min, r.min, max), combine(l.max, r.max, min), combine(l.divisor, r.divisor, math.lcm)
    )


def _zipped_assumptions(l: ArrayAttr, r: ArrayAttr | None) -> ArrayAttr:
    """IREE's `getZippedAssumeRange`: two rows of one operand, unioned position by position
    (a single assumption broadcasts against a longer row)."""
    if r is None or l == r:
        return l
    left, right = l.data, r.data
    size = max(len(left), len(right))
    return ArrayAttr(
        [
            _unioned_assumption(left[0 if len(left) == 1 else i], right[0 if len(right) == 1 else i])
            for i in range(size)
        ]
    )


class AssumeIntCanonicalizationPatterns(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (DeduplicateAssumeIntOperands(), CanonicalizeAssumeIntOp())


@irdl_op_definition
class AssumeIntOp(IRDLOperation):
    """Records assumptions about integer values: each result is its operand, with facts attached.

    Each operand gets one assumption, or a list of them (one per call site, say);
    all lists longer than one must have the same length.

    ```mlir
    %0 = util.assume.int %arg0<umin = 0, umax = 9007199254740991> : index
    %1:2 = util.assume.int
        %a<udiv = 8192>,
        %b[<umin = 0>, <umin = 16>]
      : index, index
    ```
    https://iree.dev/reference/mlir-dialects/Util/#utilassumeint-utilassumeintop
    """

    name = "util.assume.int"

    operands_ = var_operand_def(IntegerType | IndexType)
    assumptions = prop_def(ArrayAttr[ArrayAttr[IntAssumptionAttr]])
    results_ = var_result_def(IntegerType | IndexType)

    traits = traits_def(Pure(), AssumeIntCanonicalizationPatterns())

    def __init__(
        self,
        operands: Sequence[SSAValue],
        assumptions: Sequence[IntAssumptionAttr | Sequence[IntAssumptionAttr]],
    ):
        """One entry of `assumptions` per operand: an assumption, or a list of them."""
        rows = [ArrayAttr([a]) if isinstance(a, IntAssumptionAttr) else ArrayAttr(a) for a in assumptions]
        super().__init__(
            operands=[operands],
            properties={"assumptions": ArrayAttr(rows)},
            result_types=[[o.type for o in operands]],
        )

    def operand_assumptions(self, index: int) -> tuple[IntAssumptionAttr, ...]:
        """The assumptions recorded for operand `index`."""
        return self.assumptions.data[index].data

    @staticmethod
    def _parse_assumption(parser: Parser) -> IntAssumptionAttr:
        pos = parser.pos
        attr = parser.parse_optional_attribute()
        if attr is None:
            return IntAssumptionAttr.new(IntAssumptionAttr.parse_parameters(parser))
        if not isinstance(attr, IntAssumptionAttr):
            parser.raise_error(f"expected #util.int.assumption, got {attr}", pos, parser.pos)
        return attr

    @classmethod
    def parse(cls, parser: Parser) -> AssumeIntOp:
        def parse_operand():
            operand = parser.parse_unresolved_operand()
            row = parser.parse_optional_comma_separated_list(
                parser.Delimiter.SQUARE, lambda: cls._parse_assumption(parser)
            )
            return operand, row if row is not None else [cls._parse_assumption(parser)]

        entries = parser.parse_comma_separated_list(parser.Delimiter.NONE, parse_operand)
        parser.parse_punctuation(":")
        pos = parser.pos
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        if len(types) != len(entries):
            parser.raise_error(f"expected {len(entries)} types, got {len(types)}", pos, parser.pos)
        operands = [parser.resolve_operand(o, t) for (o, _), t in zip(entries, types)]
        op = cls(operands, [row for _, row in entries])
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        # IREE puts each operand of a multi-operand assume on its own line.
        multi_line = len(self.operands_) > 1
        printer.print_string(" ")
        with printer.indented(2):
            if multi_line:
                printer.print_string("\n")
            for i, (operand, row) in enumerate(zip(self.operands_, self.assumptions.data)):
                if i:
                    printer.print_string(", \n" if multi_line else ", ")
                printer.print_operand(operand)
                if len(row.data) == 1:
                    _print_stripped(printer, row.data[0])
                    continue
                printer.print_string("[")
                printer.print_list(row.data, lambda a: _print_stripped(printer, a))
                printer.print_string("]")
        with printer.indented(1):
            printer.print_string("\n" if multi_line else " ")
            printer.print_string(": ")
            printer.print_list(self.operands_, lambda o: printer.print_attribute(o.type))
            printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if [o.type for o in self.operands_] != [r.type for r in self.results_]:
            raise VerifyException("failed to verify that all of {operands, results} have same type")
        rows = self.assumptions.data
        if len(self.operands_) != len(rows):
            raise VerifyException(f"expected {len(self.operands_)} assumption rows to match number of operands")
        rank: int | None = None
        for index, row in enumerate(rows):
            # A single assumption broadcasts to any number of rows.
            if len(row.data) == 1:
                continue
            if rank is not None and rank != len(row.data):
                raise VerifyException(
                    f"expected operand #{index} to have {rank} assumptions but it has {len(row.data)}"
                )
            rank = len(row.data)


class DeduplicateAssumeIntOperands(RewritePattern):
    """IREE's `DeduplicateOperands` canonicalization of `util.assume.int`: an operand given
    more than once keeps one entry, whose assumptions are the union of its rows (equal rows
    stay as they are); the results of the dropped entries are replaced by the kept one's.

    ```mlir
    %0:4 = util.assume.int %a<umin = 0>, %b<umin = 0>, %a<umin = 0>, %b<umin = 0> : index, index, index, index
    // becomes
    %0:2 = util.assume.int %a<umin = 0>, %b<umin = 0> : index, index     (uses of %0#2 -> %0#0, %0#3 -> %0#1)
    ```
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AssumeIntOp, rewriter: PatternRewriter) -> None:
        rows: dict[SSAValue, ArrayAttr] = {}
        for operand, row in zip(op.operands_, op.assumptions.data):
            rows[operand] = _zipped_assumptions(row, rows.get(operand))
        if len(rows) == len(op.operands_):
            return
        kept = list(rows)  # operands in order of first occurrence
        position = {operand: index for index, operand in enumerate(kept)}
        new = AssumeIntOp(kept, [rows[operand] for operand in kept])
        new.location = op.location
        new.attributes |= op.attributes
        rewriter.replace(op, new, [new.results_[position[operand]] for operand in op.operands_])


def _fixed_value(row: ArrayAttr) -> int | None:
    """IREE's `getIntAssumptionFixedValue`: the value of a single assumption with umin == umax."""
    if len(row.data) != 1:
        return None
    only = row.data[0]
    return only.min if only.min is not None and only.min == only.max else None


def _normalized_row(row: ArrayAttr) -> ArrayAttr:
    """A row whose assumptions are all the same, as one assumption."""
    return ArrayAttr([row.data[0]]) if len(row.data) > 1 and all(a == row.data[0] for a in row.data) else row


class CanonicalizeAssumeIntOp(RewritePattern):
    """IREE's `canonicalizeAssumeIntOp`: a constant operand needs no assumption (its uses read
    the constant), a row of identical assumptions becomes one, an assumption fixing the value
    (`umin == umax`) becomes an `arith.constant`, and results nothing uses are dropped; the op
    is rebuilt with what remains, or erased when nothing does.

    ```mlir
    %0:3 = util.assume.int %a<umin = 0, umax = 0>, %b[<udiv = 4>, <udiv = 4>], %c<umin = 1> : index, index, index
    // with %0#2 unused, becomes
    %c0 = arith.constant 0 : index      (the uses of %0#0)
    %1 = util.assume.int %b<udiv = 4> : index
    ```
    Only when some operand needs it: otherwise unused results stay (as IREE's fast check).
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AssumeIntOp, rewriter: PatternRewriter) -> None:
        from xdsl.dialects import arith

        rows = op.assumptions.data
        needs_rewrite = False
        for operand, result, row in zip(op.operands_, op.results_, rows):
            if isinstance(operand.owner, Operation) and operand.owner.has_trait(ConstantLike):
                needs_rewrite = True
                rewriter.replace_all_uses_with(result, operand)
            elif _normalized_row(row) is not row or _fixed_value(row) is not None:
                needs_rewrite = True
        if not needs_rewrite:
            return
        kept_operands: list[SSAValue] = []
        kept_rows: list[ArrayAttr] = []
        kept_results: list[SSAValue] = []
        for operand, result, row in zip(op.operands_, op.results_, rows):
            if result.first_use is None:
                continue
            row = _normalized_row(row)
            value = _fixed_value(row)
            if value is not None:
                type_ = result.type
                constant = arith.ConstantOp(IntegerAttr(value, type_))  # type: ignore[arg-type]
                constant.location = op.location
                rewriter.insert(constant)
                rewriter.replace_all_uses_with(result, constant.result)
                continue
            kept_operands.append(operand)
            kept_rows.append(row)
            kept_results.append(result)
        if kept_operands:
            new = AssumeIntOp(kept_operands, kept_rows)
            new.location = op.location
            new.attributes |= op.attributes
            rewriter.insert(new)
            for old, replacement in zip(kept_results, new.results_):
                rewriter.replace_all_uses_with(old, replacement)
        rewriter.erase(op)


@irdl_op_definition
class OptimizationBarrierOp(IRDLOperation):
    """Passes its operands through unchanged, hiding them from folding and other optimizations.

    ```mlir
    %0:2 = util.optimization_barrier %a, %b : tensor<4xf32>, i32
    ```
    https://iree.dev/reference/mlir-dialects/Util/#utiloptimization_barrier-utiloptimizationbarrierop
    """

    name = "util.optimization_barrier"

    operands_ = var_operand_def()
    results_ = var_result_def()

    def __init__(self, operands: Sequence[SSAValue]):
        super().__init__(operands=[operands], result_types=[[o.type for o in operands]])

    @classmethod
    def parse(cls, parser: Parser) -> OptimizationBarrierOp:
        attrs = parser.parse_optional_attr_dict()
        operands: list[SSAValue] = []
        unresolved = parser.parse_optional_undelimited_comma_separated_list(
            parser.parse_optional_unresolved_operand, parser.parse_unresolved_operand
        )
        if unresolved is not None:
            parser.parse_punctuation(":")
            pos = parser.pos
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
            if len(types) != len(unresolved):
                parser.raise_error(f"expected {len(unresolved)} types, got {len(types)}", pos, parser.pos)
            operands = [parser.resolve_operand(o, t) for o, t in zip(unresolved, types)]
        op = cls(operands)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        if not self.operands_:
            return
        printer.print_string(" ")
        printer.print_list(self.operands_, printer.print_operand)
        printer.print_string(" : ")
        printer.print_list(self.operands_, lambda o: printer.print_attribute(o.type))

    def verify_(self) -> None:
        if [o.type for o in self.operands_] != [r.type for r in self.results_]:
            raise VerifyException("failed to verify that all of {operands, results} have same type")


# ---------------------------------------------------------------------------
# Functions
# ---------------------------------------------------------------------------


class _FuncCallable(CallableOpInterface):
    @classmethod
    def get_callable_region(cls, op: Operation) -> Region:
        assert isinstance(op, FuncOp)
        return op.body

    @classmethod
    def get_argument_types(cls, op: Operation) -> tuple[Attribute, ...]:
        assert isinstance(op, FuncOp)
        return op.function_type.inputs.data

    @classmethod
    def get_result_types(cls, op: Operation) -> tuple[Attribute, ...]:
        assert isinstance(op, FuncOp)
        return op.function_type.outputs.data


def _verify_terminators(region: Region) -> None:
    """MLIR's check that every block of a function body ends in a terminator."""
    for block in region.blocks:
        if (last := block.last_op) is None:
            raise VerifyException("empty block: expect at least a terminator")
        if not last.has_trait(IsTerminator):
            raise VerifyException(f"block with no terminator, has '{last.name}'")


def _entry(attrs: ArrayAttr[DictionaryAttr] | None, index: int) -> DictionaryAttr | None:
    """The attributes of argument/result `index`, if any."""
    return attrs.data[index] if attrs is not None and index < len(attrs.data) else None


def _print_attr_dict_entries(printer: Printer, attrs: DictionaryAttr | None) -> None:
    """Print ` {attrs}` after an argument or result type, or nothing if empty."""
    if attrs is not None and attrs.data:
        printer.print_string(" ")
        printer.print_attr_dict(attrs.data)


@irdl_op_definition
class FuncOp(IRDLOperation):
    """A function; IREE's counterpart of `func.func`.

    ```mlir
    util.func public @matmul(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view) -> !hal.buffer_view
        attributes {iree.abi.stub} {
      ...
      util.return %6 : !hal.buffer_view
    }
    util.func private @external(%arg0: index) -> (index, i32)
    ```

    The visibility is always printed (`public` by default). A declaration
    (no body) still names its arguments `%argN`.
    https://iree.dev/reference/mlir-dialects/Util/#utilfunc-utilfuncop
    """

    name = "util.func"

    sym_name = prop_def(SymbolNameConstraint())
    function_type = prop_def(FunctionType)
    sym_visibility = opt_prop_def(StringAttr)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])

    body = region_def()

    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface(), _FuncCallable())

    def __init__(
        self,
        name: str,
        function_type: FunctionType | tuple[Sequence[Attribute], Sequence[Attribute]],
        region: Region | None = None,
        visibility: str | StringAttr | None = "public",
        *,
        arg_attrs: ArrayAttr[DictionaryAttr] | None = None,
        res_attrs: ArrayAttr[DictionaryAttr] | None = None,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        """Build a function; without `region`, the body is an empty entry block (use `Region()` for a declaration)."""
        if isinstance(function_type, tuple):
            function_type = FunctionType.from_lists(*function_type)
        if region is None:
            region = Region(Block(arg_types=function_type.inputs))
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "function_type": function_type,
                "sym_visibility": StringAttr(visibility) if isinstance(visibility, str) else visibility,
                "arg_attrs": arg_attrs,
                "res_attrs": res_attrs,
            },
            attributes=attributes,
            regions=[region],
        )

    @property
    def is_declaration(self) -> bool:
        return not self.body.blocks

    @property
    def args(self):
        """The entry block's arguments (the function must have a body)."""
        assert self.body.blocks.first is not None, "a declaration has no arguments to use"
        return self.body.blocks.first.args

    @classmethod
    def parse(cls, parser: Parser) -> FuncOp:
        visibility = parser.parse_optional_visibility_keyword()
        name = parser.parse_symbol_name()

        # Arguments: `%name: type {attrs}` for a definition, or just `type {attrs}`.
        def parse_argument() -> tuple[Parser.Argument | None, Attribute, dict[str, Attribute]]:
            if (arg := parser.parse_optional_argument()) is not None:
                attrs = parser.parse_optional_dictionary_attr_dict()
                # MLIR prints an argument's location after its attributes.
                if attrs and (location := parser.parse_optional_location()) is not None:
                    arg = Parser.Argument(arg.name, arg.type, location)
                return arg, arg.type, attrs
            return None, parser.parse_type(), parser.parse_optional_dictionary_attr_dict()

        pos = parser.pos
        args = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parse_argument)
        named = [a for a, _, _ in args if a is not None]
        if named and len(named) != len(args):
            parser.raise_error("expected all arguments to be named or all to be unnamed", pos, parser.pos)

        # Results: `-> type`, `-> type, type` or `-> (type {attrs}, ...)`.
        results: list[tuple[Attribute, dict[str, Attribute]]] = []
        if parser.parse_optional_punctuation("->") is not None:
            parenthesized = parser.parse_optional_comma_separated_list(
                parser.Delimiter.PAREN, lambda: (parser.parse_type(), parser.parse_optional_dictionary_attr_dict())
            )
            if parenthesized is not None:
                results = parenthesized
            else:
                results = [(t, {}) for t in parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)]

        attrs_pos = parser.pos
        extra = parser.parse_optional_attr_dict_with_keyword()
        extra_attrs = dict(extra.data) if extra is not None else {}
        for reserved in ("sym_visibility", "sym_name", "function_type"):
            if reserved in extra_attrs:
                parser.raise_error(
                    f"'{reserved}' is an inferred attribute and should not be specified in the explicit "
                    "attribute dictionary",
                    attrs_pos,
                    parser.pos,
                )

        body_pos = parser.pos
        region = parser.parse_optional_region(named or None)
        if region is not None and args and not named:
            parser.raise_error("expected SSA identifiers for the arguments of a function with a body", pos, body_pos)
        if region is not None and not region.blocks:
            parser.raise_error("expected non-empty function body", body_pos, parser.pos)

        arg_dicts = [d for _, _, d in args]
        res_dicts = [d for _, d in results]
        return cls(
            name.data,
            ([t for _, t, _ in args], [t for t, _ in results]),
            region if region is not None else Region(),
            visibility,
            arg_attrs=ArrayAttr(DictionaryAttr(d) for d in arg_dicts) if any(arg_dicts) else None,
            res_attrs=ArrayAttr(DictionaryAttr(d) for d in res_dicts) if any(res_dicts) else None,
            attributes=extra_attrs,
        )

    def print(self, printer: Printer) -> None:
        _print_visibility(printer, self.sym_visibility)
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)

        entry = self.body.blocks.first
        printer.print_string("(")
        for i, type in enumerate(self.function_type.inputs.data):
            if i:
                printer.print_string(", ")
            if entry is not None and i < len(entry.args):
                printer.print_ssa_value(entry.args[i])
            else:
                printer.print_string(f"%arg{i}")
            printer.print_string(": ")
            printer.print_attribute(type)
            _print_attr_dict_entries(printer, _entry(self.arg_attrs, i))
            # IREE's printShapedFunctionSignature prints no argument locations, even with debug info.
        printer.print_string(")")

        outputs = self.function_type.outputs.data
        if outputs:
            has_attrs = any((a := _entry(self.res_attrs, i)) is not None and a.data for i in range(len(outputs)))
            parens = len(outputs) != 1 or has_attrs
            printer.print_string(" -> " + ("(" if parens else ""))
            for i, type in enumerate(outputs):
                if i:
                    printer.print_string(", ")
                printer.print_attribute(type)
                _print_attr_dict_entries(printer, _entry(self.res_attrs, i))
            printer.print_string(")" if parens else "")

        printer.print_op_attributes(self.attributes, print_keyword=True)
        if entry is not None:
            printer.print_string(" ")
            printer.print_region(self.body, print_entry_block_args=False, print_empty_block=False)

    def verify_(self) -> None:
        _verify_visibility(self.sym_visibility)
        inputs = self.function_type.inputs.data
        for kind, attrs, count in (
            ("argument", self.arg_attrs, len(inputs)),
            ("result", self.res_attrs, len(self.function_type.outputs.data)),
        ):
            if attrs is not None and len(attrs.data) != count:
                raise VerifyException(
                    f"expects {kind} attribute array to have the same number of elements as the number of "
                    f"function {kind}s, got {len(attrs.data)}, but expected {count}"
                )
        if (entry := self.body.blocks.first) is None:
            if self.sym_visibility is None or self.sym_visibility.data == "public":
                raise VerifyException("symbol declaration cannot have public visibility")
            return
        if len(entry.args) != len(inputs):
            raise VerifyException(f"entry block must have {len(inputs)} arguments to match function signature")
        for i, (arg, type) in enumerate(zip(entry.args, inputs)):
            if arg.type != type:
                raise VerifyException(
                    f"type of entry block argument #{i}('{arg.type}') must match the type of the "
                    f"corresponding argument in function signature('{type}')"
                )
        _verify_terminators(self.body)


@irdl_op_definition
class InitializerOp(IRDLOperation):
    """Code run once at module initialization, in module order with global initial values.

    ```mlir
    util.initializer attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
      %cst = arith.constant dense<1.0> : tensor<256x512xf32>
      util.global.store %cst, @__hoisted_tensor_256x512xf32 : tensor<256x512xf32>
      util.return
    }
    ```
    https://iree.dev/reference/mlir-dialects/Util/#utilinitializer-utilinitializerop
    """

    name = "util.initializer"

    function_type = prop_def(FunctionType)
    body = region_def()

    traits = traits_def(IsolatedFromAbove())

    def __init__(self, region: Region | None = None, attributes: Mapping[str, Attribute] | None = None):
        super().__init__(
            properties={"function_type": FunctionType.from_lists([], [])},
            attributes=attributes,
            regions=[region if region is not None else Region(Block())],
        )

    @classmethod
    def parse(cls, parser: Parser) -> InitializerOp:
        extra = parser.parse_optional_attr_dict_with_keyword()
        region = parser.parse_region()
        return cls(region, dict(extra.data) if extra is not None else None)

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body)

    def verify_(self) -> None:
        if self.function_type.inputs.data or self.function_type.outputs.data:
            raise VerifyException("initializers take no arguments and return no results")
        if (entry := self.body.blocks.first) is not None and entry.args:
            raise VerifyException("entry block must have 0 arguments to match function signature")
        _verify_terminators(self.body)


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """Returns from a `util.func` or `util.initializer`.

    ```mlir
    util.return %0, %1 : index, tensor<4xf32>
    util.return
    ```
    https://iree.dev/reference/mlir-dialects/Util/#utilreturn-utilreturnop
    """

    name = "util.return"

    operands_ = var_operand_def()

    traits = traits_def(Pure(), IsTerminator(), ReturnLike(), HasParent(FuncOp, InitializerOp))

    assembly_format = "attr-dict ($operands_^ `:` type($operands_))?"

    def __init__(self, *operands: SSAValue):
        super().__init__(operands=[operands])

    def verify_(self) -> None:
        parent = self.parent_op()
        expected = parent.function_type.outputs.data if isinstance(parent, FuncOp) else ()
        if len(self.operands_) != len(expected):
            raise VerifyException(
                f"has {len(self.operands_)} operands, but enclosing function-like op returns {len(expected)}"
            )
        for i, (operand, type) in enumerate(zip(self.operands_, expected)):
            if operand.type != type:
                raise VerifyException(
                    f"type of return operand {i} ('{operand.type}') doesn't match function result type ('{type}')"
                )


class _CallSymbolUser(SymbolUserOpInterface):
    def verify(self, op: Operation) -> None:
        assert isinstance(op, CallOp)
        callee = _lookup(op, op.callee)
        if not isinstance(callee, FuncOp):
            raise VerifyException(f"undefined/incompatible callee: {op.callee.root_reference.data}")
        expected = FunctionType.from_lists(op.operands_.types, op.results_.types)
        if callee.function_type != expected:
            raise VerifyException(
                f"function type mismatch; expected '{expected}' but callee is '{callee.function_type}'"
            )


@irdl_op_definition
class CallOp(IRDLOperation):
    """Calls a `util.func` in the same symbol table.

    ```mlir
    %0 = util.call @fn(%a, %b) : (i32, tensor<f32>) -> f32
    %1:2 = util.call @pair() : () -> (i32, i32)
    ```
    https://iree.dev/reference/mlir-dialects/Util/#utilcall-utilcallop
    """

    name = "util.call"

    callee = prop_def(FlatSymbolRefAttrConstr)
    operands_ = var_operand_def()
    results_ = var_result_def()

    traits = traits_def(_CallSymbolUser())

    def __init__(self, callee: str | SymbolRefAttr, operands: Sequence[SSAValue], result_types: Sequence[Attribute]):
        super().__init__(
            operands=[operands],
            result_types=[result_types],
            properties={"callee": SymbolRefAttr(callee) if isinstance(callee, str) else callee},
        )

    @classmethod
    def parse(cls, parser: Parser) -> CallOp:
        callee = parser.parse_symbol_name()
        unresolved = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        if len(types) != len(unresolved):
            parser.raise_error(f"expected {len(unresolved)} operand types, got {len(types)}", pos, parser.pos)
        parser.parse_punctuation("->")
        results = parser.parse_optional_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        if results is None:
            results = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        op = cls(callee.data, [parser.resolve_operand(o, t) for o, t in zip(unresolved, types)], results)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.callee)
        printer.print_string("(")
        printer.print_list(self.operands_, printer.print_operand)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : (")
        printer.print_list(self.operands_.types, printer.print_attribute)
        printer.print_string(") -> ")
        results = self.results_.types
        if len(results) == 1:
            printer.print_attribute(results[0])
            return
        printer.print_string("(")
        printer.print_list(results, printer.print_attribute)
        printer.print_string(")")


# ---------------------------------------------------------------------------
# Globals
# ---------------------------------------------------------------------------


def _shapes_compatible(a: ShapedType, b: ShapedType) -> bool:
    """MLIR's `verifyCompatibleShape`: same rank, and equal extents wherever both are static."""
    sa, sb = a.get_shape(), b.get_shape()
    return len(sa) == len(sb) and all(x == y or DYNAMIC_INDEX in (x, y) for x, y in zip(sa, sb))


def is_global_type_compatible(global_type: Attribute, access_type: Attribute) -> bool:
    """Whether a global of `global_type` may be read as `access_type` (tensor<?xf32> as tensor<4xf32>)."""
    if isinstance(global_type, ShapedType) and isinstance(access_type, ShapedType):
        return _shapes_compatible(global_type, access_type)
    return global_type == access_type


@irdl_op_definition
class GlobalOp(IRDLOperation):
    """A module-level variable, optionally mutable and optionally given an initial value.

    ```mlir
    util.global private @__device_0 = #device_target_local
    util.global private mutable @counter = 0 : i32
    util.global private @__hoisted_tensor_4x8xf32 {stream.affinity.default = #hal.device.affinity<@dev>} : tensor<4x8xf32>
    util.global public @v : tensor<4xf32> = dense<4> : tensor<4xi32>
    ```

    The type is omitted when the initial value already has it. The builder makes
    private globals unless told otherwise, as every global the compiler creates is.
    https://iree.dev/reference/mlir-dialects/Util/#utilglobal-utilglobalop
    """

    name = "util.global"

    sym_visibility = opt_prop_def(StringAttr)
    sym_name = prop_def(SymbolNameConstraint())
    type = prop_def(TypeAttribute)
    is_mutable = opt_prop_def(UnitAttr)
    initial_value = opt_prop_def(Attribute)

    traits = traits_def(SymbolOpInterface())

    def __init__(
        self,
        name: str,
        type: Attribute,
        *,
        initial_value: Attribute | None = None,
        mutable: bool = False,
        visibility: str | StringAttr | None = "private",
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            properties={
                "sym_visibility": StringAttr(visibility) if isinstance(visibility, str) else visibility,
                "sym_name": StringAttr(name),
                "type": type,
                "is_mutable": UnitAttr() if mutable else None,
                "initial_value": initial_value,
            },
            attributes=attributes,
        )

    @property
    def is_global_mutable(self) -> bool:
        return self.is_mutable is not None

    @classmethod
    def parse(cls, parser: Parser) -> GlobalOp:
        visibility = parser.parse_optional_visibility_keyword()
        mutable = parser.parse_optional_keyword("mutable") is not None
        name = parser.parse_symbol_name()
        attrs = parser.parse_optional_attr_dict()
        # `= attr` (type from the attribute) or `: type` optionally followed by `= attr`.
        initial_value = None
        if parser.parse_optional_punctuation("=") is not None:
            pos = parser.pos
            initial_value = parser.parse_attribute()
            if (type := typed_attr_type(initial_value)) is None:
                parser.raise_error("expected a typed initial value, or `: type` before `=`", pos, parser.pos)
        else:
            parser.parse_punctuation(":")
            type = parser.parse_type()
            if parser.parse_optional_punctuation("=") is not None:
                initial_value = parser.parse_attribute()
        return cls(
            name.data, type, initial_value=initial_value, mutable=mutable, visibility=visibility, attributes=attrs
        )

    def print(self, printer: Printer) -> None:
        _print_visibility(printer, self.sym_visibility)
        if self.is_mutable is not None:
            printer.print_string(" mutable")
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_op_attributes(self.attributes)
        value = self.initial_value
        if value is None or typed_attr_type(value) != self.type:
            printer.print_string(" : ")
            printer.print_attribute(self.type)
        if value is not None:
            printer.print_string(" = ")
            printer.print_attribute(value)

    def verify_(self) -> None:
        _verify_visibility(self.sym_visibility)
        if self.initial_value is None or (value_type := typed_attr_type(self.initial_value)) is None:
            return
        if not is_global_type_compatible(self.type, value_type):
            raise VerifyException(
                f'initial value type mismatch; global "{self.sym_name.data}" is \'{self.type}\' '
                f"but initial value provided is '{value_type}'"
            )


def _lookup_global(op: Operation, name: SymbolRefAttr) -> GlobalOp:
    if not isinstance(symbol := _lookup(op, name), GlobalOp):
        raise VerifyException(f"undefined global: {name}")
    return symbol


class _GlobalLoadSymbolUser(SymbolUserOpInterface):
    def verify(self, op: Operation) -> None:
        assert isinstance(op, GlobalLoadOp)
        global_op = _lookup_global(op, op.global_)
        load_type = op.result.type
        if not is_global_type_compatible(global_op.type, load_type):
            raise VerifyException(
                f'global type mismatch; global "{global_op.sym_name.data}" is \'{global_op.type}\' '
                f"but load is '{load_type}'"
            )
        if op.is_immutable is not None and global_op.is_global_mutable:
            raise VerifyException("is marked as immutable but the global is mutable")


@irdl_op_definition
class GlobalLoadOp(IRDLOperation):
    """Reads a global. `immutable` records that the global is never stored to after initialization.

    ```mlir
    %__hoisted_tensor_4x8xf32 = util.global.load immutable @__hoisted_tensor_4x8xf32 : tensor<4x8xf32>
    %counter = util.global.load @counter : i32
    ```

    The result is named after the global, as IREE does.
    https://iree.dev/reference/mlir-dialects/Util/#utilglobalload-utilgloballoadop
    """

    name = "util.global.load"

    global_ = prop_def(FlatSymbolRefAttrConstr, prop_name="global")
    is_immutable = opt_prop_def(UnitAttr)
    result = result_def()

    traits = traits_def(_GlobalLoadSymbolUser())

    assembly_format = "(`immutable` $is_immutable^)? $global attr-dict `:` type($result)"

    def __init__(self, global_: str | SymbolRefAttr, result_type: Attribute, *, immutable: bool = False):
        super().__init__(
            properties={
                "global": SymbolRefAttr(global_) if isinstance(global_, str) else global_,
                "is_immutable": UnitAttr() if immutable else None,
            },
            result_types=[result_type],
        )

    @staticmethod
    def of(global_op: GlobalOp) -> GlobalLoadOp:
        """Load `global_op` with its own type, `immutable` if the global is."""
        return GlobalLoadOp(global_op.sym_name.data, global_op.type, immutable=not global_op.is_global_mutable)

    def asm_result_names(self) -> list[str | None]:
        return [self.global_.root_reference.data]


class _GlobalStoreSymbolUser(SymbolUserOpInterface):
    def verify(self, op: Operation) -> None:
        assert isinstance(op, GlobalStoreOp)
        global_op = _lookup_global(op, op.global_)
        store_type = op.value.type
        if global_op.type != store_type:
            raise VerifyException(
                f'global type mismatch; global "{global_op.sym_name.data}" is \'{global_op.type}\' '
                f"but store is '{store_type}'"
            )


@irdl_op_definition
class GlobalStoreOp(IRDLOperation):
    """Writes a global.

    ```mlir
    util.global.store %0, @__hoisted_tensor_256x512xf32__encoded : tensor<256x512xf32, #encoding>
    ```
    https://iree.dev/reference/mlir-dialects/Util/#utilglobalstore-utilglobalstoreop
    """

    name = "util.global.store"

    value = operand_def()
    global_ = prop_def(FlatSymbolRefAttrConstr, prop_name="global")

    traits = traits_def(_GlobalStoreSymbolUser())

    assembly_format = "$value `,` $global attr-dict `:` type($value)"

    def __init__(self, value: SSAValue, global_: str | SymbolRefAttr):
        super().__init__(
            operands=[value],
            properties={"global": SymbolRefAttr(global_) if isinstance(global_, str) else global_},
        )


@irdl_op_definition
class NullOp(IRDLOperation):
    """A null value of a reference type: `%0 = util.null : !hal.fence` (an absent fence)."""

    name = "util.null"

    result = result_def()

    traits = traits_def(Pure())

    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, type_: Attribute):
        super().__init__(result_types=[type_])


Util = Dialect(
    "util",
    [
        NullOp,
        AssumeIntOp,
        OptimizationBarrierOp,
        FuncOp,
        InitializerOp,
        ReturnOp,
        CallOp,
        GlobalOp,
        GlobalLoadOp,
        GlobalStoreOp,
    ],
    [IntAssumptionAttr, PreprocessingPipelineAttr],
)
