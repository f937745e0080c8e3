"""``iree-dispatch-creation-annotate-data-tiling-hints``: choose the ops to data-tile.

Data tiling is opt-in per op: ``set-encoding`` only rewrites ops carrying the
unit attribute ``iree.opt.data_tiling``. This pass places that hint on every
supported contraction, unless a function already has a hint somewhere, in which
case the user (or an earlier preprocessing step) has chosen and the function is
left untouched.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from mini_iree.compiler.analysis.convolution import convolution_dims
from mini_iree.compiler.analysis.encoding_properties import (
    data_tilable_precondition,
    has_data_tiling_hint,
    is_supported_contraction_given_precondition,
    set_data_tiling_hint,
)
from mini_iree.compiler.analysis.functions import functions
from mini_iree.compiler.analysis.scaled_contraction import scaled_contraction_dims
from mini_iree.compiler.ir.queries import nested_ops


def _is_supported_scaled_contraction_given_precondition(op: Operation) -> bool:
    dims = scaled_contraction_dims(op)
    return dims is not None and len(dims.k) == 1 and len(dims.kb) == 1


# The values `data-tiling-op-types` accepts (IREE's option parser spells the
# `conv` EncodingOpType `convolution`).
_OP_TYPES = ("matmul", "scaled_matmul", "convolution")


def _normalize_list(value: object) -> tuple[str, ...]:
    # A one-element list option arrives as a bare string.
    if isinstance(value, str):
        return (value,)
    return tuple(str(v) for v in value)  # type: ignore[union-attr]


@dataclass(frozen=True)
class AnnotateDataTilingHintsPass(ModulePass):
    """Adds the ``iree.opt.data_tiling`` hint to every data-tilable op of each function.

    A function in which any op already has the hint is left alone (the hints
    were preset). Matmul-like contractions (one batch/M/N/K loop at most, a K
    and an M or N, a multiply-accumulate body; a matmul with a broadcast LHS or
    RHS is hinted too, and its resolvers give it the identity layout) and scaled contractions (one K
    and one Kb loop) are recognized, if no operand is encoded and they are not
    in a dispatch with a workgroup count. With ``convolution`` in
    ``data-tiling-op-types``, every convolution (``isaConvolutionOpInterface``
    whose loops ``inferConvolutionDims`` classifies) is hinted too.
    """

    name = "iree-dispatch-creation-annotate-data-tiling-hints"

    data_tiling_op_types: tuple[str, ...] = field(default=("matmul", "scaled_matmul"))

    def __post_init__(self) -> None:
        types = _normalize_list(self.data_tiling_op_types)
        for t in types:
            if t not in _OP_TYPES:
                raise ValueError(
                    f"unknown data-tiling op type '{t}' (expected one of: {', '.join(_OP_TYPES)})"
                )
        object.__setattr__(self, "data_tiling_op_types", types)

    def _is_candidate(self, op: Operation) -> bool:
        # Both kinds start with the same precondition: asked once.
        if not data_tilable_precondition(op):
            return False
        if "matmul" in self.data_tiling_op_types and is_supported_contraction_given_precondition(op):
            return True
        if "scaled_matmul" in self.data_tiling_op_types and _is_supported_scaled_contraction_given_precondition(op):
            return True
        return "convolution" in self.data_tiling_op_types and convolution_dims(op) is not None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in functions(op, nested=True):
            candidates: list[Operation] = []
            preset = False
            for inner in nested_ops(function):
                if has_data_tiling_hint(inner):
                    preset = True
                    break
                if self._is_candidate(inner):
                    candidates.append(inner)
            if preset:
                continue
            for candidate in candidates:
                set_data_tiling_hint(candidate)
