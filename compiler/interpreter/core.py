"""The interpreter's core: value representation, errors, and how blocks run.

The interpreter is built on xDSL's framework (``xdsl.interpreter``): each
dialect's ops are implemented in an ``InterpreterFunctions`` class (one module
per dialect, listed in ``registry.py``), and values are plain Python objects.
What this module adds:

* the value representation every implementation agrees on:

  - a ranked tensor is a numpy ``ndarray`` with the tensor's shape and element
    dtype (:func:`numpy_dtype`); a tensor with an encoding holds its *logical*
    array until an op materializes it. Tensors are values: an op never writes
    into a tensor's array (it may be a view of another tensor, or a read-only
    broadcast, as ``tensor.empty`` and ``linalg.fill`` produce); an op that
    needs a modified tensor copies it first;
  - a memref is an ``ndarray`` view (``memref.store`` writes into it);
  - an ``index`` is a Python ``int``; an integer or float scalar is a numpy
    scalar of its element dtype. Inside vectorized bodies (``linalg.generic``,
    ``map_scatter``) block arguments are bound to whole arrays or index grids,
    so every scalar op must also work elementwise on arrays;

* :class:`InterpreterError`, which names the op and its source location, and
  an interpreter that turns any failure inside an op into one (never a bare
  Python traceback, never xDSL's print-the-whole-module diagnostic; running
  out of memory is "needs more memory than there is" at the op). A call runs
  with numpy's floating-point warnings off: overflow and invalid operations
  give IEEE infinities and NaNs, silently, as the program's types say;
* :func:`run_block`, used by every op with a body (linalg, scf, dispatch
  regions), and :func:`make_interpreter`. A block is prepared once per
  interpreter into a plan (its ops, each resolved to its implementation);
  scalar integer and index ops run through fast paths (:data:`FAST_PATHS`)
  that give the same values as their implementations, and ops whose results
  depend on their attributes alone run once (:func:`_block_steps`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    ModuleOp,
    Signedness,
)
from xdsl.interpreter import Interpreter, OpImplResult, ReturnedValues, Successor
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from mini_iree.compiler.ir.diagnostics import SourceLoc
from mini_iree.compiler.interpreter.registry import modules_for

__all__ = [
    "FAST_PATHS",
    "InterpreterError",
    "NumpyInterpreter",
    "make_interpreter",
    "numpy_dtype",
    "op_source_location",
    "run_block",
    "run_region",
    "constant_value",
    "element_type",
    "scalar_of",
]


def numpy_dtype(type_: Attribute) -> np.dtype:
    """The numpy dtype that holds values of the MLIR element type ``type_``.

    Signless integers are held as signed numpy integers; the ops that read them
    unsigned (``extui``, ``divui``, ``cmpi ult``...) reinterpret the bits.
    """
    # Exact classes first: every scalar op asks, and `isinstance` against
    # xDSL's attribute classes (ABCs) costs microseconds when it fails.
    fixed = _FIXED_DTYPES.get(type(type_))
    if fixed is not None:
        return fixed
    if isinstance(type_, IndexType):
        return np.dtype(np.int64)
    if isinstance(type_, IntegerType):
        width = type_.width.data
        if width == 1:
            return np.dtype(np.bool_)
        if width not in (8, 16, 32, 64):
            raise TypeError(f"no numpy dtype for integer type {type_}")
        unsigned = type_.signedness.data == Signedness.UNSIGNED
        return np.dtype(f"{'u' if unsigned else 'i'}{width // 8}")
    if isinstance(type_, Float16Type):
        return np.dtype(np.float16)
    if isinstance(type_, Float32Type):
        return np.dtype(np.float32)
    if isinstance(type_, Float64Type):
        return np.dtype(np.float64)
    if isinstance(type_, BFloat16Type):
        import ml_dtypes

        return np.dtype(ml_dtypes.bfloat16)
    small = _SMALL_FLOATS.get(type(type_).__name__)
    if small is not None:
        # The narrow floats of MX and FP8 (scaled matmuls, quantized models): ml_dtypes has them all.
        import ml_dtypes

        return np.dtype(getattr(ml_dtypes, small))
    raise TypeError(f"no numpy dtype for element type {type_}")


# xDSL float type class -> its ml_dtypes name (looked up by name: the classes need not be imported).
_SMALL_FLOATS: dict[str, str] = {
    "Float4E2M1FNType": "float4_e2m1fn",
    "Float6E2M3FNType": "float6_e2m3fn",
    "Float6E3M2FNType": "float6_e3m2fn",
    "Float8E3M4Type": "float8_e3m4",
    "Float8E4M3Type": "float8_e4m3",
    "Float8E4M3FNType": "float8_e4m3fn",
    "Float8E4M3FNUZType": "float8_e4m3fnuz",
    "Float8E4M3B11FNUZType": "float8_e4m3b11fnuz",
    "Float8E5M2Type": "float8_e5m2",
    "Float8E5M2FNUZType": "float8_e5m2fnuz",
    "Float8E8M0FNUType": "float8_e8m0fnu",
}


_FIXED_DTYPES: dict[type, np.dtype] = {
    IndexType: np.dtype(np.int64),
    Float16Type: np.dtype(np.float16),
    Float32Type: np.dtype(np.float32),
    Float64Type: np.dtype(np.float64),
}


def op_source_location(op: Operation | None) -> SourceLoc | None:
    """The source location of ``op``, or of its nearest located ancestor."""
    while op is not None:
        loc = SourceLoc.from_attr(getattr(op, "location", None))
        if loc is not None:
            return loc
        op = op.parent_op()
    return None


class InterpreterError(Exception):
    """A program could not be run: the message names the op and where it is.

    ``str(error)`` reads ``FILE:LINE:COL: error: 'dialect.op' op message`` when
    the op has a source location (as every parsed op has), like the compiler's
    own diagnostics, so command-line tools can print it as it is.
    """

    def __init__(self, op: Operation | None, message: str, *, at: SourceLoc | None = None):
        self.op = op
        self.message = message
        # ``at``: a more precise place than the op's (the argument a bad input is for).
        self.loc = at or op_source_location(op)
        super().__init__(self._format())

    @property
    def text(self) -> str:
        return f"'{self.op.name}' op {self.message}" if self.op is not None else self.message

    def _format(self) -> str:
        return f"{self.loc}: error: {self.text}" if self.loc is not None else f"error: {self.text}"


class NumpyInterpreter(Interpreter):
    """xDSL's interpreter with op dispatch that reports errors as :class:`InterpreterError`.

    xDSL's own dispatch answers a failure by printing the whole module around
    the op; here a missing implementation or a failing one becomes a one-line
    error at the op's source location.
    """

    # Whether repeated calls with arguments of the same kind are replayed (``replay.py``).
    replay_calls = True
    # The recorder watching the current call, if it is being recorded.
    _recorder: Any = None

    def _run_op(self, op: Operation, inputs: tuple[Any, ...]) -> OpImplResult:
        return _invoke(self, op, self._impls._impl_dict.get(type(op)), inputs)  # pyright: ignore[reportPrivateUsage]

    def call_op(self, op: Operation | str, inputs: tuple[Any, ...] = ()) -> tuple[Any, ...]:  # type: ignore[override]
        """Call a function op (``func.func``, ``util.func``...) on Python values."""
        if not isinstance(op, Operation):
            op = self.get_op_for_symbol(op)
        if type(op) not in self._impls._callable_impl_dict:  # pyright: ignore[reportPrivateUsage]
            raise InterpreterError(op, "cannot be called: no interpreter implementation for this kind of function")
        depth = getattr(self, "_call_depth", 0)
        self._call_depth = depth + 1
        try:
            # Float overflow and invalid operations give IEEE infinities and NaNs, and integers
            # wrap, as the program's types say: that is the result, not something to warn about.
            with np.errstate(all="ignore"):
                if depth == 0 and self.replay_calls and type(self)._run_op is NumpyInterpreter._run_op:
                    return self._call_or_replay(op, tuple(inputs))
                return tuple(super().call_op(op, inputs))
        finally:
            self._call_depth = depth
            if depth == 0:
                # What a call knew about its buffers (relayout_origins.py) ends with it:
                # the caller may change its arrays before the next call.
                origins = getattr(self, "_relayout_origins", None)
                if origins is not None:
                    origins.clear()

    def _call_or_replay(self, op: Operation, inputs: tuple[Any, ...]) -> tuple[Any, ...]:
        """A call from outside: replayed when an earlier call with arguments of the same kind was
        recorded, recorded when it is the second such call (``replay.py``), else interpreted.
        Calls are counted from the interpreter's second call on: a program run once (a tool's
        run) does not even load the replay machinery."""
        replays = self.__dict__.get("_call_replays")
        if replays is None:
            if not self.__dict__.get("_called"):
                self._called = True
                return tuple(super().call_op(op, inputs))
            from mini_iree.compiler.interpreter.replay import CallReplays

            replays = self._call_replays = CallReplays()
        key = replays.key(op, inputs)
        if key is not None:
            replay = replays.replay(key)
            if replay is not None:
                return replay.run(self, inputs, _invoke)
            recorder = replays.recorder(key, inputs)
            if recorder is not None:
                self._recorder = recorder
                try:
                    results = tuple(super().call_op(op, inputs))
                finally:
                    self._recorder = None
                replays.recorded(key, recorder, results)
                return results
        return tuple(super().call_op(op, inputs))


def _invoke(interpreter: Interpreter, op: Operation, entry: Any, inputs: tuple[Any, ...]) -> OpImplResult:
    """Run ``op``'s implementation ``entry`` (``(functions, implementation)``, or None when it has none)."""
    if entry is None:
        raise InterpreterError(op, "has no interpreter implementation")
    functions, implementation = entry
    try:
        return implementation(functions, interpreter, op, inputs)
    except InterpreterError:
        raise
    except KeyboardInterrupt:
        raise
    except MemoryError as error:
        # numpy says how much it tried to allocate; the op says where the program asked for it.
        detail = f" ({error})" if str(error) else ""
        raise InterpreterError(op, f"needs more memory than there is{detail}") from None
    except Exception as error:  # a numpy failure or an unsupported case
        raise InterpreterError(op, f"failed: {type(error).__name__}: {error}") from error


