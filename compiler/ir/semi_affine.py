"""Semi-affine division in xDSL's affine expressions: `s0 ceildiv s1`.

MLIR allows the divisor of `ceildiv`, `floordiv` and `mod` to be a symbol
(a semi-affine map); xDSL 0.74 refuses to build one ("not supported yet"), so
it can neither parse nor build the size of a dim packed by a scalable tile,
`affine_map<()[s0, s1] -> (s0 ceildiv s1)>` (`N ceildiv (8 * vscale)`).
`install()` makes the three operators build the plain binary expression when
the divisor is not a constant (constant divisors keep xDSL's folding). Printing
and evaluation (`compiler/interpreter/affine_ops.py`) already handle it.
"""

from __future__ import annotations

from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineExpr

_installed = False


def install() -> None:
    """Patch `AffineExpr` once (idempotent)."""
    global _installed
    if _installed:
        return
    _installed = True
    for name, kind in (
        ("ceil_div", AffineBinaryOpKind.CeilDiv),
        ("__floordiv__", AffineBinaryOpKind.FloorDiv),
        ("__mod__", AffineBinaryOpKind.Mod),
    ):
        original = getattr(AffineExpr, name)

        def operator(self: AffineExpr, other: AffineExpr | int, _original=original, _kind=kind) -> AffineExpr:
            if isinstance(other, AffineExpr) and not isinstance(other, AffineConstantExpr):
                return AffineBinaryOpExpr(_kind, self, other)
            return _original(self, other)

        setattr(AffineExpr, name, operator)
