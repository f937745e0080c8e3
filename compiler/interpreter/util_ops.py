"""``util``: functions, globals and initializers of an IREE program.

Globals live in the interpreter (one dictionary per interpreter, name ->
value). IREE runs every ``util.initializer`` once when the module is loaded,
in module order, before any function; the interpreter does the same lazily,
on the first call of a ``util.func`` or the first access to a global, which is
before the called function's body runs.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
)
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    ReturnedValues,
    impl,
    impl_callable,
    impl_terminator,
    register_impls,
)
from xdsl.ir import Attribute, Operation

from mini_iree.compiler.interpreter.core import InterpreterError, constant_value, run_block, run_region
from mini_iree.dialects import hal, util
from mini_iree.dialects.symbols import lookup_symbol

__all__ = ["UtilFunctions", "attribute_value", "run_initializers"]


def attribute_value(op: Operation, attr: Attribute) -> Any:
    """The interpreter value of a constant attribute (``dense<...>``, an integer, a float).

    Attributes without a numeric meaning (a device target, say) stand for
    themselves. ``dense_resource`` blobs are not part of the IR the tools print
    (``dense_resource<__elided__>``), so using one is an error.
    """
    if isinstance(attr, DenseIntOrFPElementsAttr | DenseResourceAttr | IntegerAttr | FloatAttr):
        return constant_value(op, attr, attr.get_type())
    return attr


def _globals(interpreter: Interpreter) -> dict[str, Any]:
    return interpreter.get_data(UtilFunctions, "globals", dict)


def is_global_value(interpreter: Interpreter, value: Any) -> bool:
    """Whether ``value`` (the object itself) is the current value of a ``util.global``."""
    return any(stored is value for stored in _globals(interpreter).values())


def run_initializers(interpreter: Interpreter) -> None:
    """Give globals their initial values and run every ``util.initializer``, once, in module order."""
    state = interpreter.get_data(UtilFunctions, "initialized", lambda: [False])
    if state[0]:
        return
    state[0] = True  # set first: initializers themselves store and load globals
    module = interpreter.module
    values = _globals(interpreter)
    for op in _top_level_ops(module):
        if isinstance(op, util.GlobalOp) and op.initial_value is not None:
            values[op.sym_name.data] = attribute_value(op, op.initial_value)
    for op in _top_level_ops(module):
        if isinstance(op, util.InitializerOp):
            run_block(interpreter, op.body.block, ())


def _top_level_ops(module: Operation):
    if isinstance(module, ModuleOp):
        yield from module.body.block.ops


def _lookup_global(interpreter: Interpreter, op: Operation, name: str) -> util.GlobalOp:
    found = lookup_symbol(interpreter.module, name)
    if not isinstance(found, util.GlobalOp):
        raise InterpreterError(op, f"@{name} is not a util.global")
    return found


@register_impls
class UtilFunctions(InterpreterFunctions):
    """``util.func``/``util.call``, globals and initializers, and value-preserving hints."""

    @impl_callable(util.FuncOp)
    def call_func(self, interpreter: Interpreter, op: util.FuncOp, args: tuple):
        run_initializers(interpreter)
        if op.is_declaration:
            raise InterpreterError(op, f"@{op.sym_name.data} is an external declaration and has no body")
        block = op.body.first_block
        assert block is not None  # a definition has a body
        if len(args) != len(block.args):
            raise InterpreterError(op, f"@{op.sym_name.data} takes {len(block.args)} arguments, got {len(args)}")
        # A buffer view is the array itself; accept anything numpy can read as one.
        args = tuple(
            np.asarray(value) if isinstance(arg.type, hal.BufferViewType) else value
            for arg, value in zip(block.args, args)
        )
        return run_region(interpreter, op.body, args)

    @impl_terminator(util.ReturnOp)
    def run_return(self, interpreter: Interpreter, op: util.ReturnOp, args: tuple):
        # Only reached when a region is run by xDSL's own region runner;
        # `run_block` reads a terminator's operands without running it.
        return ReturnedValues(args), ()

    @impl(util.CallOp)
    def run_call(self, interpreter: Interpreter, op: util.CallOp, args: tuple):
        callee = lookup_symbol(interpreter.module, op.callee.root_reference.data)
        if callee is None:
            raise InterpreterError(op, f"cannot find function {op.callee}")
        return tuple(interpreter.call_op(callee, args))

    @impl(util.GlobalLoadOp)
    def run_global_load(self, interpreter: Interpreter, op: util.GlobalLoadOp, args: tuple):
        run_initializers(interpreter)
        name = op.global_.root_reference.data
        values = _globals(interpreter)
        if name not in values:
            _lookup_global(interpreter, op, name)
            raise InterpreterError(op, f"loads global @{name} before anything stored it")
        return (values[name],)

    @impl(util.GlobalStoreOp)
    def run_global_store(self, interpreter: Interpreter, op: util.GlobalStoreOp, args: tuple):
        run_initializers(interpreter)
        name = op.global_.root_reference.data
        global_op = _lookup_global(interpreter, op, name)
        values = _globals(interpreter)
        # An immutable global may only be written by initializers, once.
        inside_initializer = any(isinstance(p, util.InitializerOp) for p in _ancestors(op))
        if not global_op.is_global_mutable and (not inside_initializer or name in values):
            raise InterpreterError(op, f"stores to immutable global @{name}")
        values[name] = args[0]
        return ()

    @impl(util.AssumeIntOp)
    def run_assume_int(self, interpreter: Interpreter, op: util.AssumeIntOp, args: tuple):
        # Assumptions inform the compiler; values pass through unchanged.
        return tuple(args)

    @impl(util.OptimizationBarrierOp)
    def run_optimization_barrier(self, interpreter: Interpreter, op: util.OptimizationBarrierOp, args: tuple):
        return tuple(args)


def _ancestors(op: Operation):
    parent = op.parent_op()
    while parent is not None:
        yield parent
        parent = parent.parent_op()


@register_impls
class UtilNullFunctions(InterpreterFunctions):
    @impl(util.NullOp)
    def run_null(self, interpreter, op: util.NullOp, args: tuple):
        return (None,)


FUNCTIONS = (UtilFunctions, UtilNullFunctions)