def run_block(
    interpreter: Interpreter,
    block: Block,
    args: Sequence[Any],
    at_terminator: Callable[[Operation], tuple[Any, ...]] | None = None,
) -> tuple[Any, ...]:
    """Run ``block`` with its arguments bound to ``args``; return the terminator's operands.

    The block's values live in a fresh scope, so the same block can run many
    times (loop bodies) and still see the values of enclosing regions. The
    terminator itself is not interpreted: whatever op ends the block
    (``linalg.yield``, ``scf.yield``, ``flow.return``...), its operand values
    are the block's results. An op whose terminator has a body of its own
    (``scf.forall``'s ``scf.in_parallel``) passes ``at_terminator``, called with
    the terminator while the block's values are still in scope; its return
    value is then the block's result.
    """
    if len(block.args) != len(args):
        raise InterpreterError(
            block.parent_op(), f"body expects {len(block.args)} arguments, got {len(args)}"
        )
    steps, terminator = _block_steps(interpreter, block)
    interpreter.push_scope("block")
    try:
        ctx = interpreter._ctx  # pyright: ignore[reportPrivateUsage]
        returned = _run_steps(interpreter, block, args, steps)
        if returned is not None:
            return returned
        if terminator is None:
            return ()
        if at_terminator is not None:
            return at_terminator(terminator)
        return tuple([_lookup(ctx, v) for v in terminator.operands])
    finally:
        interpreter.pop_scope()


