"""Repeated calls replayed from a recording of an earlier call with arguments of the same kind.

A program called again and again on arguments of the same shapes (a serving
loop, a benchmark) interprets the same ops every time: push constant loads,
index arithmetic, binding views and dispatch set-up decide nothing new, yet at
small sizes they cost more than the work. So the second call with a given
*signature* (each argument's shape, dtype, strides and flags, each scalar's
value) is recorded, and later calls with that signature replay the recording:

* an op on scalars alone without side effects (or one reading only a
  dispatch's push constants, or only an array's shape) is *folded*: every
  scalar of a recorded call is a function of its signature (see below), so
  its values are the same next time;
* an op that only makes views (a binding subspan, a load of a read-only
  buffer, an import, a transfer) is folded as well: each array it makes is
  found again, by address, as a strided view of one of the call's *roots*
  (an argument, or the memory an action allocated);
* execution regions and dispatches are *transparent*: they run their bodies,
  whose ops are recorded in turn;
* every other op is an *action*: at replay its implementation runs again, on
  the values it read when recorded (its operands and every value from outside
  its regions its implementation looked up), rebuilt from this call's roots,
  with nothing else in scope.

The recording is then simplified. An action whose writes nobody reads later
and whose values nobody uses is dropped: an encoding dispatch's pack, when
the matmul reads the packed buffer as a view of the source instead
(``relayout_origins.py``). An allocation whose memory does not leave the call
is made once and reused, like the transient buffers of IREE's runtime. An
action reading only constants that makes read-only values (``tensor.empty``,
a ``linalg.fill`` of a constant) runs once.

The recording gives up, and calls with that signature are interpreted as
before, at anything it cannot represent: a scalar an action computed (from
tensor data, so control flow may depend on it), a value of a kind not known to
be immutable, memory not reached from a root, a dispatch's context read inside
an action, a recording grown too long.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from xdsl.ir import Operation
from xdsl.utils.scoped_dict import ScopedDict

from mini_iree.compiler.interpreter.relayout_view import _byte_extent

__all__ = ["CONTEXT_OPS", "CallReplays", "Recorder", "Replay", "recording", "replay_as", "signature"]

# Ops whose implementation runs their regions and passes values along, nothing else:
# the ops inside are recorded one by one.
TRANSPARENT_OPS = frozenset(
    {"stream.cmd.execute", "stream.cmd.dispatch", "stream.cmd.serial", "stream.cmd.concurrent", "stream.async.execute"}
)

# Ops reading only the shape, dtype or existence of their array operands: folded like scalar ops.
SHAPE_OPS = frozenset(
    {
        "hal.buffer_view.dim",
        "hal.buffer_view.rank",
        "hal.buffer_view.assert",
        "hal.buffer_view.element_type",
        "hal.buffer_view.encoding_type",
        "tensor.dim",
        "tensor.rank",
        "memref.dim",
        "memref.rank",
        "stream.resource.size",
        "stream.resource.dealloca",
        "stream.timepoint.join",
        "stream.timepoint.barrier",
    }
)

# Ops reading a dispatch's context (its push constants and bindings), which is gone when an
# action runs again: inside an action they make the recording give up.
CONTEXT_OPS = frozenset({"hal.interface.constant.load", "hal.interface.binding.subspan"})
# Scalar ops without side effects that xDSL does not know as such, folded like pure ones: push
# constant loads (a dispatch's, read at depth 0), type codes, workload ordinals, assumptions.
_FOLDABLE_OPS = frozenset(
    {"hal.interface.constant.load", "hal.element_type", "hal.encoding_type", "iree_tensor_ext.dispatch.workload.ordinal",
     "util.assume.int"}
)

# Ops that make views of their operands' memory (or of a dispatch binding) and never
# write: folded when what they return is found in a root, recorded as actions otherwise
# (a copy they made reads its source).
VIEW_OPS = frozenset(
    {
        "hal.interface.binding.subspan",
        "iree_codegen.load_from_buffer",
        "stream.tensor.import",
        "stream.tensor.export",
        "stream.async.transfer",
        "stream.async.cast",
        "stream.timepoint.await",
        "stream.resource.subview",
        "hal.tensor.import",
        "hal.tensor.export",
        "hal.tensor.barrier",
        "memref.subview",
        "memref.reinterpret_cast",
        "memref.cast",
        "memref.expand_shape",
        "memref.collapse_shape",
        "tensor.extract_slice",
        "tensor.expand_shape",
        "tensor.collapse_shape",
        "tensor.cast",
        "util.optimization_barrier",
    }
)

# Allocations: when their memory does not leave the call, made once and reused.
ALLOCATION_OPS = frozenset(
    {"stream.resource.alloca", "stream.async.alloca", "stream.tensor.empty", "tensor.empty", "memref.alloc",
     "memref.alloca"}
)

# Dialects whose ops affect nothing but memory reachable from their operands: an action
# made of them (with everything in its regions) may be dropped when nobody reads its writes.
_MEMORY_ONLY_DIALECTS = frozenset(
    {"arith", "math", "affine", "scf", "memref", "tensor", "linalg", "iree_linalg_ext", "iree_codegen", "vector",
     "iree_tensor_ext", "iree_encoding", "ub", "bufferization", "index"}
)

# Values passed along as constants: immutable and compared by value.
_CONSTANT_TYPES = (int, float, bool, complex, str, bytes, type(None), np.generic)

# A recording longer than this gives up (a loop of dispatches unrolled into the recording).
MAX_ACTIONS = 4096
# At most this many signatures of one function are kept.
MAX_SIGNATURES = 8


class _GiveUp(Exception):
    """The call cannot be replayed; the message says why."""


def signature(args: Sequence[Any]) -> tuple | None:
    """What a recording depends on in the arguments, or None when one cannot be described.

    Arrays must be C-contiguous and share no memory with each other (a recording cannot
    tell which of two aliased arguments an op read).
    """
    parts = []
    arrays: list[np.ndarray] = []
    for arg in args:
        if isinstance(arg, np.ndarray):
            if not arg.flags.c_contiguous or arg.dtype.hasobject:
                return None
            if any(np.may_share_memory(arg, other) for other in arrays):
                return None
            arrays.append(arg)
            flags = arg.flags
            parts.append((arg.shape, arg.dtype.str, arg.strides, flags.writeable, flags.aligned))
        elif isinstance(arg, _CONSTANT_TYPES) and not isinstance(arg, (float, np.floating, complex)):
            parts.append((type(arg), arg))
        elif isinstance(arg, (float, np.floating)) and not np.isnan(arg):
            parts.append((type(arg), float(arg).hex()))  # -0.0 and 0.0 differ
        else:
            return None
    return tuple(parts)


def _owner(array: np.ndarray) -> np.ndarray:
    """The array owning ``array``'s memory (the end of its chain of bases)."""
    while True:
        base = array.base
        if not isinstance(base, np.ndarray):
            # ``as_strided`` and raw pointer views keep their source in a wrapper's ``base``.
            base = getattr(base, "base", None)
            if not isinstance(base, np.ndarray):
                return array
        array = base


