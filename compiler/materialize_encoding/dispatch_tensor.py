"""Layout transfers of `dispatch.tensor.load` / `dispatch.tensor.store` (IREE's
``DecomposeMismatchEncodingTensorLoadOp`` / ``...StoreOp`` in ``MaterializeEncodingPatterns.cpp``).

A load may read a binding whose encoding materializes to another layout than its
result's (a plain binding read as an encoded tensor, or two encodings that resolve
to different tiles), and a store likewise. Before the conversion, such a whole-tensor
load becomes a load of the binding's own type followed by ``unset_encoding`` (when
the binding has an encoding) and ``set_encoding`` (when the result has one); a store
gets the same chain in front of it. The conversion then lowers the chain to
``linalg.unpack`` / ``linalg.pack``. Partial slices are left as they are (IREE:
"unhandled partial loads"), and so are padded bindings, whose slices the conversion
keeps.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects.builtin import NoneAttr, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from mini_iree.compiler.materialize_encoding.builders import mixed_sizes
from mini_iree.dialects import iree_encoding, iree_tensor_ext
from mini_iree.dialects.iree_codegen import MaterializeEncodingInfo

if TYPE_CHECKING:
    from mini_iree.compiler.materialize_encoding.patterns import _Conversion

__all__ = ["DecomposeMismatchEncodingTensorLoadOp", "DecomposeMismatchEncodingTensorStoreOp"]


def _encoded(ty: Attribute) -> bool:
    return isinstance(ty, TensorType) and not isinstance(ty.encoding, NoneAttr)


def _spans_whole(op: Operation, bound: TensorType, dims: list[SSAValue], value_type: TensorType) -> bool:
    """IREE's isLoadOfWholeSource / isStoreToWholeTarget, without rank-changing slices."""
    if len(value_type.get_shape()) != len(bound.get_shape()):
        return False
    offsets = op.get_mixed_offsets()  # type: ignore[attr-defined]
    strides = op.get_mixed_strides()  # type: ignore[attr-defined]
    sizes = op.get_mixed_sizes()  # type: ignore[attr-defined]
    return (
        all(o == 0 for o in offsets)
        and all(s == 1 for s in strides)
        and list(sizes) == mixed_sizes(bound.get_shape(), dims)
    )


def _layouts_differ(conversion: _Conversion, op: Operation, bound: TensorType, value_type: TensorType) -> bool:
    """Whether the binding's tensor and the loaded/stored tensor materialize differently.

    Padded bindings keep their own handling (the conversion reads and writes the
    logical slice of the padded tensor), so they never count as a mismatch here.
    """
    if not _encoded(bound) and not _encoded(value_type):
        return False
    pads = conversion.layouts.padding(op, bound) if _encoded(bound) else None
    if pads is not None and any(pads):
        return False
    bound_info = conversion.info(op, bound) or MaterializeEncodingInfo()
    value_info = conversion.info(op, value_type) or MaterializeEncodingInfo()
    return bound_info != value_info


def _transfer(
    rewriter: PatternRewriter, anchor: Operation, value: SSAValue, dims: list[SSAValue], dest: TensorType
) -> SSAValue:
    """IREE's generateEncodingTransferOps: `unset_encoding` then `set_encoding` as needed."""
    source_type = value.type
    assert isinstance(source_type, TensorType)
    if source_type == dest:
        return value
    if _encoded(source_type):
        plain = TensorType(source_type.get_element_type(), source_type.get_shape())
        unset = iree_encoding.UnsetEncodingOp(value, plain, dims)
        unset.location = anchor.location
        rewriter.insert(unset, InsertPoint.before(anchor))
        value = unset.result
    if _encoded(dest):
        set_op = iree_encoding.SetEncodingOp(value, dest)
        set_op.location = anchor.location
        rewriter.insert(set_op, InsertPoint.before(anchor))
        value = set_op.result
    return value


class DecomposeMismatchEncodingTensorLoadOp(RewritePattern):
    """A whole-tensor load whose result's layout differs from its binding's -> load + relayout."""

    def __init__(self, conversion: _Conversion):
        self.c = conversion

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: iree_tensor_ext.DispatchTensorLoadOpBase, rewriter: PatternRewriter) -> None:
        source_type = op.source.type
        bound = source_type.bound_type if isinstance(source_type, iree_tensor_ext.DispatchTensorTypeBase) else None
        dest = op.result.type
        if not isinstance(bound, TensorType) or not isinstance(dest, TensorType) or bound == dest:
            return
        source_dims = list(op.source_dims)
        if not _spans_whole(op, bound, source_dims, dest) or not _layouts_differ(self.c, op, bound, dest):
            return
        load = type(op)(
            bound,
            op.source,
            source_dims,
            op.get_mixed_offsets(),
            op.get_mixed_sizes(),
            op.get_mixed_strides(),
        )
        load.location = op.location
        rewriter.insert(load, InsertPoint.before(op))
        result = _transfer(rewriter, op, load.result, list(op.sizes), dest)
        rewriter.replace(op, [], [result])


class DecomposeMismatchEncodingTensorStoreOp(RewritePattern):
    """A whole-tensor store of a value whose layout differs from its binding's -> relayout + store."""

    def __init__(self, conversion: _Conversion):
        self.c = conversion

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: iree_tensor_ext.DispatchTensorStoreOpBase, rewriter: PatternRewriter) -> None:
        target_type = op.target.type
        bound = target_type.bound_type if isinstance(target_type, iree_tensor_ext.DispatchTensorTypeBase) else None
        value_type = op.value.type
        if not isinstance(bound, TensorType) or not isinstance(value_type, TensorType) or bound == value_type:
            return
        target_dims = list(op.target_dims)
        if not _spans_whole(op, bound, target_dims, value_type) or not _layouts_differ(
            self.c, op, bound, value_type
        ):
            return
        value = _transfer(rewriter, op, op.value, list(op.sizes), bound)
        store = type(op)(
            value,
            op.target,
            target_dims,
            op.get_mixed_offsets(),
            op.get_mixed_sizes(),
            op.get_mixed_strides(),
        )
        store.location = op.location
        rewriter.replace(op, store)