def run_region(interpreter: Interpreter, region: Region, args: Sequence[Any]) -> tuple[Any, ...]:
    """Run a function body: its entry block, then the blocks ``cf.br``/``cf.cond_br`` branch to.

    A single-block body is :func:`run_block`. With several blocks, all of them
    share one scope, since a value defined in a block is visible in every block
    it dominates; a block entered again (a loop) rebinds its values. The
    function returns the operands of the first terminator that is not a branch.
    """
    if len(region.blocks) == 1:
        return run_block(interpreter, region.block, args)
    # Only a body with branches needs xDSL's cf dialect (a noticeable import at start-up).
    from xdsl.dialects import cf

    block = region.first_block
    if block is None:
        raise InterpreterError(region.parent_op(), "function body has no blocks")
    interpreter.push_scope("region")
    try:
        ctx = interpreter._ctx  # pyright: ignore[reportPrivateUsage]
        while True:
            if len(block.args) != len(args):
                raise InterpreterError(
                    block.parent_op(), f"block expects {len(block.args)} arguments, got {len(args)}"
                )
            steps, terminator = _block_steps(interpreter, block)
            returned = _run_steps(interpreter, block, args, steps)
            if returned is not None:
                return returned
            if isinstance(terminator, cf.BranchOp):
                block, operands = terminator.successor, terminator.arguments
            elif isinstance(terminator, cf.ConditionalBranchOp):
                taken = bool(_lookup(ctx, terminator.cond))
                block = terminator.then_block if taken else terminator.else_block
                operands = terminator.then_arguments if taken else terminator.else_arguments
            elif terminator is not None and not terminator.successors:
                return tuple([_lookup(ctx, v) for v in terminator.operands])
            else:
                raise InterpreterError(
                    terminator or block.parent_op(), "only cf.br and cf.cond_br branches between blocks are supported"
                )
            args = tuple([_lookup(ctx, v) for v in operands])
    finally:
        interpreter.pop_scope()


