"""The tensors a pass introduces, captured on the page's seeded inputs, with where each element came from.

Which tensors: the values made by ops of a relayout or contraction kind
(:data:`CAPTURED_KINDS`) that the pass added, i.e. whose kind has more ops after
the pass than before it. Each such op's value is kept the first time it runs:
its result, or, for an op that writes a memref in place (a bufferized
``map_scatter``), its destination just after it ran.

Where each element came from: the program is run again on inputs whose
elements number themselves (input 0's elements are 0..n0-1 in row-major order,
input 1's continue from n0, ...; each stored plus one, so that 0 stays the
pad value). A relayout only moves elements, so each element of its value is
then the number of the input element it holds, and padding holds the pad
value. The numbers are exact: floats of at least 32 bits hold them as values,
other types as bit patterns (a copy keeps bits). When a type cannot count that
far (an i8 holds 255 numbers), the numbers are written one base-255 digit per
run, in as many runs as it takes (:data:`MAX_RUNS` at most). The numbering is
trusted for a tensor only when it agrees with the seeded run: every numbered
element holds, in the seeded run, the seeded value of the input element its
number names, and every other element holds the same value in every run (the
pad value). Otherwise the tensor was computed (a contraction's result) or
comes from a constant, and only its values are shown.

The runs cost the page little: the seeded one is the interpreter's check after
the pass (its interpreter keeps the values), the numbered ones run only after
passes that introduce such ops, on the same small inputs; at most
:data:`MAX_TENSORS` values are kept per pass, each cut to :data:`MAX_ELEMENTS`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.ir import Operation

from mini_iree.compiler.interpreter.core import NumpyInterpreter

__all__ = [
    "CAPTURED_KINDS",
    "Capture",
    "CapturedTensor",
    "Numbering",
    "captured_tensors",
    "input_tensors",
    "introduced_ops",
    "numbering",
]

# Ops that move elements without computing (their values get origins), and the
# contractions on packed operands data tiling introduces (values only).
RELAYOUT_KINDS = frozenset(
    {
        "linalg.pack",
        "linalg.unpack",
        "linalg.transpose",
        "tensor.expand_shape",
        "tensor.collapse_shape",
        "iree_encoding.set_encoding",
        "iree_encoding.unset_encoding",
        "iree_linalg_ext.map_scatter",
    }
)
CAPTURED_KINDS = RELAYOUT_KINDS | {"linalg.mmt4d", "iree_codegen.inner_tiled"}

MAX_TENSORS = 12  # per pass
MAX_ELEMENTS = 2048  # shown per tensor of known origins: beyond, the leading elements (whole rows)
MAX_COMPUTED_ELEMENTS = 512  # shown per tensor of computed values


@dataclass
class CapturedTensor:
    op: Operation = field(repr=False)
    line: int  # the line of the stage's text the op starts on
    op_name: str
    type_text: str
    shape: tuple[int, ...]
    values: np.ndarray | None = None  # the seeded run's, the whole tensor (cut when shown)
    function: str = ""
    origins: np.ndarray | None = None  # per element: the input element's number (0-based), -1 padding
    # The numbered inputs: name, shape and the number (0-based) of the first element.
    inputs: list[tuple[str, tuple[int, ...], int]] = field(default_factory=list)
    note: str = ""


def introduced_ops(op_lines: dict[Operation, int], before: Counter, after: Counter) -> list[Operation]:
    """The ops of a captured kind whose count the pass increased, in printed order (at most MAX_TENSORS)."""
    kinds = {k for k in CAPTURED_KINDS if after[k] > before[k]}
    if not kinds:
        return []
    ops = sorted((op for op in op_lines if op.name in kinds), key=op_lines.__getitem__)
    return ops[:MAX_TENSORS]


class _CapturingInterpreter(NumpyInterpreter):
    """Keeps a copy of the value of each watched op, the first time it runs, with the run's number."""

    watched: frozenset[Operation] = frozenset()
    kept: dict[Operation, tuple[int, np.ndarray]]
    run = 0

    def _run_op(self, op: Operation, inputs: tuple[Any, ...]):
        result = super()._run_op(op, inputs)
        if op in self.watched and op not in self.kept:
            if op.results:
                value = result.values[0] if result.values else None
            else:  # written in place: the destination, the last memref operand
                value = next((v for v in reversed(inputs) if isinstance(v, np.ndarray)), None)
            if isinstance(value, np.ndarray):
                self.kept[op] = (self.run, np.array(value, copy=True))
        return result


