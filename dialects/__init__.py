"""The dialects mini-iree understands, registered lazily.

Each entry names the module and the ``Dialect`` constant it ends in. Nothing is
imported until the parser meets the dialect's namespace, so start-up stays fast.
Where xDSL already has an upstream dialect we use it; where it lacks ops that the
data-tiling walkthrough prints (``linalg.pack``, ``affine.linearize_index``,
``scf.forall``...), our module of the same name extends it.
"""

from collections.abc import Callable
from importlib import import_module

from xdsl.ir import Dialect

# dialect namespace -> "module:CONSTANT"
_OURS: dict[str, str] = {
    "affine": "mini_iree.dialects.affine:Affine",
    "arith": "mini_iree.dialects.arith:Arith",
    "flow": "mini_iree.dialects.flow:Flow",
    "gpu": "mini_iree.dialects.gpu:GPU",
    "hal": "mini_iree.dialects.hal:HAL",
    "iree_codegen": "mini_iree.dialects.iree_codegen:IREECodegen",
    "iree_cpu": "mini_iree.dialects.iree_cpu:IREECPU",
    "iree_encoding": "mini_iree.dialects.iree_encoding:IREEEncoding",
    "iree_gpu": "mini_iree.dialects.iree_gpu:IREEGPU",
    "iree_linalg_ext": "mini_iree.dialects.iree_linalg_ext:IREELinalgExt",
    "iree_tensor_ext": "mini_iree.dialects.iree_tensor_ext:IREETensorExt",
    "linalg": "mini_iree.dialects.linalg:Linalg",
    "rocm": "mini_iree.dialects.rocm:ROCM",
    "scf": "mini_iree.dialects.scf:Scf",
    "stream": "mini_iree.dialects.stream:Stream",
    "tensor": "mini_iree.dialects.tensor:Tensor",
    "util": "mini_iree.dialects.util:Util",
    "vector": "mini_iree.dialects.vector:Vector",
    "xla": "mini_iree.dialects.xla:XLA",
}

# Upstream dialects taken from xDSL as they are.
_XDSL: dict[str, str] = {
    "bufferization": "xdsl.dialects.bufferization:Bufferization",
    "builtin": "xdsl.dialects.builtin:Builtin",
    "cf": "xdsl.dialects.cf:Cf",
    "func": "xdsl.dialects.func:Func",
    "math": "xdsl.dialects.math:Math",
    "memref": "xdsl.dialects.memref:MemRef",
    "test": "xdsl.dialects.test:Test",
    "ub": "xdsl.dialects.ub:UB",
}


def _factory(spec: str) -> Callable[[], Dialect]:
    module_name, constant = spec.split(":")

    def load() -> Dialect:
        return getattr(import_module(module_name), constant)

    return load


def _allow_semi_affine_division() -> None:
    """Let `ceildiv`, `floordiv` and `mod` take a symbol divisor, and `*` a symbolic factor, as MLIR
    does (semi-affine maps).

    xDSL 0.74 refuses to build `s0 ceildiv s1` ("not supported yet"), so it could neither parse
    nor build the size of a dim packed by a scalable tile (`N ceildiv (8 * vscale)`). With a
    non-constant divisor the operators now build the plain binary expression; constant divisors
    keep xDSL's folding. Printing and the interpreter already handle such expressions.
    """
    from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineExpr

    if getattr(AffineExpr, "_mini_iree_semi_affine", False):
        return
    AffineExpr._mini_iree_semi_affine = True  # type: ignore[attr-defined]
    for name, kind in (
        ("ceil_div", AffineBinaryOpKind.CeilDiv),
        ("__floordiv__", AffineBinaryOpKind.FloorDiv),
        ("__mod__", AffineBinaryOpKind.Mod),
        ("__mul__", AffineBinaryOpKind.Mul),
    ):
        original = getattr(AffineExpr, name)

        def operator(self, other, _original=original, _kind=kind):
            symbolic = isinstance(other, AffineExpr) and not isinstance(other, AffineConstantExpr)
            # A constant times a symbol is xDSL's own case (it puts the constant on the right).
            if symbolic and not (_kind is AffineBinaryOpKind.Mul and isinstance(self, AffineConstantExpr)):
                return AffineBinaryOpExpr(_kind, self, other)
            return _original(self, other)

        setattr(AffineExpr, name, operator)


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    """Every dialect namespace mini-iree can parse, mapped to a lazy loader."""
    _allow_semi_affine_division()
    return {name: _factory(spec) for name, spec in {**_XDSL, **_OURS}.items()}