def _run_steps(interpreter: Interpreter, block: Block, args: Sequence[Any], steps: list) -> tuple[Any, ...] | None:
    """Bind ``block``'s arguments and run its ops (not its terminator) in the current scope.

    Returns the returned values when an op with its own terminator
    implementation (e.g. ``func.return``) ends the run, else None.
    """
    ctx = interpreter._ctx  # pyright: ignore[reportPrivateUsage]
    local = ctx._local_scope  # pyright: ignore[reportPrivateUsage]
    for arg, value in zip(block.args, args):
        local[arg] = value
    # A subclass observing the ops it runs (the walkthrough's) gets each one through its _run_op.
    observed = type(interpreter)._run_op is not NumpyInterpreter._run_op  # pyright: ignore[reportPrivateUsage]
    get = local.get
    recorder = interpreter._recorder if not observed else None  # pyright: ignore[reportAttributeAccessIssue]
    for index, (op, operands, results, fast, entry, memoize) in enumerate(steps):
        # Most operands are defined in this block: one hash, no call; others are looked up outward.
        inputs = tuple([x if (x := get(v, _MISSING)) is not _MISSING else _lookup(ctx, v) for v in operands])
        if fast is not None:
            try:
                values = fast(inputs)
            except Exception:  # not a case it handles after all: the implementation decides
                values = None
            if values is not None:
                for res, value in zip(results, values):
                    local[res] = value
                continue
        if recorder is not None:
            if recorder.depth == 0:
                result = recorder.run(interpreter, op, entry, inputs, _invoke)
            else:
                recorder.inside_action(op)
                result = _invoke(interpreter, op, entry, inputs)
        elif observed:
            result = interpreter._run_op(op, inputs)  # pyright: ignore[reportPrivateUsage]
        else:
            result = _invoke(interpreter, op, entry, inputs)
        if result.terminator_value is not None:
            # A terminator with its own implementation (e.g. func.return).
            if isinstance(result.terminator_value, ReturnedValues):
                return tuple(result.terminator_value.values)
            if isinstance(result.terminator_value, Successor):
                raise InterpreterError(op, "branches between blocks are not supported")
        values = result.values
        for res, value in zip(results, values):
            local[res] = value
        if memoize and not observed and all(type(v) in _IMMUTABLE_SCALARS for v in values):
            # Values of the op's attributes alone: the next run reuses them.
            known = tuple(values)
            steps[index] = (op, operands, results, lambda _inputs, known=known: known, entry, False)
    return None


# Result types a memoized op may share between runs: nothing can write into them.
_IMMUTABLE_SCALARS = frozenset(
    {int, float, bool, np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
     np.float16, np.float32, np.float64}
)


_MISSING = object()


def _lookup(ctx: Any, value: SSAValue) -> Any:
    """``ctx[value]`` for xDSL's ``ScopedDict``, with one hash per scope instead of two."""
    scope = ctx
    while scope is not None:
        found = scope._local_scope.get(value, _MISSING)  # pyright: ignore[reportPrivateUsage]
        if found is not _MISSING:
            return found
        scope = scope.parent
    raise KeyError(f"No value for key {value}")


# A fast path of one op: its results from its operand values, or None when the
# values are not the kind it handles (the op's implementation then runs).
FastPath = Callable[[tuple[Any, ...]], "tuple[Any, ...] | None"]

