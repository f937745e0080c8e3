"""``iree-stream-encode-host-tensors`` for the tensor ops that write or read ranges of a resource.

``stream.tensor.splat`` / ``fill`` / ``slice`` / ``update`` become
``stream.async.splat`` / ``fill`` / ``slice`` / ``update`` on bytes, as IREE's
``EncodeTensors.cpp`` does:

* element indices are linearized row-major (``i0 * d1 + i1``) and scaled to bytes:
  ``muli`` by the element's byte width, or ``divui`` by the elements a byte holds
  for packed sub-byte elements (i2/i4, and i1 with ``#iree_encoding.packed_storage``);
* a splat/fill value becomes an integer pattern of whole bytes (IREE's
  ``canonicalizeFillPattern``): floats are bitcast, an unpacked i1 is ``extui``'d to
  i8, and a packed sub-byte value is repeated across a byte with ``shli``/``ori``
  (an i1 ``b`` gives ``bbbbbbbb``);
* a slice's end is its offset plus the result size, an update's its offset plus the
  update size (both already bytes).

The arithmetic is built as MLIR's ``createOrFold`` builds it: constant operands fold
(``x * 1``, ``0 + x``, constant products), nothing else does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mini_iree.compiler.ir.diagnostics import OpError
from mini_iree.compiler.layout.storage import (
    element_byte_offset_scale,
    is_unserialized,
    needs_sub_byte_packing,
)
from mini_iree.dialects import stream
from xdsl.dialects import arith
from xdsl.dialects.builtin import DYNAMIC_INDEX, AnyFloat, IndexType, IntegerAttr, IntegerType, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

__all__ = [
    "EncodeTensorFillOp",
    "EncodeTensorSliceOp",
    "EncodeTensorSplatOp",
    "EncodeTensorUpdateOp",
    "FoldAsyncSliceOp",
]


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

    def constant(self, value: int, type_: Attribute = IndexType()) -> SSAValue:
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
            f"has unsupported pattern type {value.type} with too large/non-byte-aligned bit width; "
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
            f"has unsupported pattern type {value.type} with too large/non-byte-aligned bit width; "
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


class FoldAsyncSliceOp(RewritePattern):
    """A ``stream.async.slice`` whose result size is its source size is its source (IREE's folder)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.AsyncSliceOp, rewriter: PatternRewriter) -> None:
        if op.source_size == op.result_size:
            rewriter.replace(op, [], [op.source])
