"""``iree-stream-encode-host-tensors``: host tensor ops become byte-sized resource ops.

After ``iree-stream-specialize-encodings`` every encoded tensor on the host
carries a serialized ``#iree_encoding.layout<[...]>``, so the host can say how
many bytes it takes. This pass, run on each top-level function and initializer:

* replaces ``stream.tensor.sizeof`` with index arithmetic from the layout
  algebra (``compiler/layout/storage.py``): plain ``dim0 * 4 * dim1``, packed
  ``ceildivsi(dim, tile) * tile`` for each tiled dim, constants for static
  shapes (a 255x513 f32 LHS with 8x1 tiles: ``arith.constant 525312``),
  padded ``(dim + pad) * ...`` for a ``#iree_encoding.padding<[...]>`` layout
  (the padded shape of a pad-only layout: ``?x2048xf16`` padded ``[0, 64]`` is
  ``dim * 4224``);
* turns ``stream.tensor.dispatch`` into ``stream.async.dispatch`` on byte
  ranges (``%18[%c0 to %17 for %17]``), dropping the tensor types;
* turns ``stream.tensor.splat`` / ``fill`` / ``slice`` / ``update`` / ``load`` / ``store`` into their
  ``stream.async`` forms on byte ranges, with byte patterns for splats and fills
  (below: "Byte ranges");
* turns ``stream.tensor.constant`` into ``stream.async.constant`` with its size
  (i1 elements widened to i8 storage), which folds ``stream.resource.size``
  of it to that size;
* then places constants as MLIR's greedy driver does (uniqued, at the top of
  the function).

Left alone: ``stream.tensor.import``/``export`` (they keep their tensor types,
as in IREE), ``stream.tensor.encode`` (``iree-stream-materialize-encodings``
turns it into a dispatch), executables. A size asked of an unserialized
encoding (``#iree_encoding.encoding<...>``) is an error,
"unsupported (unserialized) tensor encoding: ...": the layout was never
resolved and no size would be right.

``{era=3.13}`` (or a run in IREE 3.13's era, ``compiler/era.py``) marks the
layout arithmetic ``overflow<nsw>`` as IREE 3.13 prints it; the walkthrough's
IREE did not, except for padding layouts, whose arithmetic IREE has always
marked ``nsw``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from mini_iree.compiler.analysis.functions import FUNCTION_LIKE, functions
from mini_iree.compiler.era import ERA_NAMES, option_era, run_era
from mini_iree.compiler.ir.constants import hoist_and_unique_constants
from mini_iree.compiler.ir.dense_elements import dense_elements
from mini_iree.compiler.ir.diagnostics import OpError
from mini_iree.compiler.ir.selective_walker import SelectivePatternRewriteWalker
from mini_iree.compiler.layout.size_lowering import ARITH, SizeLowering
from mini_iree.compiler.layout.storage import (
    StorageSize,
    StorageSizeError,
    element_byte_offset_scale,
    is_unserialized,
    legal_storage_bit_width,
    needs_sub_byte_packing,
    tensor_storage_size,
)
from mini_iree.dialects import stream
from mini_iree.dialects.stream_canonicalization import FoldTensorCloneOp
from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

__all__ = ["EncodeHostTensorsPass", "emit_storage_size"]

ERAS = ERA_NAMES

def emit_storage_size(
    size: StorageSize, dims: Sequence[SSAValue], rewriter: PatternRewriter, point: InsertPoint
) -> SSAValue:
    """Insert the ``arith`` ops of ``size`` at ``point``; ``dims`` are the tensor's dynamic dims.

    The ops go in the order IREE creates them, each constant operand a fresh
    ``arith.constant`` before its user (``hoist_and_unique_constants`` uniques them).
    """

    def constant(value: int) -> SSAValue:
        op = arith.ConstantOp(IntegerAttr(value, IndexType()))
        rewriter.insert(op, point)
        return op.result

    lowering = SizeLowering(
        ARITH, lambda op: rewriter.insert(op, point), constant, lambda dim: dims[dim.source.index]
    )
    for instruction in size.instructions:
        lowering.remember(instruction, lowering.value(instruction))
    return lowering.ssa(size.result)


def _storage_size(op: Operation, tensor: Attribute, nsw: bool) -> StorageSize:
    if not isinstance(tensor, TensorType):
        raise OpError(op, f"expected a tensor type but got {tensor}")
    if is_unserialized(tensor):
        # IREE's checkEncoding: no target has decided the layout yet, so no size is right.
        raise OpError(op, f"unsupported (unserialized) tensor encoding: {tensor}", prefix_op_name=False)
    try:
        return tensor_storage_size(tensor, nsw=nsw)
    except StorageSizeError as err:
        raise OpError(op, f"failed to calculate total byte count: {err}") from None


def _aligned_constant_value(op: Operation, value: Attribute, tensor: TensorType) -> Attribute:
    """The constant's elements in their storage type (i1 -> i8), as IREE's ``alignTensorType``."""
    bits = legal_storage_bit_width(tensor)
    element = tensor.element_type
    if not isinstance(element, IntegerType) or bits == element.width.data:
        return value
    if not isinstance(value, DenseIntOrFPElementsAttr):
        raise OpError(op, f"cannot widen the elements of {value} to i{bits} storage")
    values = [int(v) & ((1 << element.width.data) - 1) for v in value.get_values()]
    storage = TensorType(IntegerType(bits), tensor.get_shape())
    return dense_elements(storage, values)


@dataclass
class EncodeTensorSizeOfOp(RewritePattern):
    """``stream.tensor.sizeof`` -> the byte size as index arithmetic."""

    nsw: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.TensorSizeOfOp, rewriter: PatternRewriter) -> None:
        size = _storage_size(op, op.encoding, self.nsw)
        rewriter.replace(op, [], [emit_storage_size(size, op.encoding_dims, rewriter, InsertPoint.before(op))])


@dataclass
class EncodeTensorConstantOp(RewritePattern):
    """``stream.tensor.constant`` -> ``stream.async.constant`` of its storage size."""

    nsw: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.TensorConstantOp, rewriter: PatternRewriter) -> None:
        tensor = op.result_encoding
        size = _storage_size(op, tensor, self.nsw)
        assert isinstance(tensor, TensorType)
        value = _aligned_constant_value(op, op.value, tensor)
        size_value = emit_storage_size(size, op.result_encoding_dims, rewriter, InsertPoint.before(op))
        rewriter.replace(op, stream.AsyncConstantOp(value, op.result.type, size_value, op.affinity))


class EncodeTensorEmptyOp(RewritePattern):
    """``stream.tensor.empty`` -> ``stream.async.alloca`` of its size (its contents are undefined)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.TensorEmptyOp, rewriter: PatternRewriter) -> None:
        rewriter.replace(op, stream.AsyncAllocaOp(op.result.type, op.result_size, op.affinity))


