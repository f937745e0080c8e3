"""Sizes held in SSA values, as expressions of the layout algebra.

A packed tensor's sizes are arithmetic over the sizes of the logical one: the
outer dims of `linalg.pack` are `ceildiv(size, tile)`, the host stores
`ceildiv(size, tile) * tile` elements of a tiled dim, a collapsed group is the
product of its sizes. One expression type says each of them once:

* `Const` -- a size known at compile time;
* `Dim` -- a size only known at run time, named by what it reads (an SSA value,
  the `index`-th dynamic dim of a tensor type, `tensor.dim` of a value...);
* `Op` -- `mul`, `add`, `ceildiv`, `div`, `max`, `padded` of other sizes.

The constructors fold as MLIR's `createOrFold` and greedy folding fold what IREE
creates (constants multiply out, `x * 1` and `x ceildiv 1` are `x`, a constant
operand of a commutative op goes to the right), so a static shape gives a
`Const`. An expression is evaluated on numbers (`evaluate`) and lowered to IR in
IREE's three spellings by `size_lowering.py`.

`Op`s compare by identity: two equal-looking sizes built separately are two
computations, as in the IR they become (nothing is CSE'd that IREE does not).

Nothing here imports numpy or xDSL: verifiers, the host's size arithmetic and
the tests use it alike.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass

__all__ = [
    "Const",
    "Dim",
    "Op",
    "SizeExpr",
    "add",
    "ceildiv",
    "ceildivu",
    "constant_value",
    "div",
    "evaluate",
    "maximum",
    "mul",
    "pad_to_multiple",
    "padded",
    "size",
]


@dataclass(frozen=True)
class Const:
    value: int


@dataclass(frozen=True)
class Dim:
    """A size read at run time; `source` names what it reads (any hashable key)."""

    source: Hashable


@dataclass(frozen=True, eq=False)
class Op:
    """`kind` applied to `operands`; `nsw` marks the arithmetic `overflow<nsw>` where the spelling has flags.

    Kinds: `mul` (any number of operands), `add`, `ceildiv`, `ceildivu` (unsigned),
    `div` (exact division, `arith.divsi`), `max` (unsigned), and `padded`:
    `(outer, source, tile)`, the size of `source` padded at its high end to `outer`
    tiles, which IREE's reified `tensor.pad` spells `source + (outer * tile - source)`.
    """

    kind: str
    operands: tuple[SizeExpr, ...]
    nsw: bool = False


SizeExpr = Const | Dim | Op


def size(value: int | SizeExpr) -> SizeExpr:
    """An `int` as a `Const`; an expression as it is."""
    return Const(value) if isinstance(value, int) else value


def constant_value(expr: int | SizeExpr) -> int | None:
    """The value of a size known at compile time, else None."""
    if isinstance(expr, int):
        return expr
    return expr.value if isinstance(expr, Const) else None


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


_FOLD: dict[str, Callable[[int, int], int]] = {
    "mul": lambda a, b: a * b,
    "add": lambda a, b: a + b,
    "max": max,
    "ceildiv": _ceil,
    "ceildivu": _ceil,
    "div": lambda a, b: a // b,
}


def _binary(kind: str, lhs: int | SizeExpr, rhs: int | SizeExpr, nsw: bool) -> SizeExpr:
    lhs, rhs = size(lhs), size(rhs)
    if isinstance(lhs, Const) and isinstance(rhs, Const):
        return Const(_FOLD[kind](lhs.value, rhs.value))
    if kind in ("mul", "add", "max") and isinstance(lhs, Const):
        lhs, rhs = rhs, lhs
    if isinstance(rhs, Const):
        if kind in ("mul", "ceildiv", "ceildivu", "div") and rhs.value == 1:
            return lhs
        if kind == "mul" and rhs.value == 0:
            return Const(0)
        if kind == "add" and rhs.value == 0:
            return lhs
    if kind == "max" and lhs == rhs:
        return lhs
    return Op(kind, (lhs, rhs), nsw)


def mul(*factors: int | SizeExpr, nsw: bool = False) -> SizeExpr:
    """The product; two factors fold as `arith.muli` does, more multiply in the order given.

    Of more than two factors, the constants are multiplied into one last factor
    (a collapsed group: `s0 * s1 * 12`).
    """
    if len(factors) == 2:
        return _binary("mul", factors[0], factors[1], nsw)
    dynamic = [size(f) for f in factors if constant_value(f) is None]
    factor = 1
    for f in factors:
        value = constant_value(f)
        if value is not None:
            factor *= value
    if not dynamic or factor == 0:
        return Const(factor)
    if len(dynamic) == 1:
        return _binary("mul", dynamic[0], factor, nsw)
    operands = tuple(dynamic) + ((Const(factor),) if factor != 1 else ())
    return Op("mul", operands, nsw)


def add(lhs: int | SizeExpr, rhs: int | SizeExpr, nsw: bool = False) -> SizeExpr:
    return _binary("add", lhs, rhs, nsw)


def ceildiv(lhs: int | SizeExpr, rhs: int | SizeExpr) -> SizeExpr:
    return _binary("ceildiv", lhs, rhs, False)


def ceildivu(lhs: int | SizeExpr, rhs: int | SizeExpr) -> SizeExpr:
    return _binary("ceildivu", lhs, rhs, False)


def div(lhs: int | SizeExpr, rhs: int | SizeExpr) -> SizeExpr:
    """Exact division (the outer size of a padded, tiled dim: `padded / tile`)."""
    return _binary("div", lhs, rhs, False)


def maximum(lhs: int | SizeExpr, rhs: int | SizeExpr) -> SizeExpr:
    return _binary("max", lhs, rhs, False)


def pad_to_multiple(value: int | SizeExpr, tile: int, nsw: bool = False) -> SizeExpr:
    """`value` rounded up to a multiple of `tile`: `ceildiv(value, tile) * tile`."""
    return mul(ceildiv(value, tile), tile, nsw=nsw)


def padded(outer: int | SizeExpr, source: int | SizeExpr, tile: int) -> SizeExpr:
    """`source` padded to `outer` tiles of `tile` (a pack's `tensor.pad`): `outer * tile`."""
    outer, source = size(outer), size(source)
    if isinstance(outer, Const) and isinstance(source, Const):
        return Const(outer.value * tile)
    return Op("padded", (outer, source, Const(tile)))


def evaluate(expr: int | SizeExpr, dims: Mapping[Hashable, int] | Callable[[Hashable], int]) -> int:
    """The size for run-time sizes `dims` (by each `Dim`'s source)."""
    read = dims if callable(dims) else dims.__getitem__
    memo: dict[int, int] = {}

    def value(e: SizeExpr) -> int:
        if isinstance(e, Const):
            return e.value
        if isinstance(e, Dim):
            return int(read(e.source))
        if id(e) in memo:
            return memo[id(e)]
        operands = [value(o) for o in e.operands]
        if e.kind == "padded":
            result = operands[0] * operands[2]
        else:
            result = operands[0]
            for operand in operands[1:]:
                result = _FOLD[e.kind](result, operand)
        memo[id(e)] = result
        return result

    return value(size(expr))
