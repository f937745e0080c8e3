"""The printer's MLIR conventions, checked on the pieces directly."""

import pytest
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineMap,
    AffineSymExpr,
)

from mini_iree.compiler.ir.printer import _sanitize_alias, affine_expr_to_str, affine_map_to_str

# Trees are built by hand: xDSL's operators simplify, and the printer must get
# the exact shapes MLIR's parser produces (`d0 - 1` is `d0 + -1`).
d0, d1, s0 = AffineDimExpr(0), AffineDimExpr(1), AffineSymExpr(0)


def c(v):
    return AffineConstantExpr(v)


def add(a, b):
    return AffineBinaryOpExpr(AffineBinaryOpKind.Add, a, b)


def mul(a, b):
    return AffineBinaryOpExpr(AffineBinaryOpKind.Mul, a, b)


def ceildiv(a, b):
    return AffineBinaryOpExpr(AffineBinaryOpKind.CeilDiv, a, b)


def floordiv(a, b):
    return AffineBinaryOpExpr(AffineBinaryOpKind.FloorDiv, a, b)


def mod(a, b):
    return AffineBinaryOpExpr(AffineBinaryOpKind.Mod, a, b)


@pytest.mark.parametrize(
    "expr, text",
    [
        (add(mul(d0, c(16)), s0), "d0 * 16 + s0"),
        (add(d0, c(-1)), "d0 - 1"),
        (add(d1, mul(s0, c(-1))), "d1 - s0"),
        (add(d0, mul(s0, c(-4))), "d0 - s0 * 4"),
        (mul(d0, c(-1)), "-d0"),
        (ceildiv(s0, c(16)), "s0 ceildiv 16"),
        (floordiv(add(d0, d1), c(4)), "(d0 + d1) floordiv 4"),
        (mod(mul(d0, c(4)), c(3)), "(d0 * 4) mod 3"),
        (add(d0, mul(add(d1, s0), c(-1))), "d0 - (d1 + s0)"),
        (mul(add(d0, d1), c(2)), "(d0 + d1) * 2"),
    ],
)
def test_affine_expressions_use_minimal_parentheses(expr, text):
    assert affine_expr_to_str(expr) == text


def test_affine_map_with_symbols():
    amap = AffineMap(2, 1, (add(d0, s0), d1))
    assert affine_map_to_str(amap) == "(d0, d1)[s0] -> (d0 + s0, d1)"
    assert affine_map_to_str(AffineMap(0, 1, (ceildiv(s0, c(128)),))) == "()[s0] -> (s0 ceildiv 128)"


@pytest.mark.parametrize(
    "raw, alias",
    [
        ("executable_target_embedded-elf-x86_64", "executable_target_embedded_elf_x86_64"),
        ("device_target_local", "device_target_local"),
        ("0abc", "_0abc"),
    ],
)
def test_alias_names_are_identifiers(raw, alias):
    assert _sanitize_alias(raw) == alias
