"""The `affine` dialect: xDSL's affine ops plus the index-arithmetic ops IREE emits.

xDSL 0.74 has `affine.for/if/parallel/load/store/yield` and friends, which we reuse
as they are. It lacks `affine.max`, `affine.linearize_index` and
`affine.delinearize_index`, which IREE's materialization and layout-combining
passes print, and its `affine.apply`/`affine.min` print a space between the map
and its operand list (`affine_map<...> ()[%n]`) and ignore attribute dictionaries.
We therefore define `apply`, `min`, `max` and the two index ops here, following
upstream MLIR's syntax and verifier messages
(https://mlir.llvm.org/docs/Dialects/Affine/).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import affine as xdsl_affine
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    DenseArrayBase,
    IndexType,
    UnitAttr,
    i64,
)
from xdsl.dialects.utils import (
    get_dynamic_index_list,
    parse_dynamic_index_list_without_types,
    print_dynamic_index_list,
    split_dynamic_index_list,
)
from xdsl.ir import Dialect, Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    VariadicOperandVariable,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.traits import HasCanonicalizationPatternsTrait, Pure
from xdsl.utils.exceptions import VerifyException

# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


@irdl_custom_directive
class DynamicIndexListInParens(CustomDirective):
    """`custom<DynamicIndexList>` with MLIR's `Delimiter::Paren`: `(%a, 4, %b)`.

    The basis of `affine.linearize_index`/`delinearize_index` is a mixed list of
    constants and SSA values written in parentheses; xDSL's directive only
    supports square brackets.
    """

    dynamic_position: VariadicOperandVariable
    static_position: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        dynamic, static = parse_dynamic_index_list_without_types(
            parser, DYNAMIC_INDEX, delimiter=Parser.Delimiter.PAREN
        )
        self.dynamic_position.set(state, dynamic)
        self.static_position.set(state, DenseArrayBase.from_list(i64, static))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        dynamic = self.dynamic_position.get(op)
        static = self.static_position.get(op)
        assert isinstance(static, DenseArrayBase)
        values = static.get_values()
        if sum(1 for v in values if v == DYNAMIC_INDEX) != len(dynamic):
            # Only reachable for IR that failed verification: keep the printer total.
            printer.print_string("(<<malformed basis>>)")
            return
        print_dynamic_index_list(
            printer, DYNAMIC_INDEX, dynamic, values, delimiter=Parser.Delimiter.PAREN
        )


def _parse_dim_and_symbol_list(parser: Parser) -> tuple[list[SSAValue], list[SSAValue]]:
    """Parse MLIR's `(%d0, ...)[%s0, ...]` operand lists of an affine map use."""
    dims = parser.parse_comma_separated_list(
        Parser.Delimiter.PAREN, lambda: parser.parse_operand(IndexType())
    )
    syms = parser.parse_optional_comma_separated_list(
        Parser.Delimiter.SQUARE, lambda: parser.parse_operand(IndexType())
    )
    return dims, syms or []


def _print_dim_and_symbol_list(printer: Printer, operands: Sequence[SSAValue], num_dims: int) -> None:
    """Print `(%d0, ...)[%s0, ...]`; the symbol list is omitted when empty."""
    with printer.in_parens():
        printer.print_list(operands[:num_dims], printer.print_operand)
    if len(operands) > num_dims:
        with printer.in_square_brackets():
            printer.print_list(operands[num_dims:], printer.print_operand)


def _to_map_attr(affine_map: AffineMap | AffineMapAttr) -> AffineMapAttr:
    return affine_map if isinstance(affine_map, AffineMapAttr) else AffineMapAttr(affine_map)


def _verify_basis(static_basis: Sequence[int], dynamic_basis: Sequence[SSAValue]) -> None:
    """Checks shared by `linearize_index` and `delinearize_index`."""
    if sum(1 for v in static_basis if v == DYNAMIC_INDEX) != len(dynamic_basis):
        raise VerifyException(
            "mismatch between dynamic and static basis (kDynamic marker but no "
            "corresponding dynamic basis entry) -- this can only happen due to an "
            "incorrect fold/rewrite"
        )
    if any(v <= 0 and v != DYNAMIC_INDEX for v in static_basis):
        raise VerifyException("no basis element may be statically non-positive")