def _address(array: np.ndarray) -> int:
    return array.__array_interface__["data"][0]


def _byte_range(array: np.ndarray) -> tuple[int, int]:
    """``[low, high)``: the bytes ``array``'s elements occupy."""
    start = _address(array)
    if array.size == 0:
        return start, start
    low, high = _byte_extent(array.shape, array.strides)
    return start + low, start + high + array.itemsize


def _rebuild(root: np.ndarray, offset: int, shape: tuple, strides: tuple, dtype: np.dtype, writeable: bool) -> np.ndarray:
    view = np.ndarray(shape, dtype, buffer=root, offset=offset, strides=strides)
    if view.flags.writeable and not writeable:
        view.flags.writeable = False
    return view


# Where a value comes from at replay: ("c", value), a constant, or ("s", slot), the value in
# a slot of the call (an argument, an action's result, or a view rebuilt from a root).
Spec = tuple


class _Action:
    """One op whose implementation runs again at replay (see the module docstring)."""

    __slots__ = ("op", "entry", "inputs", "env", "outputs", "live", "hoisted")

    def __init__(self, op: Operation, entry: Any, inputs: list[Spec], env: list[tuple[Any, Spec]], outputs: list):
        self.op = op
        self.entry = entry  # the implementation, or what the implementation said replaces it (``replay_as``)
        self.inputs = inputs  # a spec per operand
        self.env = env  # (SSA value, spec) per value its implementation looked up outside the op
        self.outputs = outputs  # per result: its slot (an array) or a constant spec (a token)
        self.live = True
        self.hoisted = False

    def slots(self) -> list[int]:
        """The slots the action reads."""
        return [v for k, v in self.inputs if k == "s"] + [v for _, (k, v) in self.env if k == "s"]

    def result_slots(self) -> list[int]:
        return [s for s in self.outputs if type(s) is int]


