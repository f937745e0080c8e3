"""``iree-stream-pack-dispatch-operands``: pass every scalar dispatch operand as 32-bit words.

Push constants are 32-bit, so before executables get a HAL interface each
scalar operand of a dispatch is turned into i32 values, and each exported
function rebuilds the original value from its new i32 arguments. An ``index``
(64 bits on the host) becomes two words, low first:

    host:    %1 = arith.index_castui %0 : index to i64
             %2 = arith.trunci %1 : i64 to i32
             %3 = arith.shrui %1, %c32_i64 : i64
             %4 = arith.trunci %3 : i64 to i32
             stream.async.dispatch @ex::@fn(..., %2, %4) : (..., i32, i32) -> ...

    device:  %0 = arith.extui %arg1 : i32 to i64
             %1 = arith.extui %arg2 : i32 to i64
             %2 = arith.shli %1, %c32_i64 : i64
             %3 = arith.ori %0, %2 : i64
             %4 = arith.index_castui %3 : i64 to index

(the device side exactly as walkthrough dump 18 prints it, with one
``%c32_i64`` at the top of the function, where canonicalization puts it).
Constant operands are split on the host at compile time. Other types:
``i1``-``i31`` are zero-extended to i32, ``i33``-``i64`` split like an index,
floats are bitcast to integers of their width first.

Rewritten: public functions of the inner modules of ``stream.executable`` ops
and the ``stream.cmd.dispatch`` ops that dispatch their exports (as in IREE),
or the ``stream.async.dispatch`` ops of a program not yet allocated (whose
scalar operands are the same uniform operands). Complex operands are refused
with an error; everything else is left alone.

Source: IREE ``compiler/src/iree/compiler/Dialect/Stream/Transforms/PackDispatchOperands.cpp``.
"""

from __future__ import annotations

from dataclasses import dataclass

from mini_iree.compiler.analysis.dispatch_sites import (
    export_dispatch_sites,
    rebuild_cmd_dispatch,
    tied_operand_indices,
)
from mini_iree.compiler.analysis.functions import functions
from mini_iree.compiler.ir.diagnostics import OpError
from mini_iree.compiler.ir.locations import is_unknown
from mini_iree.dialects import stream
from mini_iree.dialects.arith import IndexCastUIOp
from mini_iree.dialects.flow import UNTIED_INDEX
from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    ComplexType,
    DictionaryAttr,
    FloatAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    LocationAttr,
    ModuleOp,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

__all__ = ["PackDispatchOperandsPass"]

# IREE's `#stream.resource_config` default: `index` is 64 bits on the device.
_INDEX_BITS = 64


def _width(type_: Attribute) -> int:
    if isinstance(type_, IndexType):
        return _INDEX_BITS
    if isinstance(type_, IntegerType):
        return type_.width.data
    assert isinstance(type_, AnyFloat)
    return type_.bitwidth


def _check_packable(op: Operation, type_: Attribute, what: str) -> None:
    if isinstance(type_, IndexType | IntegerType | AnyFloat) and _width(type_) <= 64:
        return
    detail = "complex operands are not supported" if isinstance(type_, ComplexType) else "unsupported type"
    raise OpError(op, f"cannot pack {what} of type {type_} into i32 push constants ({detail})")


def _constant_bits(value: SSAValue) -> int | None:
    """The bits of a scalar ``arith.constant`` operand (two's complement), or None."""
    if not isinstance(value, OpResult) or not isinstance(value.op, arith.ConstantOp):
        return None
    attr, width = value.op.value, _width(value.type)
    if isinstance(attr, IntegerAttr):
        return attr.value.data % (1 << width)
    if isinstance(attr, FloatAttr):
        import struct

        formats = {16: "<e", 32: "<f", 64: "<d"}
        if value.type.name == "bf16" or width not in formats:  # type: ignore[attr-defined]
            return None
        return int.from_bytes(struct.pack(formats[width], attr.value.data), "little")
    return None


