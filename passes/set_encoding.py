"""``iree-dispatch-creation-set-encoding``: put encodings on the operands of hinted ops.

For each op carrying the ``iree.opt.data_tiling`` hint the pass drops the hint
and rewrites

    %r = linalg.matmul ins(%a, %b) outs(%fill)

into

    %ea = iree_encoding.set_encoding %a : ... -> tensor<?x?xf32, #encoding>
    %eb = iree_encoding.set_encoding %b : ... -> tensor<?x?xf32, #encoding1>
    %e  = tensor.empty(%m, %n) : tensor<?x?xf32, #encoding2>
    %f  = linalg.fill ins(%cst : f32) outs(%e : ...) -> ...
    %er = linalg.matmul ins(%ea, %eb) outs(%f) -> tensor<?x?xf32, #encoding2>
    %r  = iree_encoding.unset_encoding %er : ... -> tensor<?x?xf32>{%m, %n}

The encodings only describe how each tensor is used; a backend later decides
the physical layout. A ``linalg.fill`` init is re-created on an encoded
``tensor.empty`` rather than encoded (IREE's FoldFillWithSetEncoding), so no
relayout of a value that is about to be overwritten remains.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from mini_iree.compiler.ir.diagnostics import OpError
from mini_iree.compiler.analysis.dispatch_regions import erase_if_dead
from mini_iree.compiler.ir.dynamic_dims import get_dynamic_dims
from mini_iree.compiler.analysis.encoding_properties import (
    get_dynamic_loop_dims,
    get_encoding_properties,
    has_data_tiling_hint,
    has_encoding,
    has_pure_tensor_semantics,
    operand_types_with_encodings,
    remove_data_tiling_hint,
)
from mini_iree.compiler.ir.module_utils import function_ops

_ENCODING_OPTIONS = ("default", "padding")


def _encoded_init(
    init: SSAValue, encoded_type: TensorType, loop_dims: list[SSAValue], before: Operation
) -> tuple[SSAValue, list[SSAValue] | None]:
    """The init operand in its encoded type, inserted before ``before``, and its dynamic sizes.

    The sizes are None when they are to be read from the init after the op.

    A ``linalg.fill`` init becomes a fill of a new encoded ``tensor.empty``: the
    fill overwrites every element, so the old contents need no relayout.
    Otherwise the init is encoded with ``set_encoding``.
    """
    from mini_iree.dialects import iree_encoding, linalg, tensor

    point = InsertPoint.before(before)
    fill = init.owner
    if isinstance(fill, linalg.FillOp) and len(fill.res) == 1:
        sizes = get_dynamic_dims(fill.outputs[0], point)
        empty = tensor.EmptyOp(sizes, encoded_type)
        new_fill = linalg.FillOp(fill.inputs, [empty.tensor], [encoded_type])
        Rewriter.insert_op([empty, new_fill], point)
        return new_fill.res[0], sizes
    set_op = iree_encoding.SetEncodingOp(init, encoded_type, loop_dims)
    Rewriter.insert_op(set_op, point)
    return set_op.result, None


def _clone_with_operands(op: Operation, operands: list[SSAValue], result_type: TensorType) -> Operation:
    """``op`` on new operands and result type; same properties, attributes and body."""
    return type(op).create(
        operands=operands,
        result_types=[result_type],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
        regions=[region.clone() for region in op.regions],
    )


@dataclass(frozen=True)
class SetEncodingPass(ModulePass):
    """Sets ``#iree_encoding.encoding`` on the operands of every op with the data-tiling hint.

    Each hinted contraction gets ``set_encoding`` on its inputs, an encoded init,
    a clone on encoded types and an ``unset_encoding`` of its result; the hint is
    removed. A hinted op that is not a contraction on tensors, or whose operands
    are already encoded, is an error. ``encoding-dims=true`` attaches the dynamic
    loop sizes as ``encoding_dims{...}`` (IREE 3.13's form); by default they are
    left out, as in the data-tiling walkthrough. ``encoding-option=padding`` is
    not supported.
    """

    name = "iree-dispatch-creation-set-encoding"

    encoding_option: str = "default"
    encoding_dims: bool = False

    def __post_init__(self) -> None:
        if self.encoding_option not in _ENCODING_OPTIONS:
            raise ValueError(
                f"unknown encoding-option '{self.encoding_option}' (expected one of: {', '.join(_ENCODING_OPTIONS)})"
            )
        if self.encoding_option == "padding":
            raise ValueError("encoding-option=padding (pad-only encodings) is not supported; use 'default'")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in function_ops(op):
            candidates = [inner for inner in function.walk() if has_data_tiling_hint(inner)]
            for candidate in candidates:
                remove_data_tiling_hint(candidate)
                self._set_encodings(candidate)

    def _set_encodings(self, op: Operation) -> None:
        from mini_iree.dialects import iree_encoding

        if not isinstance(op, LinalgStructuredOperation) or not has_pure_tensor_semantics(op):
            raise OpError(op, "has the data-tiling hint but is not a linalg op on tensors")
        props = get_encoding_properties(op)
        if props is None:
            raise OpError(op, "has the data-tiling hint but data-tiling encodings are only derived for contractions")
        if any(has_encoding(v) for v in op.operands):
            raise OpError(op, "has the data-tiling hint but an operand already has an encoding")

        before = InsertPoint.before(op)
        loop_dims = get_dynamic_loop_dims(op, before) if self.encoding_dims else []

        input_types = operand_types_with_encodings(op.inputs, props.inputs)
        encoded_inputs: list[SSAValue] = []
        for value, ty in zip(op.inputs, input_types, strict=True):
            set_op = iree_encoding.SetEncodingOp(value, ty, loop_dims)
            Rewriter.insert_op(set_op, before)
            encoded_inputs.append(set_op.result)

        init = op.outputs[0]
        (init_type,) = operand_types_with_encodings([init], props.inits)
        encoded_init, result_dims = _encoded_init(init, init_type, loop_dims, op)

        clone = _clone_with_operands(op, [*encoded_inputs, encoded_init], init_type)
        Rewriter.insert_op(clone, before)
        if result_dims is None:
            result_dims = get_dynamic_dims(init, before)
        plain = op.results[0].type
        unset = iree_encoding.UnsetEncodingOp(clone.results[0], plain, result_dims, loop_dims)
        Rewriter.insert_op(unset, before)
        op.results[0].replace_all_uses_with(unset.result)
        Rewriter.erase_op(op)

        # The fill (and its tensor.empty) the encoded init replaced, once unused.
        if isinstance(init.owner, Operation):
            erase_if_dead([init.owner])