def _split_basis(basis: Sequence[SSAValue | Operation | int]) -> tuple[list[int], list[SSAValue]]:
    return split_dynamic_index_list(
        [b if isinstance(b, int) else SSAValue.get(b) for b in basis], DYNAMIC_INDEX
    )


# ---------------------------------------------------------------------------
# affine.apply / affine.min / affine.max
# ---------------------------------------------------------------------------


@irdl_op_definition
class ApplyOp(IRDLOperation):
    """Apply a single-result affine map to index operands.

    ```mlir
    %1 = affine.apply affine_map<()[s0] -> (s0 ceildiv 128)>()[%0]
    %2 = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%i)[%n]
    ```

    The first `num_dims` operands bind the map's dimensions, the rest its symbols.
    See https://mlir.llvm.org/docs/Dialects/Affine/#affineapply-affineaffineapplyop
    """

    name = "affine.apply"

    map_operands = var_operand_def(IndexType)
    map = prop_def(AffineMapAttr)
    result = result_def(IndexType)

    traits = traits_def(Pure())

    def __init__(
        self,
        map_operands: Sequence[SSAValue | Operation],
        affine_map: AffineMap | AffineMapAttr,
    ):
        super().__init__(
            operands=[map_operands],
            properties={"map": _to_map_attr(affine_map)},
            result_types=[IndexType()],
        )

    def verify_(self) -> None:
        m = self.map.data
        if len(self.map_operands) != m.num_dims + m.num_symbols:
            raise VerifyException("operand count and affine map dimension and symbol count must match")
        if len(m.results) != 1:
            raise VerifyException("mapping must produce one value")

    @classmethod
    def parse(cls, parser: Parser) -> ApplyOp:
        pos = parser.pos
        map_attr = parser.parse_attribute()
        if not isinstance(map_attr, AffineMapAttr):
            parser.raise_error("expected affine map", pos)
        dims, syms = _parse_dim_and_symbol_list(parser)
        attrs = parser.parse_optional_attr_dict()
        m = map_attr.data
        # MLIR checks the split at parse time: the operand lists decide which
        # operands are dimensions, so a mismatch is a syntax error.
        if m.num_dims != len(dims) or m.num_symbols != len(syms):
            parser.raise_error("dimension or symbol index mismatch", pos)
        op = cls([*dims, *syms], map_attr)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.map)
        _print_dim_and_symbol_list(printer, self.map_operands, self.map.data.num_dims)
        printer.print_op_attributes(self.attributes)


def _flattened(expr: AffineExpr, num_dims: int, num_symbols: int) -> list[int] | None:
    """The coefficients of a pure affine ``expr``: dims, symbols, then the constant.

    None for what flattening would need local variables for (``mod``,
    ``floordiv``, ``ceildiv``) and for a product of two non-constants.
    """
    if isinstance(expr, AffineConstantExpr):
        return [0] * (num_dims + num_symbols) + [expr.value]
    if isinstance(expr, AffineDimExpr | AffineSymExpr):
        row = [0] * (num_dims + num_symbols + 1)
        row[expr.position + (num_dims if isinstance(expr, AffineSymExpr) else 0)] = 1
        return row
    if not isinstance(expr, AffineBinaryOpExpr):
        return None
    lhs = _flattened(expr.lhs, num_dims, num_symbols)
    rhs = _flattened(expr.rhs, num_dims, num_symbols)
    if lhs is None or rhs is None:
        return None
    if expr.kind == AffineBinaryOpKind.Add:
        return [a + b for a, b in zip(lhs, rhs)]
    if expr.kind == AffineBinaryOpKind.Mul:
        for factor, other in ((lhs, rhs), (rhs, lhs)):
            if not any(factor[:-1]):
                return [c * factor[-1] for c in other]
    return None