class _HostPacker:
    """Splits one dispatch's operands into i32 values, inserted before the dispatch."""

    def __init__(self, dispatch: Operation):
        self.point = InsertPoint.before(dispatch)
        self.location = dispatch.location
        self.c32: SSAValue | None = None

    def _insert(self, op: Operation) -> SSAValue:
        op.location = self.location
        Rewriter.insert_op(op, self.point)
        return op.results[0]

    def _shift_amount(self) -> SSAValue:
        if self.c32 is None:
            self.c32 = self._insert(arith.ConstantOp(IntegerAttr(32, i64)))
        return self.c32

    def split(self, operand: SSAValue) -> list[SSAValue]:
        type_ = operand.type
        width = _width(type_)
        if (bits := _constant_bits(operand)) is not None:
            # createOrFold: a constant becomes constant words.
            words = [bits & 0xFFFFFFFF] if width <= 32 else [bits & 0xFFFFFFFF, bits >> 32]
            return [self._insert(arith.ConstantOp(IntegerAttr(_signed32(w), i32))) for w in words]
        value = operand
        if isinstance(type_, IndexType):
            value = self._insert(IndexCastUIOp(value, IntegerType(_INDEX_BITS)))
        elif isinstance(type_, AnyFloat):
            value = self._insert(arith.BitcastOp(value, IntegerType(width)))
        # IREE extends i1-i31 to i32 and i33-i63 to i64.
        if width < 32:
            value = self._insert(arith.ExtUIOp(value, i32))
        elif 32 < width < 64:
            value = self._insert(arith.ExtUIOp(value, i64))
        if width <= 32:
            return [value]
        low = self._insert(arith.TruncIOp(value, i32))
        shifted = self._insert(arith.ShRUIOp(value, self._shift_amount()))
        high = self._insert(arith.TruncIOp(shifted, i32))
        return [low, high]


def _signed32(word: int) -> int:
    """A 32-bit word as the signed value an ``i32`` attribute holds."""
    return word - (1 << 32) if word >= 1 << 31 else word


def _pack_dispatch(dispatch: stream.AsyncDispatchOp) -> None:
    for value in dispatch.resource_operands:
        if not isinstance(value.type, stream.ResourceType):
            _check_packable(dispatch, value.type, "operand")
    packer = _HostPacker(dispatch)
    new_operands: list[SSAValue] = []
    new_index: list[int] = []
    for value in dispatch.resource_operands:
        new_index.append(len(new_operands))
        if isinstance(value.type, stream.ResourceType):
            new_operands.append(value)
        else:
            new_operands.extend(packer.split(value))
    tied = [UNTIED_INDEX if t == UNTIED_INDEX else new_index[t] for t in tied_operand_indices(dispatch)]
    if all(t == UNTIED_INDEX for t in tied):
        tied = []
    new_op = stream.AsyncDispatchOp(
        list(dispatch.entry_points.data),
        dispatch.workload,
        new_operands,
        dispatch.resource_operand_sizes,
        dispatch.resource_operand_offsets,
        dispatch.resource_operand_ends,
        dispatch.resource_operand_lengths,
        dispatch.result_types,
        dispatch.result_sizes,
        tied,
        dispatch.affinity,
    )
    new_op.attributes |= dispatch.attributes
    new_op.location = dispatch.location
    Rewriter.replace_op(dispatch, new_op)


def _pack_cmd_dispatch(dispatch: stream.CmdDispatchOp) -> None:
    for value in dispatch.uniform_operands:
        _check_packable(dispatch, value.type, "operand")
    packer = _HostPacker(dispatch)
    words: list[SSAValue] = []
    for value in dispatch.uniform_operands:
        words.extend(packer.split(value))
    rebuild_cmd_dispatch(dispatch, words)


