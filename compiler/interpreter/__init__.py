"""A numpy interpreter for mini-iree programs at any stage of the pipeline.

    from mini_iree.compiler.interpreter import run
    (c,) = run(mlir_text, "matmul", a, b)

Ops run on whole numpy arrays (see ``core.py`` for the value representation);
contractions go through BLAS, ``linalg.generic`` bodies are evaluated
vectorized over the iteration space. Importing this package imports numpy, so
the compiler driver imports it only when asked to run something.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import DYNAMIC_INDEX, AnyFloat, IndexType, IntegerType, ModuleOp, TensorType
from xdsl.ir import Operation

from mini_iree.compiler.analysis.functions import functions
from mini_iree.compiler.interpreter.core import (
    InterpreterError,
    make_interpreter,
    numpy_dtype,
    run_block,
    scalar_of,
)
from mini_iree.compiler.ir.diagnostics import SourceLoc

__all__ = [
    "InterpreterError",
    "check_arguments",
    "find_function",
    "make_context",
    "make_interpreter",
    "numpy_dtype",
    "public_functions",
    "run",
    "run_block",
]


def make_context() -> Context:
    """A context with every mini-iree dialect registered (lazily)."""
    from mini_iree.dialects import get_all_dialects

    ctx = Context()
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    return ctx


def public_functions(module: ModuleOp) -> list[Operation]:
    """The functions a caller can run: public ``func.func`` and ``util.func`` ops with a body."""
    return functions(module, public=True, defined=True)


def find_function(module: ModuleOp, name: str) -> Operation:
    defined = functions(module, defined=True)
    for op in defined:
        if op.sym_name.data == name:  # type: ignore[attr-defined]
            return op
    known = ", ".join("@" + op.sym_name.data for op in defined)  # type: ignore[attr-defined]
    raise InterpreterError(None, f"no function named '@{name}' in the module (functions: {known or 'none'})")


def check_arguments(function: Operation, arrays: Sequence[Any]) -> list[Any]:
    """The arguments converted to the interpreter's representation, or an error naming the bad one.

    Tensors must have the argument's element dtype and fit its static
    dimensions; scalars are converted from Python numbers. Arguments of other
    types (``!hal.buffer_view``...) are passed as they are: the ops that import
    them check them.
    """
    name = function.sym_name.data  # type: ignore[attr-defined]
    inputs = list(function.function_type.inputs.data)  # type: ignore[attr-defined]
    if len(arrays) != len(inputs):
        raise InterpreterError(
            function, f"@{name} takes {len(inputs)} argument{'s' if len(inputs) != 1 else ''}, got {len(arrays)}"
        )
    converted = []
    entry = function.regions[0].blocks.first if function.regions else None

    def at(position: int) -> SourceLoc | None:
        # An argument's problem is shown at the argument, as written in the signature.
        return SourceLoc.from_attr(entry.args[position].location) if entry and position < len(entry.args) else None

    for position, (value, type_) in enumerate(zip(arrays, inputs)):
        if isinstance(type_, TensorType):
            array = np.asarray(value)
            dtype = numpy_dtype(type_.element_type)
            shape = type_.get_shape()
            fits = array.ndim == len(shape) and all(d == DYNAMIC_INDEX or d == a for d, a in zip(shape, array.shape))
            if not fits or array.dtype != dtype:
                got = "x".join(map(str, array.shape)) + ("x" if array.ndim else "") + _dtype_name(array.dtype)
                raise InterpreterError(
                    function, f"argument {position} of @{name} must be {type_}, got {got}", at=at(position)
                )
            converted.append(array)
        elif isinstance(type_, IndexType):
            if np.ndim(value) != 0 or not np.issubdtype(np.asarray(value).dtype, np.integer):
                raise InterpreterError(
                    function, f"argument {position} of @{name} must be an index (an integer)", at=at(position)
                )
            converted.append(int(value))
        elif isinstance(type_, (IntegerType, AnyFloat)):
            if np.ndim(value) != 0:
                raise InterpreterError(function, f"argument {position} of @{name} must be a scalar {type_}", at=at(position))
            converted.append(scalar_of(value, type_))
        else:
            converted.append(value)
    return converted


def _dtype_name(dtype: np.dtype) -> str:
    names = {"float32": "f32", "float64": "f64", "float16": "f16", "bfloat16": "bf16", "bool": "i1"}
    if dtype.name in names:
        return names[dtype.name]
    if dtype.kind in "iu":
        return f"{'u' if dtype.kind == 'u' else ''}i{dtype.itemsize * 8}"
    return dtype.name


def parse_module_text(text: str, name: str = "<input>", keep_names: bool = False) -> ModuleOp:
    from mini_iree.compiler.ir.parsing import parse_mlir

    return parse_mlir(make_context(), text, name, keep_names=keep_names)


def run(module_or_text: ModuleOp | str, function_name: str, *arrays: Any) -> list[np.ndarray]:
    """Run ``@function_name`` of a module (parsed, or MLIR text) on numpy arrays.

    Arguments are converted with ``np.asarray``; index and integer scalars may be
    passed as Python numbers. Returns the function's results as a list.
    Raises :class:`InterpreterError` when the program cannot run.
    """
    module = parse_module_text(module_or_text) if isinstance(module_or_text, str) else module_or_text
    function = find_function(module, function_name)
    args = check_arguments(function, arrays)
    interpreter = make_interpreter(module)
    results = interpreter.call_op(function, tuple(args))
    return [np.asarray(r) for r in results]