class Recorder:
    """Watches one call (``run`` runs each op) and turns it into a :class:`Replay`.

    Whatever happens, every op runs exactly as without the recorder, so the
    recorded call's results are those of an ordinary call; a recording that
    cannot be replayed only notes why (``failure``) and stops recording.
    """

    def __init__(self, args: Sequence[Any]):
        self.depth = 0  # > 0 while an action's implementation runs
        self.failure: str | None = None
        self.slots: list[Any] = []  # slot -> the value recorded there
        self._slot_of: dict[int, int] = {}  # id(value) -> slot
        self.slot_root: list[int] = []  # slot -> the root its memory lies in (-1: none)
        # root -> ("arg", slot), ("owner", slot of a value it owns) or ("constant", slot of a value it owns)
        self.roots: list[tuple[str, int]] = []
        self._root_arrays: list[np.ndarray] = []
        self._roots_of_owner: dict[int, list[int]] = {}  # id(owning array) -> roots in it
        self.views: list[tuple] = []  # (slot, root, offset, shape, strides, dtype, writeable)
        self.actions: list[_Action] = []
        # The op whose implementation runs (at depth 1), and what it said replaces it at replay.
        self.current: Operation | None = None
        self.replacement: Callable | None = None
        self.replacement_operands: tuple | None = None
        self.constant_slots: set[int] = set()  # values that are the same objects in every call
        self._kinds: dict[Operation, str] = {}
        for arg in args:
            slot = self._new_slot(arg)
            if isinstance(arg, np.ndarray):
                self._add_root(("arg", slot), arg, slot)

    # -- slots and roots ------------------------------------------------------

    def _new_slot(self, value: Any) -> int:
        self.slots.append(value)
        self.slot_root.append(-1)
        slot = len(self.slots) - 1
        self._slot_of[id(value)] = slot
        return slot

    def _add_root(self, kind: tuple[str, int], array: np.ndarray, slot: int) -> None:
        if not array.flags.c_contiguous:
            raise _GiveUp(f"memory that is not C-contiguous ({array.shape}, {array.strides})")
        self.roots.append(kind)
        self._root_arrays.append(array)
        root = len(self.roots) - 1
        self._roots_of_owner.setdefault(id(_owner(array)), []).append(root)
        self.slot_root[slot] = root

    def spec(self, value: Any) -> Spec:
        """Where ``value`` (read by an action, or returned) comes from at replay."""
        if isinstance(value, np.ndarray):
            slot = self._slot_of.get(id(value))
            if slot is None:
                slot = self._locate(value)
            return ("s", slot)
        if isinstance(value, _CONSTANT_TYPES):
            return ("c", value)
        if isinstance(value, tuple) and all(isinstance(v, _CONSTANT_TYPES) for v in value):
            return ("c", value)
        raise _GiveUp(f"a value of kind {type(value).__name__}")

    def _locate(self, array: np.ndarray) -> int:
        """A new slot for ``array``, rebuilt at replay as a view of the root its memory lies in."""
        low, high = _byte_range(array)
        writeable = array.flags.writeable
        for root in self._roots_of_owner.get(id(_owner(array)), ()):
            base = self._root_arrays[root]
            start, end = _byte_range(base)
            if not (start <= low and high <= end):
                continue
            offset = _address(array) - start
            rebuilt = _rebuild(base, offset, array.shape, array.strides, array.dtype, writeable)
            if _address(rebuilt) != _address(array) or rebuilt.flags.writeable != writeable:
                continue  # a read-only root cannot give a writable view
            slot = self._new_slot(array)
            self.slot_root[slot] = root
            self.views.append((slot, root, offset, array.shape, array.strides, array.dtype, writeable))
            return slot
        raise _GiveUp("an array in memory the call neither got nor allocated")

    def root_array(self, root: int) -> np.ndarray:
        return self._root_arrays[root]

    # -- ops ----------------------------------------------------------------------

    def run(self, interpreter: Any, op: Operation, entry: Any, inputs: tuple, invoke: Callable) -> Any:
        """Run ``op`` as the interpreter would (``invoke``), recording what a replay needs."""
        if self.failure is not None:
            return invoke(interpreter, op, entry, inputs)
        kind = self._kinds.get(op)
        if kind is None:
            kind = self._kinds[op] = _kind(op)
        if kind == "transparent":
            return invoke(interpreter, op, entry, inputs)
        if kind == "constant":
            result = invoke(interpreter, op, entry, inputs)
            self._try(self._constants, tuple(result.values))
            return result
        if kind == "shape" or (kind == "fold" and not any(isinstance(x, np.ndarray) for x in inputs)):
            result = invoke(interpreter, op, entry, inputs)
            if any(isinstance(v, np.ndarray) for v in result.values):
                self._try(self._record, op, entry, inputs, {}, tuple(result.values))
            return result
        env: dict = {}
        saved = interpreter._ctx  # pyright: ignore[reportPrivateUsage]
        interpreter._ctx = ScopedDict(local_scope=_LoggedScope(saved, env))  # pyright: ignore[reportPrivateUsage]
        self.depth += 1
        self.current, self.replacement, self.replacement_operands = op, None, None
        try:
            result = invoke(interpreter, op, entry, inputs)
        finally:
            self.depth -= 1
            interpreter._ctx = saved  # pyright: ignore[reportPrivateUsage]
        if self.failure is None:
            values = tuple(result.values)
            if kind != "view" or not self._try(self._found, values):
                if self.replacement is not None:
                    entry = (None, self.replacement)
                    if self.replacement_operands is not None:
                        inputs = self.replacement_operands
                self._try(self._record, op, entry, inputs, env, values)
        return result

    def inside_action(self, op: Operation) -> None:
        """``op`` runs inside an action: it must not need what the action will not have at replay."""
        if op.name in CONTEXT_OPS:
            self.fail(f"'{op.name}' inside '{op.parent_op().name if op.parent_op() else '?'}'")

    def _try(self, method: Callable, *args: Any) -> bool:
        try:
            method(*args)
            return True
        except _GiveUp as reason:
            if method != self._found:
                self.fail(f"{reason} at '{args[0].name if args and isinstance(args[0], Operation) else '?'}'")
            return False

    def _constants(self, values: tuple) -> None:
        """``values`` are the same objects, never written, in every call (an immutable global's)."""
        for value in values:
            if isinstance(value, np.ndarray):
                slot = self._new_slot(value)
                self.constant_slots.add(slot)
                known = self._roots_of_owner.get(id(_owner(value)))
                if known:
                    self.slot_root[slot] = known[0]
                else:
                    self._add_root(("constant", slot), _owner(value), slot)
            else:
                self.spec(value)

    def _found(self, values: tuple) -> None:
        for value in values:
            self.spec(value)

    def _record(self, op: Operation, entry: Any, inputs: tuple, env: dict, values: tuple) -> None:
        if len(self.actions) >= MAX_ACTIONS:
            raise _GiveUp(f"more than {MAX_ACTIONS} actions")
        if op.name in CONTEXT_OPS:
            raise _GiveUp(f"'{op.name}' made what is not a view of a binding")
        input_specs = [self.spec(x) for x in inputs]
        env_specs = [(key, self.spec(value)) for key, value in env.items()]
        outputs: list = []
        for value in values:
            if isinstance(value, np.ndarray):
                slot = self._new_slot(value)
                known = self._roots_of_owner.get(id(_owner(value)))
                if known:
                    # Memory of an earlier root (computed in place): its root already says where.
                    self.slot_root[slot] = known[0]
                else:
                    self._add_root(("owner", slot), _owner(value), slot)
                outputs.append(slot)
            elif isinstance(value, (str, type(None))):
                outputs.append(("c", value))  # a timepoint
            else:
                raise _GiveUp(f"'{op.name}' computed a {type(value).__name__}: control flow may depend on data")
        self.actions.append(_Action(op, entry, input_specs, env_specs, outputs))

    def fail(self, reason: str) -> None:
        if self.failure is None:
            self.failure = reason

    def finish(self, results: Sequence[Any]) -> Replay | None:
        """The replay of the recorded call returning ``results``, or None (``failure`` says why)."""
        if self.failure is None:
            try:
                specs = [self.spec(value) for value in results]
                return Replay(self, specs)
            except _GiveUp as reason:
                self.fail(str(reason))
        return None