# Op class -> a function making the fast path of one op of that class (or None
# for an op it does not handle). Filled by implementation modules (arith_ops,
# affine_ops) for ops on scalars: integer and index arithmetic costs a few
# microseconds in Python, but tens through the general array-or-scalar path,
# and a dispatch's host code and index computations are mostly such ops.
# A fast path must give exactly the values the op's implementation gives.
FAST_PATHS: dict[type[Operation], Callable[[Operation], FastPath | None]] = {}

# Ops whose results are a function of their attributes alone, by name (besides
# ConstantLike ops): the HAL's element and encoding type codes.
ATTRIBUTE_ONLY_OPS: set[str] = {"hal.element_type", "hal.encoding_type"}

# One op of a block's plan: the op, its operand and result values, its fast path,
# its implementation (``(functions, implementation)`` as registered, or None), and
# whether its scalar results may be kept after its first run.
_Step = tuple[Operation, tuple[SSAValue, ...], tuple[SSAValue, ...], "FastPath | None", Any, bool]
_Steps = tuple[list[_Step], Operation | None]


def _block_steps(interpreter: Interpreter, block: Block) -> _Steps:
    """A block's plan: the ops ``run_block`` runs, each resolved to what runs it, and the terminator it reads.

    Prepared once per block and interpreter, so that running the block again (a
    loop body, a dispatch, the next call of a function) does not look anything
    up: walking the op list through xDSL's linked-list properties, finding each
    op's implementation and fast path cost more than many of the ops
    themselves. An op without operands whose results depend on its attributes
    only (``ATTRIBUTE_ONLY_OPS``, ConstantLike ops) and are scalars runs once;
    later runs reuse its results.
    """
    cache: dict[Block, _Steps] | None = getattr(interpreter, "_block_steps", None)
    if cache is None:
        cache = {}
        interpreter._block_steps = cache  # type: ignore[attr-defined]
    steps = cache.get(block)
    if steps is None:
        ops = list(block.ops)
        terminator = ops.pop() if ops and _is_terminator(ops[-1]) else None
        impls = interpreter._impls._impl_dict  # pyright: ignore[reportPrivateUsage]
        steps = (
            [
                (op, tuple(op.operands), tuple(op.results), _fast_path(op), impls.get(type(op)), _attribute_only(op))
                for op in ops
            ],
            terminator,
        )
        cache[block] = steps
    return steps


def _attribute_only(op: Operation) -> bool:
    if op.operands or op.regions or not op.results:
        return False
    if op.name in ATTRIBUTE_ONLY_OPS:
        return True
    from xdsl.traits import ConstantLike

    return op.has_trait(ConstantLike)


def _fast_path(op: Operation) -> FastPath | None:
    maker = FAST_PATHS.get(type(op))
    return maker(op) if maker is not None else None


def _is_terminator(op: Operation) -> bool:
    from xdsl.traits import IsTerminator

    return op.has_trait(IsTerminator)


def make_interpreter(module: ModuleOp, cls: type[NumpyInterpreter] = NumpyInterpreter) -> NumpyInterpreter:
    """An interpreter for ``module`` with the implementations of the dialects it uses registered.

    Only the implementation modules of dialects that appear in ``module`` are
    imported (``registry.py``); modules that do not exist yet are skipped. The
    module must not change while the interpreter runs it (blocks' op lists are
    read once, see :func:`run_block`). ``cls`` may be a subclass that observes
    the ops it runs (the walkthrough keeps the tensors some ops make).
    """
    interpreter = cls(module)
    for module_name in modules_for({op.name for op in module.walk()}):
        try:
            implementation = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name == module_name:
                continue
            raise
        for functions in getattr(implementation, "FUNCTIONS", ()):
            interpreter.register_implementations(functions(), override=True)
    return interpreter


# -- values shared by several dialects ---------------------------------------


_SCALAR_TYPES = frozenset({IntegerType, IndexType, Float16Type, Float32Type, Float64Type, BFloat16Type})


def element_type(type_: Attribute) -> Attribute:
    """The element type of a shaped type (tensor, memref, vector), or the type itself."""
    from xdsl.dialects.builtin import ShapedType

    if type(type_) in _SCALAR_TYPES:  # the common case, without an ABC `isinstance`
        return type_
    if isinstance(type_, ShapedType) and hasattr(type_, "element_type"):
        return type_.element_type  # type: ignore[attr-defined]
    return type_


