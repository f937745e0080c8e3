"""IR for packed tensors, built from the layout algebra.

A logical tensor's sizes are a "mixed" list: an `int` per static dim, the SSA
value of each dynamic one. From it and a `MaterializeEncodingInfo` these
helpers build the packed tensor's sizes (the layout algebra's size expressions
in their `affine.apply` spelling, `()[s0] -> (s0 ceildiv T)`; nothing for a
tile of 1, a constant for a static dim) and the ops that move data
between the two layouts. Shapes, permutations and reassociations all come from
`compiler/layout/iree_encoding.py` (`materialization_ops` and its inverse),
imported where used: the layout algebra brings numpy, which stays off
`mini-iree-opt`'s start-up path.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from mini_iree.compiler.era import EraProfile, era_profile
from mini_iree.compiler.ir.locations import give_location
from mini_iree.compiler.layout.size_expr import Const, Dim, SizeExpr, ceildiv
from mini_iree.compiler.layout.size_lowering import AFFINE, SizeLowering
from mini_iree.dialects import linalg, tensor
from mini_iree.dialects.iree_codegen import MaterializeEncodingInfo

Mixed = list[int | SSAValue]


def static_shape(sizes: Sequence[int | SSAValue]) -> tuple[int | None, ...]:
    return tuple(s if isinstance(s, int) else None for s in sizes)


def to_ir_shape(shape: Sequence[int | None]) -> list[int]:
    return [DYNAMIC_INDEX if s is None else s for s in shape]


def mixed_sizes(shape: Sequence[int], dynamic: Sequence[SSAValue]) -> Mixed:
    """One entry per dim of `shape`: the static size, or the next dynamic value."""
    values = iter(dynamic)
    return [next(values) if s == DYNAMIC_INDEX else s for s in shape]


def size_of(value: int | SSAValue) -> SizeExpr:
    """A size of a mixed list as a size expression: a constant, or the dynamic size the value holds."""
    return Const(value) if isinstance(value, int) else Dim(value)


def dynamic_values(sizes: Sequence[int | SSAValue]) -> list[SSAValue]:
    return [s for s in sizes if isinstance(s, SSAValue)]


class Builder:
    """Inserts ops before `anchor`, zero constants at the start of `entry`.

    Every op it inserts is built for `anchor` and takes its location. `era`
    (None: the run's) says how a swizzle is lowered.
    """

    def __init__(self, anchor: Operation, entry: Block, era: str | EraProfile | None = None):
        self.fold_noop_swizzle = era_profile(era).swizzle_noop_transpose_folded
        self.anchor = anchor
        self.point = InsertPoint.before(anchor)
        self.location = anchor.location
        self.entry = entry
        self._zeros: dict[Attribute, SSAValue] = {}
        self.sizes = SizeLowering(AFFINE, self.insert)

    def insert(self, op: Operation) -> Operation:
        give_location(op, self.location)
        Rewriter.insert_op(op, self.point)
        return op

    def zero(self, element_type: Attribute) -> SSAValue:
        """`arith.constant 0` of `element_type`, at the top of the function as MLIR places constants."""
        if element_type not in self._zeros:
            if isinstance(element_type, AnyFloat):
                value = FloatAttr(0.0, element_type)
            elif isinstance(element_type, IntegerType | IndexType):
                value = IntegerAttr(0, element_type)
            else:
                raise ValueError(f"no zero padding value for {element_type}")
            const = arith.ConstantOp(value)
            const.location = self.location
            Rewriter.insert_op(const, InsertPoint.at_start(self.entry))
            self._zeros[element_type] = const.result
        return self._zeros[element_type]

    def inner_tiles(self, info: MaterializeEncodingInfo) -> Mixed:
        """The inner tile sizes: an `int` each, or for a scalable tile `N0 * vscale` as IR.

        IREE's getInnerTileSizesOfr: one `vector.vscale`, then per scalable tile
        `arith.muli %vscale, %cN0` (MLIR names it `%cN0_vscale`); the packed
        sizes are then divided by the product at run time (`affine.apply
        ()[s0, s1] -> (s0 ceildiv s1)`). The `cse` after the conversion keeps
        one `vector.vscale` per function.
        """
        from mini_iree.dialects import vector

        tiles: Mixed = list(info.inner_tile_sizes)
        if not any(info.scalable_tiles or []):
            return tiles
        vscale = self.insert(vector.VectorScaleOp()).results[0]
        for index, scalable in enumerate(info.scalable_tiles or []):
            if scalable:
                base = self.insert(arith.ConstantOp(IntegerAttr(info.inner_tile_sizes[index], IndexType()))).results[0]
                product = self.insert(arith.MuliOp(vscale, base)).results[0]
                product.name_hint = f"c{info.inner_tile_sizes[index]}_vscale"
                tiles[index] = product
        return tiles

    def packed_outer_sizes(
        self, info: MaterializeEncodingInfo, logical: Sequence[int | SSAValue], tiles: Mixed | None = None
    ) -> Mixed:
        """The outer dims of the pack of a tensor of `logical` sizes (`affine.apply ceildiv` for a dynamic
        tiled dim or a scalable tile, given in `tiles`)."""
        from mini_iree.compiler.layout import iree_encoding as layout

        if tiles is not None and any(isinstance(t, SSAValue) for t in tiles):
            perm = info.outer_dims_perm or list(range(len(logical)))
            tile_of = dict(zip(info.inner_dims_pos, tiles))
            return [
                self.sizes.value(size_of(logical[d]) if d not in tile_of else ceildiv(size_of(logical[d]), size_of(tile_of[d])))
                for d in perm
            ]
        outer = layout.packed_outer_sizes(info, [size_of(size) for size in logical])
        return [self.sizes.value(size) for size in outer]

    def materialized_sizes(
        self, info: MaterializeEncodingInfo, logical: Sequence[int | SSAValue], tiles: Mixed | None = None
    ) -> Mixed:
        """All dims of the materialized tensor: packed outer dims, then the (swizzled) tile dims.

        Scalable tiles are computed first (`inner_tiles`) unless given in `tiles`.
        """
        from mini_iree.compiler.layout import iree_encoding as layout

        if tiles is None:
            tiles = self.inner_tiles(info)
        outer = self.packed_outer_sizes(info, logical, tiles)
        if any(isinstance(t, SSAValue) for t in tiles):
            if info.swizzle is not None:
                raise ValueError("scalable inner tiles with a swizzle cannot be materialized")
            return outer + list(tiles)
        shape = layout.materialized_shape(info, static_shape(logical))
        inner = list(shape[len(logical) :])
        if any(s is None for s in inner):
            raise ValueError("dynamic inner tiles cannot be materialized")
        return outer + inner  # type: ignore[operator]

    def empty(self, sizes: Sequence[int | SSAValue], element_type: Attribute) -> SSAValue:
        ty = TensorType(element_type, to_ir_shape(static_shape(sizes)))
        return self.insert(tensor.EmptyOp(dynamic_values(sizes), ty)).results[0]

    def pack_chain(
        self, info: MaterializeEncodingInfo, source: SSAValue, logical: Sequence[int | SSAValue]
    ) -> tuple[SSAValue, Mixed]:
        """`set_encoding`: linalg.pack (+ tensor.expand_shape + linalg.transpose for a swizzle;
        in IREE 3.13 only the expand_shape, or nothing, when the transpose moves no data).

        Returns the materialized value and its sizes.
        """
        from mini_iree.compiler.layout import iree_encoding as layout
        from mini_iree.compiler.layout.materialization import ExpandShapeOp, PackOp, TransposeOp

        element = source.type.get_element_type()  # type: ignore[attr-defined]
        shape = static_shape(logical)
        self._refuse_whole_tiles(info, len(shape), "tensor.expand_shape")
        if any(info.scalable_tiles or []):
            return self._scalable_pack(info, source, logical)
        outer = self.packed_outer_sizes(info, logical)
        value = source
        for step in layout.materialization_ops(info, shape, self.fold_noop_swizzle):
            if isinstance(step, PackOp):
                sizes = outer + list(step.result_shape[len(shape) :])
                dest = self.empty(sizes, element)
                # Statically full tiles need no padding value (MLIR's pack canonicalization drops it).
                full = all(
                    isinstance(logical[d], int) and t is not None and logical[d] % t == 0  # type: ignore[operator]
                    for d, t in zip(step.inner_dims_pos, step.inner_tiles)
                )
                pad = None if full else self.zero(element)
                value = self.insert(
                    linalg.PackOp(
                        value, dest, step.inner_dims_pos, step.inner_tiles, pad, step.outer_dims_perm
                    )  # type: ignore[arg-type]
                ).results[0]
            elif isinstance(step, ExpandShapeOp):
                sizes = outer + list(step.result_shape[len(shape) :])
                ty = TensorType(element, to_ir_shape(step.result_shape))
                value = self.insert(tensor.ExpandShapeOp(value, step.reassociation, sizes, ty)).results[0]  # type: ignore[arg-type]
            elif isinstance(step, TransposeOp):
                sizes = [outer[p] if p < len(shape) else step.result_shape[i] for i, p in enumerate(step.permutation)]
                dest = self.empty(sizes, element)  # type: ignore[arg-type]
                value = self.insert(linalg.TransposeOp(value, dest, step.permutation)).results[0]
            else:  # pragma: no cover - materialization_ops only yields the three above
                raise AssertionError(step)
        return value, outer + list(step.result_shape[len(shape) :])  # type: ignore[operator]

    def _refuse_whole_tiles(self, info: MaterializeEncodingInfo, rank: int, reshape: str) -> None:
        """A layout whose swizzle tiles more than its pack (IREE 3.13's matvec vector operands)
        has no set/unset_encoding: IREE's reshape between the pack and the swizzle fails its
        verifier, which is the error it reports."""
        from mini_iree.compiler.ir.diagnostics import OpError
        from mini_iree.compiler.layout import iree_encoding as layout

        if layout.holds_whole_tiles(info):
            assert info.swizzle is not None
            raise OpError(
                self.anchor,
                f"'{reshape}' op expected collapsed rank ({rank + len(info.inner_tile_sizes)}) to equal the "
                f"number of reassociation maps ({rank + len(info.swizzle.expand_shape)}).",
                prefix_op_name=False,
            )

    def _scalable_pack(
        self, info: MaterializeEncodingInfo, source: SSAValue, logical: Sequence[int | SSAValue]
    ) -> tuple[SSAValue, Mixed]:
        """`linalg.pack` with scalable inner tiles (no swizzle on CPU): always with a padding
        value, since no size is known to divide `N0 * vscale` (IREE's pack canonicalization
        keeps it)."""
        element = source.type.get_element_type()  # type: ignore[attr-defined]
        if info.swizzle is not None:
            raise ValueError("scalable inner tiles with a swizzle cannot be materialized")
        tiles = self.inner_tiles(info)
        pad = self.zero(element)
        sizes = self.materialized_sizes(info, logical, tiles)
        dest = self.empty(sizes, element)
        perm = info.outer_dims_perm or list(range(len(logical)))
        pack = linalg.PackOp(source, dest, info.inner_dims_pos, tiles, pad, perm)  # type: ignore[arg-type]
        return self.insert(pack).results[0], sizes

    def unpack_chain(
        self,
        info: MaterializeEncodingInfo,
        source: SSAValue,
        logical: Sequence[int | SSAValue],
        result: Sequence[int | SSAValue],
        packed: Sequence[int | SSAValue] | None = None,
    ) -> SSAValue:
        """`unset_encoding`: inverse transpose + tensor.collapse_shape (swizzle), then linalg.unpack.

        `logical` are the sizes of the encoded tensor, `result` the (possibly
        smaller) sizes the unset_encoding produces: unpack drops the padding;
        `packed` the source's sizes, if known.
        """
        from mini_iree.compiler.layout import iree_encoding as layout
        from mini_iree.compiler.layout.materialization import CollapseShapeOp, TransposeOp, UnPackOp

        element = source.type.get_element_type()  # type: ignore[attr-defined]
        shape = static_shape(logical)
        self._refuse_whole_tiles(info, len(shape), "tensor.collapse_shape")
        if any(info.scalable_tiles or []):
            if info.swizzle is not None:
                raise ValueError("scalable inner tiles with a swizzle cannot be materialized")
            dest = self.empty(result, element)
            tiles = self.inner_tiles(info)
            perm = info.outer_dims_perm or list(range(len(shape)))
            unpack = linalg.UnPackOp(source, dest, info.inner_dims_pos, tiles, perm)  # type: ignore[arg-type]
            return self.insert(unpack).results[0]
        # Only the swizzle's inverse transpose needs the packed sizes: the
        # source's own when known, else computed from the logical ones.
        outer: Mixed = []
        if info.swizzle is not None:
            outer = list(packed[: len(shape)]) if packed is not None else self.packed_outer_sizes(info, logical)
        value = source
        for step in layout.unmaterialization_ops(info, shape, self.fold_noop_swizzle):
            if isinstance(step, TransposeOp):
                sizes = outer + list(step.result_shape[len(shape) :])
                dest = self.empty(sizes, element)  # type: ignore[arg-type]
                value = self.insert(linalg.TransposeOp(value, dest, step.permutation)).results[0]
            elif isinstance(step, CollapseShapeOp):
                ty = TensorType(element, to_ir_shape(step.result_shape))
                expand = value.owner
                if (
                    isinstance(expand, tensor.ExpandShapeOp)
                    and expand.src.type == ty
                    and tensor.reassociation_attr(step.reassociation) == expand.reassociation
                ):
                    # MLIR's collapse_shape folder (IREE's clean-up folds it): the
                    # collapse undoes the expand_shape of a set_encoding.
                    value = expand.src
                else:
                    value = self.insert(tensor.CollapseShapeOp(value, step.reassociation, ty)).results[0]  # type: ignore[arg-type]
            elif isinstance(step, UnPackOp):
                pack = value.owner
                if (
                    isinstance(pack, linalg.PackOp)
                    and pack.padding_value is None
                    and pack.source.type == TensorType(element, to_ir_shape(static_shape(result)))
                    and pack.get_inner_dims_pos() == tuple(step.inner_dims_pos)
                    and pack.get_outer_dims_perm() == tuple(step.outer_dims_perm)
                    and pack.get_mixed_tiles() == list(step.inner_tiles)
                ):
                    # MLIR's unpack(pack(x)) -> x canonicalization (IREE's clean-up runs it):
                    # the unpack undoes a pack that added no padding.
                    value = pack.source
                    continue
                dest = self.empty(result, element)
                value = self.insert(
                    linalg.UnPackOp(value, dest, step.inner_dims_pos, step.inner_tiles, step.outer_dims_perm)  # type: ignore[arg-type]
                ).results[0]
            else:  # pragma: no cover
                raise AssertionError(step)
        return value
