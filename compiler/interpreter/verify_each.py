"""Check that every pass keeps a program's results: ``mini-iree-opt --verify-each-with-interpreter``.

Before the pipeline, each public function is run on seeded random inputs; after
every pass it is run again on the same inputs and its results are compared:
exactly for integers, and for floats within a tolerance that grows with the
longest dimension of the inputs (an upper bound on any reduction's length,
since reordering a sum of n terms changes it by about n ulps).

All dynamic dimensions get the same size (``--interpreter-dynamic-size``, or a
seeded random size from 1 to 16), so that dimensions the program requires to
be equal (a matmul's K) are.

What is compared is what the program means, not how it stores it. The data-tiling
passes change storage on purpose (a resolved encoding pads a tensor, codegen
packs it), so the rule is:

- A result that is a tensor, or a ``!hal.buffer_view`` holding one, means its
  logical tensor. An encoded tensor's bytes are the logical tensor, row-major,
  as long as the code that wrote them still works on the encoded type (the
  interpreter's ``stream.tensor.encode`` and ``set_encoding`` keep the logical
  value); once the dispatch that writes it has been materialized (none of its
  bindings has an encoded type any more), they are the layout's storage, and
  the logical tensor is read back through the layout (``encoding_info``
  packing and swizzle, or padding), as IREE's readers of that layout would.
- An integer or index result that is computed from the byte size of a resource
  (``stream.tensor.sizeof``, ``stream.resource.size``, and any arithmetic on
  them) is storage: resolving or serializing an encoding changes it
  legitimately. Such results are found once, in the program before the
  pipeline (later passes replace ``sizeof`` by plain arithmetic), and are not
  compared.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, AnyFloat, IndexType, IntegerType, ModuleOp, NoneAttr, TensorType
from xdsl.ir import Attribute, Operation, SSAValue

from mini_iree.compiler.interpreter import InterpreterError, make_interpreter, public_functions
from mini_iree.compiler.interpreter.core import numpy_dtype, scalar_of
from mini_iree.dialects import iree_encoding, stream


class ResultsChanged(Exception):
    """A pass changed the results of a function (or made it impossible to run)."""

    def __init__(self, op: Operation | None, message: str):
        super().__init__(message)
        self.op = op
        self.message = message


class InputsTooLarge(ResultsChanged):
    """The chosen dynamic size makes the random inputs larger than the check allows (a command-line problem)."""


# The random inputs of one function may take at most this many bytes: the check
# runs the function again after every pass, and its results and intermediates
# take several times as much.
INPUT_BYTES_LIMIT = 1 << 30


def input_bytes(type_: Attribute, dynamic_size: int) -> int:
    """The bytes of a random argument of ``type_`` (0 for types without a tensor)."""
    if not isinstance(type_, TensorType):
        return 0
    count = 1
    for d in type_.get_shape():
        count *= dynamic_size if d == DYNAMIC_INDEX else d
    try:
        return count * numpy_dtype(type_.element_type).itemsize
    except TypeError:
        return 0


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


def _return_ops(function: Operation) -> list[Operation]:
    """The ``func.return``/``util.return`` ops of a function (one per returning block)."""
    ops = []
    for block in function.regions[0].blocks:
        last = block.last_op
        if last is not None and last.name in ("func.return", "util.return"):
            ops.append(last)
    return ops


def storage_size_results(function: Operation) -> frozenset[int]:
    """The indices of the integer results computed from the byte size of a resource."""
    sizes = (stream.TensorSizeOfOp, stream.ResourceSizeOp)
    found: set[int] = set()
    for ret in _return_ops(function):
        for index, value in enumerate(ret.operands):
            # Only integers are followed: a dim read from a buffer view is not a
            # size, even though the buffer's resource was sized by sizeof.
            pending, seen = [value], set()
            while pending:
                current = pending.pop()
                if current in seen or not isinstance(current.type, (IndexType, IntegerType)):
                    continue
                seen.add(current)
                owner = current.owner
                if isinstance(owner, sizes):
                    found.add(index)
                    break
                if isinstance(owner, Operation):
                    pending.extend(owner.operands)
    return frozenset(found)


def _has_encoded_binding(function: Operation) -> bool:
    """Whether a dispatch function still reads or writes a binding of an encoded tensor type."""
    from mini_iree.dialects.iree_tensor_ext import DispatchTensorTypeBase

    for op in function.walk():
        for result in op.results:
            bound = result.type.bound_type if isinstance(result.type, DispatchTensorTypeBase) else None
            if isinstance(bound, TensorType) and not isinstance(bound.encoding, NoneAttr):
                return True
    return False


def _writers(value: SSAValue) -> list[Operation]:
    """The dispatches whose results are the bytes of ``value``.

    Transfers, casts, clones and awaits move bytes without changing them. After
    stream allocation a resource is a `stream.resource.alloca`; its bytes are
    written by the `stream.cmd.dispatch`es of the executions it is handed to.
    """
    while True:
        owner = value.owner
        if isinstance(owner, (stream.AsyncTransferOp, stream.AsyncCastOp, stream.AsyncCloneOp)):
            value = owner.operands[0]
        elif isinstance(owner, stream.TimepointAwaitOp):
            value = owner.resource_operands[list(owner.res).index(value)]
        else:
            break
    if not isinstance(value.owner, stream.ResourceAllocaOp):
        return [value.owner] if isinstance(value.owner, Operation) else []
    writers: list[Operation] = []
    for use in value.uses:
        execute = use.operation
        if not isinstance(execute, stream.CmdExecuteOp):
            continue
        inside = execute.body.block.args[list(execute.resource_operands).index(value)]
        for dispatch in execute.walk():
            if isinstance(dispatch, stream.CmdDispatchOp) and any(
                resource == inside and access != "ro" for resource, access in zip(dispatch.resources, dispatch.accesses)
            ):
                writers.append(dispatch)
    return writers


def _written_as_storage(export: stream.TensorExportOp) -> bool:
    """Whether an exported encoded tensor's bytes are its layout's storage (see the module doc)."""
    from mini_iree.compiler.interpreter.exports import exported_function

    writers = _writers(export.source)
    dispatches = (stream.AsyncDispatchOp, stream.TensorDispatchOp, stream.CmdDispatchOp)
    if not writers or not all(isinstance(w, dispatches) for w in writers):
        return False
    try:
        functions = [exported_function(w, ref) for w in writers for ref in w.entry_points.data]
    except InterpreterError:
        return False
    return not any(_has_encoded_binding(f) for f in functions)


def stored_layouts(function: Operation) -> dict[int, Attribute]:
    """Per result index, the resolved layout an exported encoded tensor is stored in."""
    layouts: dict[int, Attribute] = {}
    for ret in _return_ops(function):
        for index, value in enumerate(ret.operands):
            export = value.owner
            if not isinstance(export, stream.TensorExportOp):
                continue
            type_ = export.source_encoding
            if (
                isinstance(type_, TensorType)
                and isinstance(type_.encoding, iree_encoding.LayoutAttr)
                and _written_as_storage(export)
            ):
                layouts[index] = type_.encoding
    return layouts


def _relayout(layout: iree_encoding.LayoutAttr, shape: tuple[int, ...]):
    """How ``layout`` stores a tensor of ``shape`` (None: as the logical tensor, row-major)."""
    from mini_iree.compiler.layout.iree_encoding import encoding_relayout
    from mini_iree.compiler.layout.padding import padding_relayout
    from mini_iree.dialects.iree_codegen import EncodingResolverAttr

    relayouts = []
    for entry in layout.layouts.data:
        if isinstance(entry, EncodingResolverAttr):
            info = entry.encoding_info
            relayouts.append(None if info is None or info.is_identity() else encoding_relayout(info, shape))
        elif isinstance(entry, iree_encoding.PaddingAttr | iree_encoding.PadEncodingLayoutAttr):
            relayouts.append(padding_relayout(entry.get_padding(), shape))  # type: ignore[arg-type]
        else:
            raise ValueError(f"no known storage for {entry}")
    if len(set(relayouts)) != 1:
        raise ValueError(f"{layout} names several storages")
    return relayouts[0]


def logical_value(result: np.ndarray, layout: iree_encoding.LayoutAttr) -> np.ndarray:
    """The logical tensor an exported result stored in ``layout`` holds.

    ``result`` is the export's view of the first bytes of its resource, in the
    logical shape; the whole resource is the array it views.
    """
    relayout = _relayout(layout, tuple(result.shape))
    if relayout is None or result.size == 0:
        return result
    needed = relayout.padded_elements() * result.dtype.itemsize
    resource = result
    while not (resource.dtype == np.uint8 and resource.ndim == 1 and resource.size >= needed):
        if not isinstance(resource.base, np.ndarray):
            raise ValueError("its resource is not at hand")
        resource = resource.base
    storage = resource[:needed].view(result.dtype)
    return storage[relayout.linear_index(list(np.indices(result.shape)))]


@dataclass
class _Reference:
    name: str
    inputs: list[Any]
    results: list[np.ndarray]
    tolerance_scale: int
    # Results that are byte sizes of resources: storage, never compared.
    sizes: frozenset[int] = frozenset()


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
                self._check_input_size(function, name, types)
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
            try:
                results = _logical_results(function, results)
            except ValueError as err:
                raise ResultsChanged(function, f"cannot check @{name}: {err}") from None
            self.references.append(_Reference(name, inputs, results, max(dims), storage_size_results(function)))

    def _check_input_size(self, function: Operation, name: str, types: list[Attribute]) -> None:
        size = sum(input_bytes(t, self.dynamic_size) for t in types)
        if size > INPUT_BYTES_LIMIT:
            raise InputsTooLarge(
                function,
                f"--interpreter-dynamic-size={self.dynamic_size} makes the random inputs of @{name} "
                f"{size / (1 << 30):.3g} GiB, more than the {INPUT_BYTES_LIMIT >> 30} GiB the check allows",
            )

    # How each run makes its interpreter; a caller may set one that observes the run.
    make_interpreter = staticmethod(make_interpreter)

    def _run(self, module: ModuleOp, name: str, inputs: list[Any]) -> list[np.ndarray]:
        from mini_iree.compiler.interpreter import find_function

        function = find_function(module, name)
        interpreter = self.make_interpreter(module)
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
            try:
                results = _logical_results(function, results)
            except ValueError as err:
                raise ResultsChanged(
                    function, f"pass '{pass_name}' produced IR whose results of @{ref.name} cannot be read: {err}"
                ) from None
            problem = compare(ref.results, results, ref.tolerance_scale, ref.sizes)
            if problem is not None:
                raise ResultsChanged(function, f"pass '{pass_name}' changed the results of @{ref.name}: {problem}")
            largest = max(largest, largest_error(ref.results, results, ref.sizes))
        count = len(self.references)
        return (
            f"verify-each-with-interpreter: pass '{pass_name}' kept the results of {count} "
            f"function{'' if count == 1 else 's'} (largest error {largest:.6g})"
        )


def _logical_results(function: Operation, results: list[np.ndarray]) -> list[np.ndarray]:
    """``results`` with every exported encoded tensor stored in its layout read back as its logical tensor."""
    layouts = stored_layouts(function)
    out = list(results)
    for index, layout in layouts.items():
        if index < len(out):
            try:
                out[index] = logical_value(out[index], layout)
            except ValueError as err:
                raise ValueError(f"result {index} is stored in {layout} and {err}") from None
    return out


# Machine epsilon per float dtype (bf16 keeps 8 significand bits).
_EPSILON = {"float64": 2.0**-52, "float32": 2.0**-23, "float16": 2.0**-10, "bfloat16": 2.0**-7}


def largest_error(expected: list[np.ndarray], actual: list[np.ndarray], skip: frozenset[int] = frozenset()) -> float:
    """The largest absolute difference between results that ``compare`` accepted (NaN = NaN)."""
    largest = 0.0
    for i, (want, got) in enumerate(zip(expected, actual)):
        if i in skip or want.size == 0 or want.shape != got.shape:
            continue
        w, g = want.astype(np.float64).reshape(-1), got.astype(np.float64).reshape(-1)
        both_nan = np.isnan(w) & np.isnan(g)
        with np.errstate(invalid="ignore"):
            diff = np.where(both_nan | (w == g), 0.0, np.abs(w - g))
        largest = max(largest, float(np.nanmax(diff)) if diff.size else 0.0)
    return largest


def compare(
    expected: list[np.ndarray], actual: list[np.ndarray], scale: int, skip: frozenset[int] = frozenset()
) -> str | None:
    """None when ``actual`` matches ``expected``, else what differs (with the largest error).

    The results at the indices in ``skip`` (storage sizes) are not compared.
    """
    if len(expected) != len(actual):
        return f"{len(actual)} results instead of {len(expected)}"
    for i, (want, got) in enumerate(zip(expected, actual)):
        if i in skip:
            continue
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
