"""``iree-codegen-materialize-encoding-into-nop``: drop every encoding, keeping each tensor as it is.

IREE runs encoding materialization with the identity resolver
(``#iree_encoding.identity_resolver``) whatever the function's target says:
`set_encoding` and `unset_encoding` vanish (an unset of a slice keeps its
`tensor.extract_slice`), encoded `tensor.empty`, `linalg.fill`, contractions,
elementwise generics and dispatch-tensor bindings, loads and stores lose their
encodings, and nothing is packed. It is what IREE's backends without data tiling
run (``addEncodingToNopPasses``), and a way to see a program's values without
any layout. Then, as IREE does, sizes read off the dropped ops fold back to
where they came from (``tensor.dim`` canonicalization).

Source: IREE ``compiler/src/iree/compiler/Codegen/Common/MaterializeEncodingIntoNop.cpp``.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from mini_iree.compiler.analysis.encoded_functions import encoded_functions
from mini_iree.compiler.materialize_encoding.layouts import LayoutSource
from mini_iree.compiler.materialize_encoding.patterns import materialize_function
from mini_iree.passes import pass_class

__all__ = ["MaterializeEncodingIntoNopPass"]


def _identity_target():
    from mini_iree.dialects.hal import ExecutableTargetAttr
    from mini_iree.dialects.iree_encoding import IdentityResolverAttr

    return ExecutableTargetAttr("none", "none", {"iree.encoding.resolver": IdentityResolverAttr()})


@dataclass(frozen=True)
class MaterializeEncodingIntoNopPass(ModulePass):
    """Drops the encodings of every function: the identity layout for every tensor."""

    name = "iree-codegen-materialize-encoding-into-nop"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        functions = encoded_functions(op)
        for func_op in functions:
            materialize_function(func_op, LayoutSource(_identity_target()))
        if functions:
            # IREE's clean-up: dims resolved and folded with the tensor dialect's canonicalizations.
            pass_class("canonicalize")().apply(ctx, op)