@dataclass
class EncodeTensorCloneOp(RewritePattern):
    """``stream.tensor.clone`` -> ``stream.async.clone`` of the source's bytes into the result's size.

    Both sides must have a layout (IREE's ``checkEncoding``); a clone that would
    change it is not a copy, and IREE leaves such encodings to specialization.
    """

    nsw: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.TensorCloneOp, rewriter: PatternRewriter) -> None:
        _storage_size(op, op.source_encoding, self.nsw)
        _storage_size(op, op.result_encoding, self.nsw)
        clone = stream.AsyncCloneOp(op.source, op.source_size, op.result.type, op.result_size, op.affinity)
        rewriter.replace(op, clone)


class EncodeTensorDispatchOp(RewritePattern):
    """``stream.tensor.dispatch`` -> ``stream.async.dispatch`` on whole resources.

    Each resource operand is passed as the range ``[0 to size for size]``; the
    tensor types and their encodings are dropped (the executable keeps them in
    its binding types).
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.TensorDispatchOp, rewriter: PatternRewriter) -> None:
        zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
        rewriter.insert(zero, InsertPoint.before(op))
        sizes = list(op.operand_sizes)
        offsets: list[SSAValue] = []
        ends: list[SSAValue] = []
        for operand in op.mixed_operands:
            if isinstance(operand.type, stream.ResourceType):
                offsets.append(zero.result)
                ends.append(sizes[len(ends)])
        tied = [t.value.data for t in op.tied_operands.data] if op.tied_operands is not None else []
        dispatch = stream.AsyncDispatchOp(
            list(op.entry_points.data),
            op.workload,
            op.mixed_operands,
            op.operand_sizes,
            offsets,
            ends,
            ends,
            op.result_types,
            op.result_sizes,
            tied,
            op.affinity,
        )
        dispatch.attributes |= op.attributes
        rewriter.replace(op, dispatch)


class FoldResourceSizeOp(RewritePattern):
    """``stream.resource.size`` of a resource whose producer states its size: that size (IREE's folder)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.ResourceSizeOp, rewriter: PatternRewriter) -> None:
        producer = op.operand.owner
        if isinstance(producer, stream.AsyncConstantOp):
            rewriter.replace(op, [], [producer.result_size])


# ---------------------------------------------------------------------------
# Byte ranges: splat, fill, slice, update, load, store
# ---------------------------------------------------------------------------
# ``stream.tensor.splat`` / ``fill`` / ``slice`` / ``update`` / ``load`` / ``store``
# become their ``stream.async`` forms on bytes, as IREE's ``EncodeTensors.cpp`` does:
#
# * element indices are linearized row-major (``i0 * d1 + i1``) and scaled to bytes:
#   ``muli`` by the element's byte width, or ``divui`` by the elements a byte holds
#   for packed sub-byte elements (i2/i4, and i1 with ``#iree_encoding.packed_storage``);
# * a splat/fill value becomes an integer pattern of whole bytes (IREE's
#   ``canonicalizeFillPattern``): floats are bitcast, an unpacked i1 is ``extui``'d to
#   i8, and a packed sub-byte value is repeated across a byte with ``shli``/``ori``
#   (an i1 ``b`` gives ``bbbbbbbb``);
# * a slice's end is its offset plus the result size, an update's its offset plus the
#   update size (both already bytes);
# * a fill's length is its lengths linearized as if they were indices, as IREE
#   computes it: the element count for a rank-1 fill (the fills IREE itself
#   creates from ``flow.tensor.store`` have lengths of 1 in every dim).
#
# The arithmetic is built as MLIR's ``createOrFold`` builds it: constant operands fold
# (``x * 1``, ``0 + x``, constant products), nothing else does.


def _constant_value(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


@dataclass
class _Builder:
    """Inserts ``arith`` ops before ``op``, folding as ``createOrFold`` does."""

    rewriter: PatternRewriter
    op: Operation

    def _insert(self, op: Operation) -> SSAValue:
        op.location = self.op.location
        self.rewriter.insert(op, InsertPoint.before(self.op))
        return op.results[0]

    def replace(self, new: Operation) -> None:
        new.location = self.op.location
        self.rewriter.replace(self.op, new)

    def constant(self, value: int, type_: Attribute | None = None) -> SSAValue:
        type_ = IndexType() if type_ is None else type_
        if isinstance(type_, IntegerType) and type_.width.data > 1:
            # Signed two's complement in the type's width, as IntegerAttr holds it.
            width = type_.width.data
            value &= (1 << width) - 1
            if value >= 1 << (width - 1):
                value -= 1 << width
        return self._insert(arith.ConstantOp(IntegerAttr(value, type_)))

    def _binary(self, cls: type[Operation], lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self._insert(cls(lhs, rhs, lhs.type))  # type: ignore[call-arg]

    def addi(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        a, b = _constant_value(lhs), _constant_value(rhs)
        if a is not None and b is not None:
            return self.constant(a + b, lhs.type)
        if b == 0:
            return lhs
        if a == 0:
            return rhs
        if a is not None:
            # The commutative-op folder moves the constant to the right.
            lhs, rhs = rhs, lhs
        return self._binary(arith.AddiOp, lhs, rhs)

    def muli(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        a, b = _constant_value(lhs), _constant_value(rhs)
        if a is not None and b is not None:
            return self.constant(a * b, lhs.type)
        if b == 1:
            return lhs
        if a == 1:
            return rhs
        if b == 0:
            return rhs
        if a == 0:
            return lhs
        if a is not None:
            lhs, rhs = rhs, lhs
        return self._binary(arith.MuliOp, lhs, rhs)

    def divui(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        a, b = _constant_value(lhs), _constant_value(rhs)
        if b == 1:
            return lhs
        if a is not None and b:
            return self.constant(a // b, lhs.type)
        return self._binary(arith.DivUIOp, lhs, rhs)

    def extui_i8(self, value: SSAValue) -> SSAValue:
        c = _constant_value(value)
        if c is not None:
            assert isinstance(value.type, IntegerType)
            return self.constant(c & ((1 << value.type.width.data) - 1), IntegerType(8))
        return self._insert(arith.ExtUIOp(value, IntegerType(8)))

    def shli(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        a, b = _constant_value(lhs), _constant_value(rhs)
        if b == 0:
            return lhs
        if a is not None and b is not None:
            return self.constant(a << b, lhs.type)
        return self._binary(arith.ShLIOp, lhs, rhs)

    def ori(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        a, b = _constant_value(lhs), _constant_value(rhs)
        if a is not None and b is not None:
            assert isinstance(lhs.type, IntegerType)
            mask = (1 << lhs.type.width.data) - 1
            return self.constant((a & mask) | (b & mask), lhs.type)
        if lhs == rhs or b == 0:
            return lhs
        if a == 0:
            return rhs
        if a is not None:
            lhs, rhs = rhs, lhs
        return self._binary(arith.OrIOp, lhs, rhs)


def _check_encoding(op: Operation, tensor: Attribute) -> TensorType:
    if not isinstance(tensor, TensorType):
        raise OpError(op, f"expected a tensor type but got {tensor}")
    if is_unserialized(tensor):
        # IREE's checkEncoding: no target has decided the layout yet.
        raise OpError(op, f"unsupported (unserialized) tensor encoding: {tensor}", prefix_op_name=False)
    return tensor


def _dynamic_position(shape: Sequence[int], dim: int) -> int:
    """The position of dynamic dim ``dim`` among the tensor's dynamic dims."""
    return sum(1 for extent in shape[:dim] if extent == DYNAMIC_INDEX)


def _element_byte_offset(
    tensor: TensorType, dynamic_dims: Sequence[SSAValue], indices: Sequence[SSAValue], b: _Builder
) -> SSAValue:
    """IREE's ``calculateElementByteOffset``: the row-major element offset, in bytes."""
    shape = tensor.get_shape()
    offset = b.constant(0)
    for i, index in enumerate(indices):
        axis_offset = index
        for j in range(i + 1, len(shape)):
            # A static dim is a new constant each time, as IREE's makeTensorDim (uniqued later).
            dim = dynamic_dims[_dynamic_position(shape, j)] if shape[j] == DYNAMIC_INDEX else b.constant(shape[j])
            axis_offset = b.muli(axis_offset, dim)
        offset = b.addi(offset, axis_offset)
    kind, scale = element_byte_offset_scale(tensor)
    if kind == "divui":
        return b.divui(offset, b.constant(scale))
    return b.muli(offset, b.constant(scale))


def _fill_pattern(op: Operation, value: SSAValue, tensor: TensorType, b: _Builder) -> SSAValue:
    """IREE's ``canonicalizeFillPattern``: ``value`` as an i8/i16/i32/i64 byte pattern."""
    pattern = value
    if isinstance(pattern.type, AnyFloat):
        width = pattern.type.bitwidth
        pattern = b._insert(arith.BitcastOp(pattern, IntegerType(width)))
    ty = pattern.type
    if not isinstance(ty, IntegerType):
        raise OpError(
            op,
            f"has unsupported pattern type '{value.type}' with too large/non-byte-aligned bit width; "
            "a new builtin is required",
        )
    bits = ty.width.data
    if needs_sub_byte_packing(tensor):
        # Repeat the sub-byte value across a byte: ((v << w) | v) << w | v ...
        bitwidth = b.constant(bits, IntegerType(8))
        part = b.extui_i8(pattern)
        full = part
        for _ in range(1, 8 // bits):
            full = b.ori(b.shli(full, bitwidth), part)
        return full
    if bits == 1:
        return b.extui_i8(pattern)
    if bits % 8 != 0:
        raise OpError(
            op,
            f"has unsupported pattern type '{value.type}' with too large/non-byte-aligned bit width; "
            "a new builtin is required",
        )
    return pattern


class EncodeTensorSplatOp(RewritePattern):
    """``stream.tensor.splat`` -> ``stream.async.splat`` of the value's byte pattern."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.TensorSplatOp, rewriter: PatternRewriter) -> None:
        tensor = _check_encoding(op, op.result_encoding)
        b = _Builder(rewriter, op)
        pattern = _fill_pattern(op, op.value, tensor, b)
        b.replace(stream.AsyncSplatOp(op.result.type, pattern, op.result_size, op.affinity))


class EncodeTensorFillOp(RewritePattern):
    """``stream.tensor.fill`` -> ``stream.async.fill`` of the byte range ``[offset to offset + length]``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.TensorFillOp, rewriter: PatternRewriter) -> None:
        tensor = _check_encoding(op, op.target_encoding)
        b = _Builder(rewriter, op)
        pattern = _fill_pattern(op, op.value, tensor, b)
        dims = op.target_encoding_dims
        offset = _element_byte_offset(tensor, dims, op.start_indices, b)
        length = _element_byte_offset(tensor, dims, op.lengths, b)
        end = b.addi(offset, length)
        fill = stream.AsyncFillOp(op.result.type, op.target, op.target_size, offset, end, length, pattern, op.affinity)
        b.replace(fill)


class EncodeTensorSliceOp(RewritePattern):
    """``stream.tensor.slice`` -> ``stream.async.slice`` of ``[offset to offset + result size]``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.TensorSliceOp, rewriter: PatternRewriter) -> None:
        tensor = _check_encoding(op, op.source_encoding)
        _check_encoding(op, op.result_encoding)
        b = _Builder(rewriter, op)
        offset = _element_byte_offset(tensor, op.source_encoding_dims, op.start_indices, b)
        end = b.addi(offset, op.result_size)
        slice_ = stream.AsyncSliceOp(
            op.result.type, op.source, op.source_size, offset, end, op.result_size, op.affinity
        )
        b.replace(slice_)


class EncodeTensorUpdateOp(RewritePattern):
    """``stream.tensor.update`` -> ``stream.async.update`` at ``[offset to offset + update size]``."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.TensorUpdateOp, rewriter: PatternRewriter) -> None:
        _check_encoding(op, op.update_encoding)
        tensor = _check_encoding(op, op.target_encoding)
        b = _Builder(rewriter, op)
        offset = _element_byte_offset(tensor, op.target_encoding_dims, op.start_indices, b)
        end = b.addi(offset, op.update_size)
        update = stream.AsyncUpdateOp(
            op.result.type, op.target, op.target_size, offset, end, op.update, op.update_size, op.affinity
        )
        b.replace(update)


class EncodeTensorLoadOp(RewritePattern):
    """``stream.tensor.load`` -> ``stream.async.load`` at the element's byte offset.

    A packed sub-byte element shares its byte with others: IREE leaves such a load
    alone (so does this pattern), as it does a complex one here (no ``complex`` dialect
    to bitcast it with).
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.TensorLoadOp, rewriter: PatternRewriter) -> None:
        tensor = _check_encoding(op, op.source_encoding)
        if needs_sub_byte_packing(tensor) or not isinstance(op.result.type, IntegerType | AnyFloat | IndexType):
            return
        b = _Builder(rewriter, op)
        offset = _element_byte_offset(tensor, op.source_encoding_dims, op.indices, b)
        b.replace(stream.AsyncLoadOp(op.result.type, op.source, op.source_size, offset))


class EncodeTensorStoreOp(RewritePattern):
    """``stream.tensor.store`` -> ``stream.async.store`` at the element's byte offset (not packed sub-byte)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.TensorStoreOp, rewriter: PatternRewriter) -> None:
        tensor = _check_encoding(op, op.target_encoding)
        if needs_sub_byte_packing(tensor):
            return
        b = _Builder(rewriter, op)
        offset = _element_byte_offset(tensor, op.target_encoding_dims, op.indices, b)
        b.replace(stream.AsyncStoreOp(op.target, op.target_size, offset, op.value))


class FoldAsyncSliceOp(RewritePattern):
    """A ``stream.async.slice`` whose result size is its source size is its source (IREE's folder)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.AsyncSliceOp, rewriter: PatternRewriter) -> None:
        if op.source_size == op.result_size:
            rewriter.replace(op, [], [op.source])


@dataclass(frozen=True)
class EncodeHostTensorsPass(ModulePass):
    """Encodes host ``stream.tensor.*`` ops as byte-sized ``stream.async.*`` ops and size arithmetic.

    Runs on each function and initializer of the module (not in executables).
    ``era``: ``walkthrough`` prints the layout arithmetic as the walkthrough
    does; ``3.13`` adds IREE 3.13's ``overflow<nsw>``; by default the run's era
    (read when the pass is built).
    """

    name = "iree-stream-encode-host-tensors"

    # `3.13` reads as a number on the command line; both spellings are accepted.
    era: str | float = field(default_factory=lambda: run_era().name)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        nsw = option_era(self.era, "era").nsw_size_arithmetic
        patterns = GreedyRewritePatternApplier(
            [
                EncodeTensorSizeOfOp(nsw),
                EncodeTensorConstantOp(nsw),
                EncodeTensorEmptyOp(),
                EncodeTensorSplatOp(),
                # The greedy driver folds before it rewrites: a clone with one use is its source.
                FoldTensorCloneOp(),
                EncodeTensorCloneOp(nsw),
                EncodeTensorSliceOp(),
                EncodeTensorFillOp(),
                EncodeTensorUpdateOp(),
                EncodeTensorLoadOp(),
                EncodeTensorStoreOp(),
                EncodeTensorDispatchOp(),
                FoldResourceSizeOp(),
                FoldAsyncSliceOp(),
            ]
        )
        # The module's own functions and initializers (IREE's ``FunctionLikeNest``), not those in executables.
        for function in functions(op, kinds=FUNCTION_LIKE):
            SelectivePatternRewriteWalker(patterns).rewrite_region(function.regions[0])
            hoist_and_unique_constants(function)
