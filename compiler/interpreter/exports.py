"""Calling an executable's exported function from a dispatch site.

``flow.dispatch``, ``stream.async.dispatch``, ``stream.cmd.dispatch`` and
``stream.tensor.dispatch`` name what they run as ``@executable::@export``
(a flow/stream export, which names its function) or
``@executable::@variant::@export`` (a ``hal.executable.export``, whose function
of the same name is in the variant's module and takes its arguments through
the HAL interface: :func:`hal_ops.call_with_interface`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr
from xdsl.interpreter import Interpreter, InterpreterFunctions
from xdsl.ir import Operation

from mini_iree.compiler.analysis.functions import functions
from mini_iree.compiler.interpreter.core import InterpreterError, run_block
from mini_iree.compiler.interpreter.hal_ops import call_with_interface
from mini_iree.dialects import flow, hal, util
from mini_iree.dialects.symbols import lookup_symbol

__all__ = ["call_exported_function", "exported_function", "lookup_nested_symbol", "resolved_export"]


class _ResolvedExports(InterpreterFunctions):
    """The key of this module's per-interpreter data (it implements no ops)."""


def lookup_nested_symbol(op: Operation, ref: SymbolRefAttr) -> Operation:
    """Resolve ``@a::@b`` from the module that holds ``op`` (nested symbol tables)."""
    module = op.get_toplevel_object()
    if not isinstance(module, ModuleOp):
        raise InterpreterError(op, "is not inside a module")
    found = lookup_symbol(module, ref.root_reference.data)
    for nested in ref.nested_references.data:
        if found is None:
            break
        found = lookup_symbol(found, nested.data)
    if found is None:
        raise InterpreterError(op, f"cannot find symbol {ref}")
    return found


def exported_function(op: Operation, ref: SymbolRefAttr) -> func.FuncOp | util.FuncOp:
    """The function (``func.func``, or ``util.func`` as IREE also accepts) an executable export names.

    ``@executable::@export`` is a flow/stream export (which names its function);
    ``@executable::@variant::@export`` a ``hal.executable.export``, whose function
    of the same name is in the variant's module.
    """
    export = lookup_nested_symbol(op, ref)
    if isinstance(export, hal.ExecutableExportOp):
        container, function_name = export.parent_op(), export.sym_name.data
    elif isinstance(export, flow.ExecutableExportOpBase):
        container, function_name = export.parent_op(), export.function_ref.root_reference.data
    else:
        raise InterpreterError(op, f"{ref} is not an executable export")
    for candidate in functions(container, nested=True) if container is not None else ():
        if candidate.sym_name.data == function_name:  # type: ignore[attr-defined]
            return candidate  # type: ignore[return-value]
    raise InterpreterError(op, f"executable export {ref} names no function @{function_name}")


def resolved_export(interpreter: Interpreter, op: Operation, ref: SymbolRefAttr) -> tuple[Any, Operation]:
    """(function, export) that ``ref`` names from dispatch site ``op``, resolved once per site.

    Symbol lookups walk symbol tables and hashing a nested reference hashes
    each of its parts: a site is keyed by the op and the reference's identity
    (an op's attributes live as long as the op).
    """
    resolved = interpreter.get_data(_ResolvedExports, "exports", dict)
    key = (op, id(ref))
    found = resolved.get(key)
    if found is None:
        found = resolved[key] = (exported_function(op, ref), lookup_nested_symbol(op, ref), ref)
    return found[0], found[1]


def call_exported_function(interpreter: Interpreter, op: Operation, ref: SymbolRefAttr, args: Sequence[Any]) -> None:
    """Run the function behind ``ref`` with ``args``; dispatch functions return nothing.

    A ``hal.executable.export`` function takes no arguments: ``args`` become its
    dispatch context (resources -> bindings, scalars -> push constants).
    """
    function, export = resolved_export(interpreter, op, ref)
    if isinstance(export, hal.ExecutableExportOp):
        call_with_interface(interpreter, op, function, export.layout, args)
        return
    block = function.body.block
    if len(block.args) != len(args):
        raise InterpreterError(
            op, f"dispatch passes {len(args)} arguments but @{function.sym_name.data} takes {len(block.args)}"
        )
    run_block(interpreter, block, args)
