"""``hal``: buffer views at the program's boundary, bindings inside a dispatch.

A ``!hal.buffer_view`` value is the numpy array itself: its shape and dtype
are what ``hal.buffer_view.dim`` and ``hal.buffer_view.assert`` ask about, and
``hal.tensor.import``/``export`` are identities that check the shape.

After codegen a dispatch function takes no arguments: it reads push constants
(``hal.interface.constant.load``) and views bindings
(``hal.interface.binding.subspan``). To run such a function on its own, the
caller provides a :class:`DispatchContext` (bindings as flat byte buffers,
push constants as 32-bit words); :func:`run_dispatch` is the entry point.
Inside a whole program, a ``stream.async.dispatch @ex::@variant::@export`` of
a ``hal.executable`` builds that context from its operands
(:func:`call_with_interface`): its resources are the bindings, written in
place, and its packed i32 operands the push constants.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects.builtin import IndexType, IntegerType, ModuleOp, Signedness, TensorType
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls
from xdsl.ir import Attribute

from mini_iree.compiler.analysis.functions import functions
from mini_iree.compiler.interpreter.bindings import shape_with_dims, view_binding
from mini_iree.compiler.interpreter.core import InterpreterError, make_interpreter, numpy_dtype, run_block
from mini_iree.dialects import hal

__all__ = [
    "DispatchContext",
    "HalFunctions",
    "as_bytes",
    "call_with_interface",
    "element_type_code",
    "run_dispatch",
    "split_index",
]

# `iree_hal_element_type_t` = numerical type << 24 | bit count (iree/hal/buffer_view.h).
_INTEGER, _SIGNED, _UNSIGNED, _BOOLEAN = 0x10, 0x11, 0x12, 0x13
_FLOAT_IEEE, _FLOAT_BRAIN = 0x21, 0x22
_DENSE_ROW_MAJOR = 1  # IREE_HAL_ENCODING_TYPE_DENSE_ROW_MAJOR


def element_type_code(type_: Attribute) -> int:
    """The HAL element type value ``hal.element_type<type_>`` stands for."""
    if isinstance(type_, IntegerType):
        width = type_.width.data
        if width == 1:
            return _BOOLEAN << 24 | 8
        kind = {Signedness.SIGNED: _SIGNED, Signedness.UNSIGNED: _UNSIGNED}.get(type_.signedness.data, _INTEGER)
        return kind << 24 | width
    if isinstance(type_, IndexType):
        return _INTEGER << 24 | 64
    name = type_.name if hasattr(type_, "name") else ""
    if name == "bf16":
        return _FLOAT_BRAIN << 24 | 16
    widths = {"f16": 16, "f32": 32, "f64": 64}
    if name in widths:
        return _FLOAT_IEEE << 24 | widths[name]
    raise TypeError(f"no HAL element type for {type_}")


def _dtype_matches_code(dtype: np.dtype, code: int) -> bool:
    """Whether an array of ``dtype`` is a valid buffer of HAL element type ``code``.

    Signless integers accept either numpy signedness (numpy has no signless
    integers); signed and unsigned ones need the matching numpy kind.
    """
    numerical, bits = code >> 24, code & 0xFFFFFF
    if numerical == _BOOLEAN:
        return dtype == np.bool_
    if dtype.itemsize * 8 != bits:
        return False
    if numerical == _INTEGER:
        return dtype.kind in "iu"
    if numerical == _SIGNED:
        return dtype.kind == "i"
    if numerical == _UNSIGNED:
        return dtype.kind == "u"
    if numerical == _FLOAT_IEEE:
        return dtype.kind == "f"
    if numerical == _FLOAT_BRAIN:
        return dtype.name == "bfloat16"
    return False


def _describe_code(code: int) -> str:
    numerical, bits = code >> 24, code & 0xFFFFFF
    prefix = {_INTEGER: "i", _SIGNED: "si", _UNSIGNED: "ui", _BOOLEAN: "i", _FLOAT_IEEE: "f", _FLOAT_BRAIN: "bf"}
    return "i1" if numerical == _BOOLEAN else f"{prefix.get(numerical, '?')}{bits}"


def _check_tensor(op: Any, value: Any, type_: Attribute, dims: Sequence[int], what: str) -> np.ndarray:
    if not isinstance(value, np.ndarray):
        raise InterpreterError(op, f"{what} is not an array but {type(value).__name__}")
    assert isinstance(type_, TensorType)
    shape = shape_with_dims(op, type_.get_shape(), dims)
    if value.shape != shape:
        raise InterpreterError(op, f"{what} has shape {value.shape}, expected {shape}")
    dtype = numpy_dtype(type_.element_type)
    # numpy has no signless integers: either signedness of the right width will do.
    same_width_integer = value.dtype.kind in "iu" and dtype.kind in "iu" and value.dtype.itemsize == dtype.itemsize
    if value.dtype != dtype and not same_width_integer:
        raise InterpreterError(op, f"{what} has element type {value.dtype}, expected {dtype}")
    return value if value.dtype == dtype else value.view(dtype)


# ---------------------------------------------------------------------------
# Dispatch context: what a dispatch function reads from the runtime
# ---------------------------------------------------------------------------


def as_bytes(array: np.ndarray) -> np.ndarray:
    """A flat ``uint8`` copy of ``array``'s row-major bytes (a binding's contents)."""
    return np.ascontiguousarray(array).reshape(-1).view(np.uint8).copy()


def split_index(value: int) -> list[int]:
    """An index as the two 32-bit push constants (low word first) IREE passes it in."""
    value = int(value)
    return [value & 0xFFFFFFFF, (value >> 32) & 0xFFFFFFFF]


@dataclass
class DispatchContext:
    """The bindings and push constants of one dispatch.

    ``bindings[i]`` is binding ``i``: a flat ``uint8`` array, written in place by
    the dispatch. ``constants[i]`` is push constant ``i``, a 32-bit word.
    """

    bindings: list[np.ndarray] = field(default_factory=list)
    constants: list[int] = field(default_factory=list)


def run_dispatch(
    module: ModuleOp, function_name: str, bindings: Sequence[np.ndarray], constants: Sequence[int] = ()
) -> list[np.ndarray]:
    """Run the argument-less dispatch function ``@function_name`` of ``module``.

    The function is a top-level one (a dump of one dispatch) or, in a whole
    program, the function of that name in the first ``hal.executable.variant``
    that has one. ``bindings`` are the binding buffers (any array; they are
    copied into flat byte buffers); the function's writes land in the returned
    byte buffers, in binding order. View them with ``buffer.view(dtype)``.
    """
    context = DispatchContext([as_bytes(np.asarray(b)) for b in bindings], [int(c) for c in constants])
    interpreter = make_interpreter(module)
    interpreter.set_data(HalFunctions, "dispatch_context", context)
    interpreter.call_op(_dispatch_function(module, function_name), ())
    return context.bindings


def _dispatch_function(module: ModuleOp, name: str) -> Any:
    from mini_iree.compiler.interpreter import find_function

    try:
        return find_function(module, name)
    except InterpreterError:
        for executable in module.ops:
            if not isinstance(executable, hal.ExecutableOp):
                continue
            for variant in executable.variant_ops:
                inner = variant.inner_module
                for op in functions(inner, kinds=("func.func",), defined=True) if inner is not None else ():
                    if op.sym_name.data == name:  # type: ignore[attr-defined]
                        return op
        raise


def call_with_interface(
    interpreter: Interpreter, op: Any, function: Any, layout: hal.PipelineLayoutAttr, args: Sequence[Any]
) -> None:
    """Run the argument-less dispatch ``function`` for a host dispatch ``op`` passing ``args``.

    The dispatch's arguments, in order, are resources (flat ``uint8`` arrays,
    bound in place so the function's stores land in them) and scalars (the
    packed i32 operands): the resources become bindings 0, 1, ... and the
    scalars push constants 0, 1, ..., as ``iree-hal-materialize-interfaces``
    numbered them. Their counts must match the export's ``layout``.
    """
    bindings = [a for a in args if isinstance(a, np.ndarray) and a.ndim == 1 and a.dtype == np.uint8]
    constants = [a for a in args if not (isinstance(a, np.ndarray) and a.ndim == 1 and a.dtype == np.uint8)]
    name = function.sym_name.data
    if len(bindings) != len(layout.bindings.data) or len(constants) != layout.constants.data:
        raise InterpreterError(
            op,
            f"dispatch passes {len(bindings)} resources and {len(constants)} scalars but @{name}'s layout has "
            f"{len(layout.bindings.data)} bindings and {layout.constants.data} constants",
        )
    context = DispatchContext(bindings, [int(c) & 0xFFFFFFFF for c in constants])
    previous = interpreter.get_data(HalFunctions, "dispatch_context", lambda: None)
    interpreter.set_data(HalFunctions, "dispatch_context", context)
    try:
        run_block(interpreter, function.body.block, ())
    finally:
        interpreter.set_data(HalFunctions, "dispatch_context", previous)


def _context(interpreter: Interpreter, op: Any) -> DispatchContext:
    context = interpreter.get_data(HalFunctions, "dispatch_context", lambda: None)
    if context is None:
        raise InterpreterError(
            op,
            "needs a dispatch context (bindings and push constants): run it with "
            "`mini-iree-run --binding=... --push-constant=...` or hal_ops.run_dispatch",
        )
    return context


def _subspan_info(interpreter: Interpreter, op: hal.InterfaceBindingSubspanOp) -> tuple:
    """What a subspan op says, read once per op (xDSL's operand-segment accessors are slow and a
    dispatch runs its subspans every call): binding, operand positions of the offset and of the
    dynamic dims, result type, and whether the binding is ``ReadOnly``."""
    cache = interpreter.get_data(HalFunctions, "subspans", dict)
    info = cache.get(op)
    if info is None:
        operands = list(op.operands)
        offset_at = operands.index(op.byte_offset) if op.byte_offset is not None else None
        # Operand positions, not values: one SSA value may be both the offset and a dim.
        first_dim = len(operands) - len(op.dynamic_dims)
        dims_at = list(range(first_dim, len(operands)))
        flags = op.descriptor_flags
        read_only = flags is not None and bool(flags.value.data & hal.DescriptorFlags.READ_ONLY)
        info = (op.binding.value.data, offset_at, dims_at, op.result.type, read_only)
        cache[op] = info
    return info


@register_impls
class HalFunctions(InterpreterFunctions):
    """Buffer views, element/encoding type constants, and dispatch interface ops."""

    @impl(hal.TensorImportOp)
    def run_tensor_import(self, interpreter: Interpreter, op: hal.TensorImportOp, args: tuple):
        values = dict(zip(op.operands, args))
        dims = [values[d] for d in op.target_dims]
        name = f"buffer view '{op.tensor_name.data}'" if op.tensor_name is not None else "the imported buffer view"
        return (_check_tensor(op, args[0], op.target.type, dims, name),)

    @impl(hal.TensorExportOp)
    def run_tensor_export(self, interpreter: Interpreter, op: hal.TensorExportOp, args: tuple):
        _check_tensor(op, args[0], op.source.type, args[1:], "the exported tensor")
        return (args[0],)

    @impl(hal.BufferViewDimOp)
    def run_buffer_view_dim(self, interpreter: Interpreter, op: hal.BufferViewDimOp, args: tuple):
        view = args[0]
        index = op.index.value.data
        if not isinstance(view, np.ndarray) or not 0 <= index < view.ndim:
            raise InterpreterError(op, f"buffer view of shape {np.shape(view)} has no dimension {index}")
        return (int(view.shape[index]),)

    @impl(hal.ElementTypeOp)
    def run_element_type(self, interpreter: Interpreter, op: hal.ElementTypeOp, args: tuple):
        return (np.int32(np.uint32(element_type_code(op.element_type)).view(np.int32)),)

    @impl(hal.EncodingTypeOp)
    def run_encoding_type(self, interpreter: Interpreter, op: hal.EncodingTypeOp, args: tuple):
        return (np.int32(_DENSE_ROW_MAJOR),)

    @impl(hal.BufferViewAssertOp)
    def run_buffer_view_assert(self, interpreter: Interpreter, op: hal.BufferViewAssertOp, args: tuple):
        values = dict(zip(op.operands, args))
        view = values[op.buffer_view]
        what = f"'{op.message.data}'"
        if not isinstance(view, np.ndarray):
            raise InterpreterError(op, f"{what} is not a buffer view")
        shape = tuple(int(values[d]) for d in op.shape)
        if view.shape != shape:
            raise InterpreterError(op, f"{what} has shape {view.shape}, expected {shape}")
        code = int(np.int32(values[op.element_type]).view(np.uint32))
        if not _dtype_matches_code(view.dtype, code):
            raise InterpreterError(op, f"{what} has element type {view.dtype}, expected {_describe_code(code)}")
        if int(values[op.encoding_type]) != _DENSE_ROW_MAJOR:
            raise InterpreterError(op, f"{what}: only dense row-major buffer views are supported")
        return ()

    @impl(hal.InterfaceConstantLoadOp)
    def run_constant_load(self, interpreter: Interpreter, op: hal.InterfaceConstantLoadOp, args: tuple):
        context = _context(interpreter, op)
        loads = interpreter.get_data(HalFunctions, "constant_loads", dict)
        known = loads.get(op)
        if known is None:
            # Read once per op: a dispatch loads its push constants every call.
            known = loads[op] = (op.ordinal.value.data, op.result.type)
        ordinal, type_ = known
        if not 0 <= ordinal < len(context.constants):
            raise InterpreterError(op, f"push constant {ordinal} not provided ({len(context.constants)} given)")
        word = int(context.constants[ordinal]) & 0xFFFFFFFF
        if isinstance(type_, IndexType):
            return (word,)
        if type(type_) is IntegerType and type_.width.data == 32 and type_.signedness.data == Signedness.SIGNLESS:
            # An i32 (the usual case): the word's bits as a signed 32-bit number.
            return (np.int32(word - (1 << 32) if word & 0x80000000 else word),)
        word = np.uint32(word)
        # A push constant is a 32-bit word; other types reinterpret its bits.
        dtype = numpy_dtype(type_)
        if dtype.itemsize != 4:
            raise InterpreterError(op, f"push constants are 32-bit; cannot load {type_}")
        return (np.array([word], np.uint32).view(dtype)[0],)

    @impl(hal.InterfaceBindingSubspanOp)
    def run_binding_subspan(self, interpreter: Interpreter, op: hal.InterfaceBindingSubspanOp, args: tuple):
        context = _context(interpreter, op)
        binding, offset_at, dims_at, type_, read_only = _subspan_info(interpreter, op)
        if not 0 <= binding < len(context.bindings):
            raise InterpreterError(op, f"binding {binding} not provided ({len(context.bindings)} given)")
        offset = int(args[offset_at]) if offset_at is not None else 0
        dims = [int(args[i]) for i in dims_at]
        view = view_binding(op, context.bindings[binding], offset, type_, dims)
        if isinstance(view, np.ndarray) and read_only:
            # The dispatch promises not to write a `ReadOnly` binding: a store into
            # it is an error, and loads may share its memory instead of copying.
            view = view.view()
            view.flags.writeable = False
        return (view,)


@register_impls
class HalFenceFunctions(InterpreterFunctions):
    """Fences order work on devices; here everything has run when an op runs."""

    @impl(hal.TensorBarrierOp)
    def run_tensor_barrier(self, interpreter: Interpreter, op: hal.TensorBarrierOp, args: tuple):
        return tuple(args[: len(op.sources)])

    @impl(hal.TensorAliasOp)
    def run_tensor_alias(self, interpreter: Interpreter, op: hal.TensorAliasOp, args: tuple):
        # The value is the source's; only where it lives (the caller's buffer) changes.
        return (args[0],)

    @impl(hal.FenceSignalOp)
    def run_fence_signal(self, interpreter: Interpreter, op: hal.FenceSignalOp, args: tuple):
        return ()

    @impl(hal.FenceCreateOp)
    def run_fence_create(self, interpreter: Interpreter, op: hal.FenceCreateOp, args: tuple):
        return (FENCE,)

    @impl(hal.FenceAwaitOp)
    def run_fence_await(self, interpreter: Interpreter, op: hal.FenceAwaitOp, args: tuple):
        return (np.int32(0),)  # IREE's OK status

    @impl(hal.DevicesGetOp)
    def run_devices_get(self, interpreter: Interpreter, op: hal.DevicesGetOp, args: tuple):
        return (f"device{int(args[0])}",)

    @impl(hal.DeviceResolveOp)
    def run_device_resolve(self, interpreter: Interpreter, op: hal.DeviceResolveOp, args: tuple):
        return (str(op.affinity) if op.affinity is not None else "device0",)


# A fence value: every fence is already signalled when the interpreter reaches it.
FENCE = "fence"


FUNCTIONS = (HalFunctions, HalFenceFunctions)
