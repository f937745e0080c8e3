"""Size expressions (`size_expr.py`) as IR, in each of IREE's three spellings.

IREE computes the same sizes with different ops depending on who creates them:

* `AFFINE` -- materialization (`MaterializeEncoding`) and the sizes MLIR reifies:
  one `affine.apply` per operation, constant operands folded into its map
  (`affine.apply ()[s0] -> (s0 ceildiv 16)`);
* `ARITH` -- the host's storage sizes (`EncodingAttr::calculateStorageSizeInBytes`,
  `iree-stream-encode-host-tensors`): `arith.ceildivsi` / `arith.muli` /
  `arith.addi` / `arith.ceildivui` / `arith.maxui`, with `overflow<nsw>` where
  the expression says so;
* `LOWER_PACK` -- MLIR's `linalg::lowerPack` / `lowerUnPack` as
  combine-layout-transformation reproduces them: the outer size of a padded dim
  is `arith.divsi %padded, %cT`, everything else as `AFFINE`.

A `SizeLowering` emits through three callbacks of its user: `insert` places an
op (and gives it its location), `constant` gives an `index` constant (a fresh
one per use, or one uniqued at the top of the function), `leaf` gives the value
a `Dim` reads. Nothing is remembered unless the user says so (`remember`): IREE
re-creates a reified size at each use and only the ops it builds once are shared.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import reduce

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineExpr, AffineMap

from mini_iree.dialects import affine

from .size_expr import Const, Dim, Op, SizeExpr

__all__ = ["AFFINE", "ARITH", "LOWER_PACK", "SizeLowering", "Spelling"]

Value = SSAValue | int
"""A lowered size: an SSA value, or an `int` where the spelling folds constants away."""

Spelling = str
AFFINE: Spelling = "affine"
ARITH: Spelling = "arith"
LOWER_PACK: Spelling = "lower-pack"


def _affine_template(kind: str, operand: Callable[[int], AffineExpr], arity: int) -> AffineExpr:
    """The map of one `affine.apply`; `operand(i)` is operand i as a constant or a fresh symbol."""
    if kind == "mul":
        return reduce(lambda a, b: a * b, (operand(i) for i in range(1, arity)), operand(0))
    if kind == "add":
        return operand(0) + operand(1)
    if kind in ("ceildiv", "ceildivu"):
        lhs, rhs = operand(0), operand(1)
        if not isinstance(rhs, AffineConstantExpr):
            # A divisor known only at run time (a scalable tile, `N0 * vscale`): the
            # semi-affine `s0 ceildiv s1`, which xDSL's `ceil_div` refuses to build.
            return AffineBinaryOpExpr(AffineBinaryOpKind.CeilDiv, lhs, rhs)
        return lhs.ceil_div(rhs)
    if kind == "div":
        return operand(0) // operand(1)
    if kind == "padded":
        # IREE's reified `tensor.pad` size: low (0) + source + high (outer * tile - source).
        return operand(0) * operand(2) - operand(1) + operand(1)
    raise ValueError(f"no affine spelling of {kind}")


_ARITH_OPS: dict[str, type[Operation]] = {
    "mul": arith.MuliOp,
    "add": arith.AddiOp,
    "ceildiv": arith.CeilDivSIOp,
    "ceildivu": arith.CeilDivUIOp,
    "max": arith.MaxUIOp,
    "div": arith.DivSIOp,
}


class SizeLowering:
    """Emits size expressions as IR in one spelling."""

    def __init__(
        self,
        spelling: Spelling,
        insert: Callable[[Operation], object],
        constant: Callable[[int], SSAValue] | None = None,
        leaf: Callable[[Dim], Value] | None = None,
    ):
        self.spelling = spelling
        self.insert = insert
        self.constant = constant
        self.leaf = leaf if leaf is not None else _ssa_leaf
        self.values: dict[int, Value] = {}
        self._keep: list[SizeExpr] = []  # keeps remembered expressions (keyed by id) alive

    def remember(self, expr: SizeExpr, value: Value) -> None:
        """Later uses of `expr` take `value` instead of being emitted again."""
        self.values[id(expr)] = value
        self._keep.append(expr)

    def share_remembered(self, other: SizeLowering) -> None:
        """Remember what `other` remembers (and what either learns from now on)."""
        self.values = other.values
        self._keep = other._keep

    def value(self, expr: SizeExpr | int) -> Value:
        """`expr` as IR: its operands first (in order), then its own op."""
        if isinstance(expr, int):
            return expr
        if isinstance(expr, Const):
            return expr.value
        if id(expr) in self.values:
            return self.values[id(expr)]
        if isinstance(expr, Dim):
            return self.leaf(expr)
        return self.emit(expr, [self.value(o) for o in expr.operands])

    def ssa(self, expr: SizeExpr | int) -> SSAValue:
        """`expr` as an SSA value (a constant from `constant` when it folds to one)."""
        value = self.value(expr)
        return self._constant(value) if isinstance(value, int) else value

    def emit(self, expr: Op, operands: Sequence[Value]) -> SSAValue:
        """The op of `expr` alone, over already lowered `operands`."""
        if self.spelling == ARITH or (self.spelling == LOWER_PACK and expr.kind == "div"):
            return self._arith(expr, operands)
        return self._affine(expr, operands)

    def _constant(self, value: int) -> SSAValue:
        if self.constant is None:
            raise ValueError("this lowering has no constants")
        return self.constant(value)

    def _arith(self, expr: Op, operands: Sequence[Value]) -> SSAValue:
        kind = expr.kind
        if kind == "padded":
            # Without a `tensor.pad` to reify, the padded size is just `outer * tile`.
            kind, operands = "mul", [operands[0], operands[2]]
        op_class = _ARITH_OPS[kind]
        result: SSAValue | None = None
        for operand in operands:
            rhs = self._constant(operand) if isinstance(operand, int) else operand
            if result is None:
                result = rhs
                continue
            if kind in ("mul", "add"):
                flags = arith.IntegerOverflowAttr([arith.IntegerOverflowFlag.NSW] if expr.nsw else "none")
                op = op_class(result, rhs, IndexType(), flags)  # type: ignore[call-arg]
            else:
                op = op_class(result, rhs, IndexType())  # type: ignore[call-arg]
            self.insert(op)
            result = op.results[0]
        assert result is not None
        return result

    def _affine(self, expr: Op, operands: Sequence[Value]) -> SSAValue:
        # Constant operands fold into the map, as makeComposedAffineApply does; each
        # use of an SSA operand is a symbol of its own (as IREE's reified pad sizes).
        symbols: list[SSAValue] = []

        def operand(i: int) -> AffineExpr:
            value = operands[i]
            if isinstance(value, int):
                return AffineExpr.constant(value)
            symbols.append(value)
            return AffineExpr.symbol(len(symbols) - 1)

        result = _affine_template(expr.kind, operand, len(operands))
        op = affine.ApplyOp(symbols, AffineMap(0, len(symbols), (result,)))
        self.insert(op)
        return op.results[0]


def _ssa_leaf(dim: Dim) -> Value:
    """A `Dim` whose source is the SSA value it reads."""
    if not isinstance(dim.source, SSAValue):
        raise TypeError(f"no value for the size {dim.source!r}")
    return dim.source
