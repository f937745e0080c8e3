"""``builtin`` ops: ``unrealized_conversion_cast`` passes its value through.

A cast between types that share the interpreter's value representation
(e.g. ``index`` and ``i64``, or a tensor and its encoded form) keeps the value;
integer-width changes are applied as MLIR would (truncate / sign-extend).
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import IndexType, IntegerType, UnrealizedConversionCastOp
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls

from mini_iree.compiler.interpreter.core import scalar_of


@register_impls
class BuiltinFunctions(InterpreterFunctions):
    @impl(UnrealizedConversionCastOp)
    def run_cast(self, interpreter: Interpreter, op: UnrealizedConversionCastOp, args: tuple[Any, ...]):
        if len(args) != len(op.results):
            return tuple(args[: len(op.results)]) if len(args) >= len(op.results) else args
        out = []
        for value, result in zip(args, op.results):
            if isinstance(result.type, (IntegerType, IndexType)):
                value = scalar_of(value, result.type)
            out.append(value)
        return tuple(out)


FUNCTIONS = (BuiltinFunctions,)
