"""``func``: functions are run by running their body; ``func.call`` calls by symbol."""

from __future__ import annotations

from typing import Any

from xdsl.dialects import func
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    ReturnedValues,
    impl,
    impl_callable,
    impl_terminator,
    register_impls,
)

from mini_iree.compiler.interpreter.core import InterpreterError, run_region


@register_impls
class FuncFunctions(InterpreterFunctions):
    @impl_callable(func.FuncOp)
    def call_func(self, interpreter: Interpreter, op: func.FuncOp, args: tuple[Any, ...]):
        if op.is_declaration:
            raise InterpreterError(op, f"cannot call @{op.sym_name.data}: it is only declared (no body)")
        return run_region(interpreter, op.body, args)

    @impl(func.CallOp)
    def run_call(self, interpreter: Interpreter, op: func.CallOp, args: tuple[Any, ...]):
        callee = interpreter.get_op_for_symbol(op.callee)
        return tuple(interpreter.call_op(callee, args))

    @impl_terminator(func.ReturnOp)
    def run_return(self, interpreter: Interpreter, op: func.ReturnOp, args: tuple[Any, ...]):
        return ReturnedValues(args), ()


FUNCTIONS = (FuncFunctions,)
