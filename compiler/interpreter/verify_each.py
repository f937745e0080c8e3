"""Check that every pass keeps a program's results: ``mini-iree-opt --verify-each-with-interpreter``.

Before the pipeline, each public function is run on seeded random inputs; after
every pass it is run again on the same inputs and its results are compared:
exactly for integers, and for floats within a tolerance that grows with the
longest dimension of the inputs (an upper bound on any reduction's length,
since reordering a sum of n terms changes it by about n ulps).

All dynamic dimensions get the same size (``--interpreter-dynamic-size``, or a
seeded random size from 1 to 16), so that dimensions the program requires to
be equal (a matmul's K) are.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, AnyFloat, IndexType, IntegerType, ModuleOp, TensorType
from xdsl.ir import Attribute, Operation

from mini_iree.compiler.interpreter import InterpreterError, make_interpreter, public_functions
from mini_iree.compiler.interpreter.core import numpy_dtype, scalar_of


class ResultsChanged(Exception):
    """A pass changed the results of a function (or made it impossible to run)."""

    def __init__(self, op: Operation | None, message: str):
        super().__init__(message)
        self.op = op
        self.message = message


def random_value(type_: Attribute, rng: np.random.Generator, dynamic_size: int) -> Any:
    """A random argument of ``type_``: small integers, normal floats, ``dynamic_size`` for ``?`` and indices."""
    if isinstance(type_, IndexType):
        return dynamic_size
    if isinstance(type_, TensorType):
        shape = [dynamic_size if d == DYNAMIC_INDEX else d for d in type_.get_shape()]
        return _random_array(type_.element_type, shape, rng)
    if isinstance(type_, (IntegerType, AnyFloat)):
        return scalar_of(_random_array(type_, [], rng), type_)
    raise ValueError(f"cannot make a random argument of type {type_}")


def _random_array(element: Attribute, shape: list[int], rng: np.random.Generator) -> np.ndarray:
    dtype = numpy_dtype(element)
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.kind in "iu":
        low = 0 if dtype.kind == "u" else -8
        return rng.integers(low, 8, shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def _imported_type(function: Operation, index: int, type_: Attribute) -> Attribute:
    """The tensor type a ``!hal.buffer_view`` argument is imported as, else ``type_``.

    A public function after ``iree-abi-wrap-entry-points`` takes buffer views; the
    ``hal.tensor.import`` (``stream.tensor.import``) that reads one says which tensor it must hold.
    """
    from mini_iree.dialects import hal

    if not isinstance(type_, hal.BufferViewType):
        return type_
    argument = function.regions[0].blocks[0].args[index]
    from mini_iree.dialects import stream

    for use in argument.uses:
        if isinstance(use.operation, hal.TensorImportOp):
            return use.operation.results[0].type
        # After stream conversion the import names the tensor it reads.
        if isinstance(use.operation, stream.TensorImportOp):
            return use.operation.result_encoding
    raise ValueError(f"argument {index} is a !hal.buffer_view that no hal.tensor.import reads")


@dataclass
class _Reference:
    name: str
    inputs: list[Any]
    results: list[np.ndarray]
    tolerance_scale: int


class ResultChecker:
    """Runs the public functions of a module and compares later runs with the first."""

    def __init__(self, module: ModuleOp, seed: int = 0, dynamic_size: int | None = None):
        self.rng = np.random.default_rng(seed)
        self.dynamic_size = dynamic_size if dynamic_size is not None else int(self.rng.integers(1, 17))
        self.references: list[_Reference] = []
        for function in public_functions(module):
            name = function.sym_name.data  # type: ignore[attr-defined]
            types = list(function.function_type.inputs.data)  # type: ignore[attr-defined]
            try:
                types = [_imported_type(function, i, t) for i, t in enumerate(types)]
                inputs = [random_value(t, self.rng, self.dynamic_size) for t in types]
            except (ValueError, TypeError) as err:
                # TypeError: an element type the interpreter has no numpy type for (i4).
                raise ResultsChanged(function, f"cannot check @{name}: {err}") from None
            dims = [d for v in inputs for d in np.shape(v)] + [1]
            try:
                results = self._run(module, name, inputs)
            except InterpreterError as err:
                raise ResultsChanged(function, f"cannot run @{name} before the pipeline: {err}") from None
            except MemoryError:
                raise ResultsChanged(
                    function, f"cannot run @{name} before the pipeline: it needs more memory than there is"
                ) from None
            self.references.append(_Reference(name, inputs, results, max(dims)))

    @staticmethod
    def _run(module: ModuleOp, name: str, inputs: list[Any]) -> list[np.ndarray]:
        from mini_iree.compiler.interpreter import find_function

        function = find_function(module, name)
        interpreter = make_interpreter(module)
        # Fresh copies: a program that writes into its arguments must not change the reference inputs.
        args = [np.array(v, copy=True) if isinstance(v, np.ndarray) else v for v in inputs]
        return [np.asarray(r) for r in interpreter.call_op(function, tuple(args))]

    def check(self, module: ModuleOp, pass_name: str) -> str:
        """Raise :class:`ResultsChanged` if any function's results differ from the reference.

        Otherwise the one-line summary ``mini-iree-opt`` prints after the pass:
        how many functions were checked and the largest difference seen.
        """
        from mini_iree.compiler.interpreter import find_function

        largest = 0.0
        for ref in self.references:
            try:
                function = find_function(module, ref.name)
            except InterpreterError:
                raise ResultsChanged(module, f"pass '{pass_name}' removed the public function @{ref.name}") from None
            try:
                results = self._run(module, ref.name, ref.inputs)
            except InterpreterError as err:
                raise ResultsChanged(
                    function, f"pass '{pass_name}' produced IR that cannot run @{ref.name}: {err}"
                ) from None
            problem = compare(ref.results, results, ref.tolerance_scale)
            if problem is not None:
                raise ResultsChanged(function, f"pass '{pass_name}' changed the results of @{ref.name}: {problem}")
            largest = max(largest, largest_error(ref.results, results))
        count = len(self.references)
        return (
            f"verify-each-with-interpreter: pass '{pass_name}' kept the results of {count} "
            f"function{'' if count == 1 else 's'} (largest error {largest:.6g})"
        )


# Machine epsilon per float dtype (bf16 keeps 8 significand bits).
_EPSILON = {"float64": 2.0**-52, "float32": 2.0**-23, "float16": 2.0**-10, "bfloat16": 2.0**-7}


def largest_error(expected: list[np.ndarray], actual: list[np.ndarray]) -> float:
    """The largest absolute difference between results that ``compare`` accepted (NaN = NaN)."""
    largest = 0.0
    for want, got in zip(expected, actual):
        if want.size == 0 or want.shape != got.shape:
            continue
        w, g = want.astype(np.float64).reshape(-1), got.astype(np.float64).reshape(-1)
        both_nan = np.isnan(w) & np.isnan(g)
        with np.errstate(invalid="ignore"):
            diff = np.where(both_nan | (w == g), 0.0, np.abs(w - g))
        largest = max(largest, float(np.nanmax(diff)) if diff.size else 0.0)
    return largest


def compare(expected: list[np.ndarray], actual: list[np.ndarray], scale: int) -> str | None:
    """None when ``actual`` matches ``expected``, else what differs (with the largest error)."""
    if len(expected) != len(actual):
        return f"{len(actual)} results instead of {len(expected)}"
    for i, (want, got) in enumerate(zip(expected, actual)):
        if want.shape != got.shape:
            return f"result {i} has shape {list(got.shape)} instead of {list(want.shape)}"
        if want.dtype != got.dtype:
            return f"result {i} has element type {got.dtype} instead of {want.dtype}"
        if want.size == 0:
            continue
        if want.dtype.kind in "biu":
            diff = np.abs(want.astype(np.int64) - got.astype(np.int64))
            if diff.any():
                where = np.unravel_index(int(diff.argmax()), want.shape)
                return (
                    f"largest error {int(diff.max())} in result {i} at {list(map(int, where))} "
                    f"(expected {want[where]}, got {got[where]})"
                )
            continue
        # Flattened, so that rank-0 results index like any other.
        w, g = want.astype(np.float64).reshape(-1), got.astype(np.float64).reshape(-1)
        eps = _EPSILON.get(want.dtype.name, float(np.finfo(np.float32).eps))
        tolerance = 4 * scale * eps * max(1.0, float(np.nanmax(np.abs(w))))
        diff = np.abs(w - g)
        diff[np.isnan(w) & np.isnan(g)] = 0
        diff[np.isnan(w) != np.isnan(g)] = np.inf
        if (diff > tolerance).any():
            flat = int(diff.argmax())
            where = np.unravel_index(flat, want.shape)
            return (
                f"largest error {float(diff.max()):.6g} in result {i} at {list(map(int, where))} "
                f"(expected {float(w[flat]):.6g}, got {float(g[flat]):.6g}; tolerance {tolerance:.3g})"
            )
    return None