class Capture:
    """Makes interpreters that keep the values of ``ops`` into ``kept``: op -> (run, value).

    Runs are numbered in the order their interpreters are made: the check
    after a pass runs the public functions one after the other, so run k is
    its k-th function.
    """

    def __init__(self, ops: list[Operation]):
        self.watched = frozenset(ops)
        self.kept: dict[Operation, tuple[int, np.ndarray]] = {}
        self.runs = 0

    def make_interpreter(self, module) -> NumpyInterpreter:
        from mini_iree.compiler.interpreter.core import make_interpreter

        interpreter = make_interpreter(module, _CapturingInterpreter)
        interpreter.watched = self.watched  # type: ignore[attr-defined]
        interpreter.kept = self.kept  # type: ignore[attr-defined]
        interpreter.run = self.runs  # type: ignore[attr-defined]
        self.runs += 1
        return interpreter


# -- numbering --------------------------------------------------------------

# Per float dtype of fewer than 32 bits: the unsigned type of its bits, and the
# largest bit pattern below +inf (numbers stay finite and positive).
_BIT_FLOATS = {"float16": (np.uint16, 0x7BFF), "bfloat16": (np.uint16, 0x7F7F)}


def _capacity(dtype: np.dtype) -> int:
    """How many elements a tensor of ``dtype`` can number (1..capacity)."""
    if dtype.kind == "f":
        if dtype.name in _BIT_FLOATS:
            return _BIT_FLOATS[dtype.name][1]
        return (1 << 24) if dtype.itemsize == 4 else (1 << 53)
    if dtype.name in _BIT_FLOATS:
        return _BIT_FLOATS[dtype.name][1]
    if dtype.kind in "iu":
        return (1 << min(8 * dtype.itemsize, 53)) - 1
    return 0


def _encode(numbers: np.ndarray, dtype: np.dtype) -> np.ndarray:
    if dtype.name in _BIT_FLOATS:
        return numbers.astype(_BIT_FLOATS[dtype.name][0]).view(dtype)
    if dtype.kind == "f":
        return numbers.astype(dtype)
    unsigned = np.dtype(f"u{dtype.itemsize}")
    return numbers.astype(unsigned).view(dtype)


def _decode(array: np.ndarray) -> np.ndarray:
    """The numbers an array of a numbered run holds, as int64 (-1 where it holds none)."""
    dtype = array.dtype
    if dtype.name in _BIT_FLOATS:
        return array.view(_BIT_FLOATS[dtype.name][0]).astype(np.int64)
    if dtype.kind == "f":
        with np.errstate(invalid="ignore"):
            whole = np.isfinite(array) & (array == np.round(array)) & (array >= 0)
        return np.where(whole, np.nan_to_num(array), -1).astype(np.int64)
    if dtype.kind in "iu":
        return array.view(np.dtype(f"u{dtype.itemsize}")).astype(np.int64)
    return np.full(array.shape, -1, np.int64)