def recording(interpreter: Any, op: Operation) -> bool:
    """Whether ``op`` runs as the action a recorder is recording (its implementation may ``replay_as``)."""
    recorder = getattr(interpreter, "_recorder", None)
    return recorder is not None and recorder.depth == 1 and recorder.current is op


def replay_as(
    interpreter: Any, op: Operation, implementation: Callable[[Any, tuple], tuple], operands: tuple | None = None
) -> None:
    """Said by ``op``'s implementation while a call is recorded: at replay, ``implementation(interpreter,
    inputs)`` gives the op's results instead. It may rely on anything the signature fixes (shapes,
    strides, flags, scalars, which operands share memory) as the recorded run found it, on nothing
    in the arrays' elements; it reads values from outside the op as the implementation did.
    ``operands``, when given, are what the replay reads instead of the op's operands (and passes
    as ``inputs``): values the recorded run found equivalent (a packed buffer's source)."""
    recorder = getattr(interpreter, "_recorder", None)
    if recorder is not None and recorder.depth == 1 and recorder.current is op:
        from xdsl.interpreter import OpImplResult

        recorder.replacement = lambda _functions, interpreter, _op, inputs: OpImplResult(
            implementation(interpreter, inputs), None
        )
        recorder.replacement_operands = operands


def _kind(op: Operation) -> str:
    name = op.name
    if name in TRANSPARENT_OPS:
        return "transparent"
    if name in SHAPE_OPS:
        return "shape"
    if name in VIEW_OPS:
        return "view"
    if name == "util.global.load" and _immutable_global(op):
        return "constant"
    if not op.regions and (name in _FOLDABLE_OPS or _side_effect_free(op)):
        return "fold"
    return "action"


