"""Materializing convolutions with ``op_type = conv`` encodings on CPU (IREE's conv data tiling).

The CPU encoding resolver packs the operands of a plain 2-D convolution (no
depth/group loop, unit dilations) with an (OC, IC) inner tile:

* input  ``[N, IC/c0, H, W, c0]``
* filter ``[OC/k0, IC/c0, FH, FW, c0, k0]``
* output ``[N, OC/k0, OH, OW, k0]``

and the convolution on them becomes one 9-D ``linalg.generic``
(``getDataTiledConvIterationSpace``). Any other convolution gets the identity
layout: its encodings are dropped and it runs as it is.

The tile choice (``enumerateCPUConvTiles``, ``getEncodingInfoForConv``) is
IREE's CPU resolver's; it lives here beside the lowering, and the CPU resolver
(``compiler/resolvers/cpu.py``) asks it for ``op_type = conv`` encodings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import arith
from xdsl.dialects.builtin import AffineMapAttr, Float32Type, TensorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from mini_iree.compiler.analysis.convolution import convolution_dims, infer_convolution_dims
from mini_iree.compiler.ir.diagnostics import OpError
from mini_iree.dialects import iree_encoding, linalg, tensor
from mini_iree.dialects.iree_codegen import MaterializeEncodingInfo

if TYPE_CHECKING:
    from mini_iree.compiler.materialize_encoding.builders import Builder
    from mini_iree.dialects import hal

# ---------------------------------------------------------------------------------------
# The layout (CPUEncodingExternalModels.cpp, Codegen/Utils.cpp)
# ---------------------------------------------------------------------------------------


def enumerate_cpu_conv_tiles(target: hal.ExecutableTargetAttr, encoding: iree_encoding.EncodingAttr) -> list[tuple[int, int]]:
    """IREE's ``enumerateCPUConvTiles``: the (OC, IC) inner tiles to choose from.

    Only f32 convolutions have one: 8x8 on aarch64 (NEON FMLA), 16x16 on x86-64
    with AVX-512 (zmm VFMADD).
    """
    from mini_iree.compiler.resolvers.cpu import has_feature, target_arch

    if not all(isinstance(t, Float32Type) for t in encoding.get_element_types()):
        return []
    arch = target_arch(target)
    if arch == "aarch64":
        return [(8, 8)]
    if arch == "x86_64" and has_feature(target, "+avx512f"):
        return [(16, 16)]
    return []


def get_encoding_info_for_conv(encoding: iree_encoding.EncodingAttr, tile: tuple[int, int]) -> MaterializeEncodingInfo | None:
    """IREE's ``getEncodingInfoForConv``: the packed layout of one conv operand (None: failure).

    Outer dims go in the canonical order (batch, channel, then image or window
    dims); the channels are tiled. Only loops that index the operand as a bare
    dim have a position in it: the input's image dims are the ones left over.
    """
    oc_tile, ic_tile = tile
    maps = encoding.get_root_maps()
    dims = infer_convolution_dims(maps) if all(m is not None for m in maps) else None
    if dims is None or not dims.input_channel or not dims.output_channel or dims.depth:
        return None

    def bare_positions(loops: list[int]) -> list[int]:
        positions = (encoding.map_dim_to_operand_index(d) for d in loops)
        return [p for p in positions if p is not None]

    batch, oc, window, ic = (
        bare_positions(loops) for loops in (dims.batch, dims.output_channel, dims.filter_loop, dims.input_channel)
    )
    index = encoding.get_operand_index()
    if index == iree_encoding.CONV_INPUT:
        if not ic:
            return None
        known = set(batch) | set(ic)
        image = [p for p in range(len(maps[index].results)) if p not in known]
        return MaterializeEncodingInfo([ic[0]], [ic_tile], [*batch, *ic, *image])
    if index == iree_encoding.CONV_FILTER:
        if not oc or not ic:
            return None
        return MaterializeEncodingInfo([ic[0], oc[0]], [ic_tile, oc_tile], [*oc, *ic, *window])
    if index == iree_encoding.CONV_OUTPUT:
        if not oc:
            return None
        return MaterializeEncodingInfo([oc[0]], [oc_tile], [*batch, *oc, *bare_positions(dims.output_image)])
    return None


def cpu_conv_encoding_info(target: hal.ExecutableTargetAttr, encoding: iree_encoding.EncodingAttr) -> MaterializeEncodingInfo:
    """The CPU resolver's layout of a conv operand (``getEncodingInfoImpl``): identity unless
    the convolution is a plain 2-D one with unit dilations and the target has a tile for it."""
    maps = encoding.get_root_maps()
    dims = infer_convolution_dims(maps) if maps and all(m is not None for m in maps) else None
    if dims is None or dims.depth or len(dims.output_image) != 2 or any(d != 1 for d in dims.dilations):
        return MaterializeEncodingInfo()
    tiles = enumerate_cpu_conv_tiles(target, encoding)
    if not tiles:
        return MaterializeEncodingInfo()
    info = get_encoding_info_for_conv(encoding, tiles[0])
    return MaterializeEncodingInfo() if info is None else info


# ---------------------------------------------------------------------------------------
# The lowering (lowerConvolutionOpWithEncoding)
# ---------------------------------------------------------------------------------------


def data_tiled_conv_iteration_space(strides: list[int], dilations: list[int]) -> tuple[list[AffineMap], list[str]]:
    """IREE's ``getDataTiledConvIterationSpace``: loops (n, oc/k0, oh, ow, ic/c0, fh, fw, k0, c0)."""
    d = [AffineDimExpr(i) for i in range(9)]
    maps = [
        AffineMap(9, 0, (d[0], d[4], d[2] * strides[0] + d[5] * dilations[0], d[3] * strides[1] + d[6] * dilations[1], d[8])),
        AffineMap(9, 0, (d[1], d[4], d[5], d[6], d[8], d[7])),
        AffineMap(9, 0, (d[0], d[1], d[2], d[3], d[7])),
    ]
    iterators = ["parallel"] * 4 + ["reduction"] * 3 + ["parallel", "reduction"]
    return maps, iterators