class CanonicalizeAffineMinMaxOpExprAndTermOrder(RewritePattern):
    """MLIR's pattern of the same name: the results of an `affine.min`/`max` map sorted by their
    flattened form (coefficients of the dims, the symbols, then the constant), so `(d0 + 64, 256)`
    prints as `(256, d0 + 64)`. A map with a result that does not flatten purely is left alone."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, _MinMaxOpBase):
            return
        m = op.map.data
        rows = [_flattened(e, m.num_dims, m.num_symbols) for e in m.results]
        if any(row is None for row in rows) or rows == sorted(rows):  # type: ignore[type-var]
            return
        order = sorted(range(len(rows)), key=lambda i: rows[i])  # type: ignore[arg-type,return-value]
        op.map = AffineMapAttr(AffineMap(m.num_dims, m.num_symbols, tuple(m.results[i] for i in order)))
        rewriter.handle_operation_modification(op)


class _MinMaxCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (CanonicalizeAffineMinMaxOpExprAndTermOrder(),)


class _MinMaxOpBase(IRDLOperation):
    """Shared definition of `affine.min` and `affine.max` (MLIR's AffineMinMaxOpBase)."""

    map_operands = var_operand_def(IndexType)
    map = prop_def(AffineMapAttr)
    result = result_def(IndexType)

    traits = traits_def(Pure(), _MinMaxCanonicalization())

    def __init__(
        self,
        map_operands: Sequence[SSAValue | Operation],
        affine_map: AffineMap | AffineMapAttr,
    ):
        super().__init__(
            operands=[map_operands],
            properties={"map": _to_map_attr(affine_map)},
            result_types=[IndexType()],
        )

    def verify_(self) -> None:
        m = self.map.data
        if len(self.map_operands) != m.num_dims + m.num_symbols:
            raise VerifyException("operand count and affine map dimension and symbol count must match")
        if not m.results:
            raise VerifyException("affine map expect at least one result")

    @classmethod
    def parse(cls, parser: Parser):
        pos = parser.pos
        map_attr = parser.parse_attribute()
        if not isinstance(map_attr, AffineMapAttr):
            parser.raise_error("expected affine map", pos)
        dims, syms = _parse_dim_and_symbol_list(parser)
        attrs = parser.parse_optional_attr_dict()
        op = cls([*dims, *syms], map_attr)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.map)
        _print_dim_and_symbol_list(printer, self.map_operands, self.map.data.num_dims)
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class MinOp(_MinMaxOpBase):
    """The minimum of the results of a multi-result affine map.

    ```mlir
    %0 = affine.min affine_map<(d0)[s0] -> (-d0 + s0, 64)>(%i)[%n]
    ```

    See https://mlir.llvm.org/docs/Dialects/Affine/#affinemin-affineaffineminop
    """

    name = "affine.min"


@irdl_op_definition
class MaxOp(_MinMaxOpBase):
    """The maximum of the results of a multi-result affine map.

    ```mlir
    %0 = affine.max affine_map<(d0) -> (d0 - 8, 0)>(%i)
    ```

    See https://mlir.llvm.org/docs/Dialects/Affine/#affinemax-affineaffinemaxop
    """

    name = "affine.max"


# ---------------------------------------------------------------------------
# affine.linearize_index / affine.delinearize_index
# ---------------------------------------------------------------------------


def _bounds(basis: Sequence[SSAValue | int], count: int) -> list[SSAValue | int | None]:
    """One bound per index: the basis, with None for an outer bound left out."""
    return [None, *basis] if len(basis) < count else list(basis)