@dataclass
class Numbering:
    """How the inputs' elements are numbered: element n (0-based, over all inputs in order) is written,
    in run r, as its r-th digit in base ``base``, plus one (0 stays free for padding)."""

    offsets: list[int]  # per input, the number of its first element (-1: not numbered)
    base: int
    runs: int

    def inputs(self, inputs: list[Any], run: int) -> list[Any]:
        """``inputs`` with every numbered array's elements holding their digit of run ``run``."""
        out = []
        for value, first in zip(inputs, self.offsets):
            if first < 0:
                out.append(value)
                continue
            numbers = np.arange(first, first + value.size, dtype=np.int64).reshape(value.shape)
            out.append(_encode((numbers // self.base**run) % self.base + 1, value.dtype))
        return out


MAX_RUNS = 3


def numbering(inputs: list[Any]) -> Numbering | None:
    """How to number the array inputs; None when it would take more than MAX_RUNS runs."""
    offsets, total, base = [], 0, 1 << 53
    for value in inputs:
        if isinstance(value, np.ndarray) and _capacity(value.dtype) > 1:
            offsets.append(total)
            total += value.size
            base = min(base, _capacity(value.dtype))
        else:
            offsets.append(-1)
    runs = 1
    while base**runs < total:
        runs += 1
    return Numbering(offsets, base, runs) if runs <= MAX_RUNS else None


def _same(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Elementwise equality, NaN equal to NaN."""
    equal = a == b
    if a.dtype.kind == "f":
        with np.errstate(invalid="ignore"):
            equal |= np.isnan(a.astype(np.float32)) & np.isnan(b.astype(np.float32))
    return equal


def origins_of(
    seeded: np.ndarray, numbered: list[np.ndarray], inputs: list[Any], numbers: Numbering
) -> np.ndarray | None:
    """Per element the number of the input element it holds, -1 for padding.

    ``numbered`` holds the tensor of each numbered run. None when the runs do
    not tell the same story as the seeded one (the tensor was computed).
    """
    if any(run.shape != seeded.shape or run.dtype != seeded.dtype for run in numbered):
        return None
    digits = [_decode(run) for run in numbered]
    mask = np.ones(seeded.shape, dtype=bool)
    origins = np.zeros(seeded.shape, dtype=np.int64)
    for r, codes in enumerate(digits):
        mask &= (codes >= 1) & (codes <= numbers.base)
        origins += np.where(mask, codes - 1, 0) * numbers.base**r
    if not mask.any():
        return None  # nothing comes from the inputs (a constant's relayout)
    # The seeded value of the input element each number names.
    named = seeded.copy()
    covered = np.zeros(seeded.shape, dtype=bool)
    for value, first in zip(inputs, numbers.offsets):
        if first < 0:
            continue
        flat = np.asarray(value).reshape(-1)
        inside = mask & (origins >= first) & (origins < first + flat.size)
        if inside.any():
            if flat.dtype != seeded.dtype:
                return None
            named[inside] = flat[origins[inside] - first]
            covered |= inside
    if not (covered == mask).all() or not _same(seeded, named)[mask].all():
        return None
    # Padding holds the same value (the pad value) in every run.
    if not all(_same(seeded, run)[~mask].all() for run in numbered):
        return None
    return np.where(mask, origins, -1)


def _numbered_runs(watched: frozenset[Operation], module, ref) -> tuple[list[dict], Numbering] | str:
    """The watched values of the runs of ``ref``'s function on numbered inputs, and the numbering.

    A string says why there are none.
    """
    from mini_iree.compiler.interpreter import find_function

    numbers = numbering(list(ref.inputs))
    if numbers is None:
        return "the inputs have too many elements to number"
    kept = []
    for run in range(numbers.runs):
        capture = Capture(list(watched))
        try:
            capture.make_interpreter(module).call_op(
                find_function(module, ref.name), tuple(numbers.inputs(list(ref.inputs), run))
            )
        except Exception as err:  # numbered inputs may drive a program somewhere random ones do not
            return f"the run on numbered inputs failed ({type(err).__name__})"
        kept.append(capture.kept)
    return kept, numbers


def _argument_names(module, function_name: str, count: int) -> list[str]:
    from mini_iree.compiler.interpreter import find_function

    try:
        args = find_function(module, function_name).regions[0].blocks[0].args
    except Exception:
        args = ()
    return [
        "%" + (args[i].name_hint or f"arg{i}") if i < len(args) else f"%arg{i}"  # type: ignore[union-attr]
        for i in range(count)
    ]


def captured_tensors(
    capture: Capture, references: list, module, op_lines: dict[Operation, int]
) -> list[CapturedTensor]:
    """What ``capture`` kept during the check (whose k-th run was ``references[k]``), with origins."""
    numbered_runs: dict[int, tuple[list[dict], Numbering] | str] = {}
    out = []
    for op in sorted(capture.kept, key=op_lines.__getitem__):
        run, seeded = capture.kept[op]
        if run >= len(references):
            continue
        ref = references[run]
        value_type = op.results[0].type if op.results else op.operands[-1].type
        element = getattr(value_type, "element_type", None)
        shape = tuple(int(d) for d in seeded.shape)
        type_text = "x".join(map(str, shape)) + ("x" if shape else "") + str(element)
        tensor = CapturedTensor(op, op_lines[op], op.name, type_text, shape, seeded, function=ref.name)
        if seeded.size == 0:
            tensor.note = "empty: it has a dimension of size 0"
        elif op.name not in RELAYOUT_KINDS:
            tensor.note = "computed by the contraction (on the packed operands)"
        else:
            if run not in numbered_runs:
                numbered_runs[run] = _numbered_runs(capture.watched, module, ref)
            numbered = numbered_runs[run]
            if isinstance(numbered, str):
                tensor.note = numbered
            else:
                kept, numbers = numbered
                tensor.inputs = [
                    (name, tuple(np.shape(v)), first)
                    for name, v, first in zip(
                        _argument_names(module, ref.name, len(ref.inputs)), ref.inputs, numbers.offsets
                    )
                    if first >= 0
                ]
                if all(op in runs for runs in kept):
                    runs = [runs[op][1] for runs in kept]
                    tensor.origins = origins_of(seeded, runs, list(ref.inputs), numbers)
                if tensor.origins is None:
                    tensor.note = "not copies of the function's input elements (computed, or from a constant)"
        out.append(tensor)
    # What the pass did to the inputs' elements first, then computed values; each in printed order.
    out.sort(key=lambda t: t.origins is None)
    return out


def input_tensors(references: list, module, op_lines: dict[Operation, int]) -> list[CapturedTensor]:
    """The seeded inputs of the check, as the input program's tensors: each element is its own origin."""
    from mini_iree.compiler.interpreter import InterpreterError, find_function

    out = []
    for ref in references:
        numbers = numbering(list(ref.inputs))
        if numbers is None:
            continue
        try:
            function = find_function(module, ref.name)
        except InterpreterError:
            continue
        names = _argument_names(module, ref.name, len(ref.inputs))
        inputs = [(n, tuple(np.shape(v)), f) for n, v, f in zip(names, ref.inputs, numbers.offsets) if f >= 0]
        for name, value, first in zip(names, ref.inputs, numbers.offsets):
            if first < 0:
                continue
            shape = tuple(int(d) for d in value.shape)
            type_text = f"{name}: " + "x".join(map(str, shape)) + ("x" if shape else "") + _element_name(value)
            tensor = CapturedTensor(function, op_lines.get(function, 0), "input", type_text, shape, value, ref.name)
            tensor.origins = np.arange(first, first + value.size, dtype=np.int64).reshape(shape)
            tensor.inputs = inputs
            out.append(tensor)
    return out


def _element_name(value: np.ndarray) -> str:
    names = {"float32": "f32", "float64": "f64", "float16": "f16", "bfloat16": "bf16", "bool": "i1"}
    kind = value.dtype
    if kind.name in names:
        return names[kind.name]
    return f"{'u' if kind.kind == 'u' else ''}i{kind.itemsize * 8}"