class _DevicePacker:
    """Rebuilds each scalar argument of a function from new i32 arguments."""

    def __init__(self, block: Block, location: LocationAttr):
        self.block = block
        self.point = InsertPoint.at_start(block)
        # The function's location, then, while an argument is rebuilt, the argument's.
        self.function_location = self.location = location
        self.c32: SSAValue | None = None

    def _insert(self, op: Operation) -> SSAValue:
        op.location = self.location
        Rewriter.insert_op(op, self.point)
        return op.results[0]

    def _shift_amount(self) -> SSAValue:
        if self.c32 is None:
            # One constant at the top of the function (where canonicalize puts IREE's).
            constant = arith.ConstantOp(IntegerAttr(32, i64))
            constant.location = self.function_location
            Rewriter.insert_op(constant, InsertPoint.at_start(self.block))
            self.c32 = constant.result
        return self.c32

    def _new_arg(self, type_: Attribute) -> SSAValue:
        arg = self.block.insert_arg(type_, len(self.block.args))
        arg.location = self.location
        return arg

    def rebuild(self, type_: Attribute) -> tuple[list[Attribute], SSAValue, Operation | None]:
        """New argument types, the rebuilt value and the op producing it (None if it is an argument)."""
        width = _width(type_)
        if width > 32:
            low, high = self._new_arg(i32), self._new_arg(i32)
            low64 = self._insert(arith.ExtUIOp(low, i64))
            high64 = self._insert(arith.ExtUIOp(high, i64))
            shifted = self._insert(arith.ShLIOp(high64, self._shift_amount()))
            value = self._insert(arith.OrIOp(low64, shifted))
            new_types: list[Attribute] = [i32, i32]
        else:
            value = self._new_arg(i32)
            new_types = [i32]
        if isinstance(type_, IndexType):
            value = self._insert(IndexCastUIOp(value, IndexType()))
        elif width < 32 or 32 < width < 64:
            value = self._insert(arith.TruncIOp(value, IntegerType(width)))
        if isinstance(type_, AnyFloat):
            value = self._insert(arith.BitcastOp(value, type_))
        owner = value.op if isinstance(value, OpResult) else None
        return new_types, value, owner


def _pack_function(function: func.FuncOp) -> None:
    block = function.body.block
    old_args = list(block.args)
    for arg in old_args:
        if isinstance(arg.type, IndexType | IntegerType | AnyFloat | ComplexType):
            _check_packable(function, arg.type, f"argument {arg.index}")
    old_attrs = list(function.arg_attrs.data) if function.arg_attrs is not None else [None] * len(old_args)
    packer = _DevicePacker(block, function.location)
    new_types: list[Attribute] = []
    new_attrs: list[DictionaryAttr] = []
    for arg, attrs in zip(old_args, old_attrs):
        if not isinstance(arg.type, IndexType | IntegerType | AnyFloat):
            # Bindings (and anything else) pass through unchanged.
            new_arg = block.insert_arg(arg.type, len(block.args))
            new_arg.location = arg.location
            new_types.append(arg.type)
            new_attrs.append(attrs if attrs is not None else DictionaryAttr({}))
            arg.replace_all_uses_with(new_arg)
            continue
        packer.location = arg.location if not is_unknown(arg.location) else function.location
        types, value, owner = packer.rebuild(arg.type)
        # Argument attributes (`stream.alignment`, ...) move onto the op that rebuilds the value.
        if owner is not None and attrs is not None:
            owner.attributes |= attrs.data
        new_types += types
        new_attrs += [DictionaryAttr({}) for _ in types]
        arg.replace_all_uses_with(value)
        value.name_hint = None  # xDSL hands the argument's name on; MLIR numbers the value
    for arg in old_args:
        block.erase_arg(arg)
    for arg in block.args:
        arg.name_hint = None
    function.function_type = FunctionType.from_lists(new_types, function.function_type.outputs.data)
    function.arg_attrs = ArrayAttr(new_attrs) if any(a.data for a in new_attrs) else None


@dataclass(frozen=True)
class PackDispatchOperandsPass(ModulePass):
    """Turns scalar dispatch operands into i32 words and rebuilds them in the dispatched functions."""

    name = "iree-stream-pack-dispatch-operands"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        stream_exports: set[Operation] = set()
        for executable in op.ops:
            if not isinstance(executable, stream.ExecutableOp):
                continue
            for inner in executable.body.block.ops:
                if isinstance(inner, stream.ExecutableExportOp):
                    stream_exports.add(inner)
                if inner.name != "builtin.module":
                    continue
                for function in functions(inner, kinds=("func.func",), public=True, defined=True):
                    _pack_function(function)
        packed: set[Operation] = set()
        for export, sites in export_dispatch_sites(op).items():
            if export not in stream_exports:
                continue
            for dispatch in sites:
                if dispatch in packed:
                    continue
                packed.add(dispatch)
                if isinstance(dispatch, stream.CmdDispatchOp):
                    _pack_cmd_dispatch(dispatch)
                else:
                    _pack_dispatch(dispatch)  # type: ignore[arg-type]
