"""``iree-stream-encode-device-tensors``: bindings take the element types the host stores.

The host sizes a tensor by its storage element type (``compiler/layout/storage.py``,
IREE's ``legalizeStorageElementType``): integers that are not a power-of-two
number of bytes and cannot be packed several to a byte (i1, i3, i5, ..., i17)
are stored widened (i1 -> i8). Inside each ``stream.executable`` this pass makes
the device agree:

* ``stream.binding.subspan`` results become dispatch tensors of the storage type
  (``tensor<4xi1>`` -> ``tensor<4xi8>``; like IREE, the new type has no encoding);
* ``iree_tensor_ext.dispatch.tensor.load`` loads the storage type and
  ``arith.trunci`` back to the program's type (one op on the whole tensor);
* ``iree_tensor_ext.dispatch.tensor.store`` stores ``arith.extui`` of the value
  (a constant value is widened in place).

Left alone: byte-aligned types (f32, f16, bf16, i8, i32, ...), i2/i4 (packed
two or four to a byte), i1 with ``#iree_encoding.packed_storage``, everything
outside executables. On f32/i8/f16 programs (all of the walkthrough's) the pass
changes nothing, as IREE 3.13's dumps show.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerType,
    ModuleOp,
    TensorType,
)
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from mini_iree.compiler.ir.dense_elements import dense_elements
from mini_iree.compiler.ir.selective_walker import SelectivePatternRewriteWalker
from mini_iree.compiler.layout.storage import legal_storage_bit_width
from mini_iree.dialects import iree_tensor_ext, stream
from mini_iree.compiler.ir.constants import hoist_and_unique_constants

__all__ = ["EncodeDeviceTensorsPass"]


def _aligned_tensor_type(tensor: TensorType) -> TensorType:
    """``tensor`` with its storage element type (encoding kept), or ``tensor`` itself."""
    element = tensor.element_type
    if not isinstance(element, IntegerType):
        return tensor
    bits = legal_storage_bit_width(tensor)
    if bits == element.width.data:
        return tensor
    return TensorType(IntegerType(bits, element.signedness.data), tensor.get_shape(), tensor.encoding)


def _widened_constant(op: arith.ConstantOp, aligned: TensorType) -> arith.ConstantOp | None:
    """A dense integer constant in the storage type (the fold of ``arith.extui`` of it)."""
    value = op.value
    source = op.result.type
    if not isinstance(value, DenseIntOrFPElementsAttr) or not isinstance(source, TensorType):
        return None
    assert isinstance(source.element_type, IntegerType)
    mask = (1 << source.element_type.width.data) - 1
    values = [int(v) & mask for v in value.get_values()]
    return arith.ConstantOp(dense_elements(aligned, values))


class EncodeBindingSubspanOp(RewritePattern):
    """A binding viewed as a sub-byte dispatch tensor is viewed in its storage element type."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.BindingSubspanOp, rewriter: PatternRewriter) -> None:
        original = op.result.type
        if not isinstance(original, iree_tensor_ext.DispatchTensorType):
            return
        bound = original.bound_type
        if not isinstance(bound, TensorType):
            return
        aligned = _aligned_tensor_type(bound)
        if aligned == bound:
            return
        plain = TensorType(aligned.element_type, aligned.get_shape())
        rewriter.replace_value_with_new_type(op.result, iree_tensor_ext.DispatchTensorType(original.access.data, plain))


class EncodeDispatchTensorLoadOp(RewritePattern):
    """A load of a sub-byte tensor loads the storage type and truncates (``i8 -> i1``)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: iree_tensor_ext.DispatchTensorLoadOp, rewriter: PatternRewriter) -> None:
        target = op.result.type
        assert isinstance(target, TensorType)
        aligned = _aligned_tensor_type(target)
        if aligned == target:
            return
        loaded = rewriter.replace_value_with_new_type(op.result, aligned)
        users = [use.operation for use in loaded.uses]
        # The users of the load get the truncation; the truncation reads the load.
        truncated = arith.TruncIOp(loaded, target)
        rewriter.insert(truncated, InsertPoint.after(op))
        rewriter.replace_uses_with_if(loaded, truncated.result, lambda use: use.operation in users)


class EncodeDispatchTensorStoreOp(RewritePattern):
    """A store of a sub-byte tensor stores it zero-extended to the storage type (``i1 -> i8``)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: iree_tensor_ext.DispatchTensorStoreOp, rewriter: PatternRewriter) -> None:
        source = op.value.type
        assert isinstance(source, TensorType)
        aligned = _aligned_tensor_type(source)
        if aligned == source:
            return
        producer = op.value.owner
        if isinstance(producer, arith.ConstantOp) and (widened := _widened_constant(producer, aligned)) is not None:
            # The fold of extending a constant: the constant in the storage type.
            rewriter.insert(widened, InsertPoint.before(op))
            extended = widened.result
        else:
            extension = arith.ExtUIOp(op.value, aligned)
            rewriter.insert(extension, InsertPoint.before(op))
            extended = extension.result
        op.operands[0] = extended
        rewriter.notify_op_modified(op)


@dataclass(frozen=True)
class EncodeDeviceTensorsPass(ModulePass):
    """Aligns sub-byte binding element types to their storage types inside each ``stream.executable``."""

    name = "iree-stream-encode-device-tensors"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        patterns = GreedyRewritePatternApplier(
            [EncodeBindingSubspanOp(), EncodeDispatchTensorLoadOp(), EncodeDispatchTensorStoreOp()]
        )
        for executable in op.body.block.ops:
            if not isinstance(executable, stream.ExecutableOp):
                continue
            SelectivePatternRewriteWalker(patterns).rewrite_region(executable.body)
            hoist_and_unique_constants(executable)