def _immutable_global(op: Operation) -> bool:
    """Whether ``op`` loads a global only initializers store: the same value in every call."""
    from xdsl.traits import SymbolTable

    try:
        found = SymbolTable.lookup_symbol(op, op.global_)  # type: ignore[attr-defined]
    except Exception:  # no symbol table around it: a load the implementation will reject
        return False
    return found is not None and not getattr(found, "is_global_mutable", True)


def _side_effect_free(op: Operation) -> bool:
    from xdsl.traits import is_side_effect_free

    try:
        return is_side_effect_free(op)
    except Exception:  # an op whose effects xDSL cannot tell
        return False


def _memory_only(op: Operation) -> bool:
    """Whether ``op`` and every op in its regions belong to dialects that only touch memory."""
    return all(inner.name.split(".", 1)[0] in _MEMORY_ONLY_DIALECTS for inner in op.walk())


class _LoggedScope(dict):
    """The outermost scope of an action being recorded: each value read from outside is noted."""

    def __init__(self, outer: ScopedDict, log: dict):
        super().__init__()
        self._outer, self._log = outer, log

    def _outside(self, key: Any) -> Any:
        scope = self._outer
        while scope is not None:
            local = scope._local_scope  # pyright: ignore[reportPrivateUsage]
            if key in local:
                value = local[key]
                self._log[key] = value
                return value
            scope = scope.parent
        return _MISSING

    def get(self, key: Any, default: Any = None) -> Any:
        if dict.__contains__(self, key):
            return dict.__getitem__(self, key)
        value = self._outside(key)
        return default if value is _MISSING else value

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self, key) or self._outside(key) is not _MISSING

    def __getitem__(self, key: Any) -> Any:
        value = self.get(key, _MISSING)
        if value is _MISSING:
            raise KeyError(key)
        return value


