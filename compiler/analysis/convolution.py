"""Convolutions among linalg ops: MLIR's ``isaConvolutionOpInterface`` and ``inferConvolutionDims``.

A convolution reads its input (image) at ``o * stride + k * dilation`` for each
spatial dim, and its filter and output through projected permutations. Its loops split into batch, output image, output
channel, filter loop, input channel and depth (grouped / depthwise) loops,
which is what data tiling needs to lay its operands out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.ir import Operation
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap


@dataclass
class ConvolutionDims:
    """MLIR's ``ConvolutionDimensions``: loop positions of each kind, in increasing order."""

    batch: list[int] = field(default_factory=list)
    output_image: list[int] = field(default_factory=list)
    output_channel: list[int] = field(default_factory=list)
    filter_loop: list[int] = field(default_factory=list)
    input_channel: list[int] = field(default_factory=list)
    depth: list[int] = field(default_factory=list)
    strides: list[int] = field(default_factory=list)
    dilations: list[int] = field(default_factory=list)


def _dim_times_constant(expr: AffineExpr) -> tuple[int, int] | None:
    """``(dim, factor)`` of ``d``, ``d * c`` or ``c * d``; None for anything else."""
    if isinstance(expr, AffineDimExpr):
        return expr.position, 1
    if isinstance(expr, AffineBinaryOpExpr) and expr.kind == AffineBinaryOpKind.Mul:
        lhs, rhs = expr.lhs, expr.rhs
        if isinstance(lhs, AffineDimExpr) and isinstance(rhs, AffineConstantExpr):
            return lhs.position, rhs.value
        if isinstance(rhs, AffineDimExpr) and isinstance(lhs, AffineConstantExpr):
            return rhs.position, lhs.value
    return None


@dataclass
class _ConvAccess:
    """MLIR's ``ConvAccessExprWalker`` over the input map: bare dims, and the pairs of dims
    summed in one result (an output image dim and a filter loop) with their factors."""

    unconvolved: set[int] = field(default_factory=set)
    convolved: set[int] = field(default_factory=set)
    partner: dict[int, int] = field(default_factory=dict)
    factor: dict[int, int] = field(default_factory=dict)

    @staticmethod
    def of(input_map: AffineMap) -> _ConvAccess | None:
        access = _ConvAccess()
        for expr in input_map.results:
            if isinstance(expr, AffineDimExpr):
                if expr.position in access.unconvolved or expr.position in access.convolved:
                    return None
                access.unconvolved.add(expr.position)
                continue
            if not isinstance(expr, AffineBinaryOpExpr) or expr.kind != AffineBinaryOpKind.Add:
                return None
            lhs, rhs = _dim_times_constant(expr.lhs), _dim_times_constant(expr.rhs)
            if lhs is None or rhs is None:
                return None
            for dim, factor in (lhs, rhs):
                if dim in access.unconvolved or dim in access.convolved:
                    return None
                access.convolved.add(dim)
                access.factor[dim] = factor
            access.partner[lhs[0]], access.partner[rhs[0]] = rhs[0], lhs[0]
        return access


def _is_projected_permutation(map_: AffineMap) -> bool:
    positions = [r.position for r in map_.results if isinstance(r, AffineDimExpr)]
    return len(positions) == len(map_.results) and len(set(positions)) == len(positions)


def infer_convolution_dims(maps: Sequence[AffineMap], iterators: Sequence[str] | None = None) -> ConvolutionDims | None:
    """The loops of a convolution with indexing maps ``(input, filter, output)``; None if the
    maps are not a convolution's. With ``iterators``, also checks each loop's iterator type
    (parallel for batch/output image/output channel/depth, reduction otherwise), as
    ``isaConvolutionOpInterface`` does, and that every loop is classified."""
    if len(maps) != 3 or not _is_projected_permutation(maps[1]) or not _is_projected_permutation(maps[2]):
        return None
    access = _ConvAccess.of(maps[0])
    if access is None:
        return None
    filter_dims = {r.position for r in maps[1].results}
    output_dims = {r.position for r in maps[2].results}
    dims = ConvolutionDims()
    for expr in maps[2].results:
        d = expr.position
        if d in access.unconvolved and d not in filter_dims:
            dims.batch.append(d)
        elif d in access.convolved and d not in filter_dims:
            dims.output_image.append(d)
        elif d not in access.convolved and d not in access.unconvolved and d in filter_dims:
            dims.output_channel.append(d)
        elif d in access.unconvolved and d in filter_dims:
            dims.depth.append(d)
        else:
            return None
    for expr in maps[1].results:
        d = expr.position
        if d in output_dims and d not in access.unconvolved and d not in access.convolved:
            continue  # an output channel, seen above
        if d in access.convolved and d not in output_dims:
            dims.filter_loop.append(d)
        elif d in access.unconvolved and d not in output_dims:
            dims.input_channel.append(d)
        elif d in access.unconvolved and d in output_dims:
            continue  # a depth loop, seen above
        else:
            return None
    if iterators is not None:
        parallel = [*dims.batch, *dims.output_image, *dims.output_channel, *dims.depth]
        reduction = [*dims.filter_loop, *dims.input_channel]
        if any(iterators[d] != "parallel" for d in parallel) or any(iterators[d] != "reduction" for d in reduction):
            return None
        if len(set(parallel) | set(reduction)) != len(iterators):
            return None
    for kind in (dims.batch, dims.output_image, dims.output_channel, dims.filter_loop, dims.input_channel, dims.depth):
        kind.sort()
    # One stride per output image loop, one dilation per its filter loop (1 when not paired).
    for d in dims.output_image:
        dims.strides.append(access.factor.get(d, 1))
        partner = access.partner.get(d)
        dims.dilations.append(access.factor.get(partner, 1) if partner is not None else 1)
    return dims


def convolution_dims(op: Operation) -> ConvolutionDims | None:
    """``isaConvolutionOpInterface`` and ``inferConvolutionDims`` of a linalg op: its loops if
    it is a convolution on two inputs and one init.

    As in MLIR, the body is not looked at: pooling ops (a max or sum body) are
    convolutions too. Ops with more inputs (quantized convolutions' zero points),
    which MLIR accepts, are refused: their extra operands would get no encoding.
    """
    from mini_iree.compiler.analysis.encoding_properties import _is_linalg, indexing_maps

    if not _is_linalg(op) or len(op.inputs) != 2 or len(op.outputs) != 1:
        return None
    iterators = [str(t.data) for t in op.get_iterator_types()]
    dims = infer_convolution_dims(indexing_maps(op), iterators)
    if dims is None or not dims.output_image:
        return None  # MLIR refuses a convolution without convolved dims by default
    return dims
