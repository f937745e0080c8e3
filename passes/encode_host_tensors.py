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
* turns ``stream.tensor.splat`` / ``fill`` / ``slice`` / ``update`` into their
  ``stream.async`` forms on byte ranges, with byte patterns for splats and fills
  (``passes/encode_host_tensor_ranges.py``);
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
    is_unserialized,
    legal_storage_bit_width,
    tensor_storage_size,
)
from mini_iree.dialects import stream
from mini_iree.passes.encode_host_tensor_ranges import (
    EncodeTensorFillOp,
    EncodeTensorSliceOp,
    EncodeTensorSplatOp,
    EncodeTensorUpdateOp,
    FoldAsyncSliceOp,
)
from mini_iree.dialects.stream_canonicalization import FoldTensorCloneOp
from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
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
                EncodeTensorDispatchOp(),
                FoldResourceSizeOp(),
                FoldAsyncSliceOp(),
            ]
        )
        # The module's own functions and initializers (IREE's ``FunctionLikeNest``), not those in executables.
        for function in functions(op, kinds=FUNCTION_LIKE):
            SelectivePatternRewriteWalker(patterns).rewrite_region(function.regions[0])
            hoist_and_unique_constants(function)
