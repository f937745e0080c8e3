"""Scaled contractions: matmuls on block-scaled (MX) operands.

IREE's ``ScaledContractionOpInterface`` (LinalgExt/Utils/MatchUtils): a linalg
op with four inputs ``(a, b, a_scales, b_scales)`` and one init, whose body
multiplies ``scaling_extf(a, a_scale)`` by ``scaling_extf(b, b_scale)`` and
accumulates into the init:

    ^bb0(%a: f4E2M1FN, %b: f4E2M1FN, %sa: f8E8M0FNU, %sb: f8E8M0FNU, %out: f32):
      %0 = arith.scaling_extf %a, %sa : f4E2M1FN, f8E8M0FNU to f32
      %1 = arith.scaling_extf %b, %sb : f4E2M1FN, f8E8M0FNU to f32
      %2 = arith.mulf %0, %1 : f32
      %3 = arith.addf %out, %2 : f32

Its loops split into batch, M, N, K (reduced, indexed by both scales: one
scale per block) and Kb (reduced inside a block: indexed by ``a`` and ``b``
but by no scale).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import MemRefType, ShapedType
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.traits import is_side_effect_free


__all__ = ["ScaledContractionDims", "infer_scaled_contraction_dims", "scaled_contraction_dims"]


@dataclass(frozen=True)
class ScaledContractionDims:
    """Loop positions of each kind, in increasing order."""

    batch: tuple[int, ...]
    m: tuple[int, ...]
    n: tuple[int, ...]
    k: tuple[int, ...]
    kb: tuple[int, ...]


# (reduction, elementwise) op pairs a scaled matmul body may use (IREE's isValidScaledMmaPair).
_MMA_PAIRS = ((arith.AddfOp, arith.MulfOp), (arith.AddiOp, arith.MuliOp), (arith.OrIOp, arith.AndIOp))


def _permuted_loops(affine_map: AffineMap, iterators: Sequence[IteratorType], kind: IteratorType) -> set[int]:
    """Loops of ``kind`` the map reads as a bare ``dN`` that no other result mentions."""
    found: set[int] = set()
    for result in affine_map.results:
        if not isinstance(result, AffineDimExpr) or iterators[result.position] != kind:
            continue
        mentions = sum(1 for r in affine_map.results if result.position in r.used_dims())
        if mentions == 1:
            found.add(result.position)
    return found


def infer_scaled_contraction_dims(
    maps: Sequence[AffineMap], iterators: Sequence[IteratorType] | None = None
) -> ScaledContractionDims | None:
    """The loops of ``(a, b, a_scales, b_scales, out)`` maps by kind, or None.

    Without ``iterators``, a loop is parallel exactly when the output reads it.
    """
    if len(maps) != 5:
        return None
    if iterators is None:
        if not maps[4].is_projected_permutation():
            return None
        out = {r.position for r in maps[4].results if isinstance(r, AffineDimExpr)}
        iterators = [IteratorType.PARALLEL if d in out else IteratorType.REDUCTION for d in range(maps[4].num_dims)]
    par, red = IteratorType.PARALLEL, IteratorType.REDUCTION
    a, b, c = (_permuted_loops(maps[i], iterators, par) for i in (0, 1, 4))
    k = _permuted_loops(maps[2], iterators, red) & _permuted_loops(maps[3], iterators, red)
    kb = (_permuted_loops(maps[0], iterators, red) & _permuted_loops(maps[1], iterators, red)) - k
    return ScaledContractionDims(
        batch=tuple(sorted(a & b & c)),
        m=tuple(sorted((a & c) - b)),
        n=tuple(sorted((b & c) - a)),
        k=tuple(sorted(k)),
        kb=tuple(sorted(kb)),
    )


def _skip_unary(value: SSAValue) -> SSAValue:
    """Up the chain of one-operand side-effect-free ops (MLIR's getSourceSkipUnary)."""
    while isinstance(value.owner, Operation) and len(value.owner.operands) == 1 and is_side_effect_free(value.owner):
        value = value.owner.operands[0]
    return value


def _skip_scaling(value: SSAValue) -> SSAValue:
    """Up the chain of ``arith.scaling_extf``/``scaling_truncf`` ops, to the scaled value.

    As IREE's matcher, only these two-operand casts are looked through here:
    ``extf``/``truncf`` of a multiplicand are not.
    """
    from mini_iree.dialects import arith as mini_arith

    while isinstance(value.owner, (mini_arith.ScalingExtFOp, mini_arith.ScalingTruncFOp)):
        value = value.owner.operands[0]
    return value


def _is_scaled_contraction_body(block: Block) -> bool:
    """IREE's ``isScaledContractionBody``: ``out (+) (scaled(a) (*) scaled(b))``, modulo casts."""
    if len(block.args) != 5 or block.last_op is None or len(block.last_op.operands) != 1:
        return False
    reduction = _skip_unary(block.last_op.operands[0]).owner
    if not isinstance(reduction, Operation) or len(reduction.results) != 1 or len(reduction.operands) != 2:
        return False
    lhs, rhs = (_skip_unary(v) for v in reduction.operands)
    if block.args[4] not in (lhs, rhs):
        return False
    elementwise = _skip_unary(rhs if isinstance(lhs, BlockArgument) else lhs).owner
    if not isinstance(elementwise, Operation) or len(elementwise.results) != 1 or len(elementwise.operands) != 2:
        return False
    if not any(isinstance(reduction, add) and isinstance(elementwise, mul) for add, mul in _MMA_PAIRS):
        return False
    operands = [_skip_scaling(v) for v in elementwise.operands]
    return operands in ([block.args[0], block.args[1]], [block.args[1], block.args[0]])


def scaled_contraction_dims(op: Operation) -> ScaledContractionDims | None:
    """The loops of ``op`` by kind if it is a scaled contraction (IREE's isaScaledContractionOpInterface)."""
    if not isinstance(op, LinalgStructuredOperation) or len(op.inputs) != 4 or len(op.outputs) != 1:
        return None
    if any(isinstance(v.type, MemRefType) for v in op.operands if isinstance(v.type, ShapedType)):
        return None
    iterators = [t.data for t in op.get_iterator_types()]
    if IteratorType.REDUCTION not in iterators:
        return None
    maps = [m.data for m in op.get_indexing_maps()]
    if any(not m.is_projected_permutation() for m in maps):
        return None
    if not _is_scaled_contraction_body(op.body.block):
        return None
    return infer_scaled_contraction_dims(maps, iterators)