_MISSING = object()


class Replay:
    """A recorded call, simplified (see the module docstring): what later calls with its signature run."""

    def __init__(self, rec: Recorder, results: list[Spec]):
        self.results = results
        kept, reused = _simplify(rec, results)  # slots whose recorded values every replay reuses
        # Allocations made once and reused: undefined contents, as an allocation's.
        self.reused_memory = [rec.root_array(root) for root in sorted(reused)]
        self.initial = [rec.slots[s] if s in kept else None for s in range(len(rec.slots))]
        made_by: dict[int, int] = {}  # an action's result slot -> the action's position
        live = [a for a in rec.actions if a.live and not a.hoisted]
        for position, action in enumerate(live):
            for slot in action.result_slots():
                made_by[slot] = position
        # Views rebuilt per call (those a step or the results read): of an argument at the
        # start, of a result once it is made.
        read = {v for k, v in results if k == "s"}
        for action in live:
            read.update(action.slots())
        start: list[tuple] = []
        after: dict[int, list[tuple]] = {}
        for slot, root, offset, shape, strides, dtype, writeable in rec.views:
            if slot in kept or slot not in read:
                continue
            kind, source = rec.roots[root]
            view = (slot, source, kind == "owner", offset, shape, strides, dtype, writeable)
            if kind == "arg":
                start.append(view)
            elif source in made_by:
                after.setdefault(made_by[source], []).append(view)
            else:
                raise _GiveUp("a view of memory no replayed action makes")
        self.start_views = start
        self.steps = [
            (a.op, a.entry, a.inputs, a.env, a.outputs, after.get(position, ())) for position, a in enumerate(live)
        ]

    def run(self, interpreter: Any, args: Sequence[Any], invoke: Callable) -> tuple:
        slots = list(self.initial)
        slots[: len(args)] = args
        _rebuild_views(slots, self.start_views)
        saved = interpreter._ctx  # pyright: ignore[reportPrivateUsage]
        try:
            for op, entry, inputs, env, outputs, views in self.steps:
                values = tuple([slots[v] if k == "s" else v for k, v in inputs])
                scope = {key: slots[v] if k == "s" else v for key, (k, v) in env}
                interpreter._ctx = ScopedDict(local_scope=scope)  # pyright: ignore[reportPrivateUsage]
                result = invoke(interpreter, op, entry, values)
                for out, value in zip(outputs, result.values):
                    if type(out) is int:
                        slots[out] = value
                if views:
                    _rebuild_views(slots, views)
        finally:
            interpreter._ctx = saved  # pyright: ignore[reportPrivateUsage]
        return tuple([slots[v] if k == "s" else v for k, v in self.results])


def _rebuild_views(slots: list, views: Sequence[tuple]) -> None:
    for slot, source, owned, offset, shape, strides, dtype, writeable in views:
        root = slots[source]
        slots[slot] = _rebuild(_owner(root) if owned else root, offset, shape, strides, dtype, writeable)