def scalar_of(value: Any, type_: Attribute) -> Any:
    """The canonical representation of a scalar of ``type_`` (or of an elementwise array).

    ``index`` scalars are Python ints, other scalars numpy scalars of the element
    dtype; arrays (vectorized bodies, tensors) keep their shape and take the dtype.
    """
    if type(type_) is IndexType or (type(type_) not in _SCALAR_TYPES and isinstance(type_, IndexType)):
        if np.ndim(value) == 0:
            return int(value)
        return np.asarray(value, dtype=np.int64)
    array = np.asarray(value)
    dtype = numpy_dtype(type_)
    if array.dtype != dtype:
        array = array.astype(dtype)
    return array[()] if array.ndim == 0 else array


def constant_value(op: Operation, attr: Attribute, type_: Attribute) -> Any:
    """The Python value of a constant attribute of type ``type_`` (arith.constant, util.global...).

    Dense elements become an ``ndarray`` of the tensor's shape straight from
    their bytes (splats are stored expanded); integers and floats become scalars.
    """
    from xdsl.dialects.builtin import (
        DenseIntOrFPElementsAttr,
        DenseResourceAttr,
        FloatAttr,
        IntegerAttr,
        ShapedType,
    )

    if isinstance(attr, DenseIntOrFPElementsAttr):
        shaped = attr.type
        elem = shaped.get_element_type()
        shape = tuple(shaped.get_shape())
        raw = attr.data.data
        if isinstance(elem, IntegerType) and elem.width.data == 1:
            array = np.frombuffer(raw, dtype=np.int8) != 0
        elif isinstance(elem, IndexType):
            array = np.frombuffer(raw, dtype=np.int64)
        else:
            array = np.frombuffer(raw, dtype=numpy_dtype(elem))
        count = int(np.prod(shape, dtype=np.int64))
        if array.size == 1 and count != 1:
            array = np.full(shape, array[0])
        # A writable copy: tensors are values, and memrefs built from them are written.
        return array.reshape(shape).copy()
    if isinstance(attr, DenseResourceAttr):
        raise InterpreterError(
            op,
            f"cannot run a constant with elided data (dense_resource<{attr.resource_handle.data}>); "
            "re-generate the input with the data printed",
        )
    if isinstance(attr, IntegerAttr):
        value = attr.value.data
        if isinstance(type_, ShapedType):
            return np.full(tuple(type_.get_shape()), value, dtype=numpy_dtype(element_type(type_)))
        if isinstance(type_, IntegerType) and type_.width.data == 1:
            return np.bool_(value != 0)
        if isinstance(type_, IntegerType):
            # Attributes may spell an unsigned bit pattern (e.g. 255 : i8): wrap it.
            mask = (1 << type_.width.data) - 1
            return np.array(value & mask).astype(numpy_dtype(type_))[()]
        return scalar_of(value, type_)
    if isinstance(attr, FloatAttr):
        value = attr.value.data
        if isinstance(type_, ShapedType):
            return np.full(tuple(type_.get_shape()), value, dtype=numpy_dtype(element_type(type_)))
        return scalar_of(value, type_)
    raise InterpreterError(op, f"cannot run a constant of attribute kind {attr.name}")


def mixed_ints(interpreter: Interpreter, static: Sequence[int], dynamic: Sequence[Any]) -> list[int]:
    """Static entries with each dynamic marker replaced by the next dynamic SSA value's int.

    The ``static_offsets``/``offsets`` pattern of slices, pads, packs and shapes.
    """
    from xdsl.dialects.builtin import DYNAMIC_INDEX

    values = iter(interpreter.get_values(dynamic))
    return [int(next(values)) if s == DYNAMIC_INDEX else int(s) for s in static]


def result_shape(interpreter: Interpreter, type_: Attribute, dynamic_sizes: Sequence[Any]) -> tuple[int, ...]:
    """The runtime shape of a shaped type whose ``?`` dims are given by ``dynamic_sizes`` (SSA values)."""
    return tuple(mixed_ints(interpreter, type_.get_shape(), dynamic_sizes))  # type: ignore[attr-defined]