class FoldSingleIndexOp(RewritePattern):
    """MLIR's folds: `linearize_index [%x] by (...)` and a one-result `delinearize_index %x` are `%x`."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if isinstance(op, LinearizeIndexOp) and len(op.multi_index) == 1:
            rewriter.replace(op, [], [op.multi_index[0]])
        elif isinstance(op, DelinearizeIndexOp) and len(op.multi_index) == 1:
            rewriter.replace(op, [], [op.linear_index])


class CancelDelinearizeOfLinearizeDisjointExactTail(RewritePattern):
    """MLIR's pattern of the same name: `delinearize(linearize disjoint [..., %j, %k] by (..., 4, 16))
    into (..., 4, 16)` gives `%j, %k` for the bounds both end with (the same constant or SSA value);
    what is left of each side stays as a smaller linearize / delinearize (or one value)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, DelinearizeIndexOp):
            return
        lin = op.linear_index.owner
        if not isinstance(lin, LinearizeIndexOp) or lin.disjoint is None:
            return
        indices = list(lin.multi_index)
        lin_bounds = _bounds(lin.mixed_basis, len(indices))
        delin_bounds = _bounds(op.mixed_basis, len(op.multi_index))
        tail = 0
        while tail < min(len(lin_bounds), len(delin_bounds)):
            a, b = lin_bounds[-1 - tail], delin_bounds[-1 - tail]
            if a is None or b is None or a != b:
                break
            tail += 1
        head_in, head_out = len(indices) - tail, len(op.multi_index) - tail
        if tail == 0 or (head_in == 0) != (head_out == 0):
            return  # nothing shared, or a side left without indices
        new_ops: list[Operation] = []
        values: list[SSAValue] = []
        if head_out:
            if head_in == 1:
                value = indices[0]
            else:
                basis = lin.mixed_basis[: len(lin.mixed_basis) - tail]
                new_lin = LinearizeIndexOp(indices[:head_in], basis, disjoint=True)
                new_ops.append(new_lin)
                value = new_lin.linear_index
            if head_out == 1:
                values.append(value)
            else:
                basis = op.mixed_basis[: len(op.mixed_basis) - tail]
                new_delin = DelinearizeIndexOp(value, basis, has_outer_bound=op.has_outer_bound)
                new_ops.append(new_delin)
                values.extend(new_delin.multi_index)
        values.extend(indices[head_in:])
        rewriter.replace(op, new_ops, values)


def _index_constant(value: int) -> Operation:
    from xdsl.dialects import arith
    from xdsl.dialects.builtin import IntegerAttr

    return arith.ConstantOp(IntegerAttr(value, IndexType()))


def _constant_index(value: SSAValue | int | None) -> int | None:
    """The integer a basis element or index is known to hold, if it is a constant."""
    from xdsl.dialects import arith
    from xdsl.dialects.builtin import IntegerAttr

    if value is None or isinstance(value, int):
        return value
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


class DropDelinearizeUnitExtentBasis(RewritePattern):
    """MLIR's pattern of the same name: a result whose bound is 1 is the constant 0, and the
    delinearization goes on without that bound."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, DelinearizeIndexOp):
            return
        basis = op.mixed_basis
        bounds = _bounds(basis, len(op.multi_index))
        unit = [b is not None and _constant_index(b) == 1 for b in bounds]
        if not any(unit) or all(unit):
            return
        zero = _index_constant(0)
        if op.has_outer_bound:
            kept_basis = [b for b, u in zip(bounds, unit) if not u]
        else:  # the first result, without a bound, is never dropped
            kept_basis = [b for b, u in zip(bounds[1:], unit[1:]) if not u]
        new = DelinearizeIndexOp(op.linear_index, kept_basis, has_outer_bound=op.has_outer_bound)
        kept = iter(new.multi_index)
        values = [zero.results[0] if u else next(kept) for u in unit]
        rewriter.replace(op, [zero, new], values)


class DropLinearizeUnitComponentsIfDisjointOrZero(RewritePattern):
    """MLIR's pattern of the same name: an index that is the constant 0, or whose bound is 1 in a
    `disjoint` linearization, adds nothing and is dropped (all of them: the constant 0)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, LinearizeIndexOp):
            return
        indices = list(op.multi_index)
        bounds = _bounds(op.mixed_basis, len(indices))
        disjoint = op.disjoint is not None
        drop = [
            _constant_index(index) == 0 or (disjoint and b is not None and _constant_index(b) == 1)
            for index, b in zip(indices, bounds)
        ]
        if not any(drop):
            return
        if all(drop):
            zero = _index_constant(0)
            rewriter.replace(op, [zero], [zero.results[0]])
            return
        kept_indices = [i for i, d in zip(indices, drop) if not d]
        kept_bounds = [b for b, d in zip(bounds, drop) if not d]
        basis = [b for b in kept_bounds if b is not None] if kept_bounds[0] is None else kept_bounds
        rewriter.replace(op, [LinearizeIndexOp(kept_indices, basis, disjoint=disjoint)])


class SplitDelinearizeSpanningLastLinearizeArg(RewritePattern):
    """MLIR's pattern of the same name: `delinearize(linearize disjoint [..., %x] by (..., 8)) into
    (..., 2, 4)` splits `%x` by the trailing bounds whose product is the last linearize bound
    (`delinearize %x into (2, 4)`), and delinearizes what is left of the linearization by the rest."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, DelinearizeIndexOp) or len(op.multi_index) < 2:
            return
        lin = op.linear_index.owner
        if not isinstance(lin, LinearizeIndexOp) or lin.disjoint is None or len(lin.multi_index) < 2:
            return
        last = _constant_index(lin.mixed_basis[-1])
        if last is None:
            return
        basis = op.mixed_basis
        product, split = 1, 0
        while split < len(basis) and product < last:
            bound = _constant_index(basis[len(basis) - 1 - split])
            if bound is None:
                return
            product *= bound
            split += 1
        # A single matching bound is the exact-tail cancellation's; all of them leave nothing to split.
        if product != last or split < 2 or split == len(op.multi_index):
            return
        indices = list(lin.multi_index)
        new_ops: list[Operation] = []
        rest = LinearizeIndexOp(indices[:-1], lin.mixed_basis[:-1], disjoint=True)
        rest_delin = DelinearizeIndexOp(rest.linear_index, basis[: len(basis) - split], has_outer_bound=op.has_outer_bound)
        back = DelinearizeIndexOp(indices[-1], basis[len(basis) - split :], has_outer_bound=True)
        new_ops += [rest, rest_delin, back]
        rewriter.replace(op, new_ops, [*rest_delin.multi_index, *back.multi_index])


class CancelLinearizeOfDelinearizeExact(RewritePattern):
    """MLIR's CancelLinearizeOfDelinearizePortion, when the portion is the whole linearization:
    `linearize [%d#0, ..., %d#n] by (B)` of all the results of `%d = delinearize %x into (B)` is `%x`."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, LinearizeIndexOp) or not op.multi_index:
            return
        delin = op.multi_index[0].owner
        if not isinstance(delin, DelinearizeIndexOp) or list(op.multi_index) != list(delin.multi_index):
            return
        lin_bounds = _bounds(op.mixed_basis, len(op.multi_index))
        delin_bounds = _bounds(delin.mixed_basis, len(delin.multi_index))
        # An outer bound either side may be left out: it never changes the value.
        if any(a != b for a, b in zip(lin_bounds[1:], delin_bounds[1:])):
            return
        if lin_bounds[0] is not None and delin_bounds[0] is not None and lin_bounds[0] != delin_bounds[0]:
            return
        rewriter.replace(op, [], [delin.linear_index])


class _IndexOpCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (
            FoldSingleIndexOp(),
            CancelDelinearizeOfLinearizeDisjointExactTail(),
            SplitDelinearizeSpanningLastLinearizeArg(),
            DropDelinearizeUnitExtentBasis(),
            DropLinearizeUnitComponentsIfDisjointOrZero(),
            CancelLinearizeOfDelinearizeExact(),
        )


@irdl_op_definition
class LinearizeIndexOp(IRDLOperation):
    """Linearize a multi-index in a mixed-radix basis.

    ```mlir
    %l = affine.linearize_index disjoint [%i, %j, %k] by (%d, 8, 4) : index
    %m = affine.linearize_index [%j, %k] by (8, 4) : index   // outer bound omitted
    ```

    computes `((%i * 8) + %j) * 4 + %k`. The basis has one element per index, or
    one fewer when the outermost bound is left out (it never affects the value).
    `disjoint` asserts that every index is within its bound. Basis elements are
    constants or SSA values (`static_basis` holds `?` = kDynamic where an SSA value
    from `dynamic_basis` is used).
    See https://mlir.llvm.org/docs/Dialects/Affine/#affinelinearize_index-affineaffinelinearizeindexop
    """

    name = "affine.linearize_index"

    multi_index = var_operand_def(IndexType)
    dynamic_basis = var_operand_def(IndexType)
    static_basis = prop_def(DenseArrayBase.constr(i64))
    disjoint = opt_prop_def(UnitAttr)
    linear_index = result_def(IndexType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure(), _IndexOpCanonicalization())

    assembly_format = (
        "(`disjoint` $disjoint^)? ` ` `[` $multi_index `]` `by` "
        "custom<DynamicIndexListInParens>($dynamic_basis, $static_basis) "
        "attr-dict `:` type($linear_index)"
    )
    custom_directives = (DynamicIndexListInParens,)

    def __init__(
        self,
        multi_index: Sequence[SSAValue | Operation],
        basis: Sequence[SSAValue | Operation | int],
        disjoint: bool = False,
    ):
        static_basis, dynamic_basis = _split_basis(basis)
        super().__init__(
            operands=[multi_index, dynamic_basis],
            properties={
                "static_basis": DenseArrayBase.from_list(i64, static_basis),
                **({"disjoint": UnitAttr()} if disjoint else {}),
            },
            result_types=[IndexType()],
        )

    @property
    def mixed_basis(self) -> list[SSAValue | int]:
        """The basis as written: constants and SSA values in order."""
        return get_dynamic_index_list(self.static_basis.get_values(), self.dynamic_basis, DYNAMIC_INDEX)

    @property
    def has_outer_bound(self) -> bool:
        return len(self.static_basis.get_values()) == len(self.multi_index)

    def verify_(self) -> None:
        num_indices = len(self.multi_index)
        static_basis = self.static_basis.get_values()
        if num_indices not in (len(static_basis), len(static_basis) + 1):
            raise VerifyException("should be passed a basis element for each index except possibly the first")
        _verify_basis(static_basis, self.dynamic_basis)


@irdl_op_definition
class DelinearizeIndexOp(IRDLOperation):
    """Split a linear index into a multi-index in a mixed-radix basis.

    ```mlir
    %r:4 = affine.delinearize_index %l into (%d0, %d1, 128, 128) : index, index, index, index
    %s:3 = affine.delinearize_index %l into (8, 4) : index, index, index   // outer bound omitted
    ```

    There is one result per basis element, or one more when the outermost bound
    is left out (the first result is then unbounded).
    See https://mlir.llvm.org/docs/Dialects/Affine/#affinedelinearize_index-affineaffinedelinearizeindexop
    """

    name = "affine.delinearize_index"

    linear_index = operand_def(IndexType)
    dynamic_basis = var_operand_def(IndexType)
    static_basis = prop_def(DenseArrayBase.constr(i64))
    multi_index = var_result_def(IndexType)

    traits = traits_def(Pure(), _IndexOpCanonicalization())

    assembly_format = (
        "$linear_index `into` custom<DynamicIndexListInParens>($dynamic_basis, $static_basis) "
        "attr-dict `:` type($multi_index)"
    )
    custom_directives = (DynamicIndexListInParens,)

    def __init__(
        self,
        linear_index: SSAValue | Operation,
        basis: Sequence[SSAValue | Operation | int],
        has_outer_bound: bool = True,
    ):
        static_basis, dynamic_basis = _split_basis(basis)
        num_results = len(basis) if has_outer_bound else len(basis) + 1
        super().__init__(
            operands=[linear_index, dynamic_basis],
            properties={"static_basis": DenseArrayBase.from_list(i64, static_basis)},
            result_types=[[IndexType()] * num_results],
        )

    @property
    def mixed_basis(self) -> list[SSAValue | int]:
        """The basis as written: constants and SSA values in order."""
        return get_dynamic_index_list(self.static_basis.get_values(), self.dynamic_basis, DYNAMIC_INDEX)

    @property
    def has_outer_bound(self) -> bool:
        return len(self.static_basis.get_values()) == len(self.multi_index)

    def verify_(self) -> None:
        num_results = len(self.multi_index)
        static_basis = self.static_basis.get_values()
        if num_results not in (len(static_basis), len(static_basis) + 1):
            raise VerifyException("should return an index for each basis element and up to one extra index")
        _verify_basis(static_basis, self.dynamic_basis)


Affine = Dialect(
    "affine",
    [
        ApplyOp,
        MinOp,
        MaxOp,
        LinearizeIndexOp,
        DelinearizeIndexOp,
        xdsl_affine.ForOp,
        xdsl_affine.ParallelOp,
        xdsl_affine.IfOp,
        xdsl_affine.StoreOp,
        xdsl_affine.LoadOp,
        xdsl_affine.YieldOp,
        xdsl_affine.VectorLoadOp,
        xdsl_affine.VectorStoreOp,
    ],
    [],
)