def _static_type(value: SSAValue) -> TensorType:
    ty = value.type
    if not isinstance(ty, TensorType) or any(s < 0 for s in ty.get_shape()):
        raise ValueError("a data-tiled convolution needs static packed shapes")
    return ty


def _with_unit_batch(builder: Builder, value: SSAValue) -> SSAValue:
    """``[C/c, H, W, c] -> [1, C/c, H, W, c]`` (the batch an upstream fold removed)."""
    ty = _static_type(value)
    shape = [1, *ty.get_shape()]
    new = TensorType(ty.get_element_type(), shape)
    return builder.insert(tensor.ExpandShapeOp(value, [[0, 1], [2], [3], [4]], shape, new)).results[0]


def lower_convolution_op_with_encoding(
    builder: Builder, op: Operation, operands: list[SSAValue], strides: list[int], dilations: list[int]
) -> SSAValue:
    """The 9-D ``linalg.generic`` of a convolution on packed input, filter and output."""
    in_rank, filter_rank, out_rank = (len(_static_type(v).get_shape()) for v in operands)
    if in_rank not in (4, 5) or in_rank != out_rank or filter_rank != 6:
        raise ValueError(f"packed ranks {in_rank}, {filter_rank}, {out_rank} are not a 2-D convolution's")
    packed_input, packed_filter, packed_output = operands
    # With N = 1, an upstream fold may have dropped the batch: restore it around the generic.
    batch_folded = in_rank == 4
    if batch_folded:
        packed_input = _with_unit_batch(builder, packed_input)
        packed_output = _with_unit_batch(builder, packed_output)
    maps, iterators = data_tiled_conv_iteration_space(strides, dilations)
    element = packed_output.type.get_element_type()  # type: ignore[attr-defined]
    block = Block(arg_types=[packed_input.type.get_element_type(), packed_filter.type.get_element_type(), element])  # type: ignore[attr-defined]
    mul = arith.MulfOp(block.args[0], block.args[1])
    add = arith.AddfOp(mul.result, block.args[2])
    block.add_ops([mul, add, linalg.YieldOp(add.result)])
    generic = linalg.GenericOp(
        [packed_input, packed_filter],
        [packed_output],
        Region(block),
        [AffineMapAttr(m) for m in maps],
        [linalg.IteratorTypeAttr.parallel() if t == "parallel" else linalg.IteratorTypeAttr.reduction() for t in iterators],
        [packed_output.type],
    )
    result = builder.insert(generic).results[0]
    if batch_folded:
        collapse = tensor.CollapseShapeOp(result, [[0, 1], [2], [3], [4]], operands[2].type)  # type: ignore[arg-type]
        result = builder.insert(collapse).results[0]
    return result