def _simplify(rec: Recorder, results: list[Spec]) -> tuple[set[int], set[int]]:
    """Mark the actions a replay skips; return the slots whose recorded values it reuses.

    Also return the roots of reused allocations.

    Forward: allocations whose memory does not leave the call are reused;
    actions of memory-only dialects reading only constants and making
    read-only values are constants. Backward: an action is needed when it has
    effects beyond memory, writes a root read later or left to the caller, or
    makes a value a needed action or the results use.
    """
    result_slots = [v for k, v in results if k == "s"]
    escaping = {rec.slot_root[s] for s in result_slots} | {r for r, (kind, _) in enumerate(rec.roots) if kind == "arg"}
    reused: set[int] = set()  # roots of reused allocations (contents change, the array does not)
    constant = {r for r, (kind, _) in enumerate(rec.roots) if kind == "constant"}  # neither changes
    kept: set[int] = set(rec.constant_slots)
    view_root = {view[0]: view[1] for view in rec.views}

    def same_object(slot: int) -> bool:
        return slot in kept or view_root.get(slot, -1) in reused | constant

    def same_contents(slot: int) -> bool:
        root = rec.slot_root[slot]
        return root in constant and (slot in kept or slot in view_root)

    for action in rec.actions:
        reads = action.slots()
        made = action.result_slots()
        # The roots the action's results own (new memory), and whether every result is in
        # such a root or in a constant's.
        roots = {rec.slot_root[s] for s in made if rec.roots[rec.slot_root[s]] == ("owner", s)}
        fresh_or_constant = all(rec.slot_root[s] in roots | constant for s in made)
        if roots & escaping or not fresh_or_constant:
            continue
        if action.op.name in ALLOCATION_OPS and not reads and all(rec.slots[s].flags.writeable for s in made):
            action.hoisted = True
            reused |= roots
        elif (
            _memory_only(action.op)
            and all(same_contents(s) for s in reads)
            and not any(rec.slots[s].flags.writeable for s in made)
        ):
            action.hoisted = True
            constant |= roots
        if action.hoisted:
            kept.update(made)
    kept |= {slot for slot in view_root if same_object(slot)}

    live_roots = set(escaping)
    used = set(result_slots)
    for action in reversed(rec.actions):
        if action.hoisted:
            continue
        reads = action.slots()
        made = action.result_slots()
        writes = {rec.slot_root[s] for s in reads + made if rec.slots[s].flags.writeable}
        defines = {rec.slot_root[s] for s in made}
        action.live = (
            not _memory_only(action.op) or bool(writes & live_roots) or bool(defines & live_roots) or bool(set(made) & used)
        )
        if action.live:
            live_roots |= {rec.slot_root[s] for s in reads}
            used.update(reads)
    return kept, reused


class CallReplays:
    """Per function and signature: 1 after the first call, then the replay or why there is none."""

    def __init__(self) -> None:
        self._known: dict[tuple, Any] = {}
        self._per_function: dict[Operation, int] = {}

    def key(self, function: Operation, args: Sequence[Any]) -> tuple | None:
        found = signature(args)
        return None if found is None else (function, found)

    def replay(self, key: tuple) -> Replay | None:
        found = self._known.get(key)
        return found if isinstance(found, Replay) else None

    def recorder(self, key: tuple, args: Sequence[Any]) -> Recorder | None:
        """A recorder for the second call with ``key``; None otherwise (the first call is counted)."""
        state = self._known.get(key)
        if state is None:
            function = key[0]
            if self._per_function.get(function, 0) >= MAX_SIGNATURES:
                return None
            self._per_function[function] = self._per_function.get(function, 0) + 1
            self._known[key] = 1
            return None
        return Recorder(args) if state == 1 else None

    def recorded(self, key: tuple, recorder: Recorder, results: Sequence[Any]) -> None:
        replay = recorder.finish(results)
        self._known[key] = replay if replay is not None else recorder.failure

    def state(self, function: Operation, args: Sequence[Any]) -> Replay | str | None:
        """What calls of ``function`` on arguments like ``args`` do: replay (a :class:`Replay`),
        interpret because the recording gave up (why, a string), or not decided yet (None)."""
        key = self.key(function, args)
        if key is None:
            return "arguments without a signature"
        found = self._known.get(key)
        return None if found == 1 else found