def _is_conv_encoded(value: SSAValue) -> bool:
    ty = value.type
    return (
        isinstance(ty, TensorType)
        and isinstance(ty.encoding, iree_encoding.EncodingAttr)
        and ty.encoding.get_op_type() == iree_encoding.EncodingOpType.CONV
    )


def materialize_convolution_pattern(conversion) -> RewritePattern:
    """``MaterializeConvolutionOp`` for the conversion of one function (see patterns.py)."""
    from mini_iree.compiler.materialize_encoding.patterns import (
        _cannot_materialize,
        _clone_on,
        _ConversionPattern,
        _is_mul_add_body,
    )

    class MaterializeConvolutionOp(_ConversionPattern):
        """IREE's ``MaterializeLinalgOp`` on a convolution with conv encodings
        (``lowerConvolutionOpWithEncoding``): the 9-D data-tiled generic on the packed
        operands, or the same op on the plain tensors when the output's layout is identity."""

        @op_type_rewrite_pattern
        def match_and_rewrite(self, op: LinalgStructuredOperation, rewriter: PatternRewriter) -> None:
            if not any(_is_conv_encoded(v) for v in op.operands):
                return
            dims = convolution_dims(op)
            if dims is None:
                return
            with _cannot_materialize(op):
                operands = list(op.operands)
                encodings = [v.type.encoding for v in operands]  # type: ignore[attr-defined]
                if len(operands) != 3 or [
                    e.get_operand_index() if isinstance(e, iree_encoding.EncodingAttr) else None for e in encodings
                ] != [iree_encoding.CONV_INPUT, iree_encoding.CONV_FILTER, iree_encoding.CONV_OUTPUT]:
                    raise OpError(op, "expects conv encodings with operand indices 0, 1, 2 on input, filter and output")
                new_operands = [self.c.remapped(op, v) for v in operands]
                info = self.c.info(op, op.results[0].type)
                if info is None or info.is_identity():
                    new = _clone_on(op, new_operands)
                    rewriter.insert(new, InsertPoint.before(op))
                    self.c.replace(rewriter, op, [new.results[0]])
                    return
                if len(dims.strides) != 2 or len(dims.dilations) != 2:
                    raise OpError(op, "only 2-D convolutions are data-tiled")
                if not _is_mul_add_body(op):
                    # The data-tiled generic multiplies and adds: a pooling body would be lost.
                    raise OpError(op, "is not a multiply-accumulate convolution")
                result = lower_convolution_op_with_encoding(
                    self.c.builder(op), op, new_operands, dims.strides, dims.dilations
                )
                out = new_operands[2]
                if out in self.c.logical:
                    self.c.record(result, self.c.logical[out], self.c.packed[out])
                self.c.replace(rewriter, op, [result])

    return MaterializeConvolutionOp(conversion)
